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
#include <type_traits>
#include <vector>

namespace hisha::testing {

#ifdef HISHA_TEST_DATA_LOCAL
/// The project's notation test data (tests/data/notation/), and one of its files.
inline const std::string NOTATION = std::string(HISHA_TEST_DATA_LOCAL) + "/notation/";
inline std::string notation_data(const std::string& name) { return NOTATION + name; }
#endif
#ifdef HISHA_TESTDATA_DIR
/// The game records of the reference test vectors (tests/data/vectors/records/).
inline const std::string RECORDS = std::string(HISHA_TESTDATA_DIR) + "/records/";
#endif

/// What a reader (bytes -> a Result) makes of `bytes`; when it fails, the test fails with `what`
/// and the error, and the result is an empty value.
template <class Read>
auto parsed(Read read, const std::string& bytes, const std::string& what) {
    auto r = read(bytes);
    EXPECT_TRUE(r.has_value()) << what << ": " << (r ? "" : r.error().to_string());
    return r ? *r : std::decay_t<decltype(*r)>{};
}

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

/// Writes `text` to the file at `path` (replacing it); false, with the test failed, when it cannot.
inline bool write_file(const std::filesystem::path& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!(f << text) || !f.flush()) {
        ADD_FAILURE() << "cannot write " << path;
        return false;
    }
    return true;
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

/// The rows of the tab-separated case file at `path` (lines that begin with '#', and empty lines,
/// are skipped), each split into its `columns` fields; a missing or empty file, or a row with
/// another number of fields, fails the test.
inline std::vector<std::vector<std::string>> case_rows(const std::filesystem::path& path, std::size_t columns) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(slurp(path));
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (line.empty() || line[0] == '#')
            continue;
        std::vector<std::string> fields;
        for (std::size_t at = 0;;) {
            std::size_t tab = line.find('\t', at);
            fields.push_back(line.substr(at, tab - at));
            if (tab == std::string::npos)
                break;
            at = tab + 1;
        }
        if (fields.size() != columns)
            ADD_FAILURE() << path.string() << ":" << number << ": " << fields.size() << " fields, expected " << columns;
        else
            rows.push_back(std::move(fields));
    }
    if (rows.empty())
        ADD_FAILURE() << "no cases in " << path;
    return rows;
}

/// What a reader says of `text`: its error, or "(no error)".
template <class Read>
std::string error_of(Read read, const std::string& text) {
    auto r = read(text);
    return r ? "(no error)" : r.error().to_string();
}

}  // namespace hisha::testing
