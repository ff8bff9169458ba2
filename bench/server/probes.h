// Hostile connections of the load benchmark's attack mode that are not request floods (those
// are in attackers.h): slow connections (slowloris) that dribble a byte every few seconds and
// never finish a line or an HTTP header, and oversized or garbage input on every port (an
// endless line, a huge HTTP header or body, WebSocket frames too big, of a bad opcode or
// unmasked, random bytes). Each is counted by what the server said (its words, an HTTP status,
// a WebSocket close code) and how the connection ended: closed by the server, still open when
// the attack stopped, or given up by the attacker once the server had nothing more to say.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace bench {

enum class ProbeKind {
    SlowText,     // text port: "LOGIN victim ..." a byte at a time, never a newline
    SlowCsa,      // CSA port: the same
    SlowHttp,     // HTTP: a request header a byte at a time, never its end
    LongText,     // text port: an endless line (no newline), as fast as the server reads
    LongCsa,      // CSA port: the same
    HugeHeader,   // HTTP: a 1 MiB header line
    HugeBody,     // HTTP: Content-Length 100 MiB, the body as fast as the server reads
    WsOversized,  // WebSocket (logged in): a 16 MiB text frame
    WsBadOpcode,  // WebSocket: a frame of the reserved opcode 3
    WsUnmasked,   // WebSocket: a client frame without its mask
    GarbageText,  // 4 KiB of random bytes on the text port
    GarbageCsa,   // ... on the CSA port
    GarbageHttp,  // ... on the HTTP port
};
constexpr int PROBE_KINDS = 13;

inline const char* probe_name(ProbeKind k) {
    static constexpr const char* NAMES[PROBE_KINDS] = {
        "slow_text",    "slow_csa",      "slow_http",   "long_line_text", "long_line_csa", "huge_header", "huge_body",
        "ws_oversized", "ws_bad_opcode", "ws_unmasked", "garbage_text",   "garbage_csa",   "garbage_http"};
    return NAMES[int(k)];
}

inline const char* probe_port(ProbeKind k) {
    switch (k) {
    case ProbeKind::SlowText:
    case ProbeKind::LongText:
    case ProbeKind::GarbageText: return "text";
    case ProbeKind::SlowCsa:
    case ProbeKind::LongCsa:
    case ProbeKind::GarbageCsa: return "csa";
    default: return "http";
    }
}

inline bool probe_slow(ProbeKind k) {
    return k == ProbeKind::SlowText || k == ProbeKind::SlowCsa || k == ProbeKind::SlowHttp;
}
inline bool probe_ws(ProbeKind k) {
    return k == ProbeKind::WsOversized || k == ProbeKind::WsBadOpcode || k == ProbeKind::WsUnmasked;
}
// Kinds that send without end (until the server stops them or the attack ends).
inline bool probe_streams(ProbeKind k) {
    return k == ProbeKind::LongText || k == ProbeKind::LongCsa || k == ProbeKind::HugeBody
        || k == ProbeKind::WsOversized;
}

// The bytes a probe sends first (for a WebSocket kind: the upgrade; `token` logs it in).
inline std::string probe_opening(ProbeKind k, const std::string& token, std::uint64_t& seed) {
    switch (k) {
    case ProbeKind::HugeHeader:
        return "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + std::string(1 << 20, 'a') + "\r\n\r\n";
    case ProbeKind::HugeBody:
        return "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               "Content-Length: 104857600\r\n\r\n";
    case ProbeKind::WsOversized:
    case ProbeKind::WsBadOpcode:
    case ProbeKind::WsUnmasked:
        return "GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
               "Authorization: Bearer "
             + token + "\r\n\r\n";
    case ProbeKind::GarbageText:
    case ProbeKind::GarbageCsa:
    case ProbeKind::GarbageHttp: {
        std::string out(4096, '\0');
        for (char& c : out) {  // xorshift64*
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            c = char((seed * 2685821657736338717ULL) >> 56);
        }
        return out;
    }
    default: return {};
    }
}

// The WebSocket frame a probe sends once upgraded (an oversized one: its header; the payload
// follows as a stream).
inline std::string probe_frame(ProbeKind k) {
    switch (k) {
    case ProbeKind::WsOversized: {  // FIN text, masked, 64-bit length 16 MiB, mask 0
        std::string f = "\x81\xff";
        std::uint64_t len = 16u << 20;
        for (int i = 7; i >= 0; --i)
            f += char((len >> (8 * i)) & 0xff);
        return f + std::string(4, '\0');
    }
    case ProbeKind::WsBadOpcode:
        return std::string("\x83\x84\x01\x02\x03\x04"
                           "abcd",
                           10);
    case ProbeKind::WsUnmasked: return std::string("\x81\x05hello", 7);
    default: return {};
    }
}

// A slow probe's next byte (the n-th): a line or a header that never ends.
inline char probe_drip(ProbeKind k, long n) {
    static constexpr std::string_view LINE = "LOGIN victim wrong-password-that-never-ends-";
    static constexpr std::string_view HEAD = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    if (k == ProbeKind::SlowHttp)
        return std::size_t(n) < HEAD.size() ? HEAD[std::size_t(n)] : 'a';
    return LINE[std::size_t(n) % LINE.size()];
}

// What the server said, from its words, status line or close frame; the most telling first.
struct ProbeAnswer {
    std::string said;       // "" until something known was read
    std::string tail;       // the last bytes read (a marker may be cut between two reads)
    bool upgraded = false;  // a WebSocket kind got its 101
    std::size_t ws_at = 0;  // bytes of frames read after the 101 (a close frame is looked for)

    void read(std::string_view data) {
        tail += data;
        static constexpr std::pair<std::string_view, const char*> WORDS[] = {
            {"too many connections", "refused_connections_per_address"},
            {"line too long", "line_too_long"},
            {"Idle too long", "idle_timeout"},
            {"not finished", "line_timeout"},
            {"banned", "banned"},
        };
        for (auto& [words, name] : WORDS)
            if (tail.find(words) != std::string::npos && said.find(name) == std::string::npos)
                said += said.empty() ? name : std::string("+") + name;
        if (tail.starts_with("HTTP/1.1 ") && tail.size() >= 12) {
            std::string status = tail.substr(9, 3);
            if (said.find("http_" + status) == std::string::npos)
                said += (said.empty() ? "http_" : "+http_") + status;
            if (status == "101")
                upgraded = true;
        }
        if (upgraded)
            ws_close();
        if (tail.size() > 4096 && !upgraded)
            tail.erase(0, tail.size() - 256);
    }

private:
    // A close frame from the server (opcode 8, unmasked): its code.
    void ws_close() {
        auto end = tail.find("\r\n\r\n");
        if (end == std::string::npos)
            return;
        std::size_t at = end + 4;
        while (at + 2 <= tail.size()) {
            unsigned char b0 = static_cast<unsigned char>(tail[at]), b1 = static_cast<unsigned char>(tail[at + 1]);
            std::size_t len = b1 & 0x7f, head = 2;
            if (len == 126) {
                if (at + 4 > tail.size())
                    return;
                len = (std::size_t(static_cast<unsigned char>(tail[at + 2])) << 8)
                    | static_cast<unsigned char>(tail[at + 3]);
                head = 4;
            } else if (len == 127) {
                return;  // (the server sends nothing that long here)
            }
            if (at + head + len > tail.size())
                return;
            if ((b0 & 0x0f) == 8 && len >= 2) {
                int code = (static_cast<unsigned char>(tail[at + head]) << 8)
                         | static_cast<unsigned char>(tail[at + head + 1]);
                std::string name = "ws_close_" + std::to_string(code);
                if (said.find(name) == std::string::npos)
                    said += "+" + name;
            }
            at += head + len;
        }
    }
};

}  // namespace bench
