// AgentWorld: one world that answers queries for every agent class of an
// agent file: the terrain once, and per class the abstraction built on its
// guide grid (class_grid.h: the class grid of an unoriented class, the
// relaxation of an oriented one), in one file.
//
// Why one file: a game ships one world, not one per unit kind, and each
// separate class world would carry its own copy of the grid. Here the
// terrain (1 byte a cell) is stored once; each class adds only its
// abstraction (its beacons and abstract edges, which differ per class
// because footprints and costs move the entrances and the shortest ways
// between them). The guide grids are derived from the terrain when the
// world is loaded (O(cells) per class, 1 byte a cell plus component labels
// of memory each), never stored.
//
// An unoriented class's world answers its queries exactly as a world built
// for that class alone would (the same bytes). An oriented class's world is
// a guide: AgentPlanner (agent_planner.h) routes on it and follows the
// route with bounded exact searches of the class's real rules.
//
// Immutable once made, like World: share one `const AgentWorld` between
// threads; each thread plans with its own planners.
//
//   ASSIGN_OR_RETURN(AgentWorld world, LoadAgentWorldFile("mixed.zpa"));
//   AgentPlanner planner(world);
//   AgentPath path;
//   ASSIGN_OR_RETURN(SearchOutcome outcome,
//                    planner.FindPath("tank", {4, 7}, {900, 870}, {}, &path));
//
// File layout (little-endian, AgentWorldHeader): magic "ZPAGENTS", version,
// endianness mark, the terrain's size, the class count, a table with one
// AgentWorldClassEntry per class world, and CRC-32s of the header and table,
// of the agent-file text, of the terrain bytes and of each class world;
// then, each at a 4096-byte offset, the agent-file text (FormatAgentText),
// the terrain's cell bytes row by row, and per class its abstraction:
// since version 2 in compact form (compact_abstraction.h: each zone's
// triangle of costs and each crossing once, about 3.4x smaller) when it
// has one, else (and in version 1) a world file without grid sections
// (WriteWorldWithoutGrid), whose arrays a mapped file uses in place. A
// compact class is decoded into memory, written as that world file and
// parsed with the same checks. Loading checks everything before use and fails
// like LoadWorldFile (DataLoss for a truncated, corrupt or inconsistent file,
// FailedPrecondition for another file kind or version), naming the file,
// the class and the field; a bad agent text fails as the agent file would,
// naming the world file.
#ifndef ZONEPATH_AGENTS_AGENT_WORLD_H_
#define ZONEPATH_AGENTS_AGENT_WORLD_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/agents/agent_class.h"
#include "zonepath/agents/agent_file.h"
#include "zonepath/grid/grid.h"
#include "zonepath/world/world.h"
#include "zonepath/world/world_file.h"

namespace zonepath {

inline constexpr char kAgentWorldMagic[8] = {'Z', 'P', 'A', 'G',
                                             'E', 'N', 'T', 'S'};
// The version a file with a compact class is written as; one without is
// written as version 1, which builds from before read.
inline constexpr uint32_t kAgentWorldFormatVersion = 2;
inline constexpr uint32_t kAgentWorldFirstVersion = 1;

// How a class world's bytes are stored (AgentWorldClassEntry::encoding).
enum class ClassWorldEncoding : uint64_t {
  kWorldFile = 0,  // a world file without grid sections
  kCompact = 1,    // EncodeCompactAbstraction (version 2)
};

struct AgentWorldHeader {
  char magic[8];
  uint32_t version;
  uint32_t endian_mark;   // world_format::kEndianMark
  uint32_t header_bytes;  // sizeof(AgentWorldHeader)
  uint32_t class_count;   // entries in the class table that follows
  int32_t width;
  int32_t height;
  uint64_t agents_offset;  // agent-file text
  uint64_t agents_size;
  uint64_t terrain_offset;  // width x height bytes
  uint32_t agents_crc;
  uint32_t terrain_crc;
  uint32_t reserved;    // 0
  uint32_t header_crc;  // CRC-32 of header + class table, this field 0
};
static_assert(sizeof(AgentWorldHeader) == 72);

struct AgentWorldClassEntry {
  uint32_t class_index;  // into the agent text's classes ("default" = 0)
  uint32_t crc;          // CRC-32 of the class world's bytes
  uint64_t offset;       // the class world's bytes (see encoding)
  uint64_t size;
  uint64_t encoding;  // ClassWorldEncoding (was reserved, 0, in version 1)
};
static_assert(sizeof(AgentWorldClassEntry) == 32);

class AgentWorld {
 public:
  struct ClassWorldEntry {
    AgentClass agent;
    World world;  // on the guide grid; anchor coordinates
  };

  // `classes` are classes of `agents`, each with its world built on
  // DeriveGuideGrid(terrain, class); checked by the callers that make one
  // (BuildAgentWorld, LoadAgentWorldFile).
  AgentWorld(AgentSet agents, Grid terrain,
             std::vector<ClassWorldEntry> classes)
      : agents_(std::move(agents)),
        terrain_(std::move(terrain)),
        classes_(std::move(classes)) {}

  const AgentSet& agents() const { return agents_; }
  // Cell bytes are terrain types (agent_class.h).
  const Grid& terrain() const { return terrain_; }
  // The classes this world has an abstraction for, in agent-file order.
  const std::vector<ClassWorldEntry>& classes() const { return classes_; }

  // The world of class `name` (the pointer lives as long as this
  // AgentWorld): for an unoriented class the world its queries plan on,
  // for an oriented one its guide. InvalidArgument for a class the agent
  // file does not name; FailedPrecondition for one left out of the build
  // or not loaded (AgentLoadOptions::classes).
  absl::StatusOr<const World*> ClassWorld(absl::string_view name) const;

  // Terrain, class grids and abstractions, plus what planners derived.
  size_t MemoryUsage() const;

 private:
  AgentSet agents_;
  Grid terrain_;
  std::vector<ClassWorldEntry> classes_;
};

// Bytes of each part of an agent world file.
struct AgentWorldFileSizes {
  uint64_t total = 0;
  uint64_t header = 0;   // header, class table, agent text
  uint64_t terrain = 0;  // the cell bytes
  struct PerClass {
    std::string name;
    uint64_t bytes = 0;    // the class's abstraction, as stored
    bool compact = false;  // in compact form (compact_abstraction.h)
    // When written as a world file although compact forms were asked for:
    // why (EncodeCompactAbstraction's refusal). Empty otherwise.
    std::string why_not_compact;
  };
  std::vector<PerClass> classes;
};

// True when `bytes` starts with the agent world magic (for tools that take
// either kind of world file).
bool LooksLikeAgentWorld(absl::string_view bytes);
// Whether the regular file at `path` starts with the agent world magic
// (reads its first 8 bytes); NotFound / InvalidArgument as InputFileSize.
absl::StatusOr<bool> IsAgentWorldFile(const std::string& path);

struct AgentWorldWriteOptions {
  // Class worlds in compact form where they have one (a file about 2.3x
  // smaller on the mixed kind; loading decodes them into memory). false:
  // every class as a world file (format version 1), whose arrays a mapped
  // load uses in place, shared by the processes that map the file.
  bool compact_classes = true;
};

// Writes the file atomically (temporary file, then rename).
absl::Status SaveAgentWorldFile(const AgentWorld& world,
                                const std::string& path,
                                AgentWorldFileSizes* sizes = nullptr,
                                const AgentWorldWriteOptions& options = {});
// The file's bytes; empty (which no loader accepts) when the world cannot
// be written (an agent set no file could state: SaveAgentWorldFile says
// why).
std::string SerializeAgentWorld(const AgentWorld& world,
                                AgentWorldFileSizes* sizes = nullptr,
                                const AgentWorldWriteOptions& options = {});

struct AgentLoadOptions {
  // Implicit, so that a LoadOptions can be passed where these are taken:
  // it means "every class, loaded with these world options".
  AgentLoadOptions(const LoadOptions& world_options = {})  // NOLINT
      : world(world_options) {}
  // map, verify_checksums, verify_refinement, threads and memory_limit
  // mean what they mean for LoadWorldFile; the memory estimate counts one
  // guide grid per class loaded.
  LoadOptions world;
  // The classes to load, by name; empty: all. The others are checked only
  // by their checksum and cost nothing (a process that plans for a few
  // unit kinds pays for those). A name the agent text does not have is
  // InvalidArgument; a class of the text the file has no world for,
  // FailedPrecondition.
  std::vector<std::string> classes;
};

// Loads the class worlds of the file (each guide grid derived from the
// terrain: O(cells) per class).
absl::StatusOr<AgentWorld> LoadAgentWorldFile(
    const std::string& path, const AgentLoadOptions& options = {},
    AgentWorldFileSizes* sizes = nullptr);
absl::StatusOr<AgentWorld> ParseAgentWorld(
    absl::string_view bytes, absl::string_view name,
    const AgentLoadOptions& options = {});

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_AGENT_WORLD_H_
