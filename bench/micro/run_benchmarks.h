// The end of a micro-benchmark's main(), after its own checks: Google Benchmark's run.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>

/// Runs the registered benchmarks with the command line's options: the exit status of main().
inline int run_benchmarks(int argc, char** argv) {
    std::fflush(stdout);  // the checks' output first
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
