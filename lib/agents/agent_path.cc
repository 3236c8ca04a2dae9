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

constexpr size_t kStartPosition = ~size_t{0};

// The one walk under the class's rules (WalkAgentPath, TryWalkAgentRuns).
// On the first illegal action calls `fail(run, step, anchor, why)`, where
// `why()` builds the reason (run kStartPosition: the start itself), and
// returns false; so a caller that needs no message builds none.
template <typename Fail>
bool Walk(const Grid& terrain, const AgentClass& agent, Point p,
          Direction heading, absl::Span<const AgentRun> runs, AgentWalk* out,
          Fail&& fail) {
  if (!ValidHeading(agent, heading)) {
    fail(kStartPosition, 0, p, [&] {
      return absl::StrCat("start heading ", DirectionName(heading),
                          " is not a heading of class '", agent.name, "'");
    });
    return false;
  }
  uint8_t here = PositionCost(terrain, agent, p, heading);
  if (here == 0) {
    fail(kStartPosition, 0, p, [&] {
      return absl::StrCat("start anchor ", PointString(p), " heading ",
                          DirectionName(heading), " is not a legal position");
    });
    return false;
  }
  const int eighths = agent.oriented ? TurnEighths(agent) : 0;
  double cost = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    const AgentRun& run = runs[i];
    auto reason = [](const char* why) {
      return [why] { return std::string(why); };
    };
    if (run.count == 0) {
      fail(i, 0, p, reason("empty run"));
      return false;
    }
    if (run.action == AgentAction::kTurn) {
      if (!agent.oriented) {
        fail(i, 0, p, reason("an unoriented class cannot turn"));
        return false;
      }
      if (run.rotation != 1 && run.rotation != -1) {
        fail(i, 0, p, reason("turn rotation must be +1 or -1"));
        return false;
      }
      if (RectCost(terrain, agent, agent.TurnSweep(p)) == 0) {
        fail(i, 0, p, reason("the turn sweep is not legal"));
        return false;
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
        fail(i, 0, p, [&] {
          return absl::StrCat(
              "the step run's heading ", DirectionName(run.heading),
              " is not the unit's heading ", DirectionName(heading));
        });
        return false;
      }
      if (run.action == AgentAction::kBackward) d = Opposite(heading);
    } else {
      if (run.action == AgentAction::kBackward) {
        fail(i, 0, p, reason("an unoriented class has no backward step"));
        return false;
      }
      if (IsDiagonal(d) && agent.connectivity == Connectivity::kFour) {
        fail(i, 0, p, reason("a 4-connected class cannot step diagonally"));
        return false;
      }
    }
    const double factor =
        run.action == AgentAction::kBackward ? agent.backward_factor : 1.0;
    for (uint32_t k = 0; k < run.count; ++k) {
      const Point q = Step(p, d);
      const uint8_t there = PositionCost(terrain, agent, q, heading);
      if (there == 0) {
        fail(i, k, p, [&] {
          return absl::StrCat("step ", DirectionName(d), " to ", PointString(q),
                              " is not legal");
        });
        return false;
      }
      if (IsDiagonal(d) &&
          (PositionCost(terrain, agent, {q.x, p.y}, heading) == 0 ||
           PositionCost(terrain, agent, {p.x, q.y}, heading) == 0)) {
        fail(i, k, p, [&] {
          return absl::StrCat("diagonal step ", DirectionName(d),
                              " cuts a corner");
        });
        return false;
      }
      cost += StepCost(d, here, there) * factor;
      p = q;
      here = there;
    }
  }
  *out = AgentWalk{p, heading, cost};
  return true;
}

}  // namespace

absl::StatusOr<AgentWalk> WalkAgentPath(const Grid& terrain,
                                        const AgentClass& agent,
                                        const AgentPath& path) {
  absl::Status error;
  AgentWalk walk;
  const bool legal =
      Walk(terrain, agent, path.start(), path.start_heading(), path.runs(),
           &walk, [&](size_t run, uint32_t step, Point p, auto&& why) {
             error = run == kStartPosition
                         ? absl::InvalidArgumentError(why())
                         : absl::InvalidArgumentError(absl::StrFormat(
                               "run %d, action %d at anchor %s: %s", run, step,
                               PointString(p), why()));
           });
  if (!legal) return error;
  return walk;
}

bool TryWalkAgentRuns(const Grid& terrain, const AgentClass& agent, Point start,
                      Direction heading, absl::Span<const AgentRun> runs,
                      AgentWalk* out) {
  return Walk(terrain, agent, start, heading, runs, out,
              [](size_t, uint32_t, Point, auto&&) {});
}

}  // namespace zonepath
