// Hostile clients of the load benchmark's attack mode (--attack N): over 127.0.0.1 they flood
// the server with logins of a real account with wrong passwords (text LOGIN, CSA LOGIN, HTTP
// /api/login), with registrations of new names (text REGISTER, HTTP /api/register) and with
// tsume problems (POST /api/tsume without a login, and --tsume-accounts logged-in ones, two
// connections an account, each asking for a 60 s solve of a problem with no mate), each
// sending its next attempt as soon as the last is answered, whatever the answer (an attacker
// does not wait when told to). The answers are counted by what the server did: checked the
// password, refused by a limit (which one, from its words), too busy, or solved.
#pragma once

#include <sys/socket.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace bench {

enum class AttackKind { TextLogin, CsaLogin, HttpLogin, TextRegister, HttpRegister, TsumeAnon, TsumeUser };

inline const char* attack_name(AttackKind k) {
    switch (k) {
    case AttackKind::TextLogin: return "text_login";
    case AttackKind::CsaLogin: return "csa_login";
    case AttackKind::HttpLogin: return "http_login";
    case AttackKind::TextRegister: return "text_register";
    case AttackKind::HttpRegister: return "http_register";
    case AttackKind::TsumeAnon: return "tsume_no_login";
    case AttackKind::TsumeUser: return "tsume_logged_in";
    }
    return "";
}

// What an answer says, from the server's words (the same on every port): the first of these
// words found names it.
inline std::string outcome_of(std::string_view answer) {
    static constexpr std::pair<std::string_view, const char*> WORDS[] = {
        {"server busy", "busy"},
        {"too many failed logins from your address", "limited:backoff_address"},
        {"too many failed logins for this account", "limited:backoff_account"},
        {"too many login attempts from your address", "limited:login_per_address"},
        {"too many login attempts for this account", "limited:login_per_account"},
        {"too many new accounts", "limited:register_per_address"},
        {"log in first", "refused:login_required"},
        {"running already", "limited:jobs_per_account"},
        {"\"status\"", "solved"},
        {"created", "registered"},
        {"\"token\"", "registered"},
    };
    for (auto& [words, outcome] : WORDS)
        if (answer.find(words) != std::string_view::npos)
            return outcome;
    return "checked";  // the password was hashed or checked: refused, or taken
}

struct Hostile {
    AttackKind kind = AttackKind::TextLogin;
    int fd = -1;
    int id = 0;
    int attempt = 0;
    bool greeted = false;  // text: the first prompt came
    bool waiting = false;  // an attempt is unanswered
    bool reconnect = false;
    std::string token;  // TsumeUser: the account's session
    std::string in, out;

    // Microcosmos (1525 plies), which no solver here finishes: each admitted request keeps a
    // solver thread for the 60 s it asks for.
    static std::string tsume_request(const std::string& token) {
        std::string body = R"({"sfen":"g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/)"
                           R"(4+P1P1L/+B5G1g b - 1","convention":"tsume","time_limit_s":60})";
        return "POST /api/tsume HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             + (token.empty() ? std::string() : "Authorization: Bearer " + token + "\r\n")
             + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    }

    std::string next_request(const std::string& victim) {
        std::string n = std::to_string(id) + "x" + std::to_string(attempt++);
        switch (kind) {
        case AttackKind::TextLogin: return "LOGIN " + victim + " wrong" + n + "\r\n";
        case AttackKind::CsaLogin: return "LOGIN " + victim + " wrong" + n + "\n";
        case AttackKind::TextRegister: return "REGISTER atk" + n + " secret" + n + "\r\n";
        case AttackKind::TsumeAnon: return tsume_request("");
        case AttackKind::TsumeUser: return tsume_request(token);
        case AttackKind::HttpLogin:
        case AttackKind::HttpRegister: {
            bool reg = kind == AttackKind::HttpRegister;
            std::string body = reg ? R"({"name":"atk)" + n + R"(","password":"secret)" + n + "\"}"
                                   : R"({"name":")" + victim + R"(","password":"wrong)" + n + "\"}";
            return std::string("POST ") + (reg ? "/api/register" : "/api/login")
                 + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                 + std::to_string(body.size()) + "\r\n\r\n" + body;
        }
        }
        return {};
    }

    // Takes the answers out of `in`: each one's outcome to `tally`. Returns how many came.
    int take_answers(std::map<std::string, long>& tally) {
        if (kind == AttackKind::CsaLogin)
            return take_csa_lines(tally);
        int answers = 0;
        for (;;) {
            std::string answer;
            if (!take_one(answer))
                return answers;
            if (answer.empty())
                continue;  // the greeting
            ++answers;
            std::string o = outcome_of(answer);
            ++tally[std::string(attack_name(kind)) + " " + o];
            if (kind == AttackKind::TextRegister && o == "registered")
                reconnect = true;  // logged in now: a new connection for the next one
        }
    }

private:
    bool take_one(std::string& answer) {
        switch (kind) {
        case AttackKind::TextLogin:
        case AttackKind::TextRegister: {
            auto at = in.find("hisha> ");
            if (at == std::string::npos)
                return false;
            answer = greeted ? in.substr(0, at) : "";
            greeted = true;
            in.erase(0, at + 7);
            return true;
        }
        case AttackKind::CsaLogin: return false;  // take_csa_lines()
        case AttackKind::HttpLogin:
        case AttackKind::HttpRegister:
        case AttackKind::TsumeAnon:
        case AttackKind::TsumeUser: {
            auto head_end = in.find("\r\n\r\n");
            if (head_end == std::string::npos)
                return false;
            auto cl = in.find("Content-Length: ");
            std::size_t length =
                cl != std::string::npos && cl < head_end ? std::strtoul(in.c_str() + cl + 16, nullptr, 10) : 0;
            if (in.size() < head_end + 4 + length)
                return false;
            answer = in.substr(0, head_end + 4 + length);
            in.erase(0, head_end + 4 + length);
            return true;
        }
        }
        return false;
    }

    // CSA: each LOGIN:incorrect is an answer whose password was checked, unless the line after
    // it is ##[ERROR] <why> (a limit, or busy): then it is counted again under that.
    int take_csa_lines(std::map<std::string, long>& tally) {
        int answers = 0;
        for (auto nl = in.find('\n'); nl != std::string::npos; nl = in.find('\n')) {
            std::string l = in.substr(0, nl);
            in.erase(0, nl + 1);
            if (l.starts_with("LOGIN:")) {
                ++answers;
                ++tally["csa_login checked"];
            } else if (l.starts_with("##[ERROR]")) {
                --tally["csa_login checked"];
                ++tally["csa_login " + outcome_of(l)];
            }
        }
        return answers;
    }
};

}  // namespace bench
