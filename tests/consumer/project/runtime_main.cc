// A game's use of an installed zonepath: load a world file, plan, open a
// door (ApplyChanges, zonepath::update — no offline code, no Boost), plan on
// the new version (smoothed paths: optimal here). The world (consumer_test.sh
// builds it) is a 12 x 6 field with a wall in column 5 from row 2 down; the
// door is its bottom cell. usage: consumer_runtime WORLD
#include <cstdio>
#include <vector>

#include "zonepath/runtime/planner.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world_file.h"

namespace {

bool Plan(const zonepath::World& world, const char* label) {
  zonepath::Planner planner(world);
  zonepath::RunLengthPath path;
  zonepath::PlanOptions options;
  options.smooth = true;
  absl::StatusOr<zonepath::SearchOutcome> outcome =
      planner.FindPath({2, 5}, {8, 5}, options, &path);
  if (!outcome.ok() || *outcome != zonepath::SearchOutcome::kFound) {
    std::fprintf(stderr, "consumer_runtime: %s: no path\n", label);
    return false;
  }
  std::printf("consumer_runtime %s: %s cost %.3f\n", label,
              zonepath::RunsToString(path.runs()).c_str(), path.cost());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  absl::StatusOr<zonepath::World> world = zonepath::LoadWorldFile(argv[1]);
  if (!world.ok()) {
    std::fprintf(stderr, "%s\n", world.status().ToString().c_str());
    return 1;
  }
  if (!Plan(*world, "before")) return 1;
  const std::vector<zonepath::CellChange> door = {{{5, 5}, 1}};
  zonepath::UpdateReport report;
  absl::StatusOr<zonepath::World> next =
      zonepath::ApplyChanges(*world, door, {}, &report);
  if (!next.ok()) {
    std::fprintf(stderr, "%s\n", next.status().ToString().c_str());
    return 1;
  }
  std::printf("consumer_runtime: version %llu, %zu zone(s) affected\n",
              static_cast<unsigned long long>(next->version()),
              report.affected_zones.size());
  return Plan(*next, "after") ? 0 : 1;
}
