// Starting hisha-server for a benchmark: the child process, and the ports it listens on once
// it has said it is ready.
#pragma once

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include "../../tests/support/exec.h"
#include <map>
#include <string>
#include <vector>

/// Runs hisha-server with `args` (args[0] its path), its standard output read here (standard
/// error to /dev/null when `quiet`), and waits for its "ready" line: its process id, with the
/// port of each protocol it listens on ("csa", "text", "http") in `ports`; -1 with `error` set
/// when it did not start.
inline pid_t start_server_child(const std::vector<std::string>& args, bool quiet, std::map<std::string, int>& ports,
                                std::string& error) {
    int fds[2];
    if (pipe(fds) != 0) {
        error = "pipe";
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        if (int null = quiet ? ::open("/dev/null", O_WRONLY) : -1; null >= 0)
            dup2(null, 2);
        hisha::testing::exec_args(args);
    }
    close(fds[1]);
    std::string out;
    char tmp[256];
    while (out.find("ready") == std::string::npos) {
        ssize_t n = read(fds[0], tmp, sizeof tmp);
        if (n <= 0) {
            error = "the server did not start: " + out;
            return -1;
        }
        out.append(tmp, std::size_t(n));
    }
    for (const char* proto : {"csa", "text", "http"})
        if (auto at = out.find(std::string("listening ") + proto); at != std::string::npos)
            ports[proto] = std::stoi(out.substr(out.find(':', at) + 1));
    return pid;
}
