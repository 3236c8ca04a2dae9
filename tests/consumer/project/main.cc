// Plans one path on a small map with an installed zonepath: around the wall,
// N1,E3,S1 (a diagonal would cut a corner).
#include <cstdio>

#include "zonepath/movingai/map_io.h"
#include "zonepath/search/grid_astar.h"

int main() {
  absl::StatusOr<zonepath::Grid> grid = zonepath::ReadMapString(
      "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n");
  if (!grid.ok()) return 1;
  zonepath::GridAStar astar(*grid);
  zonepath::RunLengthPath path;
  auto outcome = astar.FindPath({0, 1}, {3, 1}, {}, &path);
  if (!outcome.ok() || *outcome != zonepath::SearchOutcome::kFound) return 1;
  std::printf("consumer: %s cost %.3f\n",
              zonepath::RunsToString(path.runs()).c_str(), path.cost());
  return 0;
}
