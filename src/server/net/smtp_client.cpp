// An SMTP client: see smtp_client.h.
#include "server/net/smtp_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <istream>
#include <memory>
#include <sstream>

#include "server/service/mail_message.h"

namespace hisha::server::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using service::MailConfig;
using service::MailOutcome;

namespace {

/// A failure that ends the conversation: how it counts, and the text for the log.
struct Failure {
    MailOutcome::Kind kind;
    std::string error;
};


/// One server reply: its code and its lines' text.
struct SmtpReply {
    int code = 0;
    std::vector<std::string> lines;
    std::string text() const {
        std::string out = std::to_string(code);
        for (const auto& l : lines)
            out += " " + l;
        return out;
    }
    bool has(std::string_view word) const {  // an EHLO keyword (STARTTLS, AUTH ...)
        for (const auto& l : lines)
            if (l.size() >= word.size() && std::equal(word.begin(), word.end(), l.begin(), [](char a, char b) {
                    return std::toupper(static_cast<unsigned char>(a)) == std::toupper(static_cast<unsigned char>(b));
                }))
                return true;
        return false;
    }
};

class Conversation {
public:
    explicit Conversation(const MailConfig& c)
        : config_(c), socket_(ioc_), tls_context_(asio::ssl::context::tls_client) {}

    void run(const std::string& to, const std::string& message) {
        connect();
        expect(read(), 220, "greeting");
        SmtpReply ehlo = hello();
        if (config_.tls != MailConfig::Tls::Off && ehlo.has("STARTTLS")) {
            start_tls();
            ehlo = hello();
        } else if (config_.tls == MailConfig::Tls::Required) {
            throw Failure{MailOutcome::Transient, "the SMTP server does not offer STARTTLS (--smtp-tls required)"};
        }
        if (!config_.user.empty())
            authenticate(ehlo);
        expect(command("MAIL FROM:<" + config_.from + ">"), 250, "MAIL FROM");
        expect(command("RCPT TO:<" + to + ">"), 250, "RCPT TO");
        expect(command("DATA"), 354, "DATA");
        write(service::mail::dot_stuffed(message) + ".\r\n");
        expect(read(), 250, "the message");
        try {
            write("QUIT\r\n");
            read();
        } catch (const Failure&) {  // sent already: a server that hangs up at once is fine
        }
    }

private:
    // The completion of any step: its error and, for reads and writes, the bytes.
    struct Done {
        boost::system::error_code& result;
        std::size_t& bytes;
        bool& done;
        void operator()(boost::system::error_code ec) { result = ec, done = true; }
        void operator()(boost::system::error_code ec, std::size_t n) { result = ec, bytes = n, done = true; }
        void operator()(boost::system::error_code ec, const tcp::endpoint&) { result = ec, done = true; }
    };
    // Runs the operation `start` began until it is done or the step's time is up.
    template <class Start>
    std::size_t step(Start start, const char* what) {
        boost::system::error_code result = asio::error::timed_out;
        std::size_t bytes = 0;
        bool done = false;
        start(Done{result, bytes, done});
        ioc_.restart();
        ioc_.run_for(std::chrono::milliseconds(config_.timeout_ms));
        if (!done) {
            boost::system::error_code ignored;
            socket_.close(ignored);
            ioc_.restart();
            ioc_.run();
            throw Failure{MailOutcome::Transient, std::string(what) + ": timed out"};
        }
        if (result)
            throw Failure{MailOutcome::Transient, std::string(what) + ": " + result.message()};
        return bytes;
    }

    void connect() {
        tcp::resolver resolver(ioc_);
        boost::system::error_code ec;
        auto endpoints = resolver.resolve(config_.host, std::to_string(config_.port), ec);
        if (ec)
            throw Failure{MailOutcome::Transient, "cannot resolve " + config_.host + ": " + ec.message()};
        step([&](auto h) { asio::async_connect(socket_, endpoints, h); },
             ("connecting to " + config_.host + ":" + std::to_string(config_.port)).c_str());
    }

    SmtpReply read() {
        SmtpReply r;
        for (;;) {
            std::size_t n = tls_
                              ? step([&](auto h) { asio::async_read_until(*tls_, buffer_, "\r\n", h); }, "reading")
                              : step([&](auto h) { asio::async_read_until(socket_, buffer_, "\r\n", h); }, "reading");
            std::string line(asio::buffers_begin(buffer_.data()),
                             asio::buffers_begin(buffer_.data()) + std::ptrdiff_t(n));
            buffer_.consume(n);
            while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
                line.pop_back();
            if (line.size() < 3 || !std::isdigit(static_cast<unsigned char>(line[0])))
                throw Failure{MailOutcome::Transient, "not an SMTP reply: " + line.substr(0, 80)};
            r.code = std::stoi(line.substr(0, 3));
            r.lines.push_back(line.size() > 4 ? line.substr(4) : "");
            if (line.size() == 3 || line[3] != '-')
                return r;
            if (r.lines.size() > 100)
                throw Failure{MailOutcome::Transient, "an SMTP reply of more than 100 lines"};
        }
    }

    void write(const std::string& data) {
        if (tls_)
            step([&](auto h) { asio::async_write(*tls_, asio::buffer(data), h); }, "writing");
        else
            step([&](auto h) { asio::async_write(socket_, asio::buffer(data), h); }, "writing");
    }

    SmtpReply command(const std::string& line) {
        write(line + "\r\n");
        return read();
    }

    // A reply other than `code`: 5xx refuses for good, anything else may pass later.
    static void expect(const SmtpReply& r, int code, const char* what) {
        if (r.code == code)
            return;
        throw Failure{r.code >= 500 ? MailOutcome::Permanent : MailOutcome::Transient,
                      std::string(what) + " refused: " + r.text()};
    }

    SmtpReply hello() {
        SmtpReply r = command("EHLO " + config_.helo);
        if (r.code == 250)
            return r;
        r = command("HELO " + config_.helo);
        expect(r, 250, "HELO");
        return {};
    }

    void start_tls() {
        SmtpReply r = command("STARTTLS");
        if (r.code != 220)
            throw Failure{MailOutcome::Transient, "STARTTLS refused: " + r.text()};
        boost::system::error_code ec;
        if (config_.ca_file.empty())
            tls_context_.set_default_verify_paths(ec);
        else
            tls_context_.load_verify_file(config_.ca_file, ec);
        if (ec)
            throw Failure{MailOutcome::Transient, "TLS certificates: " + ec.message()};
        tls_context_.set_verify_mode(asio::ssl::verify_peer);
        tls_ = std::make_unique<asio::ssl::stream<tcp::socket&>>(socket_, tls_context_);
        tls_->set_verify_callback(asio::ssl::host_name_verification(config_.host));
        SSL_set_tlsext_host_name(tls_->native_handle(), config_.host.c_str());
        try {
            step([&](auto h) { tls_->async_handshake(asio::ssl::stream_base::client, h); }, "TLS handshake");
        } catch (Failure& f) {
            f.error += " (is the SMTP server's certificate trusted? --smtp-ca FILE)";
            throw;
        }
    }

    void authenticate(const SmtpReply& ehlo) {
        if (!tls_ && config_.tls != MailConfig::Tls::Off)
            throw Failure{MailOutcome::Transient, "the password is not sent unencrypted: the SMTP server did not "
                                                  "offer STARTTLS (--smtp-tls off allows it)"};
        std::string mechanisms;
        for (const auto& l : ehlo.lines)
            if (l.size() > 5 && (l.rfind("AUTH ", 0) == 0 || l.rfind("AUTH=", 0) == 0))
                mechanisms += " " + l.substr(5) + " ";
        SmtpReply r;
        if (mechanisms.find(" PLAIN ") != std::string::npos) {
            r = command("AUTH PLAIN "
                        + service::mail::base64(std::string(1, '\0') + config_.user + '\0' + config_.password));
        } else if (mechanisms.find(" LOGIN ") != std::string::npos) {
            expect(command("AUTH LOGIN"), 334, "AUTH LOGIN");
            expect(command(service::mail::base64(config_.user)), 334, "AUTH LOGIN (user)");
            r = command(service::mail::base64(config_.password));
        } else {
            throw Failure{MailOutcome::Transient, "the SMTP server offers neither AUTH PLAIN nor LOGIN"};
        }
        if (r.code != 235)  // the operator's settings, not the recipient: kept and retried
            throw Failure{MailOutcome::Transient, "authentication refused: " + r.text()};
    }

    const MailConfig& config_;
    asio::io_context ioc_;
    tcp::socket socket_;
    asio::ssl::context tls_context_;
    std::unique_ptr<asio::ssl::stream<tcp::socket&>> tls_;
    asio::streambuf buffer_;
};

}  // namespace

MailOutcome smtp_send(const MailConfig& config, const std::string& to, const std::string& message) {
    try {
        Conversation c(config);
        c.run(to, message);
        return {MailOutcome::Sent, {}};
    } catch (const Failure& f) {
        return {f.kind, f.error};
    } catch (const std::exception& e) {
        return {MailOutcome::Transient, e.what()};
    }
}

}  // namespace hisha::server::net
