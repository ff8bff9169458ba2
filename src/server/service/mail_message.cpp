// Internet mail as Hisha writes it: see mail_message.h.
#include "server/service/mail_message.h"

#include <ctime>

namespace hisha::server::service::mail {

namespace {

constexpr char HEX[] = "0123456789ABCDEF";
constexpr char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";


bool atom_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || std::string_view("!#$%&'*+-/=?^_`{|}~").find(c) != std::string_view::npos;
}

bool label_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

// Dot-separated non-empty parts, each of characters `ok` accepts.
template <class Ok>
bool dotted(std::string_view s, Ok ok) {
    if (s.empty() || s.front() == '.' || s.back() == '.' || s.find("..") != std::string_view::npos)
        return false;
    for (char c : s)
        if (c != '.' && !ok(c))
            return false;
    return true;
}

}  // namespace

std::string base64(std::string_view in) {
    std::string out;
    for (std::size_t i = 0; i < in.size(); i += 3) {
        unsigned v = unsigned(static_cast<unsigned char>(in[i])) << 16;
        if (i + 1 < in.size())
            v |= unsigned(static_cast<unsigned char>(in[i + 1])) << 8;
        if (i + 2 < in.size())
            v |= unsigned(static_cast<unsigned char>(in[i + 2]));
        out += B64[(v >> 18) & 63];
        out += B64[(v >> 12) & 63];
        out += i + 1 < in.size() ? B64[(v >> 6) & 63] : '=';
        out += i + 2 < in.size() ? B64[v & 63] : '=';
    }
    return out;
}

std::string address_problem(std::string_view a) {
    if (a.empty())
        return "an e-mail address is needed";
    if (a.size() > 254)
        return "the e-mail address is longer than 254 characters";
    auto at = a.rfind('@');
    if (at == std::string_view::npos || at == 0 || at + 1 == a.size())
        return "not an e-mail address (name@example.org): " + std::string(a);
    std::string_view local = a.substr(0, at), domain = a.substr(at + 1);
    if (local.size() > 64 || !dotted(local, atom_char))
        return "the part before @ is not one Hisha mails to (letters, digits, dots and !#$%&'*+-/=?^_`{|}~): "
             + std::string(a);
    if (!dotted(domain, label_char) || domain.find('.') == std::string_view::npos)
        return "the domain after @ is not a host name (example.org): " + std::string(a);
    for (std::size_t i = 0; i < domain.size();) {
        std::size_t end = domain.find('.', i);
        if (end == std::string_view::npos)
            end = domain.size();
        std::string_view label = domain.substr(i, end - i);
        if (label.size() > 63 || label.front() == '-' || label.back() == '-')
            return "the domain after @ is not a host name (example.org): " + std::string(a);
        i = end + 1;
    }
    return {};
}

std::string header_text(std::string_view value, std::size_t name_length) {
    std::string clean;  // no line breaks or other controls: nothing can start a header of its own
    bool ascii = true;
    for (char c : value) {
        unsigned char u = static_cast<unsigned char>(c);
        if (u < 32 || u == 127)
            c = ' ';
        ascii = ascii && u < 128;
        clean += c;
    }
    if (ascii && clean.find("=?") == std::string::npos && name_length + 2 + clean.size() <= 998)
        return clean;
    // Encoded-words of at most 39 bytes each (52 base64 characters: a line of " =?UTF-8?B?...?="
    // stays under 78), cut between UTF-8 characters; words are folded one a line.
    std::string out;
    for (std::size_t i = 0; i < clean.size();) {
        std::size_t end = std::min(clean.size(), i + 39);
        while (end < clean.size() && end > i && (static_cast<unsigned char>(clean[end]) & 0xC0) == 0x80)
            --end;
        if (!out.empty())
            out += "\r\n ";
        out += "=?UTF-8?B?" + base64(std::string_view(clean).substr(i, end - i)) + "?=";
        i = end;
    }
    return out;
}

std::string quoted_printable(std::string_view text) {
    std::string out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t nl = text.find('\n', start);
        std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        std::size_t column = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            unsigned char c = static_cast<unsigned char>(line[i]);
            bool last = i + 1 == line.size();
            std::string token;
            if ((c >= 33 && c <= 126 && c != '=') || ((c == ' ' || c == '\t') && !last))
                token = char(c);
            else
                token = {'=', HEX[c >> 4], HEX[c & 15]};
            if (column + token.size() > 75) {  // a soft break: "=" ends the line at 76
                out += "=\r\n";
                column = 0;
            }
            out += token;
            column += token.size();
        }
        out += "\r\n";
        if (nl == std::string_view::npos)
            break;
        start = nl + 1;
        if (start == text.size())
            break;
    }
    return out;
}

std::string date_text(std::int64_t epoch_ms) {
    std::time_t t = std::time_t(epoch_ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    static const char* const DAYS[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char* const MONTHS[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d +0000", DAYS[tm.tm_wday], tm.tm_mday,
                  MONTHS[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
    return buf;
}

std::string write(const Message& m) {
    std::string from = m.from;
    if (!m.from_name.empty())
        from = header_text(m.from_name, 6) + " <" + m.from + ">";
    std::vector<std::pair<std::string, std::string>> h = {
        {"Date", date_text(m.date_ms)},
        {"From", from},
        {"To", "<" + m.to + ">"},
        {"Subject", header_text(m.subject, 7)},
        {"Message-ID", "<" + m.message_id + ">"},
        {"MIME-Version", "1.0"},
        {"Content-Type", "text/plain; charset=UTF-8"},
        {"Content-Transfer-Encoding", "quoted-printable"},
        {"Auto-Submitted", "auto-generated"},
    };
    if (!m.unsubscribe.empty()) {
        h.emplace_back("List-Unsubscribe", "<" + m.unsubscribe + ">");
        h.emplace_back("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
    }
    for (const auto& [name, value] : m.extra)
        h.emplace_back(name, header_text(value, name.size()));
    std::string out;
    for (const auto& [name, value] : h)
        out += name + ": " + value + "\r\n";
    return out + "\r\n" + quoted_printable(m.text);
}

std::string dot_stuffed(std::string_view message) {
    std::string out;
    out.reserve(message.size() + 64);
    bool line_start = true;
    for (std::size_t i = 0; i < message.size(); ++i) {
        char c = message[i];
        if (line_start && c == '.')
            out += '.';
        if (c == '\n' && (i == 0 || message[i - 1] != '\r'))
            out += '\r';
        if (c == '\r' && (i + 1 == message.size() || message[i + 1] != '\n')) {
            out += "\r\n";  // a bare CR is a line end too
            line_start = true;
            continue;
        }
        out += c;
        line_start = c == '\n';
    }
    if (!out.ends_with("\r\n"))
        out += "\r\n";
    return out;
}

}  // namespace hisha::server::service::mail
