// The threads that do the clients' expensive work (password hashes, tsume solves) run below
// the event loop's priority, so that on a busy machine the moves go first: a flood of logins or
// of tsume problems takes the CPU the loop leaves, not the loop's.
#pragma once

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace hisha::server::net {

/// Names the calling thread `name` (as /proc and top show it) and lowers its priority by 10
/// nice levels below the process's (at most 19; this thread only); once per thread.
inline void run_below_the_loop(const char* name) {
    thread_local bool done = false;
    if (done)
        return;
    done = true;
    pthread_setname_np(pthread_self(), name);
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, id_t(gettid()));  // the thread's, inherited: the process's
    if (nice == -1 && errno != 0)
        nice = 0;
    setpriority(PRIO_PROCESS, id_t(gettid()), std::min(19, nice + 10));
}

}  // namespace hisha::server::net
