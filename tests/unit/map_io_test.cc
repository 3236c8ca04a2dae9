#include "zonepath/movingai/map_io.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/movingai/scenario.h"

namespace zonepath {
namespace {

using ::testing::HasSubstr;

constexpr char kGood[] =
    "type octile\nheight 2\nwidth 3\nmap\n"
    ".@G\n"
    "STW\n";

TEST(MapReadTest, ReadsGoodMapWithCrLf) {
  for (std::string text :
       {std::string(kGood), std::string("type octile\r\nheight 2\r\nwidth 3\r\n"
                                        "map\r\n.@G\r\nSTW\r\n")}) {
    absl::StatusOr<Grid> grid = ReadMapString(text);
    ASSERT_TRUE(grid.ok()) << grid.status();
    EXPECT_EQ(grid->width(), 3);
    EXPECT_EQ(grid->height(), 2);
    EXPECT_TRUE(grid->passable({0, 0}));
    EXPECT_FALSE(grid->passable({1, 0}));
    EXPECT_TRUE(grid->passable({2, 0}));
    EXPECT_TRUE(grid->passable({0, 1}));
    EXPECT_FALSE(grid->passable({1, 1}));
    EXPECT_FALSE(grid->passable({2, 1}));
  }
}

struct BadMap {
  const char* name;
  std::string text;
  const char* expected;  // substring of the error
};

void PrintTo(const BadMap& bad, std::ostream* os) { *os << bad.name; }

class MapReadErrorTest : public ::testing::TestWithParam<BadMap> {};

TEST_P(MapReadErrorTest, GivesClearError) {
  absl::StatusOr<Grid> grid =
      ReadMapString(GetParam().text, TerrainLegend::MovingAi());
  ASSERT_FALSE(grid.ok()) << GetParam().name;
  EXPECT_EQ(grid.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(grid.status().message()),
              HasSubstr(GetParam().expected));
  EXPECT_THAT(std::string(grid.status().message()), HasSubstr("<string>:"));
}

INSTANTIATE_TEST_SUITE_P(
    AllCases, MapReadErrorTest,
    ::testing::Values(
        BadMap{"empty", "", "empty file"},
        BadMap{"no_type", "height 1\nwidth 1\nmap\n.\n", "type octile"},
        BadMap{"wrong_type", "type hex\nheight 1\nwidth 1\nmap\n.\n",
               "unsupported map type"},
        BadMap{"no_height", "type octile\nwidth 1\nmap\n.\n", "'height'"},
        BadMap{"no_width", "type octile\nheight 1\nmap\n.\n", "'width'"},
        BadMap{"no_map_line", "type octile\nheight 1\nwidth 1\n", "'map'"},
        BadMap{"negative", "type octile\nheight -3\nwidth 1\nmap\n.\n",
               "at least 1"},
        BadMap{"zero", "type octile\nheight 1\nwidth 0\nmap\n\n", "at least 1"},
        BadMap{"absurd", "type octile\nheight 100000000\nwidth 9\nmap\n.\n",
               "at most"},
        BadMap{"absurd_cells", "type octile\nheight 65536\nwidth 65536\nmap\n",
               "cells"},
        BadMap{"not_a_number", "type octile\nheight ten\nwidth 1\nmap\n.\n",
               "integer"},
        BadMap{"unknown_field",
               "type octile\ndepth 3\nheight 1\nwidth 1\nmap\n",
               "unknown header field"},
        BadMap{"short_row", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n",
               "row 1 has 2 characters"},
        BadMap{"long_row", "type octile\nheight 2\nwidth 3\nmap\n....\n...\n",
               "row 0 has 4 characters"},
        BadMap{"too_few_rows",
               "type octile\nheight 3\nwidth 3\nmap\n...\n...\n",
               "map has 2 rows"},
        BadMap{"truncated", "type octile\nheight 3\nwidth 3\nmap\n...\n.",
               "row 1 has 1 characters"},
        BadMap{"too_many_rows",
               "type octile\nheight 1\nwidth 3\nmap\n...\n...\n",
               "more rows than"},
        BadMap{"unknown_char", "type octile\nheight 1\nwidth 3\nmap\n.x.\n",
               "unknown terrain character 'x'"},
        BadMap{"digit_not_in_movingai_legend",
               "type octile\nheight 1\nwidth 3\nmap\n.5.\n",
               "unknown terrain character '5'"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(MapReadTest, LegendMapsExtraCharacters) {
  absl::StatusOr<TerrainLegend> legend =
      TerrainLegend::Parse("movingai,x=7,#=0");
  ASSERT_TRUE(legend.ok());
  absl::StatusOr<Grid> grid =
      ReadMapString("type octile\nheight 1\nwidth 3\nmap\n.x#\n", *legend);
  ASSERT_TRUE(grid.ok()) << grid.status();
  EXPECT_EQ(grid->cost({1, 0}), 7);
  EXPECT_FALSE(grid->passable({2, 0}));
  EXPECT_FALSE(TerrainLegend::Parse("nonsense").ok());
  EXPECT_FALSE(TerrainLegend::Parse("movingai,x=300").ok());
  EXPECT_FALSE(TerrainLegend::Parse("movingai,xy=3").ok());
}

TEST(MapReadTest, RemappedCharacterStillRoundTrips) {
  TerrainLegend legend = TerrainLegend::MovingAi();
  legend.Set('.', 5);  // '.' now means 5: cost 1 must be written as G or S
  EXPECT_NE(legend.CharFor(1), std::optional<char>('.'));
  EXPECT_EQ(legend.CharFor(5), std::optional<char>('.'));
}

TEST(MapWriteTest, RoundTripsWeightedRandomGrids) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    const Grid grid = testing::RandomGrid(seed, {17, 9, 0.3, 9});
    std::ostringstream out;
    ASSERT_TRUE(WriteMap(grid, out).ok());
    absl::StatusOr<Grid> back = ReadMapString(out.str());
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->CostVector(), grid.CostVector()) << "seed " << seed;
  }
}

TEST(MapWriteTest, FailsForCostWithoutCharacter) {
  const Grid grid = *Grid::Create(2, 1, {1, 42});
  std::ostringstream out;
  absl::Status s = WriteMap(grid, out);
  EXPECT_THAT(std::string(s.message()), HasSubstr("cost 42"));
}

TEST(MapWriteTest, FileWriteIsAtomicAndLeavesOldFileOnFailure) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "zonepath_write_test.map")
          .string();
  const Grid good = *Grid::Create(2, 1, {1, 0});
  ASSERT_TRUE(WriteMapFile(good, path).ok());
  const Grid bad = *Grid::Create(2, 1, {1, 42});
  EXPECT_FALSE(WriteMapFile(bad, path).ok());
  absl::StatusOr<Grid> back = ReadMapFile(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->CostVector(), good.CostVector());
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::temp_directory_path())) {
    EXPECT_EQ(entry.path().string().find(path + ".tmp"), std::string::npos);
  }
  std::filesystem::remove(path);
  EXPECT_EQ(ReadMapFile(path).status().code(), absl::StatusCode::kNotFound);
}

constexpr char kScen[] =
    "version 1\n"
    "0\tm.map\t3\t2\t0\t0\t2\t0\t2.00000000\n"
    "1\tm.map\t3\t2\t0\t1\t0\t0\t1\n";

TEST(ScenarioTest, ReadsGoodScenario) {
  absl::StatusOr<Scenario> scen = ReadScenarioString(kScen);
  ASSERT_TRUE(scen.ok()) << scen.status();
  ASSERT_EQ(scen->problems.size(), 2u);
  EXPECT_EQ(scen->problems[0].goal, (Point{2, 0}));
  EXPECT_DOUBLE_EQ(scen->problems[0].optimal, 2.0);
  EXPECT_EQ(scen->problems[1].line, 3);
  const Grid grid = *ReadMapString(kGood);
  EXPECT_TRUE(CheckScenarioFitsGrid(*scen, grid).ok());
}

TEST(ScenarioTest, AcceptsSpaceSeparatedLines) {
  absl::StatusOr<Scenario> scen =
      ReadScenarioString("version 1.0\n61 maps/m.map 3 2 0 0 2 1 244.95\n");
  ASSERT_TRUE(scen.ok()) << scen.status();
  EXPECT_EQ(scen->problems[0].goal, (Point{2, 1}));
  EXPECT_DOUBLE_EQ(scen->problems[0].optimal, 244.95);
}

TEST(ScenarioTest, Errors) {
  struct Case {
    std::string text;
    const char* expected;
  };
  for (const Case& c : std::vector<Case>{
           {"", "empty file"},
           {"version 2\n", "version 1"},
           {"version 1\n0\tm.map\t3\t2\t0\t0\t2\t0\n", "9 tab-separated"},
           {"version 1\n0\tm.map\t3\t2\tx\t0\t2\t0\t1\n", "start x must be"},
           {"version 1\n0\tm.map\t3\t2\t0\t0\t2\t0\tfar\n", "optimal length"},
           {"version 1\n0\tm.map\t3\t2\t0\t0\t3\t0\t1\n",
            "goal x 3 is outside"},
           {"version 1\n0\tm.map\t3\t2\t0\t-1\t2\t0\t1\n", "start y -1"},
           {"version 1\n0\tm.map\t0\t2\t0\t0\t0\t0\t1\n", "at least 1"},
       }) {
    absl::StatusOr<Scenario> scen = ReadScenarioString(c.text);
    ASSERT_FALSE(scen.ok()) << c.text;
    EXPECT_THAT(std::string(scen.status().message()), HasSubstr(c.expected));
  }
  // A scenario for a different map size.
  absl::StatusOr<Scenario> scen =
      ReadScenarioString("version 1\n0\tm.map\t4\t2\t0\t0\t2\t0\t1\n");
  ASSERT_TRUE(scen.ok());
  absl::Status fit = CheckScenarioFitsGrid(*scen, *ReadMapString(kGood));
  EXPECT_THAT(std::string(fit.message()), HasSubstr("4x2 map, the map is 3x2"));
  EXPECT_THAT(std::string(fit.message()), HasSubstr("<string>:2"));
}

TEST(ScenarioTest, MatchesOptimalTolerance) {
  EXPECT_TRUE(MatchesOptimal(100.005, 100.0));
  EXPECT_FALSE(MatchesOptimal(100.02, 100.0));
  EXPECT_TRUE(MatchesOptimal(5000.04, 5000.0));  // 1e-5 relative
  EXPECT_FALSE(MatchesOptimal(5000.06, 5000.0));
}

}  // namespace
}  // namespace zonepath
