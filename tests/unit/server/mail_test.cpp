// Mail notifications (issue 20, service/mail.h): the messages as written (MIME, encoded-words,
// quoted-printable, dot-stuffing, addresses), and hisha-server sending to a real SMTP server on
// 127.0.0.1 (Debian's python3-aiosmtpd, run by smtp_sink.py beside this file): the confirmation
// link, "your turn" only while the player is away and once a game until they look, challenges,
// messages kept, one-click unsubscribe, the hourly limit, a restart with a mail queued while the
// SMTP server was down (retried, nothing lost, the games not held up), a refused address, and
// STARTTLS with AUTH against a certificate the test makes.
#include <gtest/gtest.h>

#include <sys/socket.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "http_client.h"
#include "pg_fixture.h"
#include "server/service/mail_message.h"
#include "server_process.h"
#include "test_util.h"
#include "text_session.h"

namespace hisha::server::test {
namespace {

namespace fs = std::filesystem;
namespace mail = service::mail;

// --- the messages

TEST(MailMessage, HeadersOfNonAsciiTextAreEncodedWordsOfWholeCharacters) {
    std::string subject = "Your turn in game 12: 羽生 played △３四歩 in a rather long subject line, really";
    std::string h = mail::header_text(subject, 7);
    EXPECT_TRUE(h.starts_with("=?UTF-8?B?")) << h;
    std::string decoded;
    std::size_t at = 0;
    while ((at = h.find("=?UTF-8?B?", at)) != std::string::npos) {
        std::size_t end = h.find("?=", at + 10);
        std::string word = h.substr(at, end + 2 - at);
        EXPECT_LE(word.size() + 1 + 7, 78u) << word;
        // Each word decodes to whole UTF-8 characters: its last byte is not a lead byte cut off.
        static const std::string B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        std::string bytes;
        unsigned v = 0;
        int bits = 0;
        for (char c : h.substr(at + 10, end - at - 10)) {
            if (c == '=')
                break;
            v = (v << 6) | unsigned(B64.find(c));
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                bytes += char((v >> bits) & 0xFF);
            }
        }
        unsigned char last = static_cast<unsigned char>(bytes.back());
        EXPECT_TRUE(last < 0x80 || (last & 0xC0) == 0x80) << "cut inside a character";
        decoded += bytes;
        at = end + 2;
    }
    EXPECT_EQ(decoded, subject);
    EXPECT_EQ(mail::header_text("plain ASCII", 7), "plain ASCII");
    EXPECT_EQ(mail::header_text("two\r\nBcc: x@example.org", 7), "two  Bcc: x@example.org") << "no header injection";
}

TEST(MailMessage, BodyIsQuotedPrintableWithShortLinesAndDotStuffedForSmtp) {
    std::string long_line(200, 'a');
    std::string text = "▲７六歩 = P-7f \n.\n" + long_line + "\ntrailing space \n";
    std::string qp = mail::quoted_printable(text);
    for (std::size_t at = 0, end; (end = qp.find("\r\n", at)) != std::string::npos; at = end + 2)
        EXPECT_LE(end - at, 76u) << qp.substr(at, end - at);
    EXPECT_NE(qp.find("=E2=96=B2"), std::string::npos) << qp;  // ▲
    EXPECT_NE(qp.find(" =3D P-7f=20\r\n"), std::string::npos) << qp;
    EXPECT_NE(qp.find("trailing space=20\r\n"), std::string::npos);
    EXPECT_EQ(mail::dot_stuffed("a\r\n.\r\n..b\nc"), "a\r\n..\r\n...b\r\nc\r\n");
    mail::Message m{"hisha@example.org", "Hisha", "alice@example.org", "件名", "本文\n",
                    "https://x/u",       0,       "1@example.org",     {}};
    std::string w = mail::write(m);
    EXPECT_NE(w.find("Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n"), std::string::npos) << w;
    EXPECT_NE(w.find("List-Unsubscribe: <https://x/u>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"),
              std::string::npos);
    EXPECT_NE(w.find("Content-Type: text/plain; charset=UTF-8\r\n"), std::string::npos);
    EXPECT_EQ(w.find('\n'), w.find("\r\n") + 1) << "CRLF line ends";
}

TEST(MailMessage, AddressesAreCheckedWithAReason) {
    EXPECT_EQ(mail::address_problem("alice.b+shogi@mail.example.org"), "");
    for (const char* bad : {"", "alice", "alice@", "@example.org", "a..b@example.org", "alice@localhost",
                            "alice@-x.org", "al ice@example.org", "alice@exa_mple.org", "\"q\"@example.org"})
        EXPECT_NE(mail::address_problem(bad), "") << bad;
    EXPECT_NE(mail::address_problem("alice@localhost").find("host name"), std::string::npos);
}

// --- hisha-server and a real SMTP server

bool aiosmtpd_installed() { return std::system("/usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null") == 0; }

int free_port() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t n = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
    close(fd);
    return ntohs(a.sin_port);
}

std::string sink_script() { return (fs::path(__FILE__).parent_path() / "smtp_sink.py").string(); }

/// smtp_sink.py on 127.0.0.1:port, writing each mail it accepts into a fresh directory.
class SmtpSink {
public:
    int port;
    fs::path dir;
    explicit SmtpSink(int port_ = free_port(), std::vector<std::string> extra = {}) : port(port_) {
        static int n = 0;
        dir = fs::temp_directory_path() / ("hisha_mail_" + std::to_string(getpid()) + "_" + std::to_string(++n));
        fs::remove_all(dir);
        fs::create_directories(dir);
        std::vector<std::string> args = {"/usr/bin/python3", sink_script(), std::to_string(port), dir.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        pid_ = spawn_with_stdout_pipe(args, out_, (dir / "sink.log").string());
        std::string buf;
        for (int i = 0; i < 100 && buf.find("ready") == std::string::npos; ++i) {
            pollfd p{out_, POLLIN, 0};
            char tmp[256];
            if (poll(&p, 1, 200) > 0) {
                ssize_t got = read(out_, tmp, sizeof tmp);
                if (got <= 0)
                    break;
                buf.append(tmp, std::size_t(got));
            }
        }
        if (buf.find("ready") == std::string::npos)
            throw std::runtime_error("the SMTP sink did not start: " + buf);
    }
    ~SmtpSink() {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        close(out_);
        fs::remove_all(dir);
    }
    /// The mails received so far, in order: (recipients, message as received).
    std::vector<std::pair<std::string, std::string>> mails() const {
        std::vector<std::string> names;
        for (auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".eml")
                names.push_back(e.path().stem().string());
        std::sort(names.begin(), names.end());
        std::vector<std::pair<std::string, std::string>> out;
        for (auto& n : names)
            out.emplace_back(slurp_file(dir / (n + ".rcpt")), slurp_file(dir / (n + ".eml")));
        return out;
    }
    /// Waits (bounded) until `count` mails have come; they all.
    std::vector<std::pair<std::string, std::string>> wait_for(std::size_t count, int seconds = 20) const {
        for (int i = 0; i < seconds * 20 && mails().size() < count; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return mails();
    }
    static std::string slurp_file(const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

private:
    pid_t pid_ = -1;
    int out_ = -1;
};

/// A quoted-printable body decoded (soft breaks joined, =XX bytes).
std::string decoded_body(const std::string& message) {
    std::string body = message.substr(message.find("\r\n\r\n") + 4), out;
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] == '=' && i + 2 < body.size() && body[i + 1] == '\r' && body[i + 2] == '\n') {
            i += 2;
        } else if (body[i] == '=' && i + 2 < body.size()) {
            out += char(std::stoi(body.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += body[i];
        }
    }
    return out;
}

std::string header(const std::string& message, const std::string& name) {
    std::string m = "\r\n" + message.substr(0, message.find("\r\n\r\n") + 2);
    std::size_t at = m.find("\r\n" + name + ": ");
    if (at == std::string::npos)
        return {};
    at += name.size() + 4;
    return m.substr(at, m.find("\r\n", at) - at);
}

/// A 64-hex-digit token after `prefix` in a decoded body.
std::string token_after(const std::string& body, const std::string& prefix) {
    std::smatch m;
    std::regex re(prefix + "([0-9a-f]{64})");
    return std::regex_search(body, m, re) ? m[1].str() : std::string();
}

std::vector<std::string> mail_args(int smtp_port, std::vector<std::string> more = {}) {
    std::vector<std::string> a = {"--bots",         "",
                                  "--smtp-host",    "127.0.0.1",
                                  "--smtp-port",    std::to_string(smtp_port),
                                  "--smtp-from",    "hisha@example.org",
                                  "--public-url",   "https://shogi.example.org",
                                  "--smtp-tls",     "off",
                                  "--smtp-timeout", "5"};
    a.insert(a.end(), more.begin(), more.end());
    return a;
}

std::string token_of(Http& h, const std::string& name, bool registering = true) {
    json r = h.post(registering ? "/api/register" : "/api/login", {{"name", name}, {"password", "secret12"}});
    return r.value("token", "");
}

/// `name` gives `address` and confirms it with the link of the mail that comes (the n-th).
void confirm_address(Http& h, const SmtpSink& sink, const std::string& token, const std::string& address,
                     std::size_t nth) {
    auto [status, body] = h.request(http::verb::put, "/api/mail", json{{"address", address}}.dump(), token);
    ASSERT_EQ(status, 200) << body;
    EXPECT_EQ(json::parse(body)["confirmed"], false);
    auto mails = sink.wait_for(nth);
    ASSERT_EQ(mails.size(), nth);
    EXPECT_EQ(mails.back().first, address);
    std::string link = token_after(decoded_body(mails.back().second), "https://shogi.example.org/#/mail/confirm/");
    ASSERT_EQ(link.size(), 64u) << decoded_body(mails.back().second);
    EXPECT_EQ(h.post("/api/mail/confirm", {{"token", link}})["user"].is_string(), true);
    EXPECT_EQ(h.post("/api/mail/confirm", {{"token", link}}, {}, 400)["error"],
              "this confirmation link is not valid (used already, or replaced by a newer address)");
    EXPECT_EQ(h.get("/api/mail", token)["confirmed"], true);
}

/// Bob challenges alice (she plays Black, correspondence) and she accepts: the game's id.
std::int64_t corr_game(Http& h, const std::string& alice, const std::string& bob) {
    json c = h.post("/api/challenges", {{"pattern", "alice"}, {"color", "white"}, {"time_control", "corr-3"}}, bob);
    json g = h.post("/api/challenges/" + std::to_string(c.value("id", 0)) + "/accept", json::object(), alice);
    return g.value("id", std::int64_t(0));
}

void move(Http& h, std::int64_t game, const std::string& token, const std::string& usi) {
    h.post("/api/games/" + std::to_string(game) + "/move", {{"move", usi}}, token);
}

int count_in(const std::string& log, const std::string& what) {
    int n = 0;
    for (std::size_t at = 0; (at = log.find(what, at)) != std::string::npos; ++at)
        ++n;
    return n;
}

#define NEEDS_AIOSMTPD()       \
    if (!aiosmtpd_installed()) \
    GTEST_SKIP() << "python3-aiosmtpd is not installed (scripts/install-deps.sh installs it)"

TEST(Mail, ConfirmedAddressGetsYourTurnWhileAwayOnceAGameAndNoneWhileConnected) {
    NEEDS_AIOSMTPD();
    SmtpSink sink;
    ServerProcess srv(temp_db("mail_turn"), mail_args(sink.port));
    Http h(srv.ports["http"]);
    std::string alice = token_of(h, "alice"), bob = token_of(h, "Bob");
    // Before the address is confirmed, nothing but the confirmation goes there.
    auto [st, body] = h.request(http::verb::put, "/api/mail", json{{"address", "alice@example.org"}}.dump(), alice);
    ASSERT_EQ(st, 200) << body;
    std::int64_t early = corr_game(h, alice, bob);
    move(h, early, alice, "7g7f");
    move(h, early, bob, "3c3d");
    EXPECT_EQ(count_in(srv.log_text(), "\"event\":\"mail_queued\""), 1) << "the confirmation only";
    std::string link = token_after(decoded_body(sink.wait_for(1).at(0).second), "#/mail/confirm/");
    ASSERT_EQ(link.size(), 64u);
    EXPECT_EQ(h.post("/api/mail/confirm", {{"token", link}})["user"], "alice");
    confirm_address(h, sink, bob, "bob@example.org", 2);

    std::int64_t g = corr_game(h, alice, bob);  // (Bob's challenge names alice: mailed)
    move(h, g, alice, "7g7f");
    move(h, g, bob, "3c3d");
    auto mails = sink.wait_for(5);  // the challenge to alice, Bob's your-turn, alice's your-turn
    ASSERT_EQ(mails.size(), 5u);
    EXPECT_EQ(mails[2].first, "alice@example.org");
    EXPECT_NE(decoded_body(mails[2].second).find("Bob challenges you"), std::string::npos);
    const auto& turn = mails[4];
    EXPECT_EQ(turn.first, "alice@example.org");
    std::string text = decoded_body(turn.second);
    EXPECT_NE(text.find("Bob played △３四歩 (P-3d) in game " + std::to_string(g)), std::string::npos) << text;
    EXPECT_NE(text.find("1. ▲７六歩 P-7f"), std::string::npos) << text;
    EXPECT_NE(text.find("|v香v桂v銀v金v玉v金v銀v桂v香|一"), std::string::npos) << "the board";
    EXPECT_NE(text.find("https://shogi.example.org/#/game/" + std::to_string(g)), std::string::npos);
    EXPECT_TRUE(header(turn.second, "Subject").starts_with("=?UTF-8?B?")) << "the move's Japanese";
    EXPECT_NE(header(turn.second, "Message-ID").find("@example.org>"), std::string::npos);
    EXPECT_FALSE(header(turn.second, "Date").empty());

    // Bob takes his move back and plays it again: alice has not looked, so no second mail.
    int queued = count_in(srv.log_text(), "\"event\":\"mail_queued\"");
    h.post("/api/games/" + std::to_string(g) + "/undo", json::object(), bob);
    move(h, g, bob, "3c3d");
    EXPECT_EQ(count_in(srv.log_text(), "\"event\":\"mail_queued\""), queued);
    // While she is connected (her page open), none either.
    {
        Ws ws(srv.ports["http"], alice);
        h.post("/api/games/" + std::to_string(g) + "/undo", json::object(), bob);
        move(h, g, bob, "8c8d");
        EXPECT_EQ(count_in(srv.log_text(), "\"event\":\"mail_queued\""), queued);
    }
    // Once she has left (looked at her games meanwhile), the next turn of hers is mailed again.
    for (int i = 0; i < 100 && h.get("/api/who").dump().find("alice") != std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    move(h, g, alice, "2g2f");
    move(h, g, bob, "7c7d");
    mails = sink.wait_for(7);
    ASSERT_EQ(mails.size(), 7u);
    EXPECT_EQ(mails[5].first, "bob@example.org");
    EXPECT_EQ(mails[6].first, "alice@example.org");
    EXPECT_NE(decoded_body(mails[6].second).find("Bob played △７四歩 (P-7d)"), std::string::npos);
    // Bob resigns: both are away, both are told of the end (Black first).
    h.post("/api/games/" + std::to_string(g) + "/resign", json::object(), bob);
    mails = sink.wait_for(9);
    ASSERT_EQ(mails.size(), 9u);
    EXPECT_EQ(mails[7].first, "alice@example.org");
    EXPECT_NE(decoded_body(mails[7].second).find("against Bob is over: you won (resignation)"), std::string::npos)
        << decoded_body(mails[7].second);
    EXPECT_EQ(mails[8].first, "bob@example.org");
    EXPECT_NE(decoded_body(mails[8].second).find("against alice is over: you lost (resignation)"), std::string::npos);
}

TEST(Mail, UnsubscribeMessagesKeptForTheAbsentAndTheHourlyLimit) {
    NEEDS_AIOSMTPD();
    SmtpSink sink;
    ServerProcess srv(temp_db("mail_limit"), mail_args(sink.port, {"--mail-per-hour", "3"}));
    Http h(srv.ports["http"]);
    std::string alice = token_of(h, "alice"), bob = token_of(h, "Bob");
    confirm_address(h, sink, alice, "alice@example.org", 1);
    confirm_address(h, sink, bob, "bob@example.org", 2);
    // A TELL to alice while she is away is kept for her and mailed.
    h.post("/api/tell", {{"to", "alice"}, {"text", "対局しましょう. Tomorrow?"}, {"leave", true}}, bob);
    auto mails = sink.wait_for(3);
    ASSERT_EQ(mails.size(), 3u);
    EXPECT_NE(decoded_body(mails[2].second)
                  .find("Bob left you a message while you were away:\r\n\r\n  対局しましょう. Tomorrow?"),
              std::string::npos)
        << decoded_body(mails[2].second);
    // The hourly limit (3): the confirmation, the message, one more; the fourth is not sent.
    h.post("/api/tell", {{"to", "alice"}, {"text", "second"}, {"leave", true}}, bob);
    h.post("/api/tell", {{"to", "alice"}, {"text", "third"}, {"leave", true}}, bob);
    std::string log = srv.log_text();
    EXPECT_EQ(count_in(log, "\"event\":\"mail_limited\",\"user\":\"alice\""), 1) << log;
    auto [st, why] = h.request(http::verb::put, "/api/mail", json{{"address", "alice2@example.org"}}.dump(), alice);
    EXPECT_EQ(st, 400);
    EXPECT_NE(why.find("too many mails to you this hour"), std::string::npos) << why;
    // One click on the link of List-Unsubscribe (RFC 8058: a form's POST, no login).
    mails = sink.wait_for(4);
    ASSERT_EQ(mails.size(), 4u);
    std::string url = header(mails[2].second, "List-Unsubscribe");
    ASSERT_TRUE(url.starts_with("<https://shogi.example.org/api/mail/unsubscribe/")) << url;
    std::string path = url.substr(url.find("/api/"), url.size() - 1 - url.find("/api/"));
    EXPECT_EQ(token_after(decoded_body(mails[2].second), "#/mail/unsubscribe/"), path.substr(path.rfind('/') + 1));
    auto res = h.call(http::verb::post, path, "List-Unsubscribe=One-Click",
                      {{"Content-Type", "application/x-www-form-urlencoded"}});
    EXPECT_EQ(res.result_int(), 200) << res.body();
    EXPECT_EQ(h.get("/api/mail", alice)["kinds"], json::array());
    EXPECT_EQ(h.post(path, json::object(), {}, 200)["user"], "alice") << "again: still unsubscribed";
    EXPECT_EQ(h.post("/api/mail/unsubscribe/" + std::string(64, '0'), json::object(), {}, 400)["error"],
              "this unsubscribe link is not valid");
    // Kinds are checked; guests and the unconfigured are told why.
    auto [kst, kbody] = h.request(http::verb::put, "/api/mail", json{{"kinds", {"turn", "spam"}}}.dump(), alice);
    EXPECT_EQ(kst, 400);
    EXPECT_NE(kbody.find("unknown mail kind spam"), std::string::npos);
    auto [bst, bbody] = h.request(http::verb::put, "/api/mail", json{{"address", "bad@@example"}}.dump(), bob);
    EXPECT_EQ(bst, 400);
    EXPECT_NE(bbody.find("not one Hisha mails to"), std::string::npos) << bbody;
}

TEST(Mail, QueuedWhileTheSmtpServerIsDownAndSentAfterARestart) {
    NEEDS_AIOSMTPD();
    int port = free_port();  // nothing listens there yet
    std::string db = temp_db("mail_down");
    ServerProcess srv(db, mail_args(port, {"--smtp-retry", "1/50"}));
    Http h(srv.ports["http"]);
    std::string alice = token_of(h, "alice"), bob = token_of(h, "Bob");
    auto [st, body] = h.request(http::verb::put, "/api/mail", json{{"address", "alice@example.org"}}.dump(), alice);
    ASSERT_EQ(st, 200) << body;
    // The games go on meanwhile: the sender's failures hold nothing up.
    std::int64_t g = corr_game(h, alice, bob);
    move(h, g, alice, "7g7f");
    move(h, g, bob, "3c3d");
    for (int i = 0; i < 200 && srv.log_text().find("\"event\":\"mail_retry\"") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::string log = srv.log_text();
    EXPECT_NE(log.find("\"event\":\"mail_retry\",\"mail\":\"1\""), std::string::npos) << log;
    EXPECT_NE(log.find("Connection refused"), std::string::npos) << log;
    srv.stop();
    SmtpSink sink(port);
    srv.start();
    auto mails = sink.wait_for(1);
    ASSERT_EQ(mails.size(), 1u);
    EXPECT_EQ(mails[0].first, "alice@example.org");
    EXPECT_NE(decoded_body(mails[0].second).find("#/mail/confirm/"), std::string::npos);
}

TEST(Mail, AnAddressTheSmtpServerRefusesIsGivenUpAndLogged) {
    NEEDS_AIOSMTPD();
    SmtpSink sink;
    ServerProcess srv(temp_db("mail_bounce"), mail_args(sink.port));
    Http h(srv.ports["http"]);
    std::string alice = token_of(h, "alice");
    auto [st, body] = h.request(http::verb::put, "/api/mail", json{{"address", "bounce@example.org"}}.dump(), alice);
    ASSERT_EQ(st, 200) << body;
    for (int i = 0; i < 200 && srv.log_text().find("mail_bounced") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::string log = srv.log_text();
    EXPECT_NE(
        log.find("\"event\":\"mail_bounced\",\"mail\":\"1\",\"user\":\"alice\",\"address\":\"bounce@example.org\""),
        std::string::npos)
        << log;
    EXPECT_NE(log.find("550 5.1.1 no such mailbox here"), std::string::npos);
    EXPECT_TRUE(sink.mails().empty());
}

TEST(Mail, StartTlsWithAuthAgainstACertificateTheTestMakes) {
    NEEDS_AIOSMTPD();
    fs::path dir = fs::temp_directory_path() / ("hisha_mail_tls_" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::string cert = (dir / "cert.pem").string(), key = (dir / "key.pem").string();
    std::string make = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "
                       "/CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout "
                     + key + " -out " + cert + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(make.c_str()), 0) << "openssl";
    std::ofstream(dir / "password") << "s3cret pass\n";
    SmtpSink sink(free_port(), {"--tls", cert, key, "--require-tls", "--auth", "mailer:s3cret pass"});
    std::vector<std::string> tls = {"--smtp-tls",
                                    "required",
                                    "--smtp-ca",
                                    cert,
                                    "--smtp-user",
                                    "mailer",
                                    "--smtp-password-file",
                                    (dir / "password").string()};
    ServerProcess srv(temp_db("mail_tls"), mail_args(sink.port, tls));
    Http h(srv.ports["http"]);
    std::string alice = token_of(h, "alice");
    confirm_address(h, sink, alice, "alice@example.org", 1);
    // Without the certificate trusted, the handshake fails and the mail waits.
    ServerProcess untrusted(temp_db("mail_tls2"),
                            mail_args(sink.port, {"--smtp-tls", "required", "--smtp-user", "mailer",
                                                  "--smtp-password-file", (dir / "password").string()}));
    Http h2(untrusted.ports["http"]);
    std::string carol = token_of(h2, "carol");
    h2.request(http::verb::put, "/api/mail", json{{"address", "carol@example.org"}}.dump(), carol);
    for (int i = 0; i < 200 && untrusted.log_text().find("mail_retry") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_NE(untrusted.log_text().find("--smtp-ca FILE"), std::string::npos) << untrusted.log_text();
    EXPECT_EQ(sink.mails().size(), 1u);
    fs::remove_all(dir);
}

TEST(Mail, TheTextProtocolSetsTheAddressAndWhatIsMailed) {
    NEEDS_AIOSMTPD();
    SmtpSink sink;
    ServerProcess srv(temp_db("mail_text"), mail_args(sink.port));
    auto c = text_login(srv, "alice");
    EXPECT_TRUE(has(c->cmd("SET EMAIL"), "EMAIL  none: nothing is mailed"));
    std::string r = c->cmd("SET EMAIL Alice.B@Example.org");
    EXPECT_TRUE(has(r, "EMAIL  Alice.B@Example.org: a confirmation link was mailed there")) << r;
    EXPECT_TRUE(has(r, "MAIL   turn,challenge,end,message")) << r;
    auto mails = sink.wait_for(1);
    ASSERT_EQ(mails.size(), 1u);
    EXPECT_EQ(mails[0].first, "Alice.B@Example.org");
    EXPECT_TRUE(has(c->cmd("SET EMAIL alice@localhost"), "the domain after @ is not a host name"));
    EXPECT_TRUE(has(c->cmd("SET MAIL turn,bogus"), "unknown mail kind bogus"));
    EXPECT_TRUE(has(c->cmd("set mail Message,TURN"), "MAIL   turn,message"));
    EXPECT_TRUE(has(c->cmd("SET MAIL none"), "MAIL   none"));
    EXPECT_TRUE(has(c->cmd("SET EMAIL -"), "EMAIL  none"));
    ServerProcess plain(temp_db("mail_text_none"), {"--bots", ""});
    auto d = text_login(plain, "bob");
    EXPECT_TRUE(has(d->cmd("SET EMAIL bob@example.org"), "this server sends no mail"));
}

// On a PostgreSQL database shared by two servers, one sends the queue's mail (the one that
// claimed it), whichever server queued it; when it stops, the other takes over.
TEST_F(Postgres, OneServerOfASharedDatabaseSendsTheMailAndTheOtherTakesOver) {
    NEEDS_AIOSMTPD();
    SmtpSink sink;
    std::string url = fresh_db();
    auto a = std::make_unique<ServerProcess>(url, mail_args(sink.port));
    ServerProcess b(url, mail_args(sink.port));
    Http h(b.ports["http"]);
    std::string alice = token_of(h, "alice");
    auto [st, body] = h.request(http::verb::put, "/api/mail", json{{"address", "alice@example.org"}}.dump(), alice);
    ASSERT_EQ(st, 200) << body;
    ASSERT_EQ(sink.wait_for(1).size(), 1u);
    for (int i = 0; i < 100 && a->log_text().find("\"event\":\"mail_sent\"") == std::string::npos; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_NE(a->log_text().find("\"event\":\"mail_sent\""), std::string::npos) << "the first server sends";
    EXPECT_EQ(b.log_text().find("\"event\":\"mail_sent\""), std::string::npos) << b.log_text();
    a.reset();  // stopped: the second takes over
    std::tie(st, body) = h.request(http::verb::put, "/api/mail", json{{"address", "alice2@example.org"}}.dump(), alice);
    ASSERT_EQ(st, 200) << body;
    auto mails = sink.wait_for(2);
    ASSERT_EQ(mails.size(), 2u);
    EXPECT_EQ(mails[1].first, "alice2@example.org");
    EXPECT_NE(b.log_text().find("\"event\":\"mail_sent\""), std::string::npos);
}

TEST(Mail, TheOptionsAreCheckedAndWithoutSmtpThereIsNoMail) {
    auto [out, status] = run_server_cli("--smtp-host 127.0.0.1 --smtp-from hisha@example.org");
    EXPECT_EQ(status, 2);
    EXPECT_NE(out.find("--smtp-host needs --public-url"), std::string::npos) << out;
    std::tie(out, status) = run_server_cli("--smtp-tls sometimes");
    EXPECT_EQ(status, 2);
    EXPECT_NE(out.find("--smtp-tls is off, when-offered or required"), std::string::npos) << out;
    std::tie(out, status) = run_server_cli("--smtp-password-file /nonexistent/file");
    EXPECT_NE(out.find("--smtp-password-file cannot be read"), std::string::npos) << out;
    ServerProcess srv(temp_db("mail_none"), {"--bots", ""});
    Http h(srv.ports["http"]);
    std::string alice = token_of(h, "alice");
    auto [st, body] = h.request(http::verb::get, "/api/mail", {}, alice);
    EXPECT_EQ(st, 404);
    EXPECT_NE(body.find("this server sends no mail"), std::string::npos);
}

}  // namespace
}  // namespace hisha::server::test
