#include "zonepath/agents/agent_file.h"

#include <array>
#include <cmath>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "zonepath/base/input_file.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {
namespace {

constexpr size_t kMaxClasses = 1000;

bool ValidName(absl::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' &&
        c != '-') {
      return false;
    }
  }
  return true;
}

// Parses one file, statement by statement, into `set_`.
class Parser {
 public:
  explicit Parser(absl::string_view file) : file_(file) {
    set_.classes.push_back(AgentClass::Default());
  }

  absl::StatusOr<AgentSet> Parse(absl::string_view text) {
    int line_number = 0;
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      ++line_number;
      line_ = line_number;
      const size_t hash = line.find('#');
      if (hash != absl::string_view::npos) line = line.substr(0, hash);
      std::vector<absl::string_view> f =
          absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
      if (f.empty()) continue;
      if (f[0] == "terrain") {
        RETURN_IF_ERROR(ParseTerrain(f));
      } else if (f[0] == "class") {
        RETURN_IF_ERROR(ParseClass(f));
      } else {
        return Error("statement", absl::StrCat("unknown statement '", f[0],
                                               "' (known: terrain, class)"));
      }
    }
    return std::move(set_);
  }

 private:
  // `what` quotes the file's own text: bytes that are not printable ASCII
  // are shown as \xNN, so a binary file gives a readable message.
  absl::Status Error(absl::string_view field, absl::string_view what) const {
    std::string shown;
    for (const char c : what) {
      const auto u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u < 0x7F) {
        shown.push_back(c);
      } else {
        absl::StrAppend(&shown, "\\x", absl::Hex(u, absl::kZeroPad2));
      }
    }
    return absl::InvalidArgumentError(
        absl::StrCat(file_, ":", line_, ": ", field, ": ", shown));
  }

  absl::Status CheckName(absl::string_view name) const {
    if (ValidName(name)) return absl::OkStatus();
    return Error("name", absl::StrCat("'", name, "' is not [A-Za-z0-9_-]+"));
  }

  absl::Status ParseTerrain(const std::vector<absl::string_view>& f) {
    if (f.size() != 4) {
      return Error("terrain", "expected 'terrain NAME TYPE CHAR'");
    }
    RETURN_IF_ERROR(CheckName(f[1]));
    for (const TerrainType& t : set_.terrain_types) {
      if (t.name == f[1]) {
        return Error("name",
                     absl::StrCat("duplicate terrain type '", f[1], "'"));
      }
    }
    int type = 0;
    if (!absl::SimpleAtoi(f[2], &type) || type < 1 || type > 255) {
      return Error("type", absl::StrCat("'", f[2], "' is not in 1..255"));
    }
    if (used_types_.count(type) != 0) {
      return Error("type", absl::StrCat("type ", type, " is already used"));
    }
    if (f[3].size() != 1 || !absl::ascii_isgraph(f[3][0]) || f[3][0] == '#') {
      return Error("char",
                   absl::StrCat("'", f[3], "' is not one printable character"));
    }
    const char c = f[3][0];
    if (c == '@') return Error("char", "'@' is reserved for blocked cells");
    if (used_chars_.count(c) != 0) {
      return Error("char",
                   absl::StrCat("map character '", f[3], "' is already used"));
    }
    if (set_.terrain_types.size() >= 255) {
      return Error("terrain", "more than 255 terrain types");
    }
    used_types_.insert(type);
    used_chars_.insert(c);
    set_.terrain_types.push_back(
        {std::string(f[1]), static_cast<uint8_t>(type), c});
    return absl::OkStatus();
  }

  std::optional<uint8_t> TypeNamed(absl::string_view name) const {
    for (const TerrainType& t : set_.terrain_types) {
      if (t.name == name) return t.type;
    }
    return std::nullopt;
  }

  absl::Status ParseSize(absl::string_view value, AgentClass* c) const {
    std::vector<absl::string_view> parts = absl::StrSplit(value, 'x');
    int w = 0, l = 0;
    const bool ok = (parts.size() == 1 || parts.size() == 2) &&
                    absl::SimpleAtoi(parts[0], &w) &&
                    absl::SimpleAtoi(parts.back(), &l);
    if (!ok || w < 1 || l < 1 || w > AgentClass::kMaxFootprint ||
        l > AgentClass::kMaxFootprint) {
      return Error("size",
                   absl::StrCat("'", value, "' is not W or WxL with sides 1..",
                                AgentClass::kMaxFootprint));
    }
    c->width = w;
    c->length = l;
    return absl::OkStatus();
  }

  absl::Status ParseCosts(absl::string_view value, AgentClass* c) const {
    c->cost_of_type.fill(0);
    std::set<std::string> seen;
    for (absl::string_view entry : absl::StrSplit(value, ',')) {
      std::pair<absl::string_view, absl::string_view> kv =
          absl::StrSplit(entry, absl::MaxSplits('=', 1));
      int cost = 0;
      if (kv.first.empty() || kv.second.empty()) {
        return Error("cost", absl::StrCat("'", entry, "' is not TERRAIN=COST"));
      }
      std::optional<uint8_t> type = TypeNamed(kv.first);
      if (!type.has_value()) {
        return Error("cost",
                     absl::StrCat("unknown terrain type '", kv.first, "'"));
      }
      if (!seen.insert(std::string(kv.first)).second) {
        return Error("cost",
                     absl::StrCat("terrain type '", kv.first, "' given twice"));
      }
      if (!absl::SimpleAtoi(kv.second, &cost) || cost < 1 || cost > 255) {
        return Error("cost", absl::StrCat("cost '", kv.second, "' of '",
                                          kv.first, "' is not in 1..255"));
      }
      c->cost_of_type[*type] = static_cast<uint8_t>(cost);
    }
    return absl::OkStatus();
  }

  absl::Status ParseClass(const std::vector<absl::string_view>& f) {
    if (f.size() < 2 || f.size() % 2 != 0) {
      return Error("class", "expected 'class NAME key value ...'");
    }
    RETURN_IF_ERROR(CheckName(f[1]));
    for (const AgentClass& c : set_.classes) {
      if (c.name == f[1]) {
        return Error("name",
                     f[1] == "default"
                         ? "the class 'default' is built in"
                         : absl::StrCat("duplicate class '", f[1], "'"));
      }
    }
    if (set_.classes.size() > kMaxClasses) {
      return Error("class",
                   absl::StrCat("more than ", kMaxClasses, " classes"));
    }
    AgentClass c;
    c.name = std::string(f[1]);
    c.cost_of_type.fill(0);
    std::set<absl::string_view> keys;
    bool has_backward = false, has_turn = false;
    for (size_t i = 2; i < f.size(); i += 2) {
      const absl::string_view key = f[i], value = f[i + 1];
      if (!keys.insert(key).second) {
        return Error(key, "given twice");
      }
      if (key == "size") {
        RETURN_IF_ERROR(ParseSize(value, &c));
      } else if (key == "connectivity") {
        if (value == "8") {
          c.connectivity = Connectivity::kEight;
        } else if (value == "4") {
          c.connectivity = Connectivity::kFour;
        } else {
          return Error(key, absl::StrCat("'", value, "' is not 4 or 8"));
        }
      } else if (key == "cost") {
        RETURN_IF_ERROR(ParseCosts(value, &c));
      } else if (key == "oriented") {
        if (value != "yes" && value != "no") {
          return Error(key, absl::StrCat("'", value, "' is not yes or no"));
        }
        c.oriented = value == "yes";
      } else if (key == "backward") {
        if (!absl::SimpleAtod(value, &c.backward_factor) ||
            !(c.backward_factor >= 1 && c.backward_factor <= 16)) {
          return Error(key, absl::StrCat("'", value, "' is not in [1, 16]"));
        }
        has_backward = true;
      } else if (key == "turn") {
        if (!absl::SimpleAtod(value, &c.turn_cost) ||
            !(c.turn_cost >= 0 && c.turn_cost <= 1000)) {
          return Error(key, absl::StrCat("'", value, "' is not in [0, 1000]"));
        }
        has_turn = true;
      } else {
        return Error(key,
                     "unknown class key (known: size, connectivity, "
                     "cost, oriented, backward, turn)");
      }
    }
    if (keys.count("cost") == 0) {
      return Error("cost", absl::StrCat("class '", c.name, "' has no cost"));
    }
    if (!c.oriented && (has_backward || has_turn)) {
      return Error(has_backward ? "backward" : "turn",
                   "applies only to an oriented class");
    }
    if (c.oriented && c.width > c.length) {
      return Error("size", absl::StrCat("an oriented class needs width <= "
                                        "length (length runs along the "
                                        "heading), got ",
                                        c.width, "x", c.length));
    }
    set_.classes.push_back(std::move(c));
    return absl::OkStatus();
  }

  const std::string file_;
  int line_ = 0;
  AgentSet set_;
  std::set<int> used_types_;
  std::set<char> used_chars_;
};

}  // namespace

absl::StatusOr<const AgentClass*> AgentSet::Find(absl::string_view name) const {
  for (const AgentClass& c : classes) {
    if (c.name == name) return &c;
  }
  // Only on failure: a query naming its class allocates nothing.
  std::vector<absl::string_view> known;
  for (const AgentClass& c : classes) known.push_back(c.name);
  return absl::InvalidArgumentError(
      absl::StrCat("unknown agent class '", name,
                   "' (known: ", absl::StrJoin(known, ", "), ")"));
}

TerrainLegend AgentSet::Legend() const {
  // On top of the MovingAI legend: the file's characters win; MovingAI
  // characters it does not name keep their meaning (see the header).
  TerrainLegend legend = TerrainLegend::MovingAi();
  legend.Set('@', kBlocked);
  for (const TerrainType& t : terrain_types) legend.Set(t.map_char, t.type);
  return legend;
}

absl::StatusOr<AgentSet> ParseAgentText(absl::string_view text,
                                        absl::string_view name_for_errors) {
  return Parser(name_for_errors).Parse(text);
}

absl::StatusOr<std::string> FormatAgentText(const AgentSet& agents) {
  std::string text;
  std::array<const TerrainType*, 256> named{};
  for (const TerrainType& t : agents.terrain_types) {
    if (!ValidName(t.name) || t.type == 0 || named[t.type] != nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("terrain '", t.name, "' (type ", t.type,
                       "): bad name, type 0 or type given twice"));
    }
    named[t.type] = &t;
    absl::StrAppend(&text, "terrain ", t.name, " ", t.type, " ",
                    std::string(1, t.map_char), "\n");
  }
  for (const AgentClass& c : agents.classes) {
    const AgentClass d = AgentClass::Default();
    if (c.name == d.name) {
      if (c.cost_of_type != d.cost_of_type || c.width != d.width ||
          c.length != d.length || c.connectivity != d.connectivity ||
          c.oriented) {
        return absl::InvalidArgumentError(
            "class 'default' differs from AgentClass::Default()");
      }
      continue;
    }
    if (!ValidName(c.name)) {
      return absl::InvalidArgumentError(
          absl::StrCat("class name '", c.name, "' is not [A-Za-z0-9_-]+"));
    }
    std::vector<std::string> costs;
    for (int t = 1; t < 256; ++t) {
      if (c.cost_of_type[t] == 0) continue;
      if (named[t] == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("class '", c.name, "' has a cost for type ", t,
                         ", which has no terrain line"));
      }
      costs.push_back(absl::StrCat(named[t]->name, "=", c.cost_of_type[t]));
    }
    if (costs.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("class '", c.name, "' can enter no terrain type"));
    }
    absl::StrAppend(&text, "class ", c.name, " size ", c.width, "x", c.length,
                    " connectivity ",
                    c.connectivity == Connectivity::kFour ? 4 : 8, " cost ",
                    absl::StrJoin(costs, ","));
    if (c.oriented) {
      absl::StrAppend(&text, " oriented yes backward ",
                      absl::StrFormat("%.17g", c.backward_factor), " turn ",
                      absl::StrFormat("%.17g", c.turn_cost));
    }
    absl::StrAppend(&text, "\n");
  }
  // What no file could say (a reserved map character, a footprint or a
  // factor out of range, ...) shows when the text is read back: refuse it
  // here rather than write a file that will not load.
  absl::StatusOr<AgentSet> back = ParseAgentText(text, "formatted agent set");
  if (!back.ok()) return absl::InvalidArgumentError(back.status().message());
  if (back->classes.size() != agents.classes.size() ||
      back->terrain_types.size() != agents.terrain_types.size()) {
    return absl::InvalidArgumentError(
        "the agent set does not read back as itself (class 'default' "
        "missing or misplaced?)");
  }
  return text;
}

absl::StatusOr<AgentSet> ParseAgentFile(const std::string& path) {
  ASSIGN_OR_RETURN(const uint64_t bytes, InputFileSize(path));
  if (bytes > static_cast<uint64_t>(kMaxAgentFileBytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": agent file of ", bytes, " bytes is larger than ",
                     kMaxAgentFileBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::string text;
  text.resize(bytes);
  in.read(text.data(), static_cast<std::streamsize>(bytes));
  if (in.gcount() != static_cast<std::streamsize>(bytes)) {
    return absl::DataLossError(absl::StrCat(path, ": short read"));
  }
  return ParseAgentText(text, path);
}

}  // namespace zonepath
