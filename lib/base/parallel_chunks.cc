#include "zonepath/base/parallel_chunks.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace zonepath {

int ResolveThreads(int threads) {
  if (threads > 0) return threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

absl::Status ParallelChunks(
    uint64_t n, int threads, uint64_t min_parallel,
    const std::function<absl::Status(uint64_t begin, uint64_t end)>& fn) {
  threads = ResolveThreads(threads);
  if (n < min_parallel || threads == 1) return fn(0, n);
  // A few chunks per thread, so that one slow chunk does not idle the rest.
  const uint64_t chunks = static_cast<uint64_t>(threads) * 4;
  const uint64_t size = (n + chunks - 1) / chunks;
  std::vector<absl::Status> status(chunks);
  std::atomic<uint64_t> next{0};
  auto work = [&] {
    for (uint64_t c = next++; c < chunks; c = next++) {
      const uint64_t begin = std::min(n, c * size);
      status[c] = fn(begin, std::min(n, begin + size));
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (absl::Status& s : status) {
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace zonepath
