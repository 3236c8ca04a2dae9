// Change scripts for `zonepath changes`: a text file of cell changes and
// queries to replay against a world.
//
//   # comment (also after a command)
//   cell X Y COST               one cell; COST is 0..255 or "blocked"
//   rect X Y W H COST           every cell of a rectangle (inside the map)
//   scatter FRACTION COST SEED  round(FRACTION x cells) random picks
//                               (0 < FRACTION <= 1; repeats possible)
//   apply [NAME]                apply the changes since the last apply as
//                               one batch (changes left at the end of the
//                               file are applied as a last batch)
//   query SX SY GX GY           plan on the current version
//
// Everything is checked against the world's size while parsing, so a bad
// script is rejected (naming file and line) before anything runs.
#ifndef ZONEPATH_TOOLS_ZONEPATH_CHANGE_SCRIPT_H_
#define ZONEPATH_TOOLS_ZONEPATH_CHANGE_SCRIPT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/update/world_changes.h"

namespace zonepath::cli {

// One change command, kept compact (a rect is not expanded until applied).
struct ChangeOp {
  enum class Kind { kCell, kRect, kScatter } kind = Kind::kCell;
  Rect rect;  // kCell: 1x1
  int32_t cost = 0;
  double fraction = 0;  // kScatter
  uint64_t seed = 0;    // kScatter
};

struct ScriptStep {
  enum class Kind { kApply, kQuery } kind = Kind::kApply;
  int line = 0;
  std::string name;           // kApply: the name given, or "line N"
  std::vector<ChangeOp> ops;  // kApply
  Point start, goal;          // kQuery
};

// Parses a script for a width x height world. `file` names it in errors.
absl::StatusOr<std::vector<ScriptStep>> ParseChangeScript(
    absl::string_view text, const std::string& file, int32_t width,
    int32_t height);

// The cell changes of one apply step, in order.
std::vector<CellChange> ExpandOps(const std::vector<ChangeOp>& ops,
                                  int32_t width, int32_t height);

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_CHANGE_SCRIPT_H_
