#include "change_script.h"

#include <cmath>
#include <random>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "zonepath/base/status_macros.h"

namespace zonepath::cli {
namespace {

// Changes one apply step may expand to, in multiples of the map's cells:
// bounds the memory a script can make the tool allocate.
constexpr int64_t kMaxBatchCellsPerMapCell = 4;

int64_t OpCells(const ChangeOp& op, int64_t map_cells) {
  if (op.kind == ChangeOp::Kind::kScatter) {
    return std::llround(op.fraction * static_cast<double>(map_cells));
  }
  return int64_t{op.rect.x1 - op.rect.x0} * (op.rect.y1 - op.rect.y0);
}

}  // namespace

absl::StatusOr<std::vector<ScriptStep>> ParseChangeScript(
    absl::string_view text, const std::string& file, int32_t width,
    int32_t height) {
  std::vector<ScriptStep> steps;
  ScriptStep pending;
  int64_t pending_cells = 0;
  const int64_t map_cells = int64_t{width} * height;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    auto fail = [&](const auto&... what) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ":", line_number, ": ", what...));
    };
    line = line.substr(0, line.find('#'));
    std::vector<absl::string_view> words =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (words.empty()) continue;
    const absl::string_view command = words[0];
    auto want_words = [&](size_t n) -> absl::Status {
      if (words.size() == n) return absl::OkStatus();
      return fail("'", command, "' takes ", n - 1, " arguments, got ",
                  words.size() - 1);
    };
    auto integer = [&](size_t i, int32_t* out) -> absl::Status {
      if (absl::SimpleAtoi(words[i], out)) return absl::OkStatus();
      return fail("'", words[i], "' is not an integer");
    };
    auto cost = [&](size_t i, int32_t* out) -> absl::Status {
      if (words[i] == "blocked") {
        *out = 0;
        return absl::OkStatus();
      }
      if (!absl::SimpleAtoi(words[i], out) || *out < 0 || *out > 255) {
        return fail("cost '", words[i], "' is not 0..255 or 'blocked'");
      }
      return absl::OkStatus();
    };
    // Checked in 64 bits, so no coordinate can overflow a Rect.
    auto inside = [&](int64_t x, int64_t y, int64_t w,
                      int64_t h) -> absl::Status {
      if (x >= 0 && y >= 0 && w >= 1 && h >= 1 && x + w <= width &&
          y + h <= height) {
        return absl::OkStatus();
      }
      return fail(w, "x", h, " cells at (", x, ",", y, ") are not inside the ",
                  width, "x", height, " map");
    };
    auto rect = [](int32_t x, int32_t y, int32_t w, int32_t h) {
      return Rect{x, y, x + w, y + h};
    };
    auto add_op = [&](const ChangeOp& op) -> absl::Status {
      pending_cells += OpCells(op, map_cells);
      if (pending_cells > kMaxBatchCellsPerMapCell * map_cells) {
        return fail("batch of over ", kMaxBatchCellsPerMapCell * map_cells,
                    " cell changes; add an 'apply'");
      }
      if (pending.ops.empty()) pending.line = line_number;
      pending.ops.push_back(op);
      return absl::OkStatus();
    };
    auto flush = [&](std::string name) {
      pending.kind = ScriptStep::Kind::kApply;
      pending.name = name.empty() ? absl::StrCat("line ", line_number) : name;
      steps.push_back(std::move(pending));
      pending = ScriptStep();
      pending_cells = 0;
    };
    if (command == "cell") {
      RETURN_IF_ERROR(want_words(4));
      ChangeOp op;
      int32_t x, y;
      RETURN_IF_ERROR(integer(1, &x));
      RETURN_IF_ERROR(integer(2, &y));
      RETURN_IF_ERROR(cost(3, &op.cost));
      RETURN_IF_ERROR(inside(x, y, 1, 1));
      op.rect = rect(x, y, 1, 1);
      RETURN_IF_ERROR(add_op(op));
    } else if (command == "rect") {
      RETURN_IF_ERROR(want_words(6));
      ChangeOp op;
      op.kind = ChangeOp::Kind::kRect;
      int32_t v[4];
      for (int i = 0; i < 4; ++i) RETURN_IF_ERROR(integer(1 + i, &v[i]));
      RETURN_IF_ERROR(cost(5, &op.cost));
      RETURN_IF_ERROR(inside(v[0], v[1], v[2], v[3]));
      op.rect = rect(v[0], v[1], v[2], v[3]);
      RETURN_IF_ERROR(add_op(op));
    } else if (command == "scatter") {
      RETURN_IF_ERROR(want_words(4));
      ChangeOp op;
      op.kind = ChangeOp::Kind::kScatter;
      if (!absl::SimpleAtod(words[1], &op.fraction) || !(op.fraction > 0) ||
          op.fraction > 1) {
        return fail("fraction '", words[1], "' is not in (0, 1]");
      }
      RETURN_IF_ERROR(cost(2, &op.cost));
      if (!absl::SimpleAtoi(words[3], &op.seed)) {
        return fail("seed '", words[3], "' is not a non-negative integer");
      }
      RETURN_IF_ERROR(add_op(op));
    } else if (command == "apply") {
      if (words.size() > 2) return fail("'apply' takes at most a name");
      flush(words.size() == 2 ? std::string(words[1]) : "");
    } else if (command == "query") {
      RETURN_IF_ERROR(want_words(5));
      ScriptStep query;
      query.kind = ScriptStep::Kind::kQuery;
      query.line = line_number;
      int32_t v[4];
      for (int i = 0; i < 4; ++i) RETURN_IF_ERROR(integer(1 + i, &v[i]));
      query.start = {v[0], v[1]};
      query.goal = {v[2], v[3]};
      RETURN_IF_ERROR(inside(v[0], v[1], 1, 1));
      RETURN_IF_ERROR(inside(v[2], v[3], 1, 1));
      if (!pending.ops.empty()) flush("");  // changes before a query apply
      steps.push_back(std::move(query));
    } else {
      return fail("unknown command '", command,
                  "' (cell, rect, scatter, apply, query)");
    }
  }
  if (!pending.ops.empty()) {
    pending.kind = ScriptStep::Kind::kApply;
    pending.name = "end of script";
    steps.push_back(std::move(pending));
  }
  return steps;
}

std::vector<CellChange> ExpandOps(const std::vector<ChangeOp>& ops,
                                  int32_t width, int32_t height) {
  std::vector<CellChange> changes;
  const int64_t map_cells = int64_t{width} * height;
  for (const ChangeOp& op : ops) {
    if (op.kind == ChangeOp::Kind::kScatter) {
      // Its own stream (not mt19937_64(seed) itself), so that a scatter
      // with seed S does not pick exactly the cells another tool's random
      // queries with seed S start from.
      std::seed_seq seq{uint64_t{0x5ca77e5}, op.seed};
      std::mt19937_64 rng(seq);
      const int64_t n = OpCells(op, map_cells);
      for (int64_t i = 0; i < n; ++i) {
        changes.push_back({{static_cast<int32_t>(rng() % width),
                            static_cast<int32_t>(rng() % height)},
                           op.cost});
      }
      continue;
    }
    for (int32_t y = op.rect.y0; y < op.rect.y1; ++y) {
      for (int32_t x = op.rect.x0; x < op.rect.x1; ++x) {
        changes.push_back({{x, y}, op.cost});
      }
    }
  }
  return changes;
}

}  // namespace zonepath::cli
