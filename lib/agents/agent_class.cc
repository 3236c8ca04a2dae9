#include "zonepath/agents/agent_class.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace zonepath {

AgentClass AgentClass::Default() {
  AgentClass c;
  for (int t = 0; t < 256; ++t) c.cost_of_type[t] = static_cast<uint8_t>(t);
  return c;
}

absl::Status CheckFootprint(const AgentClass& agent) {
  if (agent.width < 1 || agent.length < 1 ||
      agent.width > AgentClass::kMaxFootprint ||
      agent.length > AgentClass::kMaxFootprint) {
    return absl::InvalidArgumentError(absl::StrCat(
        "agent class '", agent.name, "': footprint ", agent.width, " x ",
        agent.length, " outside 1..", AgentClass::kMaxFootprint));
  }
  return absl::OkStatus();
}

uint8_t RectCost(const Grid& grid, const AgentClass& agent, const Rect& rect) {
  if (rect.x0 < 0 || rect.y0 < 0 || rect.x1 > grid.width() ||
      rect.y1 > grid.height() || rect.empty()) {
    return 0;
  }
  return RectCostInGrid(grid, agent, rect);
}

}  // namespace zonepath
