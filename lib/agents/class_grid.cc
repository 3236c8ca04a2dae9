#include "zonepath/agents/class_grid.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace zonepath {
namespace {

// Impassable cells rank above every multiplier, so a window maximum of
// kImpassable means "some covered cell is impassable".
constexpr uint16_t kImpassable = 256;

// out[i] = max(in[i .. i + window)) for i + window <= n, kImpassable for
// the positions whose window leaves the line (the footprint would leave the
// map). Monotone deque: O(n) whatever the window. `in` and `out` are read
// and written with `stride` (a row or a column of a row-major array).
void SlidingMax(const uint16_t* in, uint16_t* out, int64_t n, int64_t stride,
                int window, std::vector<int64_t>* deque) {
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
    out[first * stride] = in[(*deque)[head] * stride];
  }
  for (int64_t i = std::max<int64_t>(0, n - window + 1); i < n; ++i) {
    out[i * stride] = kImpassable;
  }
}

}  // namespace

absl::StatusOr<Grid> DeriveClassGrid(const Grid& terrain,
                                     const AgentClass& agent) {
  if (agent.oriented) {
    return absl::InvalidArgumentError(absl::StrCat(
        "agent class '", agent.name,
        "' is oriented: no class grid (use the class-aware search)"));
  }
  if (agent.width < 1 || agent.length < 1 ||
      agent.width > AgentClass::kMaxFootprint ||
      agent.length > AgentClass::kMaxFootprint) {
    return absl::InvalidArgumentError(absl::StrCat(
        "agent class '", agent.name, "': footprint ", agent.width, "x",
        agent.length, " outside 1..", AgentClass::kMaxFootprint));
  }
  const int64_t w = terrain.width(), h = terrain.height();
  std::vector<uint16_t> a(static_cast<size_t>(w * h));
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < w; ++x) {
      const uint8_t c = agent.cost_of_type[terrain.cost(
          Point{static_cast<int32_t>(x), static_cast<int32_t>(y)})];
      a[y * w + x] = c == 0 ? kImpassable : c;
    }
  }
  std::vector<uint16_t> b(a.size());
  std::vector<int64_t> deque;
  deque.reserve(static_cast<size_t>(std::max(w, h)));
  // Rows: window `width` along x; then columns: window `length` along y.
  for (int64_t y = 0; y < h; ++y) {
    SlidingMax(&a[y * w], &b[y * w], w, 1, agent.width, &deque);
  }
  for (int64_t x = 0; x < w; ++x) {
    SlidingMax(&b[x], &a[x], h, w, agent.length, &deque);
  }
  std::vector<uint8_t> costs(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    costs[i] = a[i] >= kImpassable ? 0 : static_cast<uint8_t>(a[i]);
  }
  a = {};
  b = {};
  return Grid::Create(w, h, std::move(costs));
}

}  // namespace zonepath
