// What the libFuzzer targets share: FUZZ_CHECK, an assertion that holds in every build type. On
// failure it names the target's file, the condition and the line, and aborts, so that libFuzzer
// keeps the input that broke it.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                                         \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            std::fprintf(stderr, "%s: check failed: %s (line %d)\n", __FILE__, #cond, __LINE__); \
            std::abort();                                                                        \
        }                                                                                        \
    } while (0)
