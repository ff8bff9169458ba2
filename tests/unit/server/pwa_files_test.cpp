// The installable web app's files over 127.0.0.1 (issue 20): the manifest with its type, the
// service worker at the root (its scope is the whole page) as JavaScript that the browser
// revalidates on every visit (so a new build's worker is found), its icons, and a Content-Security-
// Policy that lets the page register its own worker and read its manifest (default-src 'self':
// worker-src and manifest-src fall back to it) and nothing from elsewhere.
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

TEST(PwaFiles, TheManifestWorkerAndIconsAreServedWithTheirTypesAndRevalidated) {
    auto dir = std::filesystem::path(temp_db("pwa_web")).replace_extension("");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "assets");
    std::ofstream(dir / "index.html") << "<!doctype html><link rel=\"manifest\" href=\"/manifest.webmanifest\">";
    std::ofstream(dir / "manifest.webmanifest") << R"({"name":"Hisha shogi","start_url":"/"})";
    std::ofstream(dir / "sw.js") << "self.addEventListener('fetch', () => {});";
    std::ofstream(dir / "icon.svg") << "<svg xmlns=\"http://www.w3.org/2000/svg\"/>";
    std::ofstream(dir / "icon-192.png", std::ios::binary) << std::string("\x89PNG\r\n\x1a\n", 8);
    EXPECT_EQ(StaticFiles::content_type("/manifest.webmanifest"), "application/manifest+json");

    ServerProcess srv(temp_db("pwa_db"), {"--static", dir.string()});
    Http h(srv.ports.at("http"));
    auto manifest = h.exchange(http::verb::get, "/manifest.webmanifest");
    EXPECT_EQ(manifest.result_int(), 200);
    EXPECT_EQ(manifest[http::field::content_type], "application/manifest+json");
    EXPECT_EQ(manifest.body(), R"({"name":"Hisha shogi","start_url":"/"})");
    auto sw = h.exchange(http::verb::get, "/sw.js");
    EXPECT_EQ(sw.result_int(), 200);
    EXPECT_EQ(sw[http::field::content_type], "text/javascript");
    EXPECT_EQ(sw[http::field::cache_control], "no-cache") << "a new worker must be found on the next visit";
    std::string csp(sw["Content-Security-Policy"]);
    EXPECT_TRUE(csp.starts_with("default-src 'self';")) << csp;
    EXPECT_EQ(csp.find("worker-src"), std::string::npos) << "worker-src falls back to script-src 'self': " << csp;
    EXPECT_EQ(h.exchange(http::verb::get, "/icon.svg")[http::field::content_type], "image/svg+xml");
    EXPECT_EQ(h.exchange(http::verb::get, "/icon-192.png")[http::field::content_type], "image/png");
    EXPECT_EQ(h.exchange(http::verb::get, "/sw-gone.js").result_int(), 404) << "a missing script is no page";
}

}  // namespace
