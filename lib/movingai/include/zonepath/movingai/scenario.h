// Reading MovingAI `.scen` scenario files.
//
// Format: "version 1" (or "version 1.0"), then one problem per line, tab
// separated: bucket, map path, map width, map height, start x, start y,
// goal x, goal y, optimal length. Lines with no tab are split on spaces, as
// some published files (bg512) are.
//
//   ASSIGN_OR_RETURN(Scenario scen, ReadScenarioFile("den520d.map.scen"));
//   RETURN_IF_ERROR(CheckScenarioFitsGrid(scen, grid));
//   for (const ScenarioProblem& p : scen.problems) { ... p.optimal ... }
#ifndef ZONEPATH_MOVINGAI_SCENARIO_H_
#define ZONEPATH_MOVINGAI_SCENARIO_H_

#include <istream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/grid/grid.h"

namespace zonepath {

struct ScenarioProblem {
  int bucket = 0;
  std::string map;
  int64_t map_width = 0;
  int64_t map_height = 0;
  Point start;
  Point goal;
  double optimal = 0;  // optimal length, printed with ~6 significant digits
  int line = 0;        // line number in the file, for messages
};

struct Scenario {
  std::string name;  // file name, for messages
  std::vector<ScenarioProblem> problems;
};

absl::StatusOr<Scenario> ReadScenarioFile(const std::string& path);
absl::StatusOr<Scenario> ReadScenario(std::istream& in, absl::string_view name);
absl::StatusOr<Scenario> ReadScenarioString(absl::string_view text);

// Checks each problem's declared map size equals the grid's and its start and
// goal lie inside it; the error names the scenario line.
absl::Status CheckScenarioFitsGrid(const Scenario& scenario, const Grid& grid);

// True if `cost` matches a scenario's printed optimal length: within
// max(0.01, 1e-5 * optimal), the precision MovingAI files are printed with.
bool MatchesOptimal(double cost, double optimal);

// Every *.map under `dir` (searched recursively) with its `<map>.scen`
// beside it, sorted; empty if `dir` is not a readable directory.
std::vector<std::string> FindMapsWithScenarios(const std::string& dir);

}  // namespace zonepath

#endif  // ZONEPATH_MOVINGAI_SCENARIO_H_
