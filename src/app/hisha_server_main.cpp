// main() of `hisha-server`: arguments only; the server is src/server/net/server.h.
#include <fmt/format.h>

#include <boost/asio/ip/address.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "server/net/server.h"
#include "server/service/log.h"
#include "server/service/mail_message.h"
#include "server/service/tournament.h"
#include "server/store/backup.h"

namespace {

constexpr const char* USAGE =
    "usage: hisha-server [options]\n"
    "       hisha-server backup --to FILE [--db URL | --config FILE]\n"
    "       hisha-server admin grant|revoke NAME [--db URL | --config FILE]\n"
    "       hisha-server admin list [--db URL | --config FILE]\n"
    "  backup                copy the SQLite database (--db, or the db of --config) to the new\n"
    "  --to FILE             file FILE while the server runs (SQLite's online backup: one\n"
    "                        consistent snapshot); PostgreSQL: pg_dump\n"
    "  admin grant NAME      make the account NAME an administrator (ADMIN commands, the web\n"
    "                        page's #/admin); revoke: no longer; list: the administrators. On the\n"
    "                        database, also while the server runs (it counts at once); audited\n"
    "options of the server:\n"
    "  --db URL              sqlite:PATH[?sync=normal&wal_mb=64] (default sqlite:var/hisha.db), or\n"
    "                        postgresql://USER@HOST:PORT/DB (libpq URI; several servers may share one)\n"
    "  --text-port P         text protocol, Shoogi Server commands (default 5000; -1 off; 0 any)\n"
    "  --csa-port P          CSA server protocol 1.2.1 (default 4081; -1 off)\n"
    "  --http-port P         HTTP + WebSocket JSON API and web UI (default 8080; -1 off)\n"
    "  --bind ADDR           address to listen on (default 127.0.0.1)\n"
    "  --static DIR          serve the web UI's files from DIR (default: the installed UI,\n"
    "                        <prefix>/share/hisha/web, or the source tree's web/dist)\n"
    "  --puzzles FILE        tsume puzzles for the web page's #/puzzles (made by hisha puzzles;\n"
    "                        ratings and attempts are kept in the database)\n"
    "  --days-per-move N     correspondence default (default 7)\n"
    "  --password-cost C     argon2id cost: interactive (default) or min (tests)\n"
    "  --max-per-address N   connections allowed from one address (default 64)\n"
    "  --group-commit on|off commit the moves of one event-loop turn together, holding replies\n"
    "                        until they are durable (default on)\n"
    "  --csa-auto-register on|off   a CSA LOGIN with an unknown name creates that account, as\n"
    "                        on Floodgate (default off: refused like a wrong password; players\n"
    "                        register through the text protocol or the web page)\n"
    "  --csa-max-moves N     CSA games are drawn (#MAX_MOVES) after N moves (default 256; 0 none)\n"
    "  --csa-reconnect-grace S   a CSA player who drops out of a game may log in again within S\n"
    "                        seconds and play on (the clock runs); default 0: lost at once\n"
    "  --adjourn-disconnected on|off   a CSA player not back within the reconnect grace has the\n"
    "                        game adjourned (both clocks stopped until both RESUME it) instead\n"
    "                        of lost (default off)\n"
    "  --vacation-days N     each player's vacation days a calendar year: their correspondence\n"
    "                        clocks stand still on their turn (default 30; 0: no vacations)\n"
    "  --tournament PATTERN:INTERVAL   a scheduled CSA tournament, as on Floodgate: CSA players\n"
    "                        whose game name matches PATTERN (floodgate-600-10F*; HELP PATTERNS)\n"
    "                        wait, and every INTERVAL (30 minutes, or 30m, 45s, 2h; rounds at its\n"
    "                        multiples since midnight UTC) those of each game name are paired by\n"
    "                        rating and their games rated (GET /api/ratings); may be repeated\n"
    "  --log json|off        structured log on stderr, one JSON object per line: listening,\n"
    "                        connect/disconnect, login, game_created, game_end... (default json)\n"
    "  --log-level LEVEL     trace, debug, info (default), warn, error or off: the events below it\n"
    "                        are left out (refusals and limits are warn, failed commits error)\n"
    "  --log-file PATH       append the log to PATH instead of stderr\n"
    "  --idle-timeout S      close text/CSA connections silent for S seconds (default 3600)\n"
    "  --line-timeout S      close text/CSA connections that take more than S seconds to finish\n"
    "                        a line they began, a slow client's (default 60; 0: no limit)\n"
    "  --max-commands-per-second N   per text/CSA connection, HTTP connection or WebSocket,\n"
    "                        bursts of 3 s allowed (default 20; 0: no limit); faster ones wait\n"
    "                        their turn (none is lost)\n"
    "  --hash-threads N      threads that hash and check passwords, below the loop's priority\n"
    "                        (default 1: more take memory bandwidth and cores from the loop)\n"
    "  --hash-queue N        password checks waiting or running at most; beyond, logins and\n"
    "                        registrations are answered \"server busy\" at once (HTTP 503; default 32)\n"
    "  --solver-threads N    tsume solves and engine analyses (logged-in users only) running at\n"
    "                        once (default 1)\n"
    "  --solver-queue N      solves and analyses waiting for a thread at most; beyond, \"server\n"
    "                        busy, retry in N s\" at once (HTTP 503; default 8)\n"
    "  --solver-jobs-per-account N   solves and analyses of one account running or waiting\n"
    "                        at most; beyond, \"retry in N s\" (HTTP 429; default 1)\n"
    "  --login-per-address B/M   login attempts from one address: B at once, then M a minute\n"
    "                        (default 20/30; 0: no limit); beyond, \"retry in N s\" (HTTP 429)\n"
    "  --login-per-account B/M   the same for one account (default 10/10)\n"
    "  --register-per-address B/M   new accounts from one address (default 30/10)\n"
    "  --new-games-per-account B/M   challenges and games one account makes (NEW, ACCEPT,\n"
    "                        the web's, CSA waits; default 20/20)\n"
    "  --requests-per-address B/M   JSON API requests from one address (default 600/6000)\n"
    "  --requests-per-account B/M   JSON API requests and WebSocket messages of one account\n"
    "                        (default 300/3000); beyond either, 429 with Retry-After\n"
    "  --login-backoff A/C/MAX   after A failed logins in a row from an address, or C for an\n"
    "                        account, each attempt waits 1 s, doubled at every further failure up\n"
    "                        to MAX s; a success forgets them (default 10/3/60; MAX 0: off)\n"
    "  --config FILE         read options from FILE: `name value` or `name = value` per line,\n"
    "                        no dashes, # comments; later command-line options override it\n"
    "  --session-lifetime D  how long a web login lasts: 30m, 12h, 30d, 2w (default 30d); its\n"
    "                        token and cookie expire then (log out and log out everywhere end it sooner)\n"
    "  --guest-lifetime D    how long a web guest account (Play as guest) lasts\n"
    "                        (default 1d; 0: no guest play)\n"
    "  --public-origin URL   the web page's origin (https://shogi.example.org), when a reverse\n"
    "                        proxy does not pass the Host header on; may be repeated. Requests\n"
    "                        with the session cookie must come from it (CSRF; default: the Host)\n"
    "  --trusted-proxy ADDR  a reverse proxy's address (127.0.0.1); may be repeated. An HTTP\n"
    "                        request from it is the client's of its X-Forwarded-For's last entry,\n"
    "                        for bans, limits and the log (default: none, the header is ignored)\n"
    "  --smtp-host HOST      mail notifications (your turn in correspondence games, challenges,\n"
    "                        game ends, messages kept for the absent) through this SMTP server\n"
    "                        (default: none, no mail at all); --smtp-from and --public-url needed\n"
    "  --smtp-port P         its port (default 25; 587 for submission)\n"
    "  --smtp-from ADDR      the sender's address of every mail\n"
    "  --smtp-user NAME      AUTH PLAIN or LOGIN as NAME, with the password of\n"
    "  --smtp-password-file F   the file's first line (never on the command line)\n"
    "  --smtp-tls MODE       STARTTLS: off, when-offered (default) or required; the password is\n"
    "                        never sent unencrypted unless off\n"
    "  --smtp-ca FILE        certificates (PEM) trusted for STARTTLS instead of the system's\n"
    "  --smtp-timeout S      each step of an SMTP conversation, at most (default 30)\n"
    "  --smtp-retry S/N      a failed mail is tried again after S seconds, doubled each time, N\n"
    "                        tries in all, then given up (default 60/8)\n"
    "  --mail-per-hour N     mails to one player an hour at most (default 10)\n"
    "  --public-url URL      the web page's address in mails' links (https://shogi.example.org)\n"
    "  --bots SPEC           engine bots as accounts, NAME=SKILL,... (Skill 0 = 15 kyu .. 20 full;\n"
    "                        default hisha-10kyu=5,hisha-1dan=15,hisha-max=20; \"\" for none)\n"
    "  --version             the version\n"
    "  --help                this text\n"
    "example: hisha-server --db sqlite:/var/lib/hisha/hisha.db --http-port 8080 --log-level warn\n";

// A config file holds the long options one per line, `name value` or `name = value`, without
// the dashes (`db = sqlite:/srv/hisha.db`); `#` starts a comment. Options given on the command
// line after --config override the file.
bool read_config(const std::string& path, std::vector<std::string>& args, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = "cannot read config file " + path;
        return false;
    }
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (auto hash = line.find('#'); hash != std::string::npos)
            line.resize(hash);
        auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos)
            continue;
        line = line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
        auto split = line.find_first_of(" \t=");
        std::string name = line.substr(0, split);
        std::string value;
        if (split != std::string::npos) {
            value = line.substr(split);
            value.erase(0, value.find_first_not_of(" \t"));
            if (!value.empty() && value[0] == '=')
                value.erase(0, value.find_first_not_of(" \t", 1));
        }
        if (name.empty() || name.starts_with("-") || name == "config" || name == "help") {
            error = path + ":" + std::to_string(number) + ": expected an option name, e.g. `db = sqlite:var/hisha.db`";
            return false;
        }
        args.push_back("--" + name);
        if (split != std::string::npos)
            args.push_back(value);
    }
    return true;
}

// "B/M": a burst and a rate a minute; "0" for no limit.
bool rate_arg(const std::string& s, hisha::server::service::RateLimit& out) {
    if (s == "0") {
        out = {};
        return true;
    }
    char* end = nullptr;
    double burst = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '/' || !(burst >= 1 && burst <= 1e6))
        return false;
    const char* rate = end + 1;
    double per_minute = std::strtod(rate, &end);
    if (end == rate || *end || !(per_minute >= 0 && per_minute <= 1e6))
        return false;
    out = {burst, per_minute};
    return true;
}

// "A/C/MAX": free failures of an address, of an account, and the longest delay in seconds.
bool backoff_arg(const std::string& s, hisha::server::service::AttemptPolicy& p) {
    long v[3];
    const char* at = s.c_str();
    for (int i = 0; i < 3; ++i) {
        char* end = nullptr;
        v[i] = std::strtol(at, &end, 10);
        if (end == at || v[i] < 0 || v[i] > 86400 || *end != (i < 2 ? '/' : '\0'))
            return false;
        at = end + 1;
    }
    p.free_failures_address = int(v[0]);
    p.free_failures_account = int(v[1]);
    p.max_delay_ms = v[2] * 1000;
    return true;
}

// A whole number in [lo, hi].
bool count_arg(const char* s, long lo, long hi, long& out) {
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return false;
    out = v;
    return true;
}

bool port_arg(const char* s, int& out) {
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (!end || *end || v < -1 || v > 65535)
        return false;
    out = int(v);
    return true;
}

// The web UI's files when --static is not given: installed beside the program
// (<prefix>/bin/hisha-server and <prefix>/share/hisha/web), else those of the source tree this
// binary was built from (web/dist, written by `make web`). "" when neither holds an index.html.
std::string installed_web_dir() {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    std::vector<fs::path> candidates;
    if (!ec)
        candidates.push_back(exe.parent_path().parent_path() / HISHA_INSTALLED_WEB_DIR);
    candidates.push_back(HISHA_SOURCE_WEB_DIR);
    for (const fs::path& dir : candidates)
        if (fs::is_regular_file(dir / "index.html", ec))
            return dir.lexically_normal().string();
    return "";
}

// The database of the config file `path` (as the server would open it) into `db`: "" or why not.
std::string db_arg(const std::string&, const std::string& path, std::string& db) {
    std::vector<std::string> args;
    std::string error;
    if (!read_config(path, args, error))
        return error;
    for (std::size_t k = 0; k + 1 < args.size(); ++k)
        if (args[k] == "--db")
            db = args[k + 1];
    return {};
}

// hisha-server admin grant|revoke NAME | list [--db URL | --config FILE]
int admin_main(int argc, char** argv) {
    using namespace hisha::server;
    constexpr const char* ADMIN_USAGE =
        "usage: hisha-server admin grant|revoke NAME | list [--db URL | --config FILE]\n"
        "example: hisha-server admin grant alice --db sqlite:var/hisha.db\n";
    std::string db = net::ServerOptions{}.db;
    std::vector<std::string> words;
    hisha::app::Cli cli("hisha-server admin", ADMIN_USAGE);
    cli.text("--db", db);
    cli.option("--config", [&db](const std::string& v) { return db_arg("--config", v, db); });
    cli.positionals("WORDS", words);
    if (int status = cli.parse(argc - 2, argv + 2); status >= 0)
        return status;
    bool list = words.size() == 1 && words[0] == "list";
    bool change = words.size() == 2 && (words[0] == "grant" || words[0] == "revoke");
    if (!list && !change) {
        fmt::print(stderr, "hisha-server admin: {}", ADMIN_USAGE);
        return 2;
    }
    std::string error;
    auto store = store::open_store(db, error);
    if (!store) {
        fmt::print(stderr, "hisha-server admin: cannot open {}: {}\n", db, error);
        return 1;
    }
    if (list) {
        for (const std::string& key : store->admins()) {
            auto u = store->find_user(key);
            fmt::print("{}\n", u ? u->name : key);
        }
        return 0;
    }
    auto u = store->find_user(words[1]);
    if (!u) {
        fmt::print(stderr, "hisha-server admin: no account named {} in {}\n", words[1], db);
        return 1;
    }
    if (!u->bot.empty()) {
        fmt::print(stderr, "hisha-server admin: {} is an engine bot, which cannot log in\n", u->name);
        return 1;
    }
    bool grant = words[0] == "grant";
    using namespace std::chrono;
    service::Millis now = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    AuditRow a;
    a.at = now;
    a.admin = "hisha-server admin";
    a.action = grant ? "grant" : "revoke";
    a.target = u->name;
    if (!store->set_admin(u->name, grant, now) || !store->insert_audit(a)) {
        fmt::print(stderr, "hisha-server admin: {}\n", store->last_error());
        return 1;
    }
    fmt::print("{} {}\n", u->name, grant ? "is an administrator" : "is no longer an administrator");
    return 0;
}

// hisha-server backup --to FILE [--db URL | --config FILE]
int backup_main(int argc, char** argv) {
    std::string db = hisha::server::net::ServerOptions{}.db, to;
    hisha::app::Cli cli("hisha-server backup", USAGE);
    cli.text("--to", to);
    cli.text("--db", db);
    cli.option("--config", [&db](const std::string& v) { return db_arg("--config", v, db); });
    if (int status = cli.parse(argc - 2, argv + 2); status >= 0)
        return status;
    if (to.empty()) {
        fmt::print(stderr, "hisha-server backup: --to FILE is missing\n");
        return 2;
    }
    std::string error, summary;
    if (!hisha::server::store::backup(db, to, error, summary)) {
        fmt::print(stderr, "hisha-server backup: {}\n", error);
        return 1;
    }
    fmt::print("{}\n", summary);
    return 0;
}

// One option of the server: its names and what its value does to the options; an error (the
// message after "hisha-server: ") when the value is refused.
using ServerOptions = hisha::server::net::ServerOptions;
struct ServerFlag {
    std::vector<std::string> names;
    std::function<std::string(const std::string& name, const char* value, ServerOptions& opt)> apply;
};

// A whole number from lo to hi, or the error `message`.
std::function<std::string(const std::string&, const char*, ServerOptions&)>
number_flag(long lo, long hi, std::string message, std::function<void(ServerOptions&, long)> set) {
    return [=](const std::string&, const char* v, ServerOptions& opt) -> std::string {
        long n = 0;
        if (!count_arg(v, lo, hi, n))
            return message;
        set(opt, n);
        return {};
    };
}

// Where the server keeps and serves things: the database, addresses and ports, files, bots, logging.
std::vector<ServerFlag> where_flags() {
    return {
        {{"--db"}, [](auto&, const char* v, ServerOptions& o) { return o.db = v, std::string(); }},
        {{"--bind"}, [](auto&, const char* v, ServerOptions& o) { return o.bind = v, std::string(); }},
        {{"--static"}, [](auto&, const char* v, ServerOptions& o) { return o.static_dir = v, std::string(); }},
        {{"--puzzles"}, [](auto&, const char* v, ServerOptions& o) { return o.puzzles = v, std::string(); }},
        {{"--bots"}, [](auto&, const char* v, ServerOptions& o) { return o.bots = v, std::string(); }},
        {{"--text-port", "--csa-port", "--http-port"},
         [](const std::string& a, const char* v, ServerOptions& o) {
             int& port = a == "--text-port" ? o.text_port : a == "--csa-port" ? o.csa_port : o.http_port;
             return port_arg(v, port) ? std::string() : a + " needs a port, 0..65535 (0: any; -1: off)";
         }},
        {{"--group-commit"},
         [](auto&, const char* v, ServerOptions& o) {
             return o.config.group_commit = std::string(v) == "on", std::string();
         }},
        {{"--log"},
         [](auto&, const char* v, ServerOptions&) -> std::string {
             std::string s = v;
             if (s != "json" && s != "off")
                 return "--log is json or off";
             hisha::server::set_logging(s == "json");
             return {};
         }},
        {{"--log-level"},
         [](auto&, const char* v, ServerOptions&) -> std::string {
             return hisha::server::set_log_level(v) ? "" : "--log-level is trace, debug, info, warn, error or off";
         }},
        {{"--log-file"},
         [](auto&, const char* v, ServerOptions&) -> std::string {
             std::string e = hisha::server::set_log_file(v);
             return e.empty() ? e : "--log-file cannot be written (" + e + ")";
         }},
    };
}

// How games are played and scheduled: correspondence pace, CSA players, tournaments.
std::vector<ServerFlag> game_flags() {
    return {
        {{"--days-per-move"},
         [](auto&, const char* v, ServerOptions& o) {
             o.config.default_days_per_move = std::atoi(v);
             if (o.config.default_days_per_move < 1)
                 o.config.default_days_per_move = 7;
             return std::string();
         }},
        {{"--csa-auto-register"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             std::string s = v;
             if (s != "on" && s != "off")
                 return "--csa-auto-register is on or off";
             o.config.csa_auto_register = s == "on";
             return {};
         }},
        {{"--csa-max-moves"},
         number_flag(0, 100000, "--csa-max-moves needs a number 0..100000",
                     [](ServerOptions& o, long n) { o.config.csa_max_moves = int(n); })},
        {{"--adjourn-disconnected"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             std::string s = v;
             if (s != "on" && s != "off")
                 return "--adjourn-disconnected is on or off";
             o.config.adjourn_disconnected = s == "on";
             return {};
         }},
        {{"--vacation-days"},
         number_flag(0, 366, "--vacation-days needs days, 0..366",
                     [](ServerOptions& o, long n) { o.config.vacation_days = int(n); })},
        {{"--csa-reconnect-grace"},
         number_flag(0, 86400, "--csa-reconnect-grace needs seconds, 0..86400",
                     [](ServerOptions& o, long n) { o.config.csa_reconnect_grace_ms = n * 1000; })},
        {{"--tournament"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             auto t = hisha::server::service::parse_tournament(v);
             if (!t)
                 return t.error();
             for (const auto& other : o.config.tournaments)
                 if (other.pattern == t->pattern)
                     return "--tournament " + t->pattern + " is given twice";
             o.config.tournaments.push_back(*t);
             return {};
         }},
    };
}

// Limits: idle connections, command rates, the password and solver queues, login, registration
// and request rates.
std::vector<ServerFlag> limit_flags() {
    using hisha::server::service::Config;
    return {
        {{"--idle-timeout"},
         number_flag(1, 30L * 86400, "--idle-timeout needs seconds, 1.." + std::to_string(30L * 86400),
                     [](ServerOptions& o, long n) { o.idle_timeout_s = int(n); })},
        {{"--line-timeout"},
         number_flag(0, 30L * 86400, "--line-timeout needs seconds, 0.." + std::to_string(30L * 86400),
                     [](ServerOptions& o, long n) { o.line_timeout_s = int(n); })},
        {{"--max-commands-per-second"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             char* end = nullptr;
             double n = std::strtod(v, &end);
             if (!*v || *end || !(n >= 0) || n > 1e6)
                 return "--max-commands-per-second needs a number (0: no limit)";
             o.commands_per_second = n;
             return {};
         }},
        {{"--hash-threads", "--hash-queue"},
         [](const std::string& a, const char* v, ServerOptions& o) -> std::string {
             long hi = a == "--hash-threads" ? 64 : 100000, n = 0;
             if (!count_arg(v, 1, hi, n))
                 return a + " needs a number, 1.." + std::to_string(hi);
             if (a == "--hash-threads")
                 o.config.hash_threads = int(n);
             else
                 o.config.hash_queue = std::size_t(n);
             return {};
         }},
        {{"--solver-threads", "--solver-queue", "--solver-jobs-per-account"},
         [](const std::string& a, const char* v, ServerOptions& o) -> std::string {
             long lo = a == "--solver-queue" ? 0 : 1, hi = a == "--solver-threads" ? 64 : 100000, n = 0;
             if (!count_arg(v, lo, hi, n))
                 return a + " needs a number, " + std::to_string(lo) + ".." + std::to_string(hi);
             if (a == "--solver-threads")
                 o.jobs.workers = int(n);
             else if (a == "--solver-queue")
                 o.jobs.queue = std::size_t(n);
             else
                 o.jobs.per_account = std::size_t(n);
             return {};
         }},
        {{"--login-per-address", "--login-per-account", "--register-per-address", "--new-games-per-account",
          "--requests-per-address", "--requests-per-account"},
         [](const std::string& a, const char* v, ServerOptions& o) -> std::string {
             auto& p = o.config.attempts;
             auto& limit = a == "--login-per-address"    ? p.login_per_address
                         : a == "--login-per-account"    ? p.login_per_account
                         : a == "--register-per-address" ? p.register_per_address
                         : a == "--requests-per-address" ? p.request_per_address
                         : a == "--requests-per-account" ? p.request_per_account
                                                         : p.new_game_per_account;
             return rate_arg(v, limit) ? std::string() : a + " needs BURST/PER_MINUTE (e.g. 20/30), or 0 for no limit";
         }},
        {{"--login-backoff"},
         [](auto&, const char* v, ServerOptions& o) {
             return backoff_arg(v, o.config.attempts)
                      ? std::string()
                      : std::string("--login-backoff needs ADDRESS/ACCOUNT/MAX_SECONDS (e.g. 10/3/60)");
         }},
    };
}

// Sessions and the network: the session lifetime, the public origin, trusted proxies,
// connections per address, password hashing.
std::vector<ServerFlag> session_flags() {
    using hisha::server::service::Config;
    return {
        {{"--session-lifetime"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             auto ms = hisha::server::service::Service::parse_duration(v);
             if (!ms)
                 return "--session-lifetime needs a duration: 30m, 12h, 30d, 2w (or 90s)";
             o.config.token_lifetime_ms = *ms;
             return {};
         }},
        {{"--guest-lifetime"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             auto ms = std::string_view(v) == "0" ? std::optional<hisha::server::service::Millis>(0)
                                                  : hisha::server::service::Service::parse_duration(v);
             if (!ms)
                 return "--guest-lifetime needs a duration: 30m, 12h, 1d (or 0: no guests)";
             o.config.guest_lifetime_ms = *ms;
             return {};
         }},
        {{"--public-origin"},
         [](auto&, const char* value, ServerOptions& o) -> std::string {
             std::string v = value;
             auto scheme = v.find("://");
             if ((!v.starts_with("http://") && !v.starts_with("https://")) || v.size() <= scheme + 3
                 || v.find('/', scheme + 3) != std::string::npos)
                 return "--public-origin needs an origin: scheme://host[:port] with no path, e.g. "
                        "https://shogi.example.org";
             o.public_origins.push_back(v);
             return {};
         }},
        {{"--trusted-proxy"},
         [](auto&, const char* value, ServerOptions& o) -> std::string {
             boost::system::error_code ec;
             auto a = boost::asio::ip::make_address(value, ec);
             if (ec)
                 return std::string("--trusted-proxy needs an IP address, e.g. 127.0.0.1 (not '") + value + "')";
             o.trusted_proxies.push_back(a.to_string());
             return {};
         }},
        {{"--max-per-address"},
         [](auto&, const char* v, ServerOptions& o) {
             long n = std::atol(v);
             o.max_connections_per_address = n > 0 ? std::size_t(n) : 64;
             return std::string();
         }},
        {{"--password-cost"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             std::string c = v;
             if (c == "min") {
                 o.config.password_ops = 1;
                 o.config.password_mem = 8192;
             } else if (c == "interactive") {  // (also after an earlier --password-cost min)
                 o.config.password_ops = Config{}.password_ops;
                 o.config.password_mem = Config{}.password_mem;
             } else
                 return "--password-cost is interactive or min";
             return {};
         }},
    };
}

// Mail notifications (service/mail.h): the SMTP server, the sender, AUTH, STARTTLS, retries,
// the hourly limit and the links' address.
std::vector<ServerFlag> mail_flags() {
    using Tls = hisha::server::service::MailConfig::Tls;
    auto text = [](std::string hisha::server::service::MailConfig::*field) {
        return [field](auto&, const char* v, ServerOptions& o) { return o.mail.*field = v, std::string(); };
    };
    return {
        {{"--smtp-host"}, text(&hisha::server::service::MailConfig::host)},
        {{"--smtp-user"}, text(&hisha::server::service::MailConfig::user)},
        {{"--smtp-ca"}, text(&hisha::server::service::MailConfig::ca_file)},
        {{"--smtp-port"},
         number_flag(1, 65535, "--smtp-port needs a port, 1..65535",
                     [](ServerOptions& o, long n) { o.mail.port = int(n); })},
        {{"--smtp-timeout"},
         number_flag(1, 600, "--smtp-timeout needs seconds, 1..600",
                     [](ServerOptions& o, long n) { o.mail.timeout_ms = n * 1000; })},
        {{"--mail-per-hour"},
         number_flag(1, 1000, "--mail-per-hour needs a number, 1..1000",
                     [](ServerOptions& o, long n) { o.mail.per_hour = int(n); })},
        {{"--smtp-from"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             std::string why = hisha::server::service::mail::address_problem(v);
             return why.empty() ? (o.mail.from = v, std::string()) : "--smtp-from: " + why;
         }},
        {{"--smtp-password-file"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             std::ifstream in(v);
             if (!in || !std::getline(in, o.mail.password))
                 return std::string("--smtp-password-file cannot be read");
             while (!o.mail.password.empty() && (o.mail.password.back() == '\r' || o.mail.password.back() == '\n'))
                 o.mail.password.pop_back();
             return {};
         }},
        {{"--smtp-tls"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             std::string s = v;
             if (s != "off" && s != "when-offered" && s != "required")
                 return "--smtp-tls is off, when-offered or required";
             o.mail.tls = s == "off" ? Tls::Off : s == "required" ? Tls::Required : Tls::WhenOffered;
             return {};
         }},
        {{"--smtp-retry"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             long seconds = 0, tries = 0;
             std::string s = v;
             auto slash = s.find('/');
             if (slash == std::string::npos || !count_arg(s.substr(0, slash).c_str(), 1, 86400, seconds)
                 || !count_arg(s.substr(slash + 1).c_str(), 1, 100, tries))
                 return "--smtp-retry needs SECONDS/TRIES (e.g. 60/8)";
             o.mail.retry_ms = seconds * 1000;
             o.mail.attempts = int(tries);
             return {};
         }},
        {{"--public-url"},
         [](auto&, const char* v, ServerOptions& o) -> std::string {
             std::string s = v;
             if (!s.starts_with("http://") && !s.starts_with("https://"))
                 return "--public-url needs an http:// or https:// address";
             o.mail.base_url = s;
             return {};
         }},
    };
}

// What --smtp-host needs besides: "" or the problem.
std::string mail_problem(const ServerOptions& o) {
    if (!o.mail.enabled())
        return {};
    if (o.mail.from.empty())
        return "--smtp-host needs --smtp-from (the sender's address)";
    if (o.mail.base_url.empty())
        return "--smtp-host needs --public-url (the web page's address, for the links in mails)";
    if (!o.mail.user.empty() && o.mail.password.empty())
        return "--smtp-user needs --smtp-password-file";
    return {};
}

const std::vector<ServerFlag>& server_flags() {
    static const std::vector<ServerFlag> flags = [] {
        std::vector<ServerFlag> all;
        for (auto group : {where_flags, game_flags, limit_flags, session_flags, mail_flags})
            for (ServerFlag& f : group())
                all.push_back(std::move(f));
        return all;
    }();
    return flags;
}

// The arguments with those of --config FILE put in its place (before CLI11 reads them: its own
// config files are TOML/INI, while the server's also take `name value` lines, and a config's
// options must sit where --config stands so that later ones override them); false (and the error) when the
// file cannot be read.
bool expand_config(int argc, char** argv, std::vector<std::string>& args, std::string& error) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--config") != 0) {
            args.emplace_back(argv[i]);
            continue;
        }
        if (i + 1 >= argc) {
            error = "--config needs a value";
            return false;
        }
        if (!read_config(argv[++i], args, error))
            return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "backup") == 0)
        return backup_main(argc, argv);
    if (argc > 1 && std::strcmp(argv[1], "admin") == 0)
        return admin_main(argc, argv);
    ServerOptions opt;
    opt.config.group_commit = true;
    std::vector<std::string> args;
    std::string error;
    if (!expand_config(argc, argv, args, error)) {
        fmt::print(stderr, "hisha-server: {}\n", error);
        return 2;
    }
    hisha::app::Cli cli("hisha-server", USAGE);
    cli.set_unknown_word("unknown argument");
    for (const ServerFlag& flag : server_flags())
        for (const std::string& name : flag.names)
            cli.option(name, [&flag, &opt, name](const std::string& value) {
                std::string e = flag.apply(name, value.c_str(), opt);
                return e.empty() ? e : fmt::format("{}, not '{}'", e, value);
            });
    if (int status = cli.parse(args); status >= 0)
        return status;
    if (std::string why = mail_problem(opt); !why.empty()) {
        fmt::print(stderr, "hisha-server: {}\n", why);
        return 2;
    }
    if (opt.static_dir.empty())
        opt.static_dir = installed_web_dir();
    if (opt.static_dir.empty())
        fmt::print(stderr,
                   "hisha-server: the web UI's files were not found ({} beside the program, or the source tree's "
                   "web/dist: make web); only the API is served, pass --static DIR\n",
                   HISHA_INSTALLED_WEB_DIR);
    return hisha::server::net::run_server(opt);
}
