// StaticFiles: the directory read once, ETags as FNV-1a hashes of the bytes.
#include "server/net/static_files.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace hisha::server::net {

namespace {

std::string etag_of(const std::string& bytes) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(h));
    return buf;
}

}  // namespace

std::string StaticFiles::content_type(std::string_view path) {
    static const std::pair<const char*, const char*> TYPES[] = {{".html", "text/html; charset=utf-8"},
                                                                {".js", "text/javascript"},
                                                                {".mjs", "text/javascript"},
                                                                {".css", "text/css"},
                                                                {".json", "application/json"},
                                                                {".webmanifest", "application/manifest+json"},
                                                                {".wasm", "application/wasm"},
                                                                {".svg", "image/svg+xml"},
                                                                {".png", "image/png"},
                                                                {".ico", "image/x-icon"},
                                                                {".woff2", "font/woff2"},
                                                                {".txt", "text/plain; charset=utf-8"}};
    for (auto& [ext, type] : TYPES)
        if (path.ends_with(ext))
            return type;
    return "application/octet-stream";
}

StaticFiles::StaticFiles(const std::string& dir, std::size_t max_file, std::size_t max_total) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec))
        return;
    std::size_t total = 0;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file(ec))
            continue;
        auto size = it->file_size(ec);
        if (ec || size > max_file || total + size > max_total)
            continue;
        std::ifstream in(it->path(), std::ios::binary);
        if (!in)
            continue;
        File f;
        f.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        total += f.body.size();
        std::string rel = "/" + fs::relative(it->path(), dir, ec).generic_string();
        f.content_type = content_type(rel);
        f.etag = etag_of(f.body);
        f.cache_control = rel.starts_with("/assets/") ? "public, max-age=31536000, immutable" : "no-cache";
        files_.emplace(std::move(rel), std::move(f));
    }
}

const StaticFiles::File* StaticFiles::find(std::string_view path) const {
    if (auto it = files_.find(path == "/" ? std::string_view("/index.html") : path); it != files_.end())
        return &it->second;
    // A route of the page itself (not a missing file such as /assets/gone.js): the page.
    std::string_view last = path.substr(path.rfind('/') + 1);
    if (last.find('.') != std::string_view::npos)
        return nullptr;
    auto index = files_.find(std::string_view("/index.html"));
    return index == files_.end() ? nullptr : &index->second;
}

bool StaticFiles::matches(std::string_view if_none_match, std::string_view etag) {
    while (!if_none_match.empty()) {
        auto comma = if_none_match.find(',');
        std::string_view tag = if_none_match.substr(0, comma);
        while (!tag.empty() && tag.front() == ' ')
            tag.remove_prefix(1);
        while (!tag.empty() && tag.back() == ' ')
            tag.remove_suffix(1);
        if (tag.starts_with("W/"))
            tag.remove_prefix(2);  // a weak comparison, as If-None-Match asks
        if (tag == "*" || tag == etag)
            return true;
        if (comma == std::string_view::npos)
            break;
        if_none_match.remove_prefix(comma + 1);
    }
    return false;
}

}  // namespace hisha::server::net
