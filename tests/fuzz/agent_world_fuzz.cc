// libFuzzer target for agent worlds (zonepath/agents/agent_world.h): any
// bytes give a status naming the file part, or an AgentWorld on which
// every class answers a query (corner to corner of its legal anchors)
// without a crash, hang or an illegal path. Checksums are off so the
// fuzzer reaches the structural checks behind them.
//   build-fuzz/tests/agent_world_fuzz -max_total_time=30 CORPUS_DIR
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "absl/strings/string_view.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/class_grid.h"

namespace zonepath {
namespace {

// The first and last anchor (row-major) legal for the class's guide grid.
bool Corners(const AgentWorld& world, const AgentClass& agent, Point* first,
             Point* last) {
  const Grid& grid = world.terrain();
  bool any = false;
  for (int32_t y = 0; y < grid.height(); ++y) {
    for (int32_t x = 0; x < grid.width(); ++x) {
      if (GuideCost(grid, agent, {x, y}) == kBlocked) continue;
      if (!any) *first = {x, y};
      *last = {x, y};
      any = true;
    }
  }
  return any;
}

}  // namespace
}  // namespace zonepath

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zonepath;  // NOLINT: a fuzz entry point
  LoadOptions options;
  options.verify_checksums = false;
  options.threads = 1;
  const absl::StatusOr<AgentWorld> world = ParseAgentWorld(
      absl::string_view(reinterpret_cast<const char*>(data), size), "fuzz",
      options);
  if (!world.ok() || world->terrain().cell_count() > (1 << 16)) return 0;
  AgentPlanner planner(*world);
  AgentPath path;
  for (const AgentWorld::ClassWorldEntry& c : world->classes()) {
    Point a, b;
    if (!Corners(*world, c.agent, &a, &b)) continue;
    const absl::StatusOr<SearchOutcome> outcome =
        planner.FindPath(c.agent.name, a, b, {}, &path);
    if (!outcome.ok() || *outcome != SearchOutcome::kFound) continue;
    const absl::StatusOr<AgentWalk> walk =
        WalkAgentPath(world->terrain(), c.agent, path);
    if (!walk.ok() || walk->end != b) std::abort();  // an illegal path
  }
  return 0;
}
