// RunOnThreads (parallel_chunks.h), under which every parallel loop of the
// library runs: every item done once, the thread count clamped, and an
// exception on a worker rethrown on the caller after all threads finished
// (never std::terminate from a joinable thread).
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "zonepath/base/parallel_chunks.h"

namespace zonepath {
namespace {

TEST(RunOnThreadsTest, DoesEveryItemOnceOnAtMostTheClampedThreads) {
  for (int threads : {-3, 0, 1, 2, 7, 100000}) {
    constexpr int kItems = 5000;
    std::vector<std::atomic<int>> done(kItems);
    std::atomic<int> next{0};
    std::atomic<int> highest_thread{0};
    RunOnThreads(threads, [&](int t) {
      int seen = highest_thread.load();
      while (t > seen && !highest_thread.compare_exchange_weak(seen, t)) {
      }
      for (int i = next++; i < kItems; i = next++) ++done[i];
    });
    for (int i = 0; i < kItems; ++i) {
      ASSERT_EQ(done[i].load(), 1) << "item " << i << " threads " << threads;
    }
    EXPECT_LT(highest_thread.load(), ResolveThreads(threads));
    EXPECT_LE(ResolveThreads(threads), kMaxThreads);
    EXPECT_GE(ResolveThreads(threads), 1);
  }
  EXPECT_EQ(ResolveThreads(100000), kMaxThreads);
  EXPECT_EQ(ResolveThreads(3), 3);
}

TEST(RunOnThreadsTest, AWorkerExceptionReachesTheCaller) {
  for (int failing : {0, 1, 3}) {
    std::atomic<int> finished{0};
    try {
      RunOnThreads(4, [&](int t) {
        if (t == failing) throw std::runtime_error("worker failed");
        ++finished;
      });
      ADD_FAILURE() << "no exception from thread " << failing;
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "worker failed");
    }
    // Every other thread ran to its end before the rethrow.
    EXPECT_EQ(finished.load(), 3) << "failing thread " << failing;
  }
  // The same through a library loop: a status per chunk, the exception
  // rethrown, no terminate.
  EXPECT_THROW(
      {
        const absl::Status status = ParallelChunks(
            1 << 12, 3, 1, [](uint64_t begin, uint64_t) -> absl::Status {
              if (begin > 0) throw std::runtime_error("chunk");
              return absl::OkStatus();
            });
        ADD_FAILURE() << "returned " << status;
      },
      std::runtime_error);
}

}  // namespace
}  // namespace zonepath
