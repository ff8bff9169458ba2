// main() of `hisha-server`: arguments only; the server is src/server/net/server.h.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "server/net/server.h"

namespace {

void usage() {
    std::cout << "usage: hisha-server [options]\n"
                 "  --db URL              sqlite:PATH (default sqlite:var/hisha.db)\n"
                 "  --text-port P         text protocol, Shoogi Server commands (default 5000; -1 off; 0 any)\n"
                 "  --csa-port P          CSA server protocol 1.2.1 (default 4081; -1 off)\n"
                 "  --http-port P         HTTP + WebSocket JSON API and web UI (default 8080; -1 off)\n"
                 "  --bind ADDR           address to listen on (default 127.0.0.1)\n"
                 "  --static DIR          serve the web UI's files from DIR\n"
                 "  --days-per-move N     correspondence default (default 7)\n"
                 "  --password-cost C     argon2id cost: interactive (default) or min (tests)\n"
                 "  --max-per-address N   connections allowed from one address (default 64)\n"
                 "  --group-commit on|off commit the moves of one event-loop turn together, holding replies\n"
                 "                        until they are durable (default on)\n"
                 "  --csa-max-moves N     CSA games are drawn (#MAX_MOVES) after N moves (default 256; 0 none)\n"
                 "  --bots SPEC           engine bots as accounts, NAME=SKILL,... (Skill 0 = 15 kyu .. 20 full;\n"
                 "                        default hisha-10kyu=5,hisha-1dan=15,hisha-max=20; \"\" for none)\n"
                 "  --help                this text\n";
}

bool port_arg(const char* s, int& out) {
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (!end || *end || v < -1 || v > 65535)
        return false;
    out = int(v);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    hisha::server::net::ServerOptions opt;
    opt.config.group_commit = true;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::cerr << "hisha-server: " << a << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            usage();
            return 0;
        } else if (a == "--db") {
            opt.db = value();
        } else if (a == "--bind") {
            opt.bind = value();
        } else if (a == "--static") {
            opt.static_dir = value();
        } else if (a == "--text-port" || a == "--csa-port" || a == "--http-port") {
            int& port = a == "--text-port" ? opt.text_port : a == "--csa-port" ? opt.csa_port : opt.http_port;
            if (!port_arg(value(), port)) {
                std::cerr << "hisha-server: bad port for " << a << "\n";
                return 2;
            }
        } else if (a == "--days-per-move") {
            opt.config.default_days_per_move = std::atoi(value());
            if (opt.config.default_days_per_move < 1)
                opt.config.default_days_per_move = 7;
        } else if (a == "--group-commit") {
            std::string v = value();
            opt.config.group_commit = v == "on";
        } else if (a == "--csa-max-moves") {
            char* end = nullptr;
            const char* v = value();
            long n = std::strtol(v, &end, 10);
            if (!*v || *end || n < 0 || n > 100000) {
                std::cerr << "hisha-server: --csa-max-moves needs a number 0..100000\n";
                return 2;
            }
            opt.config.csa_max_moves = int(n);
        } else if (a == "--bots") {
            opt.bots = value();
        } else if (a == "--max-per-address") {
            long n = std::atol(value());
            opt.max_connections_per_address = n > 0 ? std::size_t(n) : 64;
        } else if (a == "--password-cost") {
            std::string c = value();
            if (c == "min") {
                opt.config.password_ops = 1;
                opt.config.password_mem = 8192;
            } else if (c != "interactive") {
                std::cerr << "hisha-server: --password-cost is interactive or min\n";
                return 2;
            }
        } else {
            std::cerr << "hisha-server: unknown argument " << a << " (--help)\n";
            return 2;
        }
    }
    return hisha::server::net::run_server(opt);
}
