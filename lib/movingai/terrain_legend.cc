#include "zonepath/movingai/terrain_legend.h"

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "zonepath/grid/grid.h"

namespace zonepath {

TerrainLegend::TerrainLegend() {
  cost_of_char_.fill(-1);
  char_of_cost_.fill(-1);
}

TerrainLegend TerrainLegend::MovingAi() {
  TerrainLegend legend;
  for (char c : {'.', 'G', 'S'}) legend.Set(c, 1);
  for (char c : {'@', 'O', 'T', 'W'}) legend.Set(c, kBlocked);
  return legend;
}

TerrainLegend TerrainLegend::Weighted() {
  TerrainLegend legend = MovingAi();
  for (int cost = 1; cost <= 9; ++cost) {
    legend.Set(static_cast<char>('0' + cost), static_cast<uint8_t>(cost));
  }
  return legend;
}

absl::StatusOr<TerrainLegend> TerrainLegend::Parse(absl::string_view spec) {
  std::vector<absl::string_view> parts = absl::StrSplit(spec, ',');
  TerrainLegend legend;
  if (parts[0] == "movingai") {
    legend = MovingAi();
  } else if (parts[0] == "weighted") {
    legend = Weighted();
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "legend '", spec, "': must start with 'movingai' or 'weighted'"));
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    absl::string_view entry = parts[i];
    int cost = 0;
    if (entry.size() < 3 || entry[1] != '=' ||
        !absl::SimpleAtoi(entry.substr(2), &cost) || cost < 0 || cost > 255) {
      return absl::InvalidArgumentError(
          absl::StrCat("legend entry '", entry,
                       "': expected CHAR=COST with COST in 0..255"));
    }
    legend.Set(entry[0], static_cast<uint8_t>(cost));
  }
  return legend;
}

void TerrainLegend::Set(char c, uint8_t cost) {
  const auto index = static_cast<unsigned char>(c);
  const int16_t old_cost = cost_of_char_[index];
  cost_of_char_[index] = cost;
  if (old_cost >= 0 && old_cost != cost && char_of_cost_[old_cost] == index) {
    // `c` no longer writes old_cost: fall back to another character for it.
    char_of_cost_[old_cost] = -1;
    for (int other = 0; other < 256; ++other) {
      if (cost_of_char_[other] == old_cost) {
        char_of_cost_[old_cost] = static_cast<int16_t>(other);
        break;
      }
    }
  }
  if (char_of_cost_[cost] < 0) char_of_cost_[cost] = index;
}

std::optional<uint8_t> TerrainLegend::CostOf(char c) const {
  const int16_t cost = cost_of_char_[static_cast<unsigned char>(c)];
  if (cost < 0) return std::nullopt;
  return static_cast<uint8_t>(cost);
}

std::optional<char> TerrainLegend::CharFor(uint8_t cost) const {
  const int16_t c = char_of_cost_[cost];
  if (c < 0) return std::nullopt;
  return static_cast<char>(c);
}

}  // namespace zonepath
