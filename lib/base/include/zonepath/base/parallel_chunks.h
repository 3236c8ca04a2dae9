// Checking a large array on several threads with a deterministic answer:
// [0, n) is cut into equal chunks, each checked by fn(begin, end) on one
// of `threads` threads (the caller's included), and the status returned is
// that of the first failing chunk in index order, so the error named is
// the same whatever the thread count (chunks after a failure may still
// run). Small inputs (n < min_parallel) run on the caller's thread alone.
//
//   RETURN_IF_ERROR(ParallelChunks(edges.size(), options.threads, 1 << 16,
//       [&](uint64_t begin, uint64_t end) { return CheckEdges(begin, end); }));
#ifndef ZONEPATH_BASE_PARALLEL_CHUNKS_H_
#define ZONEPATH_BASE_PARALLEL_CHUNKS_H_

#include <cstdint>
#include <functional>

#include "absl/status/status.h"

namespace zonepath {

// threads <= 0: one per hardware thread. fn must be safe to call
// concurrently on disjoint ranges.
absl::Status ParallelChunks(
    uint64_t n, int threads, uint64_t min_parallel,
    const std::function<absl::Status(uint64_t begin, uint64_t end)>& fn);

// The most threads a parallel loop of the library starts; larger requests
// are clamped to it.
inline constexpr int kMaxThreads = 256;

// The thread count `threads` stands for: <= 0 one per hardware thread,
// then clamped to 1..kMaxThreads.
int ResolveThreads(int threads);

// Runs work(t) for t in [0, ResolveThreads(threads)): t = 0 on the calling
// thread, the others on threads of their own, and returns when all have
// finished. `work` must take its items from a shared counter, not assume
// a fixed share: when the system cannot start another thread, the work
// runs on those already started. An exception thrown by `work` on any
// thread is rethrown here once every thread has finished (never
// std::terminate from a joinable thread left behind).
//
//   std::atomic<int64_t> next{0};
//   RunOnThreads(threads, [&](int t) {
//     for (int64_t i = next++; i < n; i = next++) Process(t, i);
//   });
void RunOnThreads(int threads, const std::function<void(int thread)>& work);

}  // namespace zonepath

#endif  // ZONEPATH_BASE_PARALLEL_CHUNKS_H_
