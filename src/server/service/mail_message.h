// Internet mail as Hisha writes it (RFC 5322, MIME: RFC 2045-2047): headers with UTF-8
// encoded-words where a player's name or a move's Japanese text is not ASCII, a UTF-8 text body
// in quoted-printable (lines of at most 76 characters), CRLF line ends; and what SMTP needs of
// it (dot-stuffing, RFC 5321 4.5.2). Pure functions: no sockets, no clock of their own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hisha::server::service::mail {

/// Base64 (RFC 4648, with padding): the body and header encoding, and SMTP AUTH's credentials.
std::string base64(std::string_view in);

/// Whether `address` is a mailbox Hisha sends to: local@domain, ASCII, at most 254 characters,
/// a dot-atom local part (no quoted forms, comments or display names) and a domain of labels of
/// letters, digits and hyphens with at least one dot. An empty string when it is, else why not.
std::string address_problem(std::string_view address);

/// A header value as RFC 2047 encoded-words (=?UTF-8?B?...?=) when it holds anything but
/// printable ASCII, folded so that no line passes 78 characters; as it is otherwise.
std::string header_text(std::string_view value, std::size_t name_length);

/// Text (UTF-8, lines ended by \n or \r\n) as quoted-printable with CRLF line ends: no line over
/// 76 characters (soft breaks "=" never inside a UTF-8 sequence's escape), trailing spaces and
/// '=' escaped, a line "." or "From " left alone (dot-stuffing is SMTP's).
std::string quoted_printable(std::string_view text);

/// A message's parts before it is written.
struct Message {
    std::string from;       // the sender's address
    std::string from_name;  // shown beside it ("Hisha")
    std::string to;
    std::string subject;                                     // UTF-8
    std::string text;                                        // the body, UTF-8, lines ended by \n
    std::string unsubscribe;                                 // a URL for List-Unsubscribe (one click: RFC 8058), or ""
    std::int64_t date_ms = 0;                                // epoch milliseconds (Date)
    std::string message_id;                                  // without the angle brackets: unique@domain
    std::vector<std::pair<std::string, std::string>> extra;  // more headers (ASCII values)
};

/// The whole message: headers (Date, From, To, Subject, Message-ID, MIME-Version, Content-Type
/// text/plain UTF-8, Content-Transfer-Encoding quoted-printable, Auto-Submitted, List-Unsubscribe)
/// and the body, every line ended by CRLF.
std::string write(const Message& m);

/// RFC 5322 date-time in UTC: "Fri, 27 Nov 2026 23:05:00 +0000".
std::string date_text(std::int64_t epoch_ms);

/// A message as SMTP's DATA carries it: each line that starts with '.' gets another in front,
/// bare LF become CRLF, and it ends with CRLF (the terminating "." line is the client's).
std::string dot_stuffed(std::string_view message);

}  // namespace hisha::server::service::mail
