// An SMTP client (RFC 5321) for the mail notifications: one conversation per mail, blocking, on
// the mail sender's own thread (never the event loop): EHLO (HELO when refused), STARTTLS (RFC
// 3207) through OpenSSL (Boost.Asio ssl; the server's certificate and host name checked against
// the system's or the given CAs), AUTH PLAIN or LOGIN (RFC 4954; never over a connection that
// is not encrypted unless TLS is off by the operator's choice), MAIL FROM, RCPT TO, DATA with the
// message dot-stuffed, QUIT. Every step has a time limit.
#pragma once

#include <string>

#include "server/service/mail.h"

namespace hisha::server::net {

/// Sends `message` (headers and body, CRLF lines) from config.from to `to`. Sent; Permanent when
/// the server refused with a 5xx reply (the address, the sender or the message); Transient for
/// anything that may pass later (4xx, no connection, a time limit, TLS or AUTH trouble).
service::MailOutcome smtp_send(const service::MailConfig& config, const std::string& to, const std::string& message);

}  // namespace hisha::server::net
