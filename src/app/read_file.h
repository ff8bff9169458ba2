// Whole-file reading for the command-line tools.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace hisha::app {

/// Reads the file's bytes into `out`; false when it cannot be opened or read.
inline bool read_file(const std::filesystem::path& path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return !f.bad();
}

}  // namespace hisha::app
