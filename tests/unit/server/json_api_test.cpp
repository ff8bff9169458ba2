// The JSON API in process: what a client sends that is not UTF-8 comes back as valid JSON.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "server/proto/json_api.h"
#include "server/proto/json_text.h"
#include "test_util.h"

namespace hisha::server {
namespace {

using test::Fixture;

TEST(JsonApi, BytesThatAreNotUtf8InAPathComeBackAsValidJson) {
    // Found by json_api_fuzz: the tournament name of the path went into the error message, and
    // writing the reply threw (nlohmann's dump refuses invalid UTF-8).
    Fixture f("json_not_utf8");
    proto::JsonApi api(*f.svc);
    proto::HttpReply r = api.handle("GET", "/api/tournaments/\x9a\x83zzcup-%2A/games?limit=5", "", "", "127.0.0.1");
    EXPECT_GE(r.status, 400);
    ASSERT_TRUE(nlohmann::json::accept(r.body)) << r.body;
    EXPECT_NE(nlohmann::json::parse(r.body)["error"].get<std::string>().find("\xef\xbf\xbd"), std::string::npos)
        << r.body;  // U+FFFD where the bytes were
}

TEST(JsonApi, JsonTextReplacesWhatIsNotUtf8) {
    nlohmann::json j{{"name", std::string("a\xff"
                                          "b")},
                     {"ok", "\xe9\xa3\x9b\xe8\xbb\x8a"}};
    EXPECT_EQ(proto::json_text(j), "{\"name\":\"a\xef\xbf\xbd"
                                   "b\",\"ok\":\"\xe9\xa3\x9b\xe8\xbb\x8a\"}");
}

}  // namespace
}  // namespace hisha::server
