// A throwaway PostgreSQL cluster for tests: Debian's initdb and pg_ctl (/usr/lib/postgresql/*/bin)
// in a temporary directory, listening only on a unix socket in that directory (no TCP port to
// collide with), stopped and removed at the end. Run as root (CI containers), the cluster's
// programs run as the `postgres` account (or `nobody`), since PostgreSQL refuses root.
#pragma once

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../support/exec.h"
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hisha::server::test {

class PgCluster {
public:
    PgCluster() = default;
    PgCluster(const PgCluster&) = delete;
    ~PgCluster() { stop(); }

    /// Where Debian keeps the newest server's programs ("" when PostgreSQL is not installed).
    static std::string bin_dir() {
        std::string best;
        int best_version = -1;
        std::error_code ec;
        for (auto& e : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
            int v = std::atoi(e.path().filename().c_str());
            if (v > best_version && std::filesystem::exists(e.path() / "bin" / "initdb")
                && std::filesystem::exists(e.path() / "bin" / "pg_ctl")) {
                best_version = v;
                best = (e.path() / "bin").string();
            }
        }
        return best;
    }

    /// initdb + pg_ctl start; false with `why` when it cannot.
    bool start(std::string& why) {
        bin_ = bin_dir();
        if (bin_.empty()) {
            why = "PostgreSQL server programs not found under /usr/lib/postgresql/*/bin "
                  "(scripts/install-deps.sh installs the postgresql package)";
            return false;
        }
        char tmpl[] = "/tmp/hisha_pg_XXXXXX";
        if (!mkdtemp(tmpl)) {
            why = "mkdtemp failed";
            return false;
        }
        dir_ = tmpl;
        if (geteuid() == 0) {
            const passwd* pw = getpwnam("postgres");
            if (!pw)
                pw = getpwnam("nobody");
            if (!pw) {
                why = "running as root and no postgres or nobody account to run PostgreSQL as";
                return false;
            }
            uid_ = pw->pw_uid;
            gid_ = pw->pw_gid;
            if (chown(dir_.c_str(), uid_, gid_) != 0) {
                why = "cannot chown " + dir_;
                return false;
            }
        }
        chmod(dir_.c_str(), 0700);
        std::string data = dir_ + "/data";
        if (run({bin_ + "/initdb", "-D", data, "-A", "trust", "-U", "hisha", "-E", "UTF8", "--no-sync"}) != 0) {
            why = "initdb failed: " + log();
            return false;
        }
        std::string opts = "-k " + dir_ + " -p 5432 -c listen_addresses= -c fsync=off -c max_connections=50";
        if (run({bin_ + "/pg_ctl", "-D", data, "-l", dir_ + "/server.log", "-w", "-t", "60", "-o", opts, "start"})
            != 0) {
            why = "pg_ctl start failed: " + log() + file(dir_ + "/server.log");
            return false;
        }
        started_ = true;
        return true;
    }

    /// A fresh database in the cluster; returns its URL ("" on failure).
    std::string create_database(const std::string& name) {
        if (run({bin_ + "/createdb", "-h", dir_, "-p", "5432", "-U", "hisha", name}) != 0)
            return "";
        return url(name);
    }
    std::string url(const std::string& db = "postgres") const {
        return "postgresql:///" + db + "?host=" + dir_ + "&port=5432&user=hisha";
    }

    /// Runs the cluster's client program `name` (pg_dump, pg_restore, createdb ...) with the
    /// cluster's connection options (-h its socket directory -p 5432 -U hisha) then `args`, in the
    /// cluster's directory (where its account may write files), as that account when root: the
    /// exit code, with what it printed in `output`.
    int client(const std::string& name, const std::vector<std::string>& args, std::string& output) {
        std::vector<std::string> all = {bin_ + "/" + name, "-h", dir_, "-p", "5432", "-U", "hisha"};
        all.insert(all.end(), args.begin(), args.end());
        std::error_code ec;
        std::filesystem::remove(dir_ + "/cmd.log", ec);  // this program's output only
        int code = run(all);
        output = log();
        return code;
    }
    /// The cluster's directory (its socket, and files its programs write).
    const std::string& dir() const { return dir_; }

    void stop() {
        if (started_)
            run({bin_ + "/pg_ctl", "-D", dir_ + "/data", "-m", "immediate", "-w", "stop"});
        started_ = false;
        if (!dir_.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(dir_, ec);
            dir_.clear();
        }
    }

private:
    // Runs a program (as the cluster's account when root), its output to cmd.log; the exit code.
    int run(const std::vector<std::string>& args) {
        if (!std::filesystem::exists(args[0]))
            return 127;
        std::string log_path = dir_ + "/cmd.log";
        pid_t pid = fork();
        if (pid == 0) {
            if (uid_ != 0) {
                if (setgroups(0, nullptr) != 0 || setgid(gid_) != 0 || setuid(uid_) != 0)
                    _exit(126);
            }
            int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
                close(fd);
            }
            int null = open("/dev/null", O_RDONLY);
            if (null >= 0)
                dup2(null, 0);
            chdir(dir_.c_str());
            hisha::testing::exec_args(args);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    }
    static std::string file(const std::string& path) {
        std::ifstream in(path);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    std::string log() const { return file(dir_ + "/cmd.log"); }

    std::string bin_, dir_;
    uid_t uid_ = 0;
    gid_t gid_ = 0;
    bool started_ = false;
};

}  // namespace hisha::server::test
