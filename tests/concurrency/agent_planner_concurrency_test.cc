// Planners of several threads on one shared AgentWorld (each thread its own
// AgentPlanner, every class, oriented ones included, the class worlds'
// landmark tables built by whichever planner comes first) give the paths
// one thread gives. Built and run under ThreadSanitizer in CI.
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/build_agent_world.h"
#include "zonepath/mapgen/generators.h"

namespace zonepath {
namespace {

struct Query {
  std::string agent;
  Point start, goal;
};

struct Answer {
  absl::StatusCode code = absl::StatusCode::kOk;
  SearchOutcome outcome = SearchOutcome::kUnreachable;
  std::vector<AgentRun> runs;
  double cost = 0;
};

std::vector<Answer> Answers(const AgentWorld& world,
                            const std::vector<Query>& queries) {
  AgentPlanner planner(world);
  AgentPath path;
  std::vector<Answer> out;
  for (const Query& q : queries) {
    const absl::StatusOr<SearchOutcome> outcome =
        planner.FindPath(q.agent, q.start, q.goal, {}, &path);
    Answer& a = out.emplace_back();
    a.code = outcome.status().code();
    if (!outcome.ok()) continue;
    a.outcome = *outcome;
    a.runs = path.runs();
    a.cost = path.cost();
  }
  return out;
}

TEST(AgentPlannerConcurrencyTest, ThreadsAgreeWithOneThread) {
  absl::StatusOr<AgentSet> agents = ParseAgentText(
      "terrain ground 1 .\nterrain road 2 =\nterrain forest 3 T\n"
      "terrain hills 4 ^\nterrain shallow 5 ~\nterrain deep 6 W\n"
      "class tank size 3 cost ground=2,road=1,hills=3\n"
      "class cart size 1x2 connectivity 4 cost ground=1,road=1,forest=2 "
      "oriented yes backward 2 turn 1\n",
      "test");
  ASSERT_TRUE(agents.ok()) << agents.status();
  MapGenOptions g;
  g.kind = MapKind::kMixed;
  g.width = 160;
  g.height = 128;
  g.seed = 2;
  AgentWorldBuildOptions o;
  o.build.params.zone_size = 16;
  o.build.threads = 1;
  absl::StatusOr<Grid> terrain = GenerateMap(g);
  ASSERT_TRUE(terrain.ok()) << terrain.status();
  const absl::StatusOr<AgentWorld> world =
      BuildAgentWorld(*std::move(terrain), *agents, o);
  ASSERT_TRUE(world.ok()) << world.status();
  std::vector<Query> queries;
  uint64_t state = 12345;
  const auto next = [&state](int32_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int32_t>((state >> 33) % static_cast<uint64_t>(n));
  };
  for (int i = 0; i < 120; ++i) {
    const char* names[] = {"default", "tank", "cart"};
    queries.push_back({names[i % 3],
                       {next(g.width), next(g.height)},
                       {next(g.width), next(g.height)}});
  }
  const std::vector<Answer> one = Answers(*world, queries);
  std::vector<std::vector<Answer>> many(2);
  std::vector<std::thread> threads;
  for (auto& answers : many) {
    threads.emplace_back(
        [&world, &queries, &answers] { answers = Answers(*world, queries); });
  }
  for (std::thread& t : threads) t.join();
  int64_t found = 0;
  for (const std::vector<Answer>& answers : many) {
    ASSERT_EQ(answers.size(), one.size());
    for (size_t i = 0; i < one.size(); ++i) {
      EXPECT_EQ(answers[i].code, one[i].code) << i;
      EXPECT_EQ(answers[i].outcome, one[i].outcome) << i;
      EXPECT_EQ(answers[i].runs, one[i].runs) << i;
      EXPECT_EQ(answers[i].cost, one[i].cost) << i;
      found += one[i].code == absl::StatusCode::kOk &&
               one[i].outcome == SearchOutcome::kFound;
    }
  }
  EXPECT_GT(found, 40);
}

}  // namespace
}  // namespace zonepath
