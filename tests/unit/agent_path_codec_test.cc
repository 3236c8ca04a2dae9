// EncodeAgentPath / DecodeAgentPath: exact round trips of ClassAStar paths
// of oriented and unoriented classes through every path codec, and clean
// errors (never a crash) on every truncation and single-byte corruption.
#include "zonepath/agents/agent_path_codec.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_cart.h"
#include "zonepath/agents/class_astar.h"

namespace zonepath {
namespace {

AgentClass Cart(Connectivity connectivity) {
  return testing::TestCart(connectivity);
}

// Random open terrain (types 1..3, 15 % blocked).
Grid Terrain(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> types(40 * 30);
  for (uint8_t& t : types) {
    t = rng() % 100 < 15 ? 0 : static_cast<uint8_t>(1 + rng() % 3);
  }
  return *Grid::Create(40, 30, std::move(types));
}

void ExpectSame(const AgentPath& a, const AgentPath& b) {
  EXPECT_EQ(a.start(), b.start());
  EXPECT_EQ(a.start_heading(), b.start_heading());
  EXPECT_EQ(AgentRunsToString(a.runs()), AgentRunsToString(b.runs()));
  EXPECT_TRUE(a.runs() == b.runs());
}

TEST(AgentPathCodecTest, RoundTripsSearchedPathsThroughEveryCodec) {
  const std::vector<AgentClass> classes = {Cart(Connectivity::kFour),
                                           Cart(Connectivity::kEight),
                                           AgentClass::Default()};
  int with_turns = 0, with_backward = 0;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const Grid grid = Terrain(seed);
    ClassAStar search(grid);
    std::mt19937_64 rng(seed);
    for (const AgentClass& c : classes) {
      AgentPath path, back;
      const Point start{static_cast<int32_t>(rng() % 38),
                        static_cast<int32_t>(rng() % 28)};
      const Point goal{static_cast<int32_t>(rng() % 38),
                       static_cast<int32_t>(rng() % 28)};
      ClassAStarOptions options;
      if (c.oriented) options.goal_heading = Direction::kS;
      absl::StatusOr<SearchOutcome> outcome =
          search.FindPath(c, start, Direction::kN, goal, options, &path);
      if (!outcome.ok() || *outcome != SearchOutcome::kFound) continue;
      for (const AgentRun& run : path.runs()) {
        with_turns += run.action == AgentAction::kTurn;
        with_backward += run.action == AgentAction::kBackward;
      }
      for (PathCodec codec : kAllPathCodecs) {
        std::string bytes;
        ASSERT_TRUE(EncodeAgentPath(codec, c, path, &bytes).ok());
        ASSERT_TRUE(DecodeAgentPath(bytes, &back).ok()) << seed;
        ExpectSame(path, back);
        absl::StatusOr<AgentWalk> walk = WalkAgentPath(grid, c, back);
        ASSERT_TRUE(walk.ok()) << walk.status();
        EXPECT_NEAR(walk->cost, path.cost(), 1e-9 * std::max(1.0, path.cost()));
      }
    }
  }
  EXPECT_GT(with_turns, 20);
  EXPECT_GT(with_backward, 0);
}

TEST(AgentPathCodecTest, HandBuiltPathWithTurnsAtTheEnds) {
  AgentPath path, back;
  path.Reset({3, 4}, Direction::kE);
  path.AppendTurn(+1, 2);  // E -> W before any step
  path.AppendStep(AgentAction::kBackward, Direction::kW, 3);
  path.AppendStep(AgentAction::kForward, Direction::kW, 1);
  path.AppendTurn(-1);  // W -> S
  path.AppendStep(AgentAction::kForward, Direction::kS, 2);
  path.AppendTurn(-1);  // S -> E at the end
  std::string bytes;
  ASSERT_TRUE(EncodeAgentPath(PathCodec::kRunLength, Cart(Connectivity::kFour),
                              path, &bytes)
                  .ok());
  ASSERT_TRUE(DecodeAgentPath(bytes, &back).ok());
  ExpectSame(path, back);
  EXPECT_EQ(AgentRunsToString(back.runs()), "R2,~W3,W1,L1,S2,L1");
  // An unoriented class cannot store turns or backward steps.
  EXPECT_FALSE(EncodeAgentPath(PathCodec::kRunLength, AgentClass::Default(),
                               path, &bytes)
                   .ok());
}

TEST(AgentPathCodecTest, CorruptBytesAreErrors) {
  AgentPath path, back;
  path.Reset({3, 4}, Direction::kN);
  path.AppendStep(AgentAction::kForward, Direction::kN, 2);
  path.AppendTurn(+1);
  path.AppendStep(AgentAction::kBackward, Direction::kE, 2);
  std::string bytes;
  ASSERT_TRUE(EncodeAgentPath(PathCodec::kTurns, Cart(Connectivity::kFour),
                              path, &bytes)
                  .ok());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeAgentPath(bytes.substr(0, n), &back).ok()) << n;
  }
  int rejected = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      // Must not crash; most flips are caught, and any path that does
      // decode is a well-formed one.
      if (!DecodeAgentPath(bad, &back).ok()) ++rejected;
    }
  }
  EXPECT_GT(rejected, static_cast<int>(bytes.size()) * 4);
}

}  // namespace
}  // namespace zonepath
