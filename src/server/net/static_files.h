// StaticFiles: the web UI's files, read once when the server starts and served from memory,
// each with its type, a strong ETag (a hash of its bytes) and how long browsers may keep it:
// Vite's assets (/assets/*, content-hashed names) a year and immutable, everything else
// (index.html first) revalidated on every use. Files added or changed later are not seen until
// the server restarts. No sockets here.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace hisha::server::net {

class StaticFiles {
public:
    struct File {
        std::string body;
        std::string content_type;
        std::string etag;           // "\"<16 hex digits>\""
        std::string cache_control;  // "public, max-age=31536000, immutable" or "no-cache"
    };
    /// Reads every regular file under `dir` (none when `dir` is empty), skipping files larger
    /// than `max_file` and stopping at `max_total` bytes in all.
    explicit StaticFiles(const std::string& dir, std::size_t max_file = 16u << 20, std::size_t max_total = 256u << 20);
    bool empty() const { return files_.empty(); }
    /// The file for a request path ("/" and unknown paths without an extension are the page's
    /// own routes: index.html); null when there is none.
    const File* find(std::string_view path) const;
    /// Whether an If-None-Match header value names `etag` (or is "*").
    static bool matches(std::string_view if_none_match, std::string_view etag);
    static std::string content_type(std::string_view path);

private:
    std::map<std::string, File, std::less<>> files_;  // by path from the directory, "/index.html"
};

}  // namespace hisha::server::net
