// Benchmarks never drop a status: a failed call ends the benchmark with the
// error (SkipWithError, shown in its output), so a broken search cannot
// pass for a fast one.
//
//   for (auto _ : state) {
//     if (!BenchOk(state, planner.FindPath(s, t, options, &path))) break;
//   }
#ifndef ZONEPATH_BENCH_BENCH_STATUS_H_
#define ZONEPATH_BENCH_BENCH_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "benchmark/benchmark.h"

namespace zonepath {

inline bool BenchOk(benchmark::State& state, const absl::Status& status) {
  if (status.ok()) return true;
  const std::string message = status.ToString();
  state.SkipWithError(message.c_str());  // copied by the library
  return false;
}

template <typename T>
bool BenchOk(benchmark::State& state, const absl::StatusOr<T>& result) {
  benchmark::DoNotOptimize(result);
  return BenchOk(state, result.status());
}

}  // namespace zonepath

#endif  // ZONEPATH_BENCH_BENCH_STATUS_H_
