// The web UI's files and the headers of every HTTP response: StaticFiles reads a directory once
// (types, ETags, how long each may be cached, the page's routes); over 127.0.0.1 every response
// (a file, the API, an error, a refused WebSocket) carries the security headers, an asset is
// immutable, index.html is revalidated, If-None-Match gets 304, and a file changed on disk after
// the start is still served as read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "http_client.h"
#include "server/net/static_files.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;
using hisha::server::net::StaticFiles;

namespace {

// A directory like Vite's dist/: index.html and a content-hashed script and style under assets/.
std::string web_dir(const std::string& tag) {
    auto dir = std::filesystem::path(temp_db(tag)).replace_extension("");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "assets");
    std::ofstream(dir / "index.html")
        << "<!doctype html><script type=\"module\" src=\"/assets/index-abc123.js\"></script>";
    std::ofstream(dir / "assets" / "index-abc123.js") << "console.log('hisha');";
    std::ofstream(dir / "assets" / "index-def456.css") << "body{}";
    return dir.string();
}

void expect_security_headers(const http::response<http::string_body>& res, const std::string& what) {
    std::string csp(res["Content-Security-Policy"]);
    EXPECT_TRUE(has(csp, "default-src 'self'")) << what << ": " << csp;
    EXPECT_TRUE(has(csp, "frame-ancestors 'none'")) << what << ": " << csp;
    EXPECT_TRUE(has(csp, "object-src 'none'")) << what << ": " << csp;
    EXPECT_EQ(res["X-Content-Type-Options"], "nosniff") << what;
    EXPECT_EQ(res["Referrer-Policy"], "no-referrer") << what;
    EXPECT_EQ(res["X-Frame-Options"], "DENY") << what;
}

}  // namespace

TEST(StaticFiles, ReadOnceWithTypesEtagsAndCaching) {
    std::string dir = web_dir("static_unit");
    StaticFiles files(dir);
    const StaticFiles::File* index = files.find("/");
    ASSERT_NE(index, nullptr);
    EXPECT_EQ(index->content_type, "text/html; charset=utf-8");
    EXPECT_EQ(index->cache_control, "no-cache");
    EXPECT_EQ(index->etag.size(), 18u) << index->etag;
    EXPECT_EQ(files.find("/game/12"), index) << "a route of the page";
    const StaticFiles::File* js = files.find("/assets/index-abc123.js");
    ASSERT_NE(js, nullptr);
    EXPECT_EQ(js->content_type, "text/javascript");
    EXPECT_EQ(js->cache_control, "public, max-age=31536000, immutable");
    EXPECT_EQ(js->body, "console.log('hisha');");
    EXPECT_NE(js->etag, files.find("/assets/index-def456.css")->etag);
    EXPECT_EQ(files.find("/assets/gone-000.js"), nullptr) << "a missing file is no route";
    EXPECT_EQ(files.find("/../index.html"), nullptr);
    EXPECT_TRUE(StaticFiles::matches(js->etag, js->etag));
    EXPECT_TRUE(StaticFiles::matches("\"x\", W/" + js->etag, js->etag));
    EXPECT_TRUE(StaticFiles::matches("*", js->etag));
    EXPECT_FALSE(StaticFiles::matches("\"x\"", js->etag));
    EXPECT_TRUE(StaticFiles("").empty());
}

TEST(StaticFiles, EveryResponseHasSecurityHeadersAndFilesRevalidate) {
    std::string dir = web_dir("static_http");
    ServerProcess srv(temp_db("static_http_db"), {"--static", dir});
    int port = srv.ports.at("http");
    Http h(port);
    auto index = h.exchange(http::verb::get, "/");
    EXPECT_EQ(index.result_int(), 200);
    expect_security_headers(index, "index.html");
    EXPECT_EQ(index[http::field::cache_control], "no-cache");
    std::string etag(index[http::field::etag]);
    ASSERT_FALSE(etag.empty());
    auto again = h.exchange(http::verb::get, "/", {}, {}, {{http::field::if_none_match, etag}});
    EXPECT_EQ(again.result_int(), 304);
    EXPECT_TRUE(again.body().empty());
    EXPECT_EQ(again[http::field::etag], etag);
    expect_security_headers(again, "304");

    auto js = h.exchange(http::verb::get, "/assets/index-abc123.js");
    EXPECT_EQ(js.result_int(), 200);
    EXPECT_EQ(js[http::field::content_type], "text/javascript");
    EXPECT_EQ(js[http::field::cache_control], "public, max-age=31536000, immutable");
    EXPECT_EQ(js.body(), "console.log('hisha');");
    auto head = h.exchange(http::verb::head, "/assets/index-abc123.js");
    EXPECT_EQ(head.result_int(), 200);
    EXPECT_EQ(head[http::field::etag], js[http::field::etag]);
    EXPECT_EQ(h.exchange(http::verb::get, "/assets/gone-000.js").result_int(), 404);

    // Read once: a change on disk is not seen until a restart.
    std::ofstream(std::filesystem::path(dir) / "assets" / "index-abc123.js") << "changed";
    EXPECT_EQ(h.exchange(http::verb::get, "/assets/index-abc123.js").body(), "console.log('hisha');");

    expect_security_headers(h.exchange(http::verb::get, "/api/version"), "API");
    expect_security_headers(h.exchange(http::verb::get, "/api/me"), "401");
    expect_security_headers(h.exchange(http::verb::get, "/api/nothing"), "404");
    expect_security_headers(h.exchange(http::verb::get, "/healthz"), "healthz");
    LineClient refused(port);  // a WebSocket without a token
    refused.send_raw("GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    std::string text = refused.read_until("}");
    EXPECT_TRUE(has(text, "401")) << text;
    EXPECT_TRUE(has(text, "X-Content-Type-Options: nosniff")) << text;
    LineClient bad(port);
    bad.send_raw("GARBAGE\r\n\r\n");
    text = bad.read_until("}");
    EXPECT_TRUE(has(text, "400 Bad Request")) << text;
    EXPECT_TRUE(has(text, "Content-Security-Policy: ")) << text;
}
