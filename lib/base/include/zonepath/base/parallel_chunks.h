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

// The thread count `threads` stands for (<= 0: hardware threads, at least 1).
int ResolveThreads(int threads);

}  // namespace zonepath

#endif  // ZONEPATH_BASE_PARALLEL_CHUNKS_H_
