#include "zonepath/agents/agent_world.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/agents/class_grid.h"
#include "zonepath/base/atomic_file.h"
#include "zonepath/base/cow_array.h"
#include "zonepath/base/crc32.h"
#include "zonepath/base/input_file.h"
#include "zonepath/base/mapped_file.h"
#include "zonepath/base/memory_info.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/world/compact_abstraction.h"
#include "zonepath/world/world_file_format.h"

namespace zonepath {
namespace {

using world_format::kEndianMark;
using world_format::kSectionAlign;

// The agent file's limit: 1000 classes and "default".
constexpr uint32_t kMaxClassWorlds = 1001;
// What a loaded class costs besides its abstraction: its guide grid, the
// grid's labels, and the derivation's scratch (an oriented class derives
// two class grids), in bytes a cell; for the up-front memory check.
constexpr uint64_t kClassBytesPerCell = 4;
// The first version whose class worlds may be compact.
constexpr uint32_t kFirstCompactVersion = 2;
// A compact class world's arrays take up to ~6.5x its bytes decoded, and
// while one is loaded they exist up to about three times over (written as
// a world file, parsed, laid out for sharing; the decoded arrays are freed
// after writing): its bytes count this many times over in the up-front
// memory check.
constexpr uint64_t kCompactExpansion = 18;

// Bytes of the `loaded` largest compact class worlds in an agent world's
// table, read from `bytes` (which ones a load asks for is known only after
// the agent text is parsed): at most the file's size, since valid entries
// do not overlap. 0 when the table does not fit or the version is not one
// this build reads (the parser then says why).
uint64_t CompactBytes(absl::string_view bytes, const AgentWorldHeader& header,
                      uint64_t loaded) {
  if (header.version < kFirstCompactVersion ||
      header.version > kAgentWorldFormatVersion ||
      header.class_count > kMaxClassWorlds ||
      bytes.size() <
          sizeof(AgentWorldHeader) +
              uint64_t{header.class_count} * sizeof(AgentWorldClassEntry)) {
    return 0;
  }
  std::vector<uint64_t> sizes;
  for (uint32_t i = 0; i < header.class_count; ++i) {
    AgentWorldClassEntry e;
    std::memcpy(&e,
                bytes.data() + sizeof(AgentWorldHeader) +
                    uint64_t{i} * sizeof(AgentWorldClassEntry),
                sizeof(e));
    if (e.encoding == static_cast<uint64_t>(ClassWorldEncoding::kCompact)) {
      sizes.push_back(std::min<uint64_t>(e.size, bytes.size()));
    }
  }
  std::sort(sizes.begin(), sizes.end(), std::greater<uint64_t>());
  uint64_t sum = 0;
  for (size_t i = 0; i < sizes.size() && i < loaded; ++i) {
    sum = std::min<uint64_t>(sum + sizes[i], bytes.size());
  }
  return sum;
}

uint64_t Align(uint64_t offset) {
  return (offset + kSectionAlign - 1) / kSectionAlign * kSectionAlign;
}

absl::Status WriteAgentWorld(const AgentWorld& world, std::ostream& out,
                             AgentWorldFileSizes* sizes,
                             const AgentWorldWriteOptions& options) {
  ASSIGN_OR_RETURN(const std::string agents, FormatAgentText(world.agents()));
  const Grid& terrain = world.terrain();
  std::vector<std::string> class_bytes;
  std::vector<AgentWorldClassEntry> table;
  AgentWorldFileSizes s;
  // What the loader accepts: each class once, named by the agent set, in
  // its order; at most kMaxClassWorlds.
  if (world.classes().size() > kMaxClassWorlds) {
    return absl::InvalidArgumentError(absl::StrCat(
        world.classes().size(), " class worlds, at most ", kMaxClassWorlds));
  }
  int64_t previous = -1;
  bool any_compact = false;
  for (const AgentWorld::ClassWorldEntry& c : world.classes()) {
    ASSIGN_OR_RETURN(const AgentClass* agent,
                     world.agents().Find(c.agent.name));
    const int64_t index = agent - world.agents().classes.data();
    if (index <= previous) {
      return absl::InvalidArgumentError(
          absl::StrCat("class world '", c.agent.name,
                       "' is out of the agent set's order or given twice"));
    }
    previous = index;
    // Compact when it says all the world holds (cached paths it cannot:
    // those stay world files).
    absl::StatusOr<std::string> compact =
        absl::FailedPreconditionError("not asked");
    if (options.compact_classes) {
      compact = EncodeCompactAbstraction(
          c.world.FlatAbstraction(), c.world.grid().width(),
          c.world.grid().height(), c.world.connection_tables());
    }
    if (compact.ok()) {
      class_bytes.push_back(*std::move(compact));
    } else {
      std::ostringstream blob;
      RETURN_IF_ERROR(WriteWorldWithoutGrid(c.world, blob));
      class_bytes.push_back(std::move(blob).str());
    }
    AgentWorldClassEntry& e = table.emplace_back();
    e = {};
    e.encoding =
        static_cast<uint64_t>(compact.ok() ? ClassWorldEncoding::kCompact
                                           : ClassWorldEncoding::kWorldFile);
    any_compact = any_compact || compact.ok();
    e.class_index = static_cast<uint32_t>(index);
    e.size = class_bytes.back().size();
    e.crc = Crc32(class_bytes.back());
    s.classes.push_back({c.agent.name, e.size, compact.ok(),
                         compact.ok() || !options.compact_classes
                             ? std::string()
                             : std::string(compact.status().message())});
  }
  AgentWorldHeader header{};
  std::memcpy(header.magic, kAgentWorldMagic, sizeof(header.magic));
  // The oldest version that holds what the file has.
  header.version =
      any_compact ? kAgentWorldFormatVersion : kAgentWorldFirstVersion;
  header.endian_mark = kEndianMark;
  header.header_bytes = sizeof(AgentWorldHeader);
  header.class_count = static_cast<uint32_t>(table.size());
  header.width = terrain.width();
  header.height = terrain.height();
  uint64_t offset =
      sizeof(AgentWorldHeader) + table.size() * sizeof(AgentWorldClassEntry);
  header.agents_offset = Align(offset);
  header.agents_size = agents.size();
  header.agents_crc = Crc32(agents);
  header.terrain_offset = Align(header.agents_offset + agents.size());
  s.header = header.terrain_offset;
  s.terrain = static_cast<uint64_t>(terrain.cell_count());
  uint32_t terrain_crc = 0;
  terrain.ForEachCostSpan([&](const uint8_t* data, size_t n) {
    terrain_crc = Crc32(data, n, terrain_crc);
  });
  header.terrain_crc = terrain_crc;
  offset = header.terrain_offset + s.terrain;
  for (AgentWorldClassEntry& e : table) {
    e.offset = Align(offset);
    offset = e.offset + e.size;
  }
  s.total = offset;

  std::string head(
      sizeof(AgentWorldHeader) + table.size() * sizeof(AgentWorldClassEntry),
      '\0');
  if (!table.empty()) {
    std::memcpy(head.data() + sizeof(AgentWorldHeader), table.data(),
                table.size() * sizeof(AgentWorldClassEntry));
  }
  std::memcpy(head.data(), &header, sizeof(header));
  header.header_crc = Crc32(head);
  std::memcpy(head.data(), &header, sizeof(header));

  uint64_t at = 0;
  const std::string padding(kSectionAlign, '\0');
  const auto put = [&](uint64_t where, absl::string_view bytes) {
    out.write(padding.data(), static_cast<std::streamsize>(where - at));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    at = where + bytes.size();
  };
  put(0, head);
  put(header.agents_offset, agents);
  out.write(padding.data(),
            static_cast<std::streamsize>(header.terrain_offset - at));
  terrain.ForEachCostSpan([&](const uint8_t* data, size_t n) {
    out.write(reinterpret_cast<const char*>(data),
              static_cast<std::streamsize>(n));
  });
  at = header.terrain_offset + s.terrain;
  for (size_t i = 0; i < table.size(); ++i) {
    put(table[i].offset, class_bytes[i]);
  }
  if (!out) return absl::DataLossError("writing the agent world failed");
  if (sizes != nullptr) *sizes = std::move(s);
  return absl::OkStatus();
}

// Validates and loads an agent world held in `bytes` (viewed in place when
// `keeper` owns them).
class AgentWorldParser {
 public:
  AgentWorldParser(absl::string_view bytes, absl::string_view name,
                   const AgentLoadOptions& options,
                   std::shared_ptr<const void> keeper)
      : bytes_(bytes),
        name_(name),
        options_(options.world),
        wanted_(options.classes),
        keeper_(std::move(keeper)) {}

  absl::StatusOr<AgentWorld> Parse(AgentWorldFileSizes* sizes) {
    RETURN_IF_ERROR(ReadHeader());
    ASSIGN_OR_RETURN(
        AgentSet agents,
        ParseAgentText(Slice(header_.agents_offset, header_.agents_size),
                       absl::StrCat(name_, ": agent text")));
    const absl::string_view cells = Slice(
        header_.terrain_offset, uint64_t{static_cast<uint32_t>(header_.width)} *
                                    static_cast<uint32_t>(header_.height));
    const auto* data = reinterpret_cast<const uint8_t*>(cells.data());
    CowArray<uint8_t> pages =
        keeper_ != nullptr
            ? CowArray<uint8_t>::FromExternal(data, cells.size(), keeper_)
            : CowArray<uint8_t>::FromVector(
                  std::vector<uint8_t>(data, data + cells.size()));
    absl::StatusOr<Grid> terrain =
        Grid::CreateFromPages(header_.width, header_.height, std::move(pages));
    if (!terrain.ok()) return Loss("terrain: ", terrain.status().message());

    std::vector<bool> load(agents.classes.size(), wanted_.empty());
    for (const std::string& name : wanted_) {
      ASSIGN_OR_RETURN(const AgentClass* agent, agents.Find(name));
      load[static_cast<size_t>(agent - agents.classes.data())] = true;
    }
    AgentWorldFileSizes s;
    s.total = bytes_.size();
    s.header = header_.terrain_offset;
    s.terrain = cells.size();
    std::vector<AgentWorld::ClassWorldEntry> classes;
    int64_t previous = -1;
    for (size_t i = 0; i < table_.size(); ++i) {
      const AgentWorldClassEntry& e = table_[i];
      if (e.class_index >= agents.classes.size() ||
          static_cast<int64_t>(e.class_index) <= previous) {
        return Loss("class table entry ", i, ": class_index ", e.class_index,
                    previous >= 0 ? absl::StrCat(" after ", previous) : "",
                    " (the agent text has ", agents.classes.size(),
                    " classes; entries in increasing order)");
      }
      previous = e.class_index;
      const AgentClass& agent = agents.classes[e.class_index];
      const std::string label = absl::StrCat(name_, ": class ", agent.name);
      const absl::string_view blob = Slice(e.offset, e.size);
      if (options_.verify_checksums && Crc32(blob) != e.crc) {
        return Loss("class ", agent.name, ": checksum mismatch");
      }
      s.classes.push_back(
          {agent.name, e.size,
           e.encoding == static_cast<uint64_t>(ClassWorldEncoding::kCompact),
           std::string()});
      if (!load[e.class_index]) continue;
      load[e.class_index] = false;  // loaded: left to find are missing
      absl::StatusOr<Grid> class_grid = DeriveGuideGrid(*terrain, agent);
      if (!class_grid.ok()) {
        return Loss("class ", agent.name, ": ", class_grid.status().message());
      }
      ASSIGN_OR_RETURN(
          World world,
          e.encoding == static_cast<uint64_t>(ClassWorldEncoding::kCompact)
              ? ParseCompact(blob, label, *std::move(class_grid))
              : ParseWorldOnGrid(blob, label, options_, *std::move(class_grid),
                                 keeper_));
      if (world.params().connectivity != agent.connectivity) {
        return Loss("class ", agent.name,
                    ": world built with another connectivity than the "
                    "class's");
      }
      classes.push_back({agent, std::move(world)});
    }
    for (const std::string& name : wanted_) {
      const auto it =
          std::find_if(agents.classes.begin(), agents.classes.end(),
                       [&name](const AgentClass& c) { return c.name == name; });
      if (load[static_cast<size_t>(it - agents.classes.begin())]) {
        return absl::FailedPreconditionError(
            absl::StrCat(name_, ": agent class '", name,
                         "' has no world in the file (left out of the build)"));
      }
    }
    if (sizes != nullptr) *sizes = std::move(s);
    return AgentWorld(std::move(agents), *std::move(terrain),
                      std::move(classes));
  }

 private:
  // A compact class world: decoded, written as the world file it stands
  // for, and parsed with that file's checks (its arrays are owned, not
  // views of the mapping).
  absl::StatusOr<World> ParseCompact(absl::string_view blob,
                                     absl::string_view label, Grid grid) {
    std::string bytes;
    {
      // The decoded arrays live only until they are written.
      ASSIGN_OR_RETURN(
          const CompactWorld decoded,
          DecodeCompactAbstraction(blob, grid.width(), grid.height(), label));
      const std::unique_ptr<ConnectionTables> tables = decoded.Tables();
      std::ostringstream out;
      RETURN_IF_ERROR(
          WriteWorldWithoutGrid(grid, decoded.flat, tables.get(), out));
      bytes = std::move(out).str();
    }
    // Checksums were checked on the blob; these bytes were just written.
    LoadOptions options = options_;
    options.verify_checksums = false;
    return ParseWorldOnGrid(
        bytes, absl::StrCat(label, " (decoded compact abstraction)"), options,
        std::move(grid));
  }

  template <typename... Args>
  absl::Status Loss(const Args&... message) const {
    return absl::DataLossError(absl::StrCat(name_, ": ", message...));
  }

  // Checked by ReadHeader to lie inside bytes_.
  absl::string_view Slice(uint64_t offset, uint64_t size) const {
    return bytes_.substr(offset, size);
  }

  absl::Status CheckRange(absl::string_view what, uint64_t offset,
                          uint64_t size) const {
    if (offset > bytes_.size() || size > bytes_.size() - offset) {
      return Loss("truncated: ", what, " at offset ", offset, " with ", size,
                  " bytes, file has ", bytes_.size());
    }
    if (offset % kSectionAlign != 0) {
      return Loss(what, " at offset ", offset, ", not a multiple of ",
                  kSectionAlign);
    }
    return absl::OkStatus();
  }

  absl::Status ReadHeader() {
    if (bytes_.size() < sizeof(kAgentWorldMagic) ||
        std::memcmp(bytes_.data(), kAgentWorldMagic,
                    sizeof(kAgentWorldMagic)) != 0) {
      return absl::FailedPreconditionError(
          absl::StrCat(name_, ": not a zonepath agent world file (bad magic)"));
    }
    if (bytes_.size() < sizeof(AgentWorldHeader)) {
      return Loss("truncated: ", bytes_.size(), " bytes, the header alone is ",
                  sizeof(AgentWorldHeader));
    }
    std::memcpy(&header_, bytes_.data(), sizeof(header_));
    if (header_.endian_mark != kEndianMark) {
      return absl::FailedPreconditionError(
          absl::StrCat(name_, ": written with another byte order"));
    }
    if (header_.version < kAgentWorldFirstVersion ||
        header_.version > kAgentWorldFormatVersion) {
      return absl::FailedPreconditionError(
          absl::StrCat(name_, ": agent world format version ", header_.version,
                       ", this build reads versions ", kAgentWorldFirstVersion,
                       " to ", kAgentWorldFormatVersion));
    }
    if (header_.header_bytes != sizeof(AgentWorldHeader)) {
      return Loss("header: header_bytes is ", header_.header_bytes, ", not ",
                  sizeof(AgentWorldHeader));
    }
    const uint64_t table_bytes =
        uint64_t{header_.class_count} * sizeof(AgentWorldClassEntry);
    if (header_.class_count > kMaxClassWorlds ||
        sizeof(AgentWorldHeader) + table_bytes > bytes_.size()) {
      return Loss("header: class_count ", header_.class_count, " (at most ",
                  kMaxClassWorlds, "; truncated or corrupt class table)");
    }
    std::string head(bytes_.substr(0, sizeof(AgentWorldHeader) + table_bytes));
    AgentWorldHeader zeroed = header_;
    zeroed.header_crc = 0;
    std::memcpy(head.data(), &zeroed, sizeof(zeroed));
    if (options_.verify_checksums && Crc32(head) != header_.header_crc) {
      return Loss("header: header_crc mismatch");
    }
    table_.resize(header_.class_count);
    if (table_bytes > 0) {
      std::memcpy(table_.data(), bytes_.data() + sizeof(AgentWorldHeader),
                  table_bytes);
    }
    if (header_.reserved != 0) {
      return Loss("header: reserved is ", header_.reserved, ", not 0");
    }
    if (absl::Status s = Grid::CheckSize(header_.width, header_.height);
        !s.ok()) {
      return Loss("header: width/height: ", s.message());
    }
    if (header_.agents_size > static_cast<uint64_t>(kMaxAgentFileBytes)) {
      return Loss("header: agents_size ", header_.agents_size,
                  " is larger than an agent file may be (", kMaxAgentFileBytes,
                  ")");
    }
    RETURN_IF_ERROR(
        CheckRange("agent text", header_.agents_offset, header_.agents_size));
    RETURN_IF_ERROR(CheckRange("terrain", header_.terrain_offset,
                               uint64_t{static_cast<uint32_t>(header_.width)} *
                                   static_cast<uint32_t>(header_.height)));
    // The parts in the writer's order, none overlapping another: so each
    // byte is parsed once (a hostile table cannot make one small class
    // world be derived and checked a thousand times).
    const uint64_t table_end = sizeof(AgentWorldHeader) + table_bytes;
    const uint64_t terrain_end =
        header_.terrain_offset +
        uint64_t{static_cast<uint32_t>(header_.width)} *
            static_cast<uint32_t>(header_.height);
    if (header_.agents_offset < table_end ||
        header_.terrain_offset < header_.agents_offset + header_.agents_size) {
      return Loss(
          "header: the agent text or the terrain overlaps the parts "
          "before it");
    }
    uint64_t end = terrain_end;
    for (size_t i = 0; i < table_.size(); ++i) {
      const uint64_t most =
          header_.version >= kFirstCompactVersion
              ? static_cast<uint64_t>(ClassWorldEncoding::kCompact)
              : static_cast<uint64_t>(ClassWorldEncoding::kWorldFile);
      if (table_[i].encoding > most) {
        return Loss("class table entry ", i, ": encoding ", table_[i].encoding,
                    " (a version-", header_.version, " file has 0",
                    most > 0 ? " or 1" : "", ")");
      }
      RETURN_IF_ERROR(CheckRange(absl::StrCat("class table entry ", i),
                                 table_[i].offset, table_[i].size));
      if (table_[i].offset < end) {
        return Loss("class table entry ", i, ": offset ", table_[i].offset,
                    " overlaps the part before it (ends at ", end, ")");
      }
      end = table_[i].offset + table_[i].size;
    }
    if (options_.verify_checksums) {
      if (Crc32(Slice(header_.agents_offset, header_.agents_size)) !=
          header_.agents_crc) {
        return Loss("agent text: checksum mismatch");
      }
      if (Crc32(Slice(header_.terrain_offset,
                      uint64_t{static_cast<uint32_t>(header_.width)} *
                          static_cast<uint32_t>(header_.height))) !=
          header_.terrain_crc) {
        return Loss("terrain: checksum mismatch");
      }
    }
    return absl::OkStatus();
  }

  const absl::string_view bytes_;
  const std::string name_;
  const LoadOptions options_;
  const std::vector<std::string> wanted_;  // empty: every class
  const std::shared_ptr<const void> keeper_;
  AgentWorldHeader header_{};
  std::vector<AgentWorldClassEntry> table_;
};

}  // namespace

absl::StatusOr<const World*> AgentWorld::ClassWorld(
    absl::string_view name) const {
  ASSIGN_OR_RETURN(const AgentClass* agent, agents_.Find(name));
  for (const ClassWorldEntry& c : classes_) {
    if (c.agent.name == agent->name) return &c.world;
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "agent class '", name,
      "' has no world here (left out of the build, or not loaded)"));
}

size_t AgentWorld::MemoryUsage() const {
  size_t bytes = terrain_.MemoryUsage();
  for (const ClassWorldEntry& c : classes_) {
    bytes += c.world.MemoryUsage();
    // A class that sees the terrain as it is plans on the terrain's own
    // pages (DeriveClassGrid): counted once, with the terrain.
    if (c.world.grid().SharesStorageWith(terrain_)) {
      bytes -= c.world.grid().MemoryUsage();
    }
  }
  return bytes;
}

bool LooksLikeAgentWorld(absl::string_view bytes) {
  return bytes.size() >= sizeof(kAgentWorldMagic) &&
         std::memcmp(bytes.data(), kAgentWorldMagic,
                     sizeof(kAgentWorldMagic)) == 0;
}

absl::StatusOr<bool> IsAgentWorldFile(const std::string& path) {
  ASSIGN_OR_RETURN(const uint64_t size, InputFileSize(path));
  if (size < sizeof(kAgentWorldMagic)) return false;
  std::ifstream in(path, std::ios::binary);
  char magic[sizeof(kAgentWorldMagic)] = {};
  if (!in.read(magic, sizeof(magic))) {
    return absl::DataLossError(absl::StrCat(path, ": read error"));
  }
  return LooksLikeAgentWorld(absl::string_view(magic, sizeof(magic)));
}

std::string SerializeAgentWorld(const AgentWorld& world,
                                AgentWorldFileSizes* sizes,
                                const AgentWorldWriteOptions& options) {
  std::ostringstream out;
  // Empty (which no loader accepts) when the agent set cannot be written.
  if (!WriteAgentWorld(world, out, sizes, options).ok()) return std::string();
  return std::move(out).str();
}

absl::Status SaveAgentWorldFile(const AgentWorld& world,
                                const std::string& path,
                                AgentWorldFileSizes* sizes,
                                const AgentWorldWriteOptions& options) {
  return WriteFileAtomically(path, [&](std::ostream& out) {
    return WriteAgentWorld(world, out, sizes, options);
  });
}

absl::StatusOr<AgentWorld> ParseAgentWorld(absl::string_view bytes,
                                           absl::string_view name,
                                           const AgentLoadOptions& options) {
  return AgentWorldParser(bytes, name, options, nullptr).Parse(nullptr);
}

absl::StatusOr<AgentWorld> LoadAgentWorldFile(const std::string& path,
                                              const AgentLoadOptions& options,
                                              AgentWorldFileSizes* sizes) {
  ASSIGN_OR_RETURN(const uint64_t size, InputFileSize(path));
  ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file,
                   MappedFile::Open(path));
  // The file, its compact class worlds expanded, plus a derived class
  // grid (a byte a cell) per class world. Only an agent world's header and
  // class table are read for it (the parser names anything else by its
  // magic); the sums saturate, so no header can make them wrap below the
  // limit.
  uint64_t needed = size;
  if (file->bytes().size() >= sizeof(AgentWorldHeader) &&
      LooksLikeAgentWorld(file->bytes())) {
    AgentWorldHeader header;
    std::memcpy(&header, file->bytes().data(), sizeof(header));
    const uint64_t compact = CompactBytes(
        file->bytes(), header,
        options.classes.empty() ? kMaxClassWorlds : options.classes.size());
    needed = compact > (std::numeric_limits<uint64_t>::max() - size) /
                           kCompactExpansion
                 ? std::numeric_limits<uint64_t>::max()
                 : size + kCompactExpansion * compact;
    const uint64_t file_needed = needed;
    const uint64_t loaded =
        options.classes.empty() ? header.class_count : options.classes.size();
    if (header.width > 0 && header.height > 0 && loaded <= kMaxClassWorlds) {
      const uint64_t cells = uint64_t{static_cast<uint32_t>(header.width)} *
                             static_cast<uint32_t>(header.height);
      const uint64_t per_cell = loaded * kClassBytesPerCell;
      needed = per_cell != 0 && cells > (std::numeric_limits<uint64_t>::max() -
                                         file_needed) /
                                            per_cell
                   ? std::numeric_limits<uint64_t>::max()
                   : file_needed + per_cell * cells;
    }
  }
  const uint64_t limit = options.world.memory_limit;
  const std::optional<uint64_t> available =
      limit > 0 ? std::optional<uint64_t>(limit) : AvailableMemoryBytes();
  if (available.has_value() && needed > *available) {
    return absl::ResourceExhaustedError(absl::StrCat(
        path, ": the agent world needs about ", needed, " bytes of memory, ",
        *available, " are available", limit > 0 ? "" : " (MemAvailable)"));
  }
  if (!options.world.map) {
    return AgentWorldParser(file->bytes(), path, options, nullptr).Parse(sizes);
  }
  return AgentWorldParser(file->bytes(), path, options, file).Parse(sizes);
}

}  // namespace zonepath
