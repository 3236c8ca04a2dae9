#include "zonepath/agents/class_grid.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {
namespace {

// Impassable cells rank above every multiplier, so a window maximum of
// kImpassable means "some covered cell is impassable".
constexpr uint16_t kImpassable = 256;

// out[i] = convert(max(in[i .. i + window))) for i + window <= n, and
// convert(kImpassable) where the window leaves the line (the footprint
// would leave the map). Monotone deque: O(n) whatever the window. `in` and
// `out` are read and written with `stride` (a row or a column of a
// row-major array).
template <typename Out, typename Convert>
void SlidingMax(const uint16_t* in, Out* out, int64_t n, int64_t stride,
                int window, std::vector<int64_t>* deque, Convert convert) {
  deque->clear();
  size_t head = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint16_t v = in[i * stride];
    while (deque->size() > head && in[deque->back() * stride] <= v) {
      deque->pop_back();
    }
    deque->push_back(i);
    const int64_t first = i - window + 1;  // window [first, i]
    if (first < 0) continue;
    if ((*deque)[head] < first) ++head;
    out[first * stride] = convert(in[(*deque)[head] * stride]);
  }
  for (int64_t i = std::max<int64_t>(0, n - window + 1); i < n; ++i) {
    out[i * stride] = convert(kImpassable);
  }
}

}  // namespace

bool SeesTerrainAsIs(const Grid& terrain, const AgentClass& agent) {
  if (agent.oriented || agent.width != 1 || agent.length != 1) return false;
  for (int t = 0; t < 256; ++t) {
    if (agent.cost_of_type[t] != t &&
        terrain.CellsOfCost(static_cast<uint8_t>(t)) > 0) {
      return false;
    }
  }
  return true;
}

absl::StatusOr<Grid> DeriveClassGrid(const Grid& terrain,
                                     const AgentClass& agent) {
  if (agent.oriented) {
    return absl::InvalidArgumentError(absl::StrCat(
        "agent class '", agent.name,
        "' is oriented: no class grid (use the class-aware search)"));
  }
  if (absl::Status s = CheckFootprint(agent); !s.ok()) return s;
  if (SeesTerrainAsIs(terrain, agent)) return terrain;  // shares its pages
  const int64_t w = terrain.width(), h = terrain.height();
  // Rows: window `width` along x, into `rows` (16 bits: kImpassable is
  // 256); then columns: window `length` along y, straight into the costs.
  // Scratch: 2 bytes per cell plus a row.
  std::vector<uint16_t> rows(static_cast<size_t>(w * h));
  std::vector<uint16_t> line(static_cast<size_t>(w));
  std::vector<int64_t> deque;
  deque.reserve(static_cast<size_t>(std::max(w, h)));
  const auto same = [](uint16_t v) { return v; };
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < w; ++x) {
      const uint8_t c = agent.cost_of_type[terrain.cost(
          Point{static_cast<int32_t>(x), static_cast<int32_t>(y)})];
      line[x] = c == 0 ? kImpassable : c;
    }
    SlidingMax(line.data(), &rows[y * w], w, 1, agent.width, &deque, same);
  }
  std::vector<uint8_t> costs(rows.size());
  const auto to_cost = [](uint16_t v) {
    return v >= kImpassable ? kBlocked : static_cast<uint8_t>(v);
  };
  for (int64_t x = 0; x < w; ++x) {
    SlidingMax(&rows[x], &costs[x], h, w, agent.length, &deque, to_cost);
  }
  rows = {};
  return Grid::Create(w, h, std::move(costs));
}

absl::StatusOr<Grid> DeriveGuideGrid(const Grid& terrain,
                                     const AgentClass& agent) {
  if (!agent.oriented) return DeriveClassGrid(terrain, agent);
  AgentClass along = agent;  // heading N: width x length
  along.oriented = false;
  absl::StatusOr<Grid> north = DeriveClassGrid(terrain, along);
  if (!north.ok() || agent.width == agent.length) return north;
  std::swap(along.width, along.length);  // heading E: length x width
  ASSIGN_OR_RETURN(const Grid east, DeriveClassGrid(terrain, along));
  std::vector<uint8_t> costs = north->CostVector();
  const std::vector<uint8_t> across = east.CostVector();
  for (size_t i = 0; i < costs.size(); ++i) {
    const uint8_t a = costs[i], b = across[i];
    costs[i] = a == kBlocked ? b : b == kBlocked ? a : std::min(a, b);
  }
  return Grid::Create(terrain.width(), terrain.height(), std::move(costs));
}

uint8_t GuideCost(const Grid& terrain, const AgentClass& agent, Point anchor) {
  const uint8_t north = PositionCost(terrain, agent, anchor, Direction::kN);
  if (!agent.oriented || agent.width == agent.length) return north;
  const uint8_t east = PositionCost(terrain, agent, anchor, Direction::kE);
  return north == kBlocked  ? east
         : east == kBlocked ? north
                            : std::min(north, east);
}

}  // namespace zonepath
