#include "zonepath/agents/agent_path.h"

#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace zonepath {

std::string AgentRunsToString(const std::vector<AgentRun>& runs) {
  std::string out;
  for (const AgentRun& run : runs) {
    if (!out.empty()) out += ',';
    switch (run.action) {
      case AgentAction::kForward:
        absl::StrAppend(&out, DirectionName(run.heading), run.count);
        break;
      case AgentAction::kBackward:
        absl::StrAppend(&out, "~", DirectionName(run.heading), run.count);
        break;
      case AgentAction::kTurn:
        absl::StrAppend(&out, run.rotation > 0 ? "R" : "L", run.count);
        break;
    }
  }
  return out;
}

absl::Status ParseAgentRuns(absl::string_view text, Point start,
                            Direction heading, AgentPath* out) {
  out->Reset(start, heading);
  if (text.empty()) return absl::OkStatus();
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    absl::string_view rest = item;
    const bool backward = absl::ConsumePrefix(&rest, "~");
    size_t letters = 0;
    while (letters < rest.size() &&
           (rest[letters] < '0' || rest[letters] > '9')) {
      ++letters;
    }
    const absl::string_view name = rest.substr(0, letters);
    uint32_t count = 0;
    const bool counted =
        absl::SimpleAtoi(rest.substr(letters), &count) && count > 0;
    if (counted && !backward && (name == "R" || name == "L")) {
      out->AppendTurn(name == "R" ? 1 : -1, count);
      continue;
    }
    const std::optional<Direction> d = ParseDirection(name);
    if (!counted || !d.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad run '", item,
          "': expected a direction (N, NE, ... NW), ~ and a direction "
          "(backward), or R/L (turns), followed by a count >= 1"));
    }
    out->AppendStep(backward ? AgentAction::kBackward : AgentAction::kForward,
                    *d, count);
  }
  return absl::OkStatus();
}

void FromRunLengthPath(const RunLengthPath& path, AgentPath* out) {
  out->Reset(path.start(), Direction::kN);
  for (const Run& run : path.runs()) {
    out->AppendStep(AgentAction::kForward, run.direction, run.count);
  }
  out->set_cost(path.cost());
}

absl::Status ToRunLengthPath(const AgentPath& path, RunLengthPath* out) {
  out->Reset(path.start());
  for (size_t i = 0; i < path.runs().size(); ++i) {
    const AgentRun& run = path.runs()[i];
    if (run.action == AgentAction::kTurn) {
      return absl::InvalidArgumentError(absl::StrCat(
          "run ", i, " is a turn: a RunLengthPath cannot hold turns"));
    }
    out->Append(run.action == AgentAction::kForward ? run.heading
                                                    : Opposite(run.heading),
                run.count);
  }
  out->set_cost(path.cost());
  return absl::OkStatus();
}

namespace {

absl::Status WalkError(size_t run, uint32_t within, Point p,
                       absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrFormat(
      "run %d, action %d at anchor %s: %s", run, within, PointString(p), why));
}

}  // namespace

absl::StatusOr<AgentWalk> WalkAgentPath(const Grid& terrain,
                                        const AgentClass& agent,
                                        const AgentPath& path) {
  Point p = path.start();
  Direction heading = path.start_heading();
  if (!ValidHeading(agent, heading)) {
    return absl::InvalidArgumentError(
        absl::StrCat("start heading ", DirectionName(heading),
                     " is not a heading of class '", agent.name, "'"));
  }
  uint8_t here = PositionCost(terrain, agent, p, heading);
  if (here == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("start anchor ", PointString(p), " heading ",
                     DirectionName(heading), " is not a legal position"));
  }
  const int eighths = agent.oriented ? TurnEighths(agent) : 0;
  double cost = 0;
  for (size_t i = 0; i < path.runs().size(); ++i) {
    const AgentRun& run = path.runs()[i];
    if (run.count == 0) return WalkError(i, 0, p, "empty run");
    if (run.action == AgentAction::kTurn) {
      if (!agent.oriented) {
        return WalkError(i, 0, p, "an unoriented class cannot turn");
      }
      if (run.rotation != 1 && run.rotation != -1) {
        return WalkError(i, 0, p, "turn rotation must be +1 or -1");
      }
      if (RectCost(terrain, agent, agent.TurnSweep(p)) == 0) {
        return WalkError(i, 0, p, "the turn sweep is not legal");
      }
      // The sweep holds every heading's footprint, so the new position is
      // legal too; its cost is read for the next step.
      heading = Rotate(heading, run.rotation * eighths * (run.count % 8));
      cost += agent.turn_cost * run.count;
      here = PositionCost(terrain, agent, p, heading);
      continue;
    }
    Direction d = run.heading;
    if (agent.oriented) {
      if (run.heading != heading) {
        return WalkError(
            i, 0, p,
            absl::StrCat("the step run's heading ", DirectionName(run.heading),
                         " is not the unit's heading ",
                         DirectionName(heading)));
      }
      if (run.action == AgentAction::kBackward) d = Opposite(heading);
    } else {
      if (run.action == AgentAction::kBackward) {
        return WalkError(i, 0, p, "an unoriented class has no backward step");
      }
      if (IsDiagonal(d) && agent.connectivity == Connectivity::kFour) {
        return WalkError(i, 0, p, "a 4-connected class cannot step diagonally");
      }
    }
    const double factor =
        run.action == AgentAction::kBackward ? agent.backward_factor : 1.0;
    for (uint32_t k = 0; k < run.count; ++k) {
      const Point q = Step(p, d);
      const uint8_t there = PositionCost(terrain, agent, q, heading);
      if (there == 0) {
        return WalkError(i, k, p,
                         absl::StrCat("step ", DirectionName(d), " to ",
                                      PointString(q), " is not legal"));
      }
      if (IsDiagonal(d) &&
          (PositionCost(terrain, agent, {q.x, p.y}, heading) == 0 ||
           PositionCost(terrain, agent, {p.x, q.y}, heading) == 0)) {
        return WalkError(
            i, k, p,
            absl::StrCat("diagonal step ", DirectionName(d), " cuts a corner"));
      }
      cost += StepCost(d, here, there) * factor;
      p = q;
      here = there;
    }
  }
  return AgentWalk{p, heading, cost};
}

}  // namespace zonepath
