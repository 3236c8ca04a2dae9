#include "zonepath/agents/agent_path_codec.h"

#include <cstdint>
#include <optional>

#include "absl/strings/str_cat.h"
#include "zonepath/grid/path.h"

namespace zonepath {
namespace {

constexpr absl::string_view kMagic("ZAP\x01", 4);

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// Reads a varint of at most 5 bytes (values below 2^35) from `in`.
std::optional<uint64_t> GetVarint(absl::string_view* in) {
  uint64_t v = 0;
  for (int shift = 0; shift < 35 && !in->empty(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    v |= uint64_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80) == 0) return v;
  }
  return std::nullopt;
}

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("agent path: ", what));
}

}  // namespace

absl::Status EncodeAgentPath(PathCodec codec, const AgentClass& agent,
                             const AgentPath& path, std::string* out) {
  if (!ValidHeading(agent, path.start_heading())) {
    return absl::InvalidArgumentError(
        absl::StrCat("start heading ", DirectionName(path.start_heading()),
                     " is not a heading of class '", agent.name, "'"));
  }
  out->assign(kMagic.data(), kMagic.size());
  const int eighths = agent.oriented ? TurnEighths(agent) : 0;
  out->push_back(
      static_cast<char>((agent.oriented ? 1 : 0) | eighths << 1 |
                        static_cast<int>(path.start_heading()) << 3));
  int64_t turn_runs = 0;
  for (const AgentRun& run : path.runs()) {
    turn_runs += run.action == AgentAction::kTurn;
  }
  PutVarint(static_cast<uint64_t>(turn_runs), out);
  RunLengthPath movement;
  movement.Reset(path.start());
  Direction heading = path.start_heading();
  int64_t step = 0;
  for (const AgentRun& run : path.runs()) {
    if (run.action == AgentAction::kTurn) {
      if (!agent.oriented) {
        return absl::InvalidArgumentError(
            absl::StrCat("class '", agent.name, "' is unoriented: no turns"));
      }
      PutVarint(static_cast<uint64_t>(step), out);
      out->push_back(run.rotation > 0 ? 0 : 1);
      PutVarint(run.count, out);
      heading = Rotate(heading, (run.rotation > 0 ? 1 : -1) * eighths *
                                    static_cast<int>(run.count % 8));
      continue;
    }
    if (agent.oriented ? run.heading != heading
                       : run.action == AgentAction::kBackward) {
      return absl::InvalidArgumentError(absl::StrCat(
          "run ", AgentRunsToString({run}),
          " does not follow the class's rules and cannot be stored"));
    }
    movement.Append(run.action == AgentAction::kForward ? run.heading
                                                        : Opposite(run.heading),
                    run.count);
    step += run.count;
  }
  std::string encoded;
  if (absl::Status s = EncodePath(codec, movement, &encoded); !s.ok()) {
    return s;
  }
  out->append(encoded);
  return absl::OkStatus();
}

absl::Status DecodeAgentPath(absl::string_view bytes, AgentPath* out) {
  if (bytes.size() < kMagic.size() + 1 ||
      bytes.substr(0, kMagic.size()) != kMagic) {
    return Corrupt("bad magic or version");
  }
  bytes.remove_prefix(kMagic.size());
  const uint8_t flags = static_cast<uint8_t>(bytes.front());
  bytes.remove_prefix(1);
  const bool oriented = (flags & 1) != 0;
  const int eighths = (flags >> 1) & 3;
  Direction heading = static_cast<Direction>((flags >> 3) & 7);
  if ((flags >> 6) != 0 ||
      (oriented ? eighths == 0 || eighths == 3
                : eighths != 0 || heading != Direction::kN) ||
      (eighths == 2 && IsDiagonal(heading))) {
    return Corrupt("bad flags byte");
  }
  const std::optional<uint64_t> turn_runs = GetVarint(&bytes);
  if (!turn_runs.has_value() || (*turn_runs > 0 && !oriented) ||
      *turn_runs > bytes.size() / 3) {
    return Corrupt("bad turn count");
  }
  // The turn table is read twice: once here to validate it and find the
  // movement, once while rebuilding the path.
  absl::string_view turns = bytes;
  uint64_t last_step = 0;
  for (uint64_t i = 0; i < *turn_runs; ++i) {
    const std::optional<uint64_t> step = GetVarint(&bytes);
    if (!step.has_value() || *step < last_step || bytes.empty() ||
        static_cast<uint8_t>(bytes.front()) > 1) {
      return Corrupt(absl::StrCat("bad turn run ", i));
    }
    bytes.remove_prefix(1);
    const std::optional<uint64_t> count = GetVarint(&bytes);
    if (!count.has_value() || *count == 0 || *count > 0xFFFFFFFFu) {
      return Corrupt(absl::StrCat("bad count of turn run ", i));
    }
    last_step = *step;
  }
  turns = turns.substr(0, turns.size() - bytes.size());
  absl::StatusOr<EncodedPath> encoded = EncodedPath::Parse(bytes);
  if (!encoded.ok()) return encoded.status();
  RunLengthPath movement;
  if (absl::Status s = DecodePath(*encoded, &movement); !s.ok()) return s;
  if (last_step > static_cast<uint64_t>(movement.steps())) {
    return Corrupt("a turn after the last step");
  }

  out->Reset(movement.start(), heading);
  uint64_t remaining = *turn_runs;
  uint64_t next_turn = 0;
  auto read_turn = [&] {
    next_turn = remaining > 0 ? *GetVarint(&turns) : UINT64_MAX;
  };
  // Emits every turn run recorded before step `step`.
  auto emit_turns = [&](uint64_t step) {
    while (next_turn == step) {
      const int sense = turns.front() == 0 ? 1 : -1;
      turns.remove_prefix(1);
      const uint32_t count = static_cast<uint32_t>(*GetVarint(&turns));
      out->AppendTurn(sense, count);
      heading = Rotate(heading, sense * eighths * static_cast<int>(count % 8));
      --remaining;
      read_turn();
    }
  };
  read_turn();
  uint64_t step = 0;
  for (const Run& run : movement.runs()) {
    uint32_t left = run.count;
    while (left > 0) {
      emit_turns(step);
      const uint32_t chunk =
          static_cast<uint32_t>(std::min<uint64_t>(left, next_turn - step));
      if (!oriented) {
        out->AppendStep(AgentAction::kForward, run.direction, chunk);
      } else if (run.direction == heading) {
        out->AppendStep(AgentAction::kForward, heading, chunk);
      } else if (run.direction == Opposite(heading)) {
        out->AppendStep(AgentAction::kBackward, heading, chunk);
      } else {
        return Corrupt(absl::StrCat("step ", step, " is not along heading ",
                                    DirectionName(heading)));
      }
      left -= chunk;
      step += chunk;
    }
  }
  emit_turns(step);
  return absl::OkStatus();
}

}  // namespace zonepath
