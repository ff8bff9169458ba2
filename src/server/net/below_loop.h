// The threads that do the clients' expensive work (password hashes, tsume solves) run below
// the event loop's priority, so that on a busy machine the moves go first: a flood of logins or
// of tsume problems takes the CPU the loop leaves, not the loop's.
#pragma once

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

namespace hisha::server::net {

/// Names the calling thread `name` (as /proc and top show it) and lowers its priority (nice 10,
/// this thread only); once per thread.
inline void run_below_the_loop(const char* name) {
    thread_local bool done = false;
    if (done)
        return;
    done = true;
    pthread_setname_np(pthread_self(), name);
    setpriority(PRIO_PROCESS, id_t(gettid()), 10);
}

}  // namespace hisha::server::net
