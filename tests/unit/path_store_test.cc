// PathStore: every operation checked against the plain path it stands for,
// in every codec; shared corridors stored once; memory returned on removal;
// no allocation in steady state.
#include "zonepath/paths/path_store.h"

#include <algorithm>
#include <random>
#include <string>

#include "alloc_counter.h"
#include "gtest/gtest.h"
#include "random_paths.h"

namespace zonepath {
namespace {

using testing::CellAfter;
using testing::RandomPath;

// Moves [begin, end) of `path` as a path of its own.
RunLengthPath SubPath(const RunLengthPath& path, int64_t begin, int64_t end) {
  RunLengthPath sub;
  sub.Reset(CellAfter(path, begin));
  int64_t step = 0;
  for (const zonepath::Run& run : path.runs()) {
    for (uint32_t i = 0; i < run.count; ++i, ++step) {
      if (step >= begin && step < end) sub.Append(run.direction);
    }
  }
  return sub;
}

RunLengthPath Concat(const RunLengthPath& a, const RunLengthPath& b) {
  RunLengthPath out = a;
  for (const zonepath::Run& run : b.runs())
    out.Append(run.direction, run.count);
  return out;
}

// The stored path of `unit` must be exactly `want`.
void ExpectStored(const PathStore& store, UnitId unit,
                  const RunLengthPath& want, const std::string& context) {
  RunLengthPath got;
  ASSERT_TRUE(store.Read(unit, -1, &got).ok()) << context;
  EXPECT_EQ(got.start(), want.start()) << context;
  EXPECT_EQ(got.runs(), want.runs()) << context;
  EXPECT_EQ(*store.RemainingSteps(unit), want.steps()) << context;
  EXPECT_EQ(*store.Position(unit), want.start()) << context;
  for (int64_t step : {int64_t{0}, want.steps() / 3, want.steps()}) {
    EXPECT_EQ(*store.CellAt(unit, step), CellAfter(want, step)) << context;
  }
}

class PathStoreTest : public ::testing::TestWithParam<PathCodec> {
 protected:
  PathStoreOptions Options() const {
    PathStoreOptions options;
    options.codec = GetParam();
    options.encode.index_interval_log2 = 2;
    return options;
  }
};

TEST_P(PathStoreTest, SetReadAdvance) {
  PathStore store(Options());
  std::mt19937_64 rng(1);
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const RunLengthPath path = RandomPath(seed, 120, seed % 2 == 0);
    const UnitId unit(seed);
    ASSERT_TRUE(store.Set(unit, path).ok());
    ExpectStored(store, unit, path, absl::StrCat("seed ", seed));
    // Walk it in random strides, checking the rest each time.
    int64_t walked = 0;
    while (walked < path.steps()) {
      const int64_t stride =
          std::min<int64_t>(1 + rng() % 40, path.steps() - walked);
      ASSERT_TRUE(store.Advance(unit, stride).ok());
      walked += stride;
      ExpectStored(store, unit, SubPath(path, walked, path.steps()),
                   absl::StrCat("seed ", seed, " walked ", walked));
    }
    EXPECT_FALSE(store.Advance(unit, 1).ok());
    EXPECT_EQ(*store.Position(unit), CellAfter(path, path.steps()));
  }
}

TEST_P(PathStoreTest, WalkingReclaimsMemory) {
  PathStore store(Options());
  const RunLengthPath path = RandomPath(77, 4000, false);
  ASSERT_GT(path.steps(), 4000);
  ASSERT_TRUE(store.Set(UnitId(1), path).ok());
  const size_t full = store.Stats().encoded_bytes;
  ASSERT_TRUE(store.Advance(UnitId(1), path.steps() * 9 / 10).ok());
  EXPECT_LT(store.Stats().encoded_bytes, full / 4);
  ExpectStored(store, UnitId(1),
               SubPath(path, path.steps() * 9 / 10, path.steps()), "walked");
}

TEST_P(PathStoreTest, LimitedLengthAndExtend) {
  PathStore store(Options());
  const RunLengthPath path = RandomPath(5, 200, false);
  ASSERT_GT(path.steps(), 100);
  const UnitId unit(9);
  ASSERT_TRUE(store.Set(unit, path, 64).ok());
  ExpectStored(store, unit, SubPath(path, 0, 64), "first 64");
  // The unit walks 60 of them; the game fetches the next part and extends.
  ASSERT_TRUE(store.Advance(unit, 60).ok());
  ASSERT_TRUE(store.Extend(unit, SubPath(path, 64, path.steps())).ok());
  ExpectStored(store, unit, SubPath(path, 60, path.steps()), "extended");
  // An extension that does not start at the end is rejected, unchanged.
  EXPECT_FALSE(store.Extend(unit, SubPath(path, 10, 20)).ok());
  ExpectStored(store, unit, SubPath(path, 60, path.steps()), "unchanged");
}

TEST_P(PathStoreTest, SpliceReplacesTheFrontOnly) {
  PathStore store(Options());
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const RunLengthPath path = RandomPath(seed, 150, false);
    if (path.steps() < 10) continue;
    const UnitId unit(seed);
    ASSERT_TRUE(store.Set(unit, path).ok());
    ASSERT_TRUE(store.Advance(unit, 3).ok());
    // A detour with the same moves in another order ends at the same cell.
    const int64_t m = (path.steps() - 3) / 2;
    RunLengthPath front = SubPath(path, 3, 3 + m);
    std::vector<Direction> moves;
    for (const zonepath::Run& run : front.runs()) {
      moves.insert(moves.end(), run.count, run.direction);
    }
    std::sort(moves.begin(), moves.end());
    RunLengthPath detour;
    detour.Reset(front.start());
    for (Direction d : moves) detour.Append(d);
    ASSERT_TRUE(store.Splice(unit, m, detour).ok()) << "seed " << seed;
    const RunLengthPath want =
        Concat(detour, SubPath(path, 3 + m, path.steps()));
    ExpectStored(store, unit, want, absl::StrCat("seed ", seed));
    // A detour ending elsewhere is rejected and nothing changes.
    EXPECT_FALSE(store.Splice(unit, m + 1, detour).ok());
    ExpectStored(store, unit, want, absl::StrCat("seed ", seed, " bad"));
  }
}

TEST_P(PathStoreTest, ManySplicesStayBounded) {
  PathStore store(Options());
  const RunLengthPath path = RandomPath(8, 300, false);
  const UnitId unit(1);
  ASSERT_TRUE(store.Set(unit, path).ok());
  RunLengthPath want = path;
  for (int i = 0; i < 3 * PathStore::kMaxPieces; ++i) {
    // Re-plan the first 2 moves with the same moves (a splice of 2).
    if (want.steps() < 2) break;
    const RunLengthPath detour = SubPath(want, 0, 2);
    ASSERT_TRUE(store.Splice(unit, 2, detour).ok());
    ExpectStored(store, unit, want, absl::StrCat("splice ", i));
    EXPECT_LE(store.Stats().pieces, PathStore::kMaxPieces);
  }
}

TEST_P(PathStoreTest, SharedCorridorIsStoredOnce) {
  PathStore store(Options());
  const RunLengthPath corridor = RandomPath(21, 400, false);
  ASSERT_GT(corridor.steps(), 200);
  absl::StatusOr<SegmentId> shared = store.AddShared(corridor);
  ASSERT_TRUE(shared.ok());
  const size_t corridor_bytes = store.Stats().encoded_bytes;
  constexpr int kUnits = 50;
  std::vector<RunLengthPath> wants;  // each unit's whole path
  for (int u = 0; u < kUnits; ++u) {
    // Each unit: a private 5-move head to the corridor's entry u, then the
    // corridor from there to its end.
    const int64_t entry = u;
    RunLengthPath head;
    const Point at = CellAfter(corridor, entry);
    head.Reset({at.x + 5 > 65535 ? at.x - 5 : at.x + 5, at.y});
    head.Append(at.x + 5 > 65535 ? Direction::kE : Direction::kW, 5);
    absl::StatusOr<SegmentId> own = store.AddShared(head);
    ASSERT_TRUE(own.ok());
    const PathPiece pieces[] = {{*own, 0, -1}, {*shared, entry, -1}};
    ASSERT_TRUE(store.SetPieces(UnitId(u), pieces).ok());
    ASSERT_TRUE(store.ReleaseShared(*own).ok());  // the unit keeps it alive
    wants.push_back(Concat(head, SubPath(corridor, entry, corridor.steps())));
    ExpectStored(store, UnitId(u), wants.back(), absl::StrCat("unit ", u));
  }
  // Pieces must join up.
  const PathPiece gap[] = {{*shared, 0, 10}, {*shared, 20, 30}};
  EXPECT_EQ(store.SetPieces(UnitId(999), gap).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(store.Contains(UnitId(999)));
  ASSERT_TRUE(store.ReleaseShared(*shared).ok());
  const PathStoreStats stats = store.Stats();
  EXPECT_EQ(stats.segments, kUnits + 1);
  // One corridor plus small heads, far below 50 corridor copies.
  EXPECT_LT(stats.encoded_bytes, corridor_bytes + kUnits * 64);
  // A released handle is gone: a second release or a new piece of it is
  // NotFound, and the units that use it still read their paths.
  EXPECT_EQ(store.ReleaseShared(*shared).code(), absl::StatusCode::kNotFound);
  const PathPiece released[] = {{*shared, 0, 10}};
  EXPECT_EQ(store.SetPieces(UnitId(999), released).code(),
            absl::StatusCode::kNotFound);
  for (int u = 0; u < kUnits; ++u) {
    ExpectStored(store, UnitId(u), wants[u],
                 absl::StrCat("unit ", u, " after the release"));
  }
  for (int u = 0; u < kUnits; ++u) EXPECT_TRUE(store.Remove(UnitId(u)));
  EXPECT_EQ(store.Stats().segments, 0);
  EXPECT_EQ(store.Stats().encoded_bytes, 0u);
}

TEST_P(PathStoreTest, MissingUnitsAndBadArguments) {
  PathStore store(Options());
  RunLengthPath out;
  EXPECT_EQ(store.Read(UnitId(1), -1, &out).code(),
            absl::StatusCode::kNotFound);
  EXPECT_FALSE(store.Position(UnitId(1)).ok());
  EXPECT_FALSE(store.Advance(UnitId(1), 1).ok());
  EXPECT_FALSE(store.Remove(UnitId(1)));
  EXPECT_FALSE(store.ReleaseShared(SegmentId(3)).ok());
  RunLengthPath off_map;
  off_map.Reset({0, 0});
  off_map.Append(Direction::kN, 2);
  EXPECT_FALSE(store.Set(UnitId(1), off_map).ok());
  EXPECT_FALSE(store.Contains(UnitId(1)));
  EXPECT_FALSE(store.SetPieces(UnitId(1), {}).ok());
}

TEST_P(PathStoreTest, MemoryUsageCountsEverything) {
  PathStore store(Options());
  const size_t empty = store.MemoryUsage();
  for (uint64_t u = 0; u < 2000; ++u) {
    ASSERT_TRUE(store.Set(UnitId(u), RandomPath(u, 30, false)).ok());
  }
  const size_t full = store.MemoryUsage();
  // At least the encoded bytes plus one table slot per unit.
  EXPECT_GE(full - empty, store.Stats().encoded_bytes + 2000 * 8);
  for (uint64_t u = 0; u < 2000; ++u) store.Remove(UnitId(u));
  EXPECT_EQ(store.Stats().encoded_bytes, 0u);
}

TEST_P(PathStoreTest, NoAllocationInSteadyState) {
  PathStore store(Options());
  constexpr int kUnits = 300;
  std::vector<RunLengthPath> paths;
  for (int u = 0; u < kUnits; ++u) paths.push_back(RandomPath(u, 40, u % 2));
  RunLengthPath out;
  out.reserve(1000);
  auto round = [&](int shift) {
    for (int u = 0; u < kUnits; ++u) {
      const RunLengthPath& path = paths[(u + shift) % kUnits];
      ASSERT_TRUE(store.Set(UnitId(u), path).ok());
      ASSERT_TRUE(store.Advance(UnitId(u), path.steps() / 2).ok());
      ASSERT_TRUE(store.Read(UnitId(u), 16, &out).ok());
    }
  };
  for (int shift = 0; shift < kUnits; shift += 7) round(shift);  // warm-up
  const int64_t before = testing::AllocationCount();
  for (int shift = 3; shift < kUnits; shift += 11) round(shift);
  EXPECT_EQ(testing::AllocationCount() - before, 0);
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, PathStoreTest,
                         ::testing::ValuesIn(kAllPathCodecs),
                         [](const ::testing::TestParamInfo<PathCodec>& info) {
                           return std::string(PathCodecName(info.param));
                         });

}  // namespace
}  // namespace zonepath
