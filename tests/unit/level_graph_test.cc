// LevelGraph::ForEachEdge with inter_only jumps over a node's block of
// intra-zone edges instead of testing each edge's kind. That relies on the
// layout every world keeps (edges sorted by target, a zone's nodes one id
// range), so it must give exactly the inter-zone edges, in order, on built
// worlds and on the versions ApplyChanges makes (whose rebuilt zones get
// new id ranges at the end of the level's arrays), and on what the loader
// gives back from a saved file.
#include "level_graph.h"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "generated_worlds.h"
#include "gtest/gtest.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world_file.h"

namespace zonepath::runtime_internal {
namespace {

using Edge = std::tuple<uint32_t, float, bool>;

struct Counts {
  int with_both = 0;    // nodes with both kinds of edges (the jump taken)
  int after_block = 0;  // of those, with inter-zone edges after the block
};

// Checks every live node of every level.
Counts CheckInterOnlyEdges(const World& world, const std::string& label) {
  const LevelGraph graph(world);
  Counts counts;
  for (int j = 1; j <= graph.levels(); ++j) {
    graph.level(j).ForEachNode([&](uint32_t v) {
      std::vector<Edge> all, want, got, every;
      graph.ForEachEdge(j, v, [&](uint32_t t, float c, bool intra) {
        all.emplace_back(t, c, intra);
        if (!intra) want.emplace_back(t, c, intra);
      });
      graph.ForEachEdge(j, v, /*inter_only=*/true,
                        [&](uint32_t t, float c, bool intra) {
                          got.emplace_back(t, c, intra);
                        });
      graph.ForEachEdge(j, v, /*inter_only=*/false,
                        [&](uint32_t t, float c, bool intra) {
                          every.emplace_back(t, c, intra);
                        });
      EXPECT_EQ(got, want) << label << " level " << j << " node " << v;
      EXPECT_EQ(every, all) << label << " level " << j << " node " << v;
      if (want.empty() || want.size() == all.size()) return;
      ++counts.with_both;
      counts.after_block += !std::get<2>(all.back());
    });
  }
  return counts;
}

// Both cases the jump must handle: inter-zone edges before the block and
// after it.
void ExpectBothSides(const Counts& counts, const std::string& label) {
  EXPECT_GT(counts.with_both, 100) << label;
  EXPECT_GT(counts.after_block, 10) << label;
  EXPECT_LT(counts.after_block, counts.with_both) << label;
}

TEST(LevelGraphTest, InterOnlyEdgesAreTheInterZoneEdgesInOrder) {
  for (MapKind kind : {MapKind::kRooms, MapKind::kTerrain, MapKind::kMaze}) {
    constexpr int32_t kSide = 384;
    World current = testing::GeneratedWorld({.kind = kind,
                                             .size = kSide,
                                             .seed = 3,
                                             .zone_size = 16,
                                             .levels = 3,
                                             .group = 2});
    const std::string label = absl::StrCat("kind ", static_cast<int>(kind));
    ExpectBothSides(CheckInterOnlyEdges(current, label), label);
    // Three rounds of walls and openings: rebuilt zones move to fresh id
    // ranges while their neighbours keep theirs.
    std::mt19937_64 rng(9 + static_cast<int>(kind));
    for (int round = 0; round < 3; ++round) {
      std::vector<CellChange> changes;
      for (int w = 0; w < 5; ++w) {
        const int32_t x = static_cast<int32_t>(rng() % (kSide - 30));
        const int32_t y = static_cast<int32_t>(rng() % kSide);
        for (int32_t i = 0; i < 30; ++i) {
          changes.push_back({{x + i, y}, i % 7 == 0 ? 1 : kBlocked});
        }
      }
      absl::StatusOr<World> next = ApplyChanges(current, changes);
      ASSERT_TRUE(next.ok()) << next.status();
      current = *std::move(next);
      const std::string at = absl::StrCat(label, " round ", round);
      ExpectBothSides(CheckInterOnlyEdges(current, at), at);
    }
    // The last version saved and loaded back (the loader's checked layout).
    const std::string path = (std::filesystem::temp_directory_path() /
                              absl::StrCat("level_graph_test_", ::getpid(), "_",
                                           static_cast<int>(kind), ".zpw"))
                                 .string();
    ASSERT_TRUE(SaveWorldFile(current, path).ok()) << label;
    absl::StatusOr<World> loaded = LoadWorldFile(path);
    std::filesystem::remove(path);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    ExpectBothSides(CheckInterOnlyEdges(*loaded, label + " loaded"),
                    label + " loaded");
  }
}

}  // namespace
}  // namespace zonepath::runtime_internal
