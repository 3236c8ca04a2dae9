#include "zonepath/world/world_file.h"

#include <zlib.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/base/atomic_file.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the world file format is little-endian; add byte swapping to "
              "support this platform");

constexpr char kMagic[8] = {'Z', 'O', 'N', 'E', 'P', 'A', 'T', 'H'};
constexpr uint32_t kEndianMark = 0x01020304;

struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t endian_mark;
  uint32_t header_bytes;  // sizeof(FileHeader)
  uint32_t section_count;
  int32_t width;
  int32_t height;
  int32_t zone_size;
  int32_t levels;
  int32_t group;
  int32_t entrance_threshold;
  uint32_t connectivity;
  uint32_t cache_paths;
  uint32_t reserved;
  uint32_t header_crc;  // CRC-32 of header + section table, this field 0
};
static_assert(sizeof(FileHeader) == 64);

enum SectionKind : uint32_t {
  kGrid = 1,
  kBeacons = 2,
  kNodeBeacon = 3,
  kEdgeBegin = 4,
  kEdges = 5,
  kZoneNodeBegin = 6,
  kNodeComponent = 7,
  kPathBegin = 8,
  kPathRuns = 9,
};

struct SectionEntry {
  uint32_t kind;
  uint32_t level;  // 1-based level, 0 for world-wide sections
  uint64_t offset;
  uint64_t size;
  uint32_t crc;
  uint32_t reserved;
};
static_assert(sizeof(SectionEntry) == 32);
static_assert(sizeof(AbstractEdge) == 8);
static_assert(sizeof(Point) == 8);

uint32_t Crc(const void* data, uint64_t size) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* bytes = static_cast<const Bytef*>(data);
  while (size > 0) {
    const uInt chunk = static_cast<uInt>(
        std::min<uint64_t>(size, std::numeric_limits<uInt>::max()));
    crc = crc32(crc, bytes, chunk);
    bytes += chunk;
    size -= chunk;
  }
  return static_cast<uint32_t>(crc);
}

struct PendingSection {
  SectionEntry entry;
  const void* data;
};

template <typename T>
PendingSection Section(uint32_t kind, uint32_t level, const std::vector<T>& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  return {{kind, level, 0, v.size() * sizeof(T),
           Crc(v.data(), v.size() * sizeof(T)), 0},
          v.data()};
}

}  // namespace

std::string SerializeWorld(const World& world, WorldFileSizes* sizes) {
  const Grid& grid = world.grid();
  const Abstraction a = world.FlatAbstraction();
  std::vector<PendingSection> sections;
  const std::vector<uint8_t> costs = grid.CostVector();
  sections.push_back(Section(kGrid, 0, costs));
  sections.push_back(Section(kBeacons, 0, a.beacons));
  for (size_t i = 0; i < a.levels.size(); ++i) {
    const AbstractLevel& level = a.levels[i];
    const uint32_t l = static_cast<uint32_t>(i + 1);
    sections.push_back(Section(kNodeBeacon, l, level.node_beacon));
    sections.push_back(Section(kEdgeBegin, l, level.edge_begin));
    sections.push_back(Section(kEdges, l, level.edges));
    sections.push_back(Section(kZoneNodeBegin, l, level.zone_node_begin));
    sections.push_back(Section(kNodeComponent, l, level.node_component));
  }
  if (a.params.cache_paths) {
    sections.push_back(Section(kPathBegin, 1, a.cached_paths.path_begin));
    sections.push_back(Section(kPathRuns, 1, a.cached_paths.path_runs));
  }
  FileHeader header{};
  std::memcpy(header.magic, kMagic, sizeof(kMagic));
  header.version = kWorldFormatVersion;
  header.endian_mark = kEndianMark;
  header.header_bytes = sizeof(FileHeader);
  header.section_count = static_cast<uint32_t>(sections.size());
  header.width = grid.width();
  header.height = grid.height();
  header.zone_size = a.params.zone_size;
  header.levels = a.params.levels;
  header.group = a.params.group;
  header.entrance_threshold = a.params.entrance_threshold;
  header.connectivity = static_cast<uint32_t>(a.params.connectivity);
  header.cache_paths = a.params.cache_paths ? 1 : 0;

  uint64_t offset = sizeof(FileHeader) + sections.size() * sizeof(SectionEntry);
  WorldFileSizes s;
  s.header = offset;
  for (PendingSection& p : sections) {
    p.entry.offset = offset;
    offset += p.entry.size;
    if (p.entry.kind == kGrid) {
      s.grid += p.entry.size;
    } else if (p.entry.kind == kPathBegin || p.entry.kind == kPathRuns) {
      s.cached_paths += p.entry.size;
    } else {
      s.abstraction += p.entry.size;
    }
  }
  s.total = offset;
  std::string out(offset, '\0');
  char* table = out.data() + sizeof(FileHeader);
  for (size_t i = 0; i < sections.size(); ++i) {
    std::memcpy(table + i * sizeof(SectionEntry), &sections[i].entry,
                sizeof(SectionEntry));
    if (sections[i].entry.size > 0) {
      std::memcpy(out.data() + sections[i].entry.offset, sections[i].data,
                  sections[i].entry.size);
    }
  }
  std::memcpy(out.data(), &header, sizeof(header));
  header.header_crc = Crc(out.data(), s.header);
  std::memcpy(out.data(), &header, sizeof(header));
  if (sizes != nullptr) *sizes = s;
  return out;
}

namespace {

class Parser {
 public:
  Parser(absl::string_view bytes, absl::string_view name, bool verify_checksums)
      : bytes_(bytes), name_(name), verify_checksums_(verify_checksums) {}

  absl::StatusOr<World> Parse(WorldFileSizes* sizes) {
    RETURN_IF_ERROR(ReadHeader());
    WorldFileSizes s;
    s.total = bytes_.size();
    s.header = sizeof(FileHeader) + table_.size() * sizeof(SectionEntry);
    for (const SectionEntry& e : table_) {
      (e.kind == kGrid                                 ? s.grid
       : (e.kind == kPathBegin || e.kind == kPathRuns) ? s.cached_paths
                                                       : s.abstraction) +=
          e.size;
    }
    std::vector<uint8_t> costs;
    RETURN_IF_ERROR(Read(kGrid, 0, &costs));
    if (costs.size() != static_cast<uint64_t>(header_.width) * header_.height) {
      return Loss("grid section has ", costs.size(), " cells, header says ",
                  header_.width, "x", header_.height);
    }
    absl::StatusOr<Grid> grid =
        Grid::Create(header_.width, header_.height, std::move(costs));
    if (!grid.ok()) return Loss("grid: ", grid.status().message());

    Abstraction a;
    a.params = params_;
    RETURN_IF_ERROR(Read(kBeacons, 0, &a.beacons));
    for (size_t b = 0; b < a.beacons.size(); ++b) {
      if (!grid->PassableOrFalse(a.beacons[b])) {
        return Loss("beacon ", b, " at ", PointString(a.beacons[b]),
                    " is outside the grid or blocked");
      }
    }
    a.levels.resize(params_.levels);
    for (int i = 0; i < params_.levels; ++i) {
      AbstractLevel& level = a.levels[i];
      level = AbstractLevel::WithGeometry(params_, header_.width,
                                          header_.height, i);
      RETURN_IF_ERROR(ReadLevel(i + 1, a.beacons, &level));
    }
    if (params_.cache_paths) {
      RETURN_IF_ERROR(Read(kPathBegin, 1, &a.cached_paths.path_begin));
      RETURN_IF_ERROR(Read(kPathRuns, 1, &a.cached_paths.path_runs));
      RETURN_IF_ERROR(
          CheckOffsets(a.cached_paths.path_begin, a.levels[0].edges.size(),
                       a.cached_paths.path_runs.size(), "cached path offsets"));
      for (uint32_t run : a.cached_paths.path_runs) {
        if ((run >> 3) == 0) return Loss("cached path run with count 0");
      }
    }
    if (sizes != nullptr) *sizes = s;
    return World(*std::move(grid), std::move(a));
  }

 private:
  template <typename... Args>
  absl::Status Loss(const Args&... message) const {
    return absl::DataLossError(absl::StrCat(name_, ": ", message...));
  }
  template <typename... Args>
  absl::Status Precondition(const Args&... message) const {
    return absl::FailedPreconditionError(absl::StrCat(name_, ": ", message...));
  }

  absl::Status ReadHeader() {
    if (bytes_.size() >= sizeof(kMagic) &&
        std::memcmp(bytes_.data(), kMagic, sizeof(kMagic)) != 0) {
      return Precondition("not a zonepath world file (bad magic)");
    }
    if (bytes_.size() < sizeof(FileHeader)) {
      return Loss("truncated: ", bytes_.size(), " bytes, the header alone is ",
                  sizeof(FileHeader));
    }
    std::memcpy(&header_, bytes_.data(), sizeof(header_));
    if (header_.endian_mark != kEndianMark) {
      return Precondition("written with another byte order (endian mark ",
                          header_.endian_mark, ")");
    }
    if (header_.version != kWorldFormatVersion) {
      return Precondition("format version ", header_.version,
                          ", this build reads version ", kWorldFormatVersion);
    }
    if (header_.header_bytes != sizeof(FileHeader)) {
      return Loss("header size field is ", header_.header_bytes);
    }
    const uint64_t table_bytes =
        uint64_t{header_.section_count} * sizeof(SectionEntry);
    if (header_.section_count > 4096 ||
        sizeof(FileHeader) + table_bytes > bytes_.size()) {
      return Loss("truncated or corrupt section table (", header_.section_count,
                  " sections)");
    }
    {
      std::string copy(bytes_.substr(0, sizeof(FileHeader) + table_bytes));
      FileHeader zeroed = header_;
      zeroed.header_crc = 0;
      std::memcpy(copy.data(), &zeroed, sizeof(zeroed));
      if (verify_checksums_ &&
          Crc(copy.data(), copy.size()) != header_.header_crc) {
        return Loss("header checksum mismatch");
      }
    }
    table_.resize(header_.section_count);
    std::memcpy(table_.data(), bytes_.data() + sizeof(FileHeader), table_bytes);
    if (absl::Status s = Grid::CheckSize(header_.width, header_.height);
        !s.ok()) {
      return Loss("header: ", s.message());
    }
    params_.zone_size = header_.zone_size;
    params_.levels = header_.levels;
    params_.group = header_.group;
    params_.entrance_threshold = header_.entrance_threshold;
    if (params_.zone_size < 4 || params_.zone_size > 1024) {
      return Loss("header: zone size ", params_.zone_size, " not in 4..1024");
    }
    if (params_.levels < 1 || params_.levels > 8) {
      return Loss("header: levels ", params_.levels, " not in 1..8");
    }
    if (params_.group < 2 || params_.group > 64) {
      return Loss("header: group ", params_.group, " not in 2..64");
    }
    if (header_.connectivity > 1 || header_.cache_paths > 1) {
      return Loss("header: bad connectivity or cache flag");
    }
    params_.connectivity = static_cast<Connectivity>(header_.connectivity);
    params_.cache_paths = header_.cache_paths == 1;
    for (const SectionEntry& e : table_) {
      if (e.offset > bytes_.size() || e.size > bytes_.size() - e.offset) {
        return Loss("truncated: section ", e.kind, " (level ", e.level,
                    ") needs bytes ", e.offset, "..", e.offset + e.size,
                    ", file has ", bytes_.size());
      }
    }
    return absl::OkStatus();
  }

  // Finds section (kind, level), checks its size and checksum, copies it.
  template <typename T>
  absl::Status Read(uint32_t kind, uint32_t level, std::vector<T>* out) {
    for (const SectionEntry& e : table_) {
      if (e.kind != kind || e.level != level) continue;
      if (e.size % sizeof(T) != 0) {
        return Loss("section ", kind, " (level ", level, ") size ", e.size,
                    " is not a multiple of ", sizeof(T));
      }
      const char* data = bytes_.data() + e.offset;
      if (verify_checksums_ && Crc(data, e.size) != e.crc) {
        return Loss("checksum mismatch in section ", kind, " (level ", level,
                    ")");
      }
      out->resize(e.size / sizeof(T));
      if (e.size > 0) std::memcpy(out->data(), data, e.size);
      return absl::OkStatus();
    }
    return Loss("missing section ", kind, " (level ", level, ")");
  }

  absl::Status CheckOffsets(const std::vector<uint32_t>& begin, size_t count,
                            size_t total, const char* what) const {
    if (begin.size() != count + 1 || begin.front() != 0 ||
        begin.back() != total) {
      return Loss(what, ": wrong size or bounds");
    }
    for (size_t i = 0; i + 1 < begin.size(); ++i) {
      if (begin[i] > begin[i + 1]) return Loss(what, ": not sorted at ", i);
    }
    return absl::OkStatus();
  }

  absl::Status ReadLevel(uint32_t l, const std::vector<Point>& beacons,
                         AbstractLevel* level) {
    RETURN_IF_ERROR(Read(kNodeBeacon, l, &level->node_beacon));
    RETURN_IF_ERROR(Read(kEdgeBegin, l, &level->edge_begin));
    RETURN_IF_ERROR(Read(kEdges, l, &level->edges));
    RETURN_IF_ERROR(Read(kZoneNodeBegin, l, &level->zone_node_begin));
    RETURN_IF_ERROR(Read(kNodeComponent, l, &level->node_component));
    const size_t n = level->node_beacon.size();
    for (uint32_t b : level->node_beacon) {
      if (b >= beacons.size()) return Loss("level ", l, ": bad beacon id ", b);
    }
    RETURN_IF_ERROR(CheckOffsets(level->edge_begin, n, level->edges.size(),
                                 "edge offsets"));
    RETURN_IF_ERROR(CheckOffsets(level->zone_node_begin, level->zone_count(), n,
                                 "zone offsets"));
    for (const AbstractEdge& e : level->edges) {
      if (e.target >= n || !std::isfinite(e.cost) || !(e.cost > 0)) {
        return Loss("level ", l, ": bad edge (target ", e.target, ", cost ",
                    e.cost, ")");
      }
    }
    std::vector<uint32_t> zone_of_node(n);
    for (uint32_t z = 0; z < level->zone_count(); ++z) {
      for (uint32_t i = level->zone_node_begin[z];
           i < level->zone_node_begin[z + 1]; ++i) {
        if (level->ZoneOf(beacons[level->node_beacon[i]]).value() != z) {
          return Loss("level ", l, ": node ", i, " listed in the wrong zone");
        }
        zone_of_node[i] = z;
      }
    }
    if (level->node_component.size() != n) {
      return Loss("level ", l, ": component labels for ",
                  level->node_component.size(), " of ", n, " nodes");
    }
    // A label names a node of the same zone that labels itself (the
    // component's smallest node, as the builder writes it).
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t c = level->node_component[i];
      if (c >= n || level->node_component[c] != c ||
          zone_of_node[c] != zone_of_node[i]) {
        return Loss("level ", l, ": node ", i, " has a bad component label ",
                    c);
      }
    }
    // Level-1 node n is beacon n (the runtime relies on it).
    if (l == 1) {
      if (n != beacons.size()) {
        return Loss("level 1: ", n, " nodes for ", beacons.size(), " beacons");
      }
      for (uint32_t i = 0; i < n; ++i) {
        if (level->node_beacon[i] != i) {
          return Loss("level 1: node ", i, " is beacon ", level->node_beacon[i],
                      ", not beacon ", i);
        }
      }
    }
    return absl::OkStatus();
  }

  absl::string_view bytes_;
  std::string name_;
  FileHeader header_{};
  std::vector<SectionEntry> table_;
  BuildParams params_;
  bool verify_checksums_;
};

}  // namespace

absl::StatusOr<World> ParseWorld(absl::string_view bytes,
                                 absl::string_view name,
                                 bool verify_checksums) {
  return Parser(bytes, name, verify_checksums).Parse(nullptr);
}

absl::Status SaveWorldFile(const World& world, const std::string& path,
                           WorldFileSizes* sizes) {
  const std::string bytes = SerializeWorld(world, sizes);
  return WriteFileAtomically(path, [&](std::ostream& out) {
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return absl::OkStatus();
  });
}

absl::StatusOr<World> LoadWorldFile(const std::string& path,
                                    WorldFileSizes* sizes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  const std::streamoff size = in.tellg();
  if (size < 0) return absl::DataLossError(absl::StrCat(path, ": cannot size"));
  std::string bytes(static_cast<size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), size)) {
    return absl::DataLossError(absl::StrCat(path, ": read error"));
  }
  return Parser(bytes, path, /*verify_checksums=*/true).Parse(sizes);
}

std::vector<uint64_t> WorldSectionOffsets(absl::string_view bytes) {
  std::vector<uint64_t> offsets;
  if (bytes.size() < sizeof(FileHeader)) return offsets;
  FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  offsets.push_back(sizeof(FileHeader));
  for (uint32_t i = 0; i < header.section_count; ++i) {
    const uint64_t at = sizeof(FileHeader) + uint64_t{i} * sizeof(SectionEntry);
    if (at + sizeof(SectionEntry) > bytes.size()) break;
    SectionEntry e;
    std::memcpy(&e, bytes.data() + at, sizeof(e));
    offsets.push_back(e.offset);
  }
  return offsets;
}

}  // namespace zonepath
