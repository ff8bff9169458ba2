// The structured log in process: every line is one valid JSON object, whatever bytes a client sent.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "server/service/log.h"

namespace hisha::server {
namespace {

TEST(Log, FieldsThatAreNotUtf8AreWrittenAsValidJson) {
    auto path = std::filesystem::temp_directory_path() / ("hisha-log-test-" + std::to_string(::getpid()) + ".log");
    std::filesystem::remove(path);
    set_logging(true);
    ASSERT_EQ(set_log_file(path.string()), "");
    log_event("login", {{"user", "a\xff\xfe"
                                 "b"},
                        {"protocol", "text \"quoted\"\n"}});
    log_event("refused", {{"peer", "\xe9\xa3\x9b\xe8\xbb\x8a"}});
    std::ifstream in(path);
    std::vector<nlohmann::json> lines;
    for (std::string line; std::getline(in, line);) {
        ASSERT_TRUE(nlohmann::json::accept(line)) << line;
        lines.push_back(nlohmann::json::parse(line));
    }
    std::filesystem::remove(path);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0]["event"], "login");
    EXPECT_EQ(lines[0]["user"], "a\xef\xbf\xbd\xef\xbf\xbd"
                                "b");  // one U+FFFD a byte
    EXPECT_EQ(lines[0]["protocol"], "text \"quoted\"\n");
    EXPECT_EQ(lines[1]["peer"], "\xe9\xa3\x9b\xe8\xbb\x8a");  // UTF-8 as it was
    EXPECT_EQ(lines[1]["level"], "warning");
}

}  // namespace
}  // namespace hisha::server
