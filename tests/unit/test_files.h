// Files for data-driven tests: reading a fixture, listing a fixture folder and comparing with a
// golden file. Each fails the test when its data is missing or empty, so a test can never pass on
// nothing (0 of 0 records checked).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hisha::testing {

/// The bytes of the file at `path`; a missing or unreadable file fails the test (and gives "").
inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        ADD_FAILURE() << "cannot read " << path;
        return {};
    }
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// The files of folder `dir`, sorted; a missing or empty folder fails the test.
inline std::vector<std::string> files_in(const std::filesystem::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
        if (e.is_regular_file())
            out.push_back(e.path().string());
    if (ec)
        ADD_FAILURE() << "cannot list " << dir << ": " << ec.message();
    else if (out.empty())
        ADD_FAILURE() << "no files in " << dir;
    std::sort(out.begin(), out.end());
    return out;
}

/// Compares `text` with the golden file at `path`; HISHA_UPDATE_GOLDEN=1 writes it instead.
inline void expect_golden(const std::string& text, const std::filesystem::path& path) {
    if (std::getenv("HISHA_UPDATE_GOLDEN")) {
        std::ofstream(path, std::ios::binary) << text;
        return;
    }
    if (!std::filesystem::exists(path)) {
        ADD_FAILURE() << path << " is missing (set HISHA_UPDATE_GOLDEN=1 to create it)";
        return;
    }
    EXPECT_EQ(text, slurp(path)) << path;
}

}  // namespace hisha::testing
