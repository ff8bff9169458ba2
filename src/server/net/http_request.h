// What an HTTP request says and what every response carries, for http_server.cpp (the one
// translation unit that includes Boost.Beast, so these live in a header it alone includes): the
// security headers of a response, the embeddable page, the request's credential (bearer token or
// session cookie), whether its Origin is this server, HTTPS behind a proxy, the client behind a
// trusted reverse proxy.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.h"
#include "server/net/net.h"
#include "server/proto/json_api.h"

namespace hisha::server::net {

namespace http = boost::beast::http;

// On every response: what a browser may load for the page (its own scripts, styles and
// sockets only, no frames around it; its own WebAssembly, the browser's engine, may be
// compiled: 'wasm-unsafe-eval' allows that and no eval of JavaScript), no sniffing of types, no
// Referer to other sites. The read-only board of /embed/N (`framable`) is the one page any
// site may show in a frame.
template <class Body>
inline void secure(http::response<Body>& res, bool framable = false) {
    res.set("Content-Security-Policy",
            std::string("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
                        "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; "
                        "base-uri 'none'; "
                        "form-action 'self'; frame-ancestors ")
                + (framable ? "*" : "'none'"));
    res.set("X-Content-Type-Options", "nosniff");
    res.set("Referrer-Policy", "no-referrer");
    if (!framable)
        res.set("X-Frame-Options", "DENY");
}

// The embeddable board's page: /embed/N (the web UI's index.html, which shows only the board).
inline bool framable(std::string_view target) {
    target = target.substr(0, target.find('?'));
    return target.starts_with("/embed/") && target.find('/', 7) == std::string_view::npos;
}

// The credential of a request: `Authorization: Bearer <token>` (scripts), else the session
// cookie the server set at a login with "cookie": true (the web page). Never the URL: a token
// there ends up in logs and histories.
struct Credential {
    std::string token;
    bool from_cookie = false;
};

inline Credential credential(const http::request<http::string_body>& req) {
    auto auth = req[http::field::authorization];
    if (auth.starts_with("Bearer "))
        return {std::string(auth.substr(7)), false};
    std::string_view cookies(req[http::field::cookie].data(), req[http::field::cookie].size());
    while (!cookies.empty()) {
        auto semi = cookies.find(';');
        std::string_view c = cookies.substr(0, semi);
        while (!c.empty() && c.front() == ' ')
            c.remove_prefix(1);
        if (c.starts_with(proto::SESSION_COOKIE) && c.size() > proto::SESSION_COOKIE.size()
            && c[proto::SESSION_COOKIE.size()] == '=')
            return {std::string(c.substr(proto::SESSION_COOKIE.size() + 1)), true};
        if (semi == std::string_view::npos)
            break;
        cookies.remove_prefix(semi + 1);
    }
    return {};
}

// Whether the request's Origin is this server: one of `allowed` (--public-origin), or when none
// is configured an origin whose host and port are the request's Host (a reverse proxy passes
// the Host on). `absent_ok`: a request without an Origin passes (a browser sends one on every
// cross-site POST and every WebSocket, so its absence means a script, not a forged page).
inline bool same_origin(const http::request<http::string_body>& req, const std::vector<std::string>& allowed,
                        bool absent_ok) {
    auto origin_field = req[http::field::origin];
    if (origin_field.empty())
        return absent_ok;
    std::string origin = text::lower(std::string_view(origin_field.data(), origin_field.size()));
    if (!allowed.empty())
        return std::any_of(allowed.begin(), allowed.end(),
                           [&](const std::string& a) { return text::lower(a) == origin; });
    auto scheme = origin.find("://");
    if (scheme == std::string::npos)
        return false;
    auto host = req[http::field::host];
    return origin.substr(scheme + 3) == text::lower(std::string_view(host.data(), host.size()));
}

// The cookie is Secure when the page was loaded over HTTPS (its Origin says so, or the reverse
// proxy in front: X-Forwarded-Proto).
inline bool over_https(const http::request<http::string_body>& req) {
    auto origin = req[http::field::origin];
    auto forwarded = req["X-Forwarded-Proto"];
    return origin.starts_with("https://")
        || text::lower(std::string_view(forwarded.data(), forwarded.size())) == "https";
}

// The client of a request that came through a trusted reverse proxy `proxy`: the last entry of
// X-Forwarded-For (the one the proxy added; those before it the client may have written), or the
// proxy itself when there is none or it is not an address.
inline std::string forwarded_client(const http::request<http::string_body>& req, const std::string& proxy) {
    auto header = req["X-Forwarded-For"];
    std::string_view list(header.data(), header.size());
    auto comma = list.rfind(',');
    std::string last = text::trim(comma == std::string_view::npos ? list : list.substr(comma + 1));
    boost::system::error_code ec;
    auto address = asio::ip::make_address(last, ec);
    return ec ? proxy : address.to_string();
}

}  // namespace hisha::server::net
