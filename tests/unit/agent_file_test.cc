// The agent file parser: the example file, the default class, and one test
// per error (each naming file:line and the field).
#include "zonepath/agents/agent_file.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace zonepath {
namespace {

using ::testing::HasSubstr;

constexpr char kTerrain[] =
    "terrain ground 1 .\n"
    "terrain road 2 =\n"
    "terrain forest 3 T\n";

TEST(AgentFileTest, ExampleFile) {
  absl::StatusOr<AgentSet> set =
      ParseAgentFile(ZONEPATH_SOURCE_DIR "/data/agents/example.agents");
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(set->terrain_types.size(), 6u);
  EXPECT_EQ(set->terrain_types[1].name, "road");
  EXPECT_EQ(set->terrain_types[1].type, 2);
  EXPECT_EQ(set->terrain_types[1].map_char, '=');
  absl::StatusOr<const AgentClass*> tank = set->Find("tank");
  ASSERT_TRUE(tank.ok()) << tank.status();
  EXPECT_EQ((*tank)->width, 3);
  EXPECT_EQ((*tank)->length, 3);
  EXPECT_EQ((*tank)->cost_of_type[1], 2);  // ground
  EXPECT_EQ((*tank)->cost_of_type[2], 1);  // road
  EXPECT_EQ((*tank)->cost_of_type[3], 0);  // forest: impassable
  EXPECT_EQ((*tank)->cost_of_type[0], 0);
  absl::StatusOr<const AgentClass*> convoy = set->Find("convoy");
  ASSERT_TRUE(convoy.ok());
  EXPECT_EQ((*convoy)->width, 2);
  EXPECT_EQ((*convoy)->length, 4);
  EXPECT_EQ((*convoy)->connectivity, Connectivity::kFour);
  absl::StatusOr<const AgentClass*> ship = set->Find("ship");
  ASSERT_TRUE(ship.ok());
  EXPECT_TRUE((*ship)->oriented);
  EXPECT_EQ((*ship)->backward_factor, 4);
  EXPECT_EQ((*ship)->turn_cost, 3);
  const TerrainLegend legend = set->Legend();
  EXPECT_EQ(legend.CostOf('='), 2);
  EXPECT_EQ(legend.CostOf('T'), 3);  // the file's meaning wins
  EXPECT_EQ(legend.CostOf('@'), 0);
  EXPECT_EQ(legend.CharFor(6), 'W');
}

TEST(AgentFileTest, DefaultClassAlwaysPresent) {
  absl::StatusOr<AgentSet> set = ParseAgentText("# nothing\n\n", "x.agents");
  ASSERT_TRUE(set.ok()) << set.status();
  absl::StatusOr<const AgentClass*> d = set->Find("default");
  ASSERT_TRUE(d.ok());
  const AgentClass def = AgentClass::Default();
  EXPECT_EQ((*d)->cost_of_type, def.cost_of_type);
  EXPECT_EQ((*d)->width, 1);
  EXPECT_EQ((*d)->length, 1);
  EXPECT_EQ((*d)->connectivity, Connectivity::kEight);
  EXPECT_FALSE((*d)->oriented);
}

TEST(AgentFileTest, UnknownClass) {
  absl::StatusOr<AgentSet> set = ParseAgentText(kTerrain, "x.agents");
  ASSERT_TRUE(set.ok());
  absl::StatusOr<const AgentClass*> c = set->Find("zeppelin");
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(),
              HasSubstr("unknown agent class 'zeppelin'"));
}

TEST(AgentFileTest, MissingFile) {
  EXPECT_FALSE(ParseAgentFile("/nonexistent/x.agents").ok());
  EXPECT_FALSE(ParseAgentFile("/").ok());  // a directory
}

struct BadCase {
  const char* line;      // appended after kTerrain (line 4)
  const char* expected;  // substring of the message
};

class AgentFileErrorTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(AgentFileErrorTest, NamesLineAndField) {
  const std::string text = std::string(kTerrain) + GetParam().line + "\n";
  absl::StatusOr<AgentSet> set = ParseAgentText(text, "bad.agents");
  ASSERT_FALSE(set.ok()) << GetParam().line;
  EXPECT_EQ(set.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(set.status().message(), HasSubstr("bad.agents:4: "));
  EXPECT_THAT(set.status().message(), HasSubstr(GetParam().expected));
}

INSTANTIATE_TEST_SUITE_P(
    Errors, AgentFileErrorTest,
    ::testing::Values(
        BadCase{"vehicle x", "statement: unknown statement 'vehicle'"},
        BadCase{"terrain swamp 4", "expected 'terrain NAME TYPE CHAR'"},
        BadCase{"terrain road 4 %", "duplicate terrain type 'road'"},
        BadCase{"terrain swamp 0 %", "type: '0' is not in 1..255"},
        BadCase{"terrain swamp 256 %", "type: '256' is not in 1..255"},
        BadCase{"terrain swamp 2 %", "type: type 2 is already used"},
        BadCase{"terrain swamp 4 =", "map character '=' is already used"},
        BadCase{"terrain swamp 4 @", "'@' is reserved"},
        BadCase{"terrain swamp 4 %%", "not one printable character"},
        BadCase{"terrain sw!mp 4 %", "name: 'sw!mp'"},
        BadCase{"class a cost swamp=2", "unknown terrain type 'swamp'"},
        BadCase{"class a cost road=0",
                "cost: cost '0' of 'road' is not in 1..255"},
        BadCase{"class a cost road=256", "is not in 1..255"},
        BadCase{"class a cost road=1,road=2", "'road' given twice"},
        BadCase{"class a cost road", "'road' is not TERRAIN=COST"},
        BadCase{"class a size 9 cost road=1", "size: '9' is not W or WxL"},
        BadCase{"class a size 0 cost road=1", "size: '0'"},
        BadCase{"class a size 2x0 cost road=1", "size: '2x0'"},
        BadCase{"class a size big cost road=1", "size: 'big'"},
        BadCase{"class a connectivity 6 cost road=1",
                "connectivity: '6' is not 4 or 8"},
        BadCase{"class a size 2 size 3 cost road=1", "size: given twice"},
        BadCase{"class a speed 3 cost road=1", "speed: unknown class key"},
        BadCase{"class a size", "expected 'class NAME key value ...'"},
        BadCase{"class a size 1", "cost: class 'a' has no cost"},
        BadCase{"class default cost road=1", "'default' is built in"},
        BadCase{"class a oriented maybe cost road=1",
                "oriented: 'maybe' is not yes or no"},
        BadCase{"class a oriented yes backward 0.5 cost road=1",
                "backward: '0.5' is not in [1, 16]"},
        BadCase{"class a oriented yes backward 17 cost road=1",
                "backward: '17' is not in [1, 16]"},
        BadCase{"class a oriented yes turn -1 cost road=1",
                "turn: '-1' is not in [0, 1000]"},
        BadCase{"class a oriented yes turn 1001 cost road=1",
                "turn: '1001' is not in [0, 1000]"},
        BadCase{"class a backward 2 cost road=1",
                "backward: applies only to an oriented class"},
        BadCase{"class a turn 2 cost road=1",
                "turn: applies only to an oriented class"},
        BadCase{"class a oriented yes size 3x1 cost road=1",
                "an oriented class needs width <= length"}));

TEST(AgentFileTest, DuplicateClassNamesLaterLine) {
  const std::string text = std::string(kTerrain) +
                           "class a cost road=1\n"
                           "class a cost ground=1\n";
  absl::StatusOr<AgentSet> set = ParseAgentText(text, "dup.agents");
  ASSERT_FALSE(set.ok());
  EXPECT_THAT(set.status().message(),
              HasSubstr("dup.agents:5: name: duplicate class 'a'"));
}

TEST(AgentFileTest, BinaryBytesAreEscapedInMessages) {
  absl::StatusOr<AgentSet> set =
      ParseAgentText(std::string("\x01\xfe\x80z 1\n", 7), "bin.agents");
  ASSERT_FALSE(set.ok());
  const std::string message(set.status().message());
  EXPECT_NE(message.find("bin.agents:1: statement:"), std::string::npos)
      << message;
  EXPECT_NE(message.find("\\x01\\xfe\\x80z"), std::string::npos) << message;
  for (const char c : message) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7F) << message;
  }
}

TEST(AgentFileTest, CommentsAndTabs) {
  absl::StatusOr<AgentSet> set = ParseAgentText(
      std::string(kTerrain) + "\tclass  a\tsize 2x3 cost road=1 # truck\r\n",
      "ok.agents");
  ASSERT_TRUE(set.ok()) << set.status();
  absl::StatusOr<const AgentClass*> a = set->Find("a");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ((*a)->width, 2);
  EXPECT_EQ((*a)->length, 3);
}

}  // namespace
}  // namespace zonepath
