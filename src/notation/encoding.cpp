// Encoding detection and conversion through iconv.
#include "encoding.h"

#include <iconv.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "core/text.h"

namespace hisha::notation {

namespace {

// Each encoding's names: Hisha's, iconv's, and the starts of the names a file may declare.
struct EncodingNames {
    Encoding encoding;
    const char* name;
    const char* iconv;
    std::array<std::string_view, 4> declared;
};
constexpr EncodingNames ENCODINGS[] = {
    {Encoding::Utf8, "utf-8", "UTF-8", {"utf-8", "utf8"}},
    {Encoding::ShiftJis, "shift_jis", "CP932", {"shift_jis", "sjis", "cp932", "windows-31j"}},
    {Encoding::EucJp, "euc-jp", "EUC-JP", {"euc-jp", "eucjp"}},
};

const EncodingNames& names_of(Encoding e) {
    for (const auto& n : ENCODINGS)
        if (n.encoding == e)
            return n;
    return ENCODINGS[0];
}

const char* iconv_name(Encoding e) { return names_of(e).iconv; }

/// The converted text, grown as iconv needs.
struct Output {
    std::string buf;
    char* at;
    std::size_t left;
    explicit Output(std::size_t size) : buf(size, '\0'), at(buf.data()), left(size) {}
    /// Room for `n` more bytes (at least doubling the buffer).
    void room(std::size_t n) {
        if (left >= n)
            return;
        std::size_t used = std::size_t(at - buf.data());
        buf.resize(std::max(buf.size() * 2, used + n));
        at = buf.data() + used;
        left = buf.size() - used;
    }
    void put(std::string_view s) {
        room(s.size());
        std::memcpy(at, s.data(), s.size());
        at += s.size();
        left -= s.size();
    }
};

/// All of `text` through the iconv descriptor `cd` (which it closes), the output first sized
/// `ratio` times the input. At what iconv cannot convert, `bad(where, bytes left, output)`
/// writes a replacement and says how many bytes to skip.
template <class Bad>
std::string convert(iconv_t cd, std::string_view text, std::size_t ratio, Bad bad) {
    std::string in(text);
    char* inp = in.data();
    std::size_t inleft = in.size();
    Output o(in.size() * ratio + 16);
    while (inleft > 0) {
        if (iconv(cd, &inp, &inleft, &o.at, &o.left) != std::size_t(-1))
            break;
        if (errno == E2BIG) {
            o.room(o.buf.size());
            continue;
        }
        std::size_t skip = bad(text.data() + (inp - in.data()), inleft, o);
        inp += skip, inleft -= skip;
    }
    iconv_close(cd);
    o.buf.resize(std::size_t(o.at - o.buf.data()));
    return std::move(o.buf);
}

// Looks for "encoding=NAME" in the first lines (KIF's `#KIF version=2.0 encoding=...`,
// CSA V3's `'encoding=...`).
bool declared_encoding(std::string_view bytes, Encoding& out) {
    std::size_t limit = std::min<std::size_t>(bytes.size(), 512);
    std::string_view head = bytes.substr(0, limit);
    auto at = head.find("encoding=");
    if (at == std::string_view::npos)
        return false;
    std::string_view name = head.substr(at + 9);
    for (const auto& n : ENCODINGS)
        for (std::string_view declared : n.declared)
            if (!declared.empty() && text::starts_with_ci(name, declared)) {
                out = n.encoding;
                return true;
            }
    return false;
}
}  // namespace

const char* encoding_name(Encoding e) { return names_of(e).name; }

namespace {

// How far `s` is valid UTF-8 (s.size() when all of it is), and how many multi-byte
// characters that valid prefix holds.
struct Utf8Scan {
    std::size_t valid_bytes = 0;
    std::size_t multibyte = 0;
};

Utf8Scan scan_utf8(std::string_view s) {
    Utf8Scan out;
    std::size_t i = 0;
    while (i < s.size()) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (n < 0 || (n == 1 && c < 0xc2) || i + std::size_t(n) >= s.size() + (n == 0))
            break;
        bool ok = true;
        for (int k = 1; k <= n && ok; ++k)
            ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
        if (!ok)
            break;
        out.multibyte += n > 0;
        i += n + 1;
    }
    out.valid_bytes = i;
    return out;
}

// Multi-byte UTF-8 characters before the first invalid byte from which a file is taken for
// UTF-8 with a fault (reported where the fault is) rather than for Shift_JIS. Shift_JIS text
// almost never forms even one valid UTF-8 sequence: its lead and trail bytes rarely fit the
// 110xxxxx 10xxxxxx / 1110xxxx 10xxxxxx 10xxxxxx patterns, let alone several times in a row.
constexpr std::size_t UTF8_EVIDENCE = 8;

}  // namespace

bool is_valid_utf8(std::string_view s) { return scan_utf8(s).valid_bytes == s.size(); }

Encoding detect_encoding(std::string_view bytes) {
    if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF")
        return Encoding::Utf8;
    Encoding declared;
    if (declared_encoding(bytes, declared))
        return declared;
    Utf8Scan scan = scan_utf8(bytes);
    if (scan.valid_bytes == bytes.size() || scan.multibyte >= UTF8_EVIDENCE)
        return Encoding::Utf8;
    return Encoding::ShiftJis;
}

Decoded to_utf8(std::string_view bytes, Encoding from) {
    Decoded out;
    if (bytes.size() >= 3 && bytes.substr(0, 3) == "\xEF\xBB\xBF")
        bytes.remove_prefix(3);
    if (from == Encoding::Utf8 && is_valid_utf8(bytes)) {
        out.text = std::string(bytes);
        return out;
    }
    iconv_t cd = iconv_open("UTF-8", iconv_name(from));
    if (cd == iconv_t(-1)) {
        out.text = std::string(bytes);
        return out;
    }
    // A byte iconv cannot read: its place is recorded (the first), U+FFFD written, the byte skipped.
    int line = 1, col = 1;
    const char* scan = bytes.data();
    out.text = convert(cd, bytes, 3, [&](const char* at, std::size_t, Output& o) {
        for (; scan < at; ++scan)
            if (*scan == '\n')
                ++line, col = 1;
            else
                ++col;
        if (!out.bad_line)
            out.bad_line = line, out.bad_column = col;
        o.put("\xEF\xBF\xBD");
        ++scan;
        return std::size_t(1);
    });
    return out;
}

std::string from_utf8(std::string_view text, Encoding to) {
    if (to == Encoding::Utf8)
        return std::string(text);
    iconv_t cd = iconv_open(iconv_name(to), "UTF-8");
    if (cd == iconv_t(-1))
        return std::string(text);
    // A character the target cannot hold: the whole UTF-8 sequence skipped, '?' written.
    return convert(cd, text, 2, [](const char* at, std::size_t left, Output& o) {
        unsigned char c = static_cast<unsigned char>(*at);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
        o.put("?");
        return std::min(n, left);
    });
}

}  // namespace hisha::notation
