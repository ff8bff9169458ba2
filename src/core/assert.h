// Graded assertions: HISHA_ASSERT(level, cond). Level 1 is cheap (bounds), level 3 is a full
// consistency check of a position. Debug builds check up to HISHA_ASSERT_LEVEL (default 3);
// release builds (NDEBUG) check nothing.
#pragma once

#include <cstdio>
#include <cstdlib>

#ifndef HISHA_ASSERT_LEVEL
#ifdef NDEBUG
#define HISHA_ASSERT_LEVEL 0
#else
#define HISHA_ASSERT_LEVEL 3
#endif
#endif

#define HISHA_ASSERT(level, cond)                                                            \
    do {                                                                                     \
        if constexpr ((level) <= HISHA_ASSERT_LEVEL) {                                       \
            if (!(cond)) {                                                                   \
                std::fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #cond); \
                std::abort();                                                                \
            }                                                                                \
        }                                                                                    \
    } while (0)
