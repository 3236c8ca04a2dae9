#include "zonepath/grid/path.h"

#include "gtest/gtest.h"
#include "zonepath/movingai/map_io.h"

namespace zonepath {
namespace {

TEST(RunLengthPathTest, AppendMergesRuns) {
  RunLengthPath path;
  path.Reset({1, 2});
  path.Append(Direction::kE, 5);
  path.Append(Direction::kE);
  path.Append(Direction::kNE, 3);
  EXPECT_EQ(path.steps(), 9);
  EXPECT_EQ(RunsToString(path.runs()), "E6,NE3");
  path.Reset({0, 0});
  EXPECT_TRUE(path.empty());
  EXPECT_EQ(RunsToString(path.runs()), "");
}

TEST(RunLengthPathTest, ParseRoundTripAndErrors) {
  absl::StatusOr<std::vector<zonepath::Run>> runs = ParseRuns("E5,NE3,N12");
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(RunsToString(*runs), "E5,NE3,N12");
  EXPECT_TRUE(ParseRuns("")->empty());
  EXPECT_FALSE(ParseRuns("E0").ok());
  EXPECT_FALSE(ParseRuns("Q3").ok());
  EXPECT_FALSE(ParseRuns("E").ok());
  EXPECT_FALSE(ParseRuns("E3,,N2").ok());
}

TEST(WalkRunsTest, ChecksLegalityAndCost) {
  absl::StatusOr<Grid> grid = ReadMapString(
      "type octile\nheight 3\nwidth 4\nmap\n"
      "..@.\n"
      ".3..\n"
      "....\n");
  ASSERT_TRUE(grid.ok()) << grid.status();
  absl::StatusOr<PathWalk> walk =
      WalkRuns(*grid, {0, 0}, *ParseRuns("S1,E1"), Connectivity::kEight);
  ASSERT_TRUE(walk.ok());
  EXPECT_EQ(walk->end, (Point{1, 1}));
  EXPECT_DOUBLE_EQ(walk->cost, 1.0 + 2.0);  // (1+1)/2 + (1+3)/2
  // Corner cutting past the '@' at (2,0): from (1,0) SE is fine, but NE from
  // (1,1) to (2,0) enters a blocked cell, and from (1,0) E is blocked.
  EXPECT_FALSE(
      WalkRuns(*grid, {1, 0}, *ParseRuns("E1"), Connectivity::kEight).ok());
  EXPECT_FALSE(
      WalkRuns(*grid, {2, 1}, *ParseRuns("NE1"), Connectivity::kEight).ok());
  EXPECT_FALSE(
      WalkRuns(*grid, {0, 0}, *ParseRuns("SE1"), Connectivity::kFour).ok());
  EXPECT_FALSE(
      WalkRuns(*grid, {0, 0}, *ParseRuns("W1"), Connectivity::kEight).ok());
  EXPECT_FALSE(
      WalkRuns(*grid, {2, 0}, *ParseRuns(""), Connectivity::kEight).ok());
}

TEST(PathTest, CellAfterMoves) {
  const std::vector<zonepath::Run> runs = {{Direction::kE, 3},
                                           {Direction::kS, 2}};
  EXPECT_EQ(CellAfterMoves({1, 1}, runs, 0), (Point{1, 1}));
  EXPECT_EQ(CellAfterMoves({1, 1}, runs, 2), (Point{3, 1}));
  EXPECT_EQ(CellAfterMoves({1, 1}, runs, 4), (Point{4, 2}));
  EXPECT_EQ(CellAfterMoves({1, 1}, runs, 5), (Point{4, 3}));
  EXPECT_EQ(CellAfterMoves({1, 1}, runs, 99), (Point{4, 3}));
}

}  // namespace
}  // namespace zonepath
