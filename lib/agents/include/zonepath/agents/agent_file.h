// The agent file: a small line-oriented text file naming the terrain types
// of a map (name, type byte, map character) and the agent classes that move
// on it (footprint, connectivity, cost per terrain type, orientation).
//
// Format. One statement per line; '#' starts a comment; blank lines are
// skipped; fields are separated by spaces or tabs.
//
//   # terrain NAME TYPE CHAR        type 1..255, one printable map character
//   terrain ground 1 .
//   terrain road   2 =
//   terrain forest 3 T
//   terrain swamp  4 %
//   # class NAME key value ...     keys in any order, each at most once:
//   #   size W[xL]       footprint width x length, 1..8 (default 1)
//   #   connectivity 4|8 (default 8)
//   #   cost T=C,T=C...  multiplier 1..255 of terrain type T (by name);
//   #                    types not listed are impassable (0)
//   #   oriented yes|no  (default no); an oriented class needs W <= L
//   #   backward F       backward-step factor, 1..16 (oriented only)
//   #   turn C           cost of one turn increment, 0..1000 (oriented only)
//   class infantry size 1 connectivity 8 cost ground=1,road=1,forest=2,swamp=3
//   class tank size 3 cost ground=2,road=1
//
// The map character '@' is always blocked (type 0) and may not be given to a
// type. Legend(): the file's characters on top of the MovingAI legend, so a
// MovingAI character the file does not name keep its meaning ('.', 'G', 'S'
// type 1; 'O', 'T', 'W' blocked). Class names
// and terrain names are [A-Za-z0-9_-]+. The class "default" always exists
// (AgentClass::Default(): cost = type byte, 1x1, 8-connected) and may not be
// redefined. Limits: the file is at most kMaxAgentFileBytes; at most 255
// terrain types and 1000 classes.
//
// Errors are InvalidArgument naming "file:line: field: problem"; nothing is
// returned from a partly valid file.
//
//   ASSIGN_OR_RETURN(AgentSet agents,
//   ParseAgentFile("data/agents/example.agents")); ASSIGN_OR_RETURN(const
//   AgentClass* tank, agents.Find("tank")); ASSIGN_OR_RETURN(Grid terrain,
//   ReadMapFile(map_path, agents.Legend()));
#ifndef ZONEPATH_AGENTS_AGENT_FILE_H_
#define ZONEPATH_AGENTS_AGENT_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/movingai/terrain_legend.h"

namespace zonepath {

inline constexpr int64_t kMaxAgentFileBytes = 1 << 20;

struct TerrainType {
  std::string name;
  uint8_t type = 1;  // the grid byte, 1..255
  char map_char = '.';
};

struct AgentSet {
  std::vector<TerrainType> terrain_types;  // in file order
  std::vector<AgentClass> classes;         // "default" first, then file order

  // The class called `name`, or InvalidArgument "unknown agent class 'x'
  // (known: ...)". The pointer lives as long as this set.
  absl::StatusOr<const AgentClass*> Find(absl::string_view name) const;
  // Map characters of the terrain types ('@' blocked); for ReadMapFile and
  // WriteMapFile.
  TerrainLegend Legend() const;
};

// Parses agent-file text; `name_for_errors` prefixes every error message.
absl::StatusOr<AgentSet> ParseAgentText(absl::string_view text,
                                        absl::string_view name_for_errors);
// Reads and parses the agent file at `path` (regular files only).
absl::StatusOr<AgentSet> ParseAgentFile(const std::string& path);

// Agent-file text that parses back to `agents` (terrain lines, then one line
// per class other than "default"; numbers printed exactly). InvalidArgument
// when no file could say it: a class with a cost for a type that has no
// terrain line, a class named "default" that is not AgentClass::Default(),
// or a name ParseAgentText would refuse.
absl::StatusOr<std::string> FormatAgentText(const AgentSet& agents);

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_AGENT_FILE_H_
