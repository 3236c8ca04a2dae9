#include "zonepath/base/parallel_chunks.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace zonepath {

int ResolveThreads(int threads) {
  if (threads <= 0) {
    threads =
        static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  return std::min(threads, kMaxThreads);
}

void RunOnThreads(int threads, const std::function<void(int thread)>& work) {
  threads = ResolveThreads(threads);
  std::exception_ptr failure;
  std::mutex failure_mu;
  auto guarded = [&](int t) {
    try {
      work(t);
    } catch (...) {
      std::lock_guard<std::mutex> lock(failure_mu);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(guarded, t);
    } catch (const std::system_error&) {
      break;  // no more threads: the started ones share the work
    }
  }
  guarded(0);
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
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
  RunOnThreads(threads, [&](int) {
    for (uint64_t c = next++; c < chunks; c = next++) {
      const uint64_t begin = std::min(n, c * size);
      status[c] = fn(begin, std::min(n, begin + size));
    }
  });
  for (absl::Status& s : status) {
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace zonepath
