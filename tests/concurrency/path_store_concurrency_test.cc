// Readers of some units and a writer updating others, at the same time, on
// one PathStore: every read sees a whole path (the old one or the new one,
// never a mix), while units come and go. Built and run under
// ThreadSanitizer in CI.
#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "random_paths.h"
#include "zonepath/paths/path_store.h"

namespace zonepath {
namespace {

TEST(PathStoreConcurrencyTest, ReadersAndOneWriter) {
  PathStore store;
  constexpr int kUnits = 200;
  std::vector<RunLengthPath> paths;
  for (int u = 0; u < kUnits; ++u) {
    paths.push_back(testing::RandomPath(u + 1, 30, u % 2 == 0));
    ASSERT_TRUE(store.Set(UnitId(u), paths[u]).ok());
  }
  std::atomic<bool> stop{false};
  std::atomic<int64_t> bad_reads{0}, reads{0};
  auto reader = [&](int first) {
    RunLengthPath out;
    while (!stop.load()) {
      for (int u = first; u < kUnits / 2; u += 2) {
        // Units of the first half are never written: exact match.
        if (!store.Read(UnitId(u), -1, &out).ok() ||
            out.runs() != paths[u].runs()) {
          ++bad_reads;
        }
        ++reads;
      }
      // Walks every unit, including those being written: TSan checks the
      // store's lock really orders this against the writer.
      std::vector<UnitId> crossing;
      store.UnitsCrossing({16, 64}, {ZoneId(0), ZoneId(5)}, &crossing);
      if (store.Stats().units < kUnits) ++bad_reads;
    }
  };
  std::thread r1(reader, 0), r2(reader, 1);
  // The writer replaces, walks and splices the second half meanwhile; every
  // stored path there must always be one of the paths it wrote.
  for (int round = 0; round < 20 || reads.load() < 2000; ++round) {
    for (int u = kUnits / 2; u < kUnits; ++u) {
      const RunLengthPath& path = paths[(u + round) % kUnits];
      ASSERT_TRUE(store.Set(UnitId(u), path).ok());
      ASSERT_TRUE(store.Advance(UnitId(u), path.steps() / 3).ok());
      RunLengthPath rest;
      ASSERT_TRUE(store.Read(UnitId(u), -1, &rest).ok());
      ASSERT_EQ(rest.steps(), path.steps() - path.steps() / 3);
      // Units that come and go make the unit table grow and rehash.
      const UnitId extra(100000 + static_cast<uint64_t>(round) * kUnits + u);
      ASSERT_TRUE(store.Set(extra, path).ok());
      if (u % 2 == 0) store.Remove(extra);
    }
  }
  stop = true;
  r1.join();
  r2.join();
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(bad_reads.load(), 0);
}

}  // namespace
}  // namespace zonepath
