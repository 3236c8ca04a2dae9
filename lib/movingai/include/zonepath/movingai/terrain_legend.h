// TerrainLegend: which map character means which terrain cost.
//
// The MovingAI legend: '.', 'G', 'S' passable with cost 1; '@', 'O', 'T', 'W'
// blocked. Weighted() adds the digits '1'..'9' for costs 1..9, the format
// `zonepath gen` writes for weighted worlds. Callers may add their own.
//
//   TerrainLegend legend = TerrainLegend::MovingAi();
//   legend.Set('~', 5);            // shallow water costs 5
//   legend.Set('#', kBlocked);
//   std::optional<uint8_t> cost = legend.CostOf('~');   // 5
#ifndef ZONEPATH_MOVINGAI_TERRAIN_LEGEND_H_
#define ZONEPATH_MOVINGAI_TERRAIN_LEGEND_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace zonepath {

class TerrainLegend {
 public:
  static TerrainLegend MovingAi();
  static TerrainLegend Weighted();
  // "movingai", "weighted", or a list like "weighted,~=5,#=0" (a base legend
  // name followed by char=cost entries; cost 0 means blocked).
  static absl::StatusOr<TerrainLegend> Parse(absl::string_view spec);

  // Maps `c` to `cost` (0 = blocked). The first character set for a cost is
  // the one the writer uses for it.
  void Set(char c, uint8_t cost);
  std::optional<uint8_t> CostOf(char c) const;
  std::optional<char> CharFor(uint8_t cost) const;

 private:
  std::array<int16_t, 256> cost_of_char_;  // -1: unknown character
  std::array<int16_t, 256> char_of_cost_;  // -1: no character yet
  TerrainLegend();
};

}  // namespace zonepath

#endif  // ZONEPATH_MOVINGAI_TERRAIN_LEGEND_H_
