#include "zonepath/world/world_file.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <deque>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <type_traits>

#include "absl/random/random.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "zonepath/base/atomic_file.h"
#include "zonepath/base/crc32.h"
#include "zonepath/base/input_file.h"
#include "zonepath/base/mapped_file.h"
#include "zonepath/base/memory_info.h"
#include "zonepath/base/parallel_chunks.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/grid/direction.h"
#include "zonepath/grid/moves.h"
#include "zonepath/world/world_file_format.h"

namespace zonepath {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the world file format is little-endian; add byte swapping to "
              "support this platform");

using namespace world_format;  // NOLINT: the layout this file implements

static_assert(sizeof(AbstractEdge) == 8);
static_assert(sizeof(Point) == 8);

uint32_t Crc(const void* data, uint64_t size) { return Crc32(data, size); }

// A section to write: its table entry and the stretches of memory that hold
// its bytes, in order (one for a vector, one per page for the grid), so a
// world is written without a copy of its arrays or of the file.
struct PendingSection {
  SectionEntry entry;
  std::vector<absl::Span<const char>> spans;
};

PendingSection Section(uint32_t kind, uint32_t level,
                       std::vector<absl::Span<const char>> spans) {
  PendingSection p{{kind, level, 0, 0, 0, 0}, std::move(spans)};
  uLong crc = crc32(0L, Z_NULL, 0);
  for (absl::Span<const char> span : p.spans) {
    p.entry.size += span.size();
    crc = crc32_combine(crc, Crc(span.data(), span.size()),
                        static_cast<z_off_t>(span.size()));
  }
  p.entry.crc = static_cast<uint32_t>(crc);
  return p;
}

template <typename T>
PendingSection Section(uint32_t kind, uint32_t level, const std::vector<T>& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  return Section(
      kind, level,
      {absl::Span<const char>(reinterpret_cast<const char*>(v.data()),
                              v.size() * sizeof(T))});
}

// A CowArray's pages as spans of bytes.
template <typename T>
std::vector<absl::Span<const char>> PageSpans(const CowArray<T>& a) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<absl::Span<const char>> spans;
  a.ForEachPage([&](const T* data, size_t n) {
    spans.emplace_back(reinterpret_cast<const char*>(data), n * sizeof(T));
  });
  return spans;
}

bool IsComponentSection(uint32_t kind) {
  return kind == kLabelTiles || kind == kLabelCells || kind == kLabelGlobal ||
         kind == kGridSummary;
}

bool IsTableSection(uint32_t kind) {
  return kind == kConnectionBegin || kind == kConnectionCosts;
}

// Writes the file for `grid` and the canonical flat abstraction `a`;
// without the grid's sections (costs, labels) when !with_grid; with the
// connection tables when `tables` is not null.
absl::Status WriteWorld(const Grid& grid, const Abstraction& a, bool with_grid,
                        const ConnectionTables* tables, std::ostream& out,
                        WorldFileSizes* sizes) {
  std::vector<PendingSection> sections;
  // Outlive `sections`, which point into them.
  Grid::StoredComponents components;
  GridSummary summary{};
  if (with_grid) {
    std::vector<absl::Span<const char>> cost_spans;
    grid.ForEachCostSpan([&](const uint8_t* data, size_t n) {
      cost_spans.emplace_back(reinterpret_cast<const char*>(data), n);
    });
    sections.push_back(Section(kGrid, 0, std::move(cost_spans)));
    // The labels in canonical form: shared with the grid when it already is.
    components = grid.Components();
    sections.push_back(Section(kLabelTiles, 0, PageSpans(components.tiles)));
    sections.push_back(
        Section(kLabelCells, 0, PageSpans(components.cell_labels)));
    sections.push_back(
        Section(kLabelGlobal, 0, PageSpans(components.local_global)));
    std::copy(components.cost_counts.begin(), components.cost_counts.end(),
              summary.cost_counts);
    summary.component_count = components.component_count;
    sections.push_back(
        Section(kGridSummary, 0,
                {absl::Span<const char>(reinterpret_cast<const char*>(&summary),
                                        sizeof(summary))}));
  }
  const std::vector<BeaconCell> beacon_cells(a.beacons.begin(),
                                             a.beacons.end());
  sections.push_back(Section(kBeacons, 0, beacon_cells));
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
  // Each level's table in zone order, with its offsets (which outlive
  // `sections`).
  bool with_tables = false;
  std::array<std::vector<uint64_t>, ConnectionTables::kMaxLevel + 1>
      table_offsets;
  if (tables != nullptr) {
    for (int j = ConnectionTables::kFirstLevel;
         j <= ConnectionTables::kMaxLevel; ++j) {
      if (!tables->has_level(j)) continue;
      std::vector<uint64_t>& offsets = table_offsets[j];
      std::vector<absl::Span<const char>> blocks;
      offsets.push_back(0);
      for (uint32_t z = 0; z < tables->zone_count(j); ++z) {
        const absl::Span<const float> block = tables->Block(j, z);
        offsets.push_back(offsets.back() + block.size());
        if (!block.empty()) {
          blocks.emplace_back(reinterpret_cast<const char*>(block.data()),
                              block.size() * sizeof(float));
        }
      }
      sections.push_back(
          Section(kConnectionBegin, static_cast<uint32_t>(j), offsets));
      sections.push_back(Section(kConnectionCosts, static_cast<uint32_t>(j),
                                 std::move(blocks)));
      with_tables = true;
    }
  }
  FileHeader header{};
  std::memcpy(header.magic, kMagic, sizeof(kMagic));
  // The oldest version that holds what the world has: files without
  // spacing or tables stay readable by builds that read version 4.
  header.version = with_tables                    ? kFirstTabledVersion
                   : a.params.beacon_spacing != 0 ? kFirstSpacedVersion
                                                  : kFirstSpacedVersion - 1;
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
  header.beacon_spacing = static_cast<uint32_t>(a.params.beacon_spacing);

  uint64_t offset = sizeof(FileHeader) + sections.size() * sizeof(SectionEntry);
  WorldFileSizes s;
  s.header = offset;
  for (PendingSection& p : sections) {
    offset = (offset + kSectionAlign - 1) / kSectionAlign * kSectionAlign;
    p.entry.offset = offset;
    offset += p.entry.size;
    if (p.entry.kind == kGrid) {
      s.grid += p.entry.size;
    } else if (IsComponentSection(p.entry.kind)) {
      s.components += p.entry.size;
    } else if (p.entry.kind == kPathBegin || p.entry.kind == kPathRuns) {
      s.cached_paths += p.entry.size;
    } else if (IsTableSection(p.entry.kind)) {
      s.connection_tables += p.entry.size;
    } else {
      s.abstraction += p.entry.size;
    }
  }
  s.total = offset;

  // Header and section table, with the header's checksum over both.
  std::string head(s.header, '\0');
  for (size_t i = 0; i < sections.size(); ++i) {
    std::memcpy(head.data() + sizeof(FileHeader) + i * sizeof(SectionEntry),
                &sections[i].entry, sizeof(SectionEntry));
  }
  std::memcpy(head.data(), &header, sizeof(header));
  header.header_crc = Crc(head.data(), head.size());
  std::memcpy(head.data(), &header, sizeof(header));
  out.write(head.data(), static_cast<std::streamsize>(head.size()));
  uint64_t at = s.header;
  const std::string padding(kSectionAlign, '\0');
  for (const PendingSection& p : sections) {
    out.write(padding.data(),
              static_cast<std::streamsize>(p.entry.offset - at));
    for (absl::Span<const char> span : p.spans) {
      out.write(span.data(), static_cast<std::streamsize>(span.size()));
    }
    at = p.entry.offset + p.entry.size;
  }
  if (!out) return absl::DataLossError("writing the world file failed");
  if (sizes != nullptr) *sizes = s;
  return absl::OkStatus();
}

}  // namespace

std::string SerializeWorld(const World& world, WorldFileSizes* sizes) {
  std::ostringstream out;
  // A string stream fails only when memory does (bad_alloc); an empty
  // string, which no loader accepts, stands for that.
  if (!WriteWorld(world.grid(), world.FlatAbstraction(), /*with_grid=*/true,
                  world.connection_tables(), out, sizes)
           .ok()) {
    return std::string();
  }
  return std::move(out).str();
}

namespace {

std::string SectionLabel(uint32_t kind, uint32_t level) {
  return level == 0
             ? absl::StrCat("section ", SectionName(kind))
             : absl::StrCat("level ", level, " section ", SectionName(kind));
}

constexpr uint8_t kNoLevel = 0;

// The sections the checks read, in place (the mapping or the byte buffer;
// copied only where an element would be misaligned): the same fields as
// AbstractLevel / Abstraction, as spans, so loading never holds a second
// copy of the abstraction.
struct LevelView : LevelGeometry {
  absl::Span<const uint32_t> node_beacon;
  absl::Span<const uint32_t> edge_begin;
  absl::Span<const AbstractEdge> edges;
  absl::Span<const uint32_t> zone_node_begin;
  absl::Span<const uint32_t> node_component;
  uint32_t node_count() const {
    return static_cast<uint32_t>(node_beacon.size());
  }
};
struct CachedPathsView {
  absl::Span<const uint32_t> path_begin;
  absl::Span<const uint32_t> path_runs;
};
struct AbstractionView {
  BuildParams params;
  absl::Span<const BeaconCell> beacons;
  std::vector<LevelView> levels;
  CachedPathsView cached_paths;

  template <typename T>
  static std::vector<T> Vec(absl::Span<const T> s) {
    return std::vector<T>(s.begin(), s.end());
  }
  // A copy in canonical flat form (for worlds that do not view a mapping).
  Abstraction Copy() const {
    Abstraction a;
    a.params = params;
    a.beacons.assign(beacons.begin(), beacons.end());
    for (const LevelView& v : levels) {
      AbstractLevel& f = a.levels.emplace_back();
      static_cast<LevelGeometry&>(f) = v;
      f.node_beacon = Vec(v.node_beacon);
      f.edge_begin = Vec(v.edge_begin);
      f.edges = Vec(v.edges);
      f.zone_node_begin = Vec(v.zone_node_begin);
      f.node_component = Vec(v.node_component);
    }
    a.cached_paths.path_begin = Vec(cached_paths.path_begin);
    a.cached_paths.path_runs = Vec(cached_paths.path_runs);
    return a;
  }
};

class Parser {
 public:
  // With a `keeper` (the owner of a mapping that holds `bytes`), the grid's
  // cost pages view the bytes in place instead of copying them.
  Parser(absl::string_view bytes, absl::string_view name,
         const LoadOptions& options,
         std::shared_ptr<const void> keeper = nullptr)
      : bytes_(bytes),
        name_(name),
        verify_checksums_(options.verify_checksums),
        verify_refinement_(options.verify_refinement),
        threads_(options.threads),
        keeper_(std::move(keeper)) {}

  absl::StatusOr<World> Parse(WorldFileSizes* sizes) {
    return ParseOn(std::nullopt, sizes);
  }
  // With `supplied`, the file must hold no grid sections and the world's
  // grid is `supplied` (of the header's size).
  absl::StatusOr<World> ParseOn(std::optional<Grid> supplied,
                                WorldFileSizes* sizes) {
    RETURN_IF_ERROR(ReadHeader());
    WorldFileSizes s;
    s.total = bytes_.size();
    s.header = sizeof(FileHeader) + table_.size() * sizeof(SectionEntry);
    s.format_version = header_.version;
    for (const SectionEntry& e : table_) {
      (e.kind == kGrid                                 ? s.grid
       : IsComponentSection(e.kind)                    ? s.components
       : (e.kind == kPathBegin || e.kind == kPathRuns) ? s.cached_paths
       : IsTableSection(e.kind)                        ? s.connection_tables
                                : s.abstraction) += e.size;
    }
    ASSIGN_OR_RETURN(Grid grid, supplied.has_value()
                                    ? SuppliedGrid(*std::move(supplied), s)
                                    : FileGrid());
    grid_ = &grid;

    AbstractionView a;
    a.params = params_;
    RETURN_IF_ERROR(ReadBeacons(grid, &a.beacons));
    // Highest level each beacon is a node of (upper-level nodes must be
    // nodes of the level below, each at most once).
    beacon_level_.assign(a.beacons.size(), kNoLevel);
    a.levels.resize(params_.levels);
    for (int i = 0; i < params_.levels; ++i) {
      LevelView& level = a.levels[i];
      static_cast<LevelGeometry&>(level) =
          LevelGeometry::For(params_, header_.width, header_.height, i);
      RETURN_IF_ERROR(ReadLevel(i + 1, a.beacons, a.levels[0], &level));
      if (i > 0 && verify_refinement_) {
        RETURN_IF_ERROR(
            CheckRefinable(i + 1, a.beacons, a.levels[i - 1], level));
      }
    }
    if (params_.cache_paths) {
      RETURN_IF_ERROR(Read(kPathBegin, 1, &a.cached_paths.path_begin));
      RETURN_IF_ERROR(Read(kPathRuns, 1, &a.cached_paths.path_runs));
      RETURN_IF_ERROR(
          CheckOffsets(a.cached_paths.path_begin, a.levels[0].edges.size(),
                       a.cached_paths.path_runs.size(), kPathBegin, 1));
      RETURN_IF_ERROR(CheckCachedPaths(a));
    } else if (verify_refinement_) {
      RETURN_IF_ERROR(CheckZoneReachability(a));
    }
    if (verify_refinement_ && supplied_costs_.empty()) {
      RETURN_IF_ERROR(CheckStoredComponents(grid));
    }
    if (sizes != nullptr) *sizes = s;
    const bool mapped =
        keeper_ != nullptr && header_.version >= kFirstAlignedVersion;
    // The arrays just validated, as pages viewing the mapping (sections
    // start on page boundaries, so every element is aligned): the world
    // owns none of them.
    SharedAbstraction shared =
        mapped ? ViewAbstraction(a) : SharedAbstraction::FromFlat(a.Copy());
    std::shared_ptr<const ConnectionTables> tables;
    if (header_.version >= kFirstTabledVersion) {
      ASSIGN_OR_RETURN(tables, ReadTables(shared, mapped));
    }
    return World(std::move(grid), std::move(shared), 0, std::move(tables));
  }

 private:
  template <typename... Args>
  absl::Status Loss(const Args&... message) const {
    return absl::DataLossError(absl::StrCat(name_, ": ", message...));
  }
  template <typename... Args>
  absl::Status LevelLoss(uint32_t l, uint32_t kind,
                         const Args&... message) const {
    return Loss(SectionLabel(kind, l), ": ", message...);
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
    if (header_.version < kOldestWorldFormatVersion ||
        header_.version > kWorldFormatVersion) {
      return Precondition(
          "format version ", header_.version, ", this build reads versions ",
          kOldestWorldFormatVersion, " to ", kWorldFormatVersion);
    }
    if (header_.header_bytes != sizeof(FileHeader)) {
      return Loss("header: header_bytes is ", header_.header_bytes, ", not ",
                  sizeof(FileHeader));
    }
    const uint64_t table_bytes =
        uint64_t{header_.section_count} * sizeof(SectionEntry);
    if (header_.section_count > 4096 ||
        sizeof(FileHeader) + table_bytes > bytes_.size()) {
      return Loss("header: section_count ", header_.section_count,
                  " (truncated or corrupt section table)");
    }
    {
      std::string copy(bytes_.substr(0, sizeof(FileHeader) + table_bytes));
      FileHeader zeroed = header_;
      zeroed.header_crc = 0;
      std::memcpy(copy.data(), &zeroed, sizeof(zeroed));
      if (verify_checksums_ &&
          Crc(copy.data(), copy.size()) != header_.header_crc) {
        return Loss("header: header_crc mismatch");
      }
    }
    table_.resize(header_.section_count);
    if (table_bytes > 0) {  // memcpy to a null pointer is undefined even for 0
      std::memcpy(table_.data(), bytes_.data() + sizeof(FileHeader),
                  table_bytes);
    }
    if (absl::Status s = Grid::CheckSize(header_.width, header_.height);
        !s.ok()) {
      return Loss("header: width/height: ", s.message());
    }
    params_.zone_size = header_.zone_size;
    params_.levels = header_.levels;
    params_.group = header_.group;
    params_.entrance_threshold = header_.entrance_threshold;
    if (header_.version < kFirstSpacedVersion && header_.beacon_spacing != 0) {
      return Loss("header: beacon_spacing ", header_.beacon_spacing,
                  " in a version-", header_.version,
                  " file (reserved, must be 0)");
    }
    // The same ranges BuildWorld accepts (a spacing past int32 named as
    // stored, not as the negative number a cast would make of it).
    if (header_.beacon_spacing > static_cast<uint32_t>(kMaxBeaconSpacing)) {
      return Loss("header: beacon_spacing ", header_.beacon_spacing,
                  " not 0 or in ", MinBeaconSpacing(params_.zone_size), "..",
                  kMaxBeaconSpacing);
    }
    params_.beacon_spacing = static_cast<int32_t>(header_.beacon_spacing);
    if (absl::Status s = CheckParamRanges(params_); !s.ok()) {
      return Loss("header: ", s.message());
    }
    if (header_.connectivity > 1) {
      return Loss("header: connectivity ", header_.connectivity, " not 0 or 1");
    }
    if (header_.cache_paths > 1) {
      return Loss("header: cache_paths ", header_.cache_paths, " not 0 or 1");
    }
    params_.connectivity = static_cast<Connectivity>(header_.connectivity);
    params_.cache_paths = header_.cache_paths == 1;
    for (size_t i = 0; i < table_.size(); ++i) {
      const SectionEntry& e = table_[i];
      if (e.offset > bytes_.size() || e.size > bytes_.size() - e.offset) {
        return Loss("truncated: ", SectionLabel(e.kind, e.level),
                    " (table entry ", i, ") has offset ", e.offset,
                    " and size ", e.size, ", file has ", bytes_.size(),
                    " bytes");
      }
      if (header_.version >= kFirstAlignedVersion &&
          e.offset % kSectionAlign != 0) {
        return Loss(SectionLabel(e.kind, e.level), " (table entry ", i,
                    ") starts at offset ", e.offset, ", not a multiple of ",
                    kSectionAlign);
      }
    }
    if (header_.version >= kFirstAlignedVersion)
      RETURN_IF_ERROR(CheckPadding());
    if (verify_checksums_) RETURN_IF_ERROR(ComputeChecksums());
    return absl::OkStatus();
  }

  // The CRC of every section, in pieces on threads_ threads, combined per
  // section (Find reports a mismatch when it reaches the section, so the
  // error is the one a serial check would give).
  absl::Status ComputeChecksums() {
    constexpr uint64_t kPiece = uint64_t{1} << 20;
    struct Piece {
      uint32_t entry;
      uint64_t begin, size;
      uint32_t crc;
    };
    std::vector<Piece> pieces;
    for (uint32_t i = 0; i < table_.size(); ++i) {
      const SectionEntry& e = table_[i];
      uint64_t at = 0;
      do {
        const uint64_t size = std::min(kPiece, e.size - at);
        pieces.push_back({i, e.offset + at, size, 0});
        at += size;
      } while (at < e.size);
    }
    // Threads pay off from a few pieces (small files: the caller's alone).
    RETURN_IF_ERROR(ParallelChunks(pieces.size(), threads_, 4 + table_.size(),
                                   [&](uint64_t begin, uint64_t end) {
                                     for (uint64_t p = begin; p < end; ++p) {
                                       pieces[p].crc =
                                           Crc(bytes_.data() + pieces[p].begin,
                                               pieces[p].size);
                                     }
                                     return absl::OkStatus();
                                   }));
    std::vector<uLong> crc(table_.size(), crc32(0L, Z_NULL, 0));
    for (const Piece& p : pieces) {
      crc[p.entry] =
          crc32_combine(crc[p.entry], p.crc, static_cast<z_off_t>(p.size));
    }
    crc_ok_.resize(table_.size());
    for (size_t i = 0; i < table_.size(); ++i) {
      crc_ok_[i] = static_cast<uint32_t>(crc[i]) == table_[i].crc;
    }
    return absl::OkStatus();
  }

  // The bytes outside the header, table and sections (the padding to page
  // boundaries, under 4 KiB per section) are zero: no checksum covers them,
  // so a damaged byte there would otherwise pass unnoticed.
  absl::Status CheckPadding() const {
    std::vector<std::pair<uint64_t, uint64_t>> used;  // [begin, end)
    used.reserve(table_.size() + 1);
    used.emplace_back(
        0, sizeof(FileHeader) + table_.size() * sizeof(SectionEntry));
    for (const SectionEntry& e : table_)
      used.emplace_back(e.offset, e.offset + e.size);
    used.emplace_back(bytes_.size(), bytes_.size());
    std::sort(used.begin(), used.end());
    uint64_t covered = 0;
    for (const auto& [begin, end] : used) {
      for (uint64_t i = covered; i < begin; ++i) {
        if (bytes_[i] != 0) {
          return Loss("byte ", i, " between sections is not 0 (padding)");
        }
      }
      covered = std::max(covered, end);
    }
    return absl::OkStatus();
  }

  // Array `data` as pages: views of the mapping, or a copy without one.
  template <typename T>
  CowArray<T> Pages(absl::Span<const T> data) const {
    return keeper_ != nullptr
               ? CowArray<T>::FromExternal(data.data(), data.size(), keeper_)
               : CowArray<T>::FromVector(
                     std::vector<T>(data.begin(), data.end()));
  }

  absl::StatusOr<Grid> FileGrid() {
    ASSIGN_OR_RETURN(const absl::string_view cost_bytes, Find(kGrid, 0, 1));
    grid_costs_ = cost_bytes.data();
    if (cost_bytes.size() !=
        static_cast<uint64_t>(header_.width) * header_.height) {
      return Loss("section grid has ", cost_bytes.size(),
                  " cells, header says ", header_.width, "x", header_.height);
    }
    return ReadGrid(cost_bytes);
  }

  absl::StatusOr<Grid> SuppliedGrid(Grid grid, const WorldFileSizes& s) {
    if (s.grid != 0 || s.components != 0) {
      return Loss("has grid sections, but its grid is supplied");
    }
    if (grid.width() != header_.width || grid.height() != header_.height) {
      return Loss("header: ", header_.width, "x", header_.height,
                  ", the supplied grid is ", grid.width(), "x", grid.height());
    }
    // The checks read costs row by row from one buffer (a supplied grid's
    // pages need not be contiguous): a copy for the load, freed after.
    supplied_costs_ = grid.CostVector();
    grid_costs_ = reinterpret_cast<const char*>(supplied_costs_.data());
    return grid;
  }

  // The grid on the grid section, with the stored component labels (version
  // 4) or labelling the cells again (older files). With verify_refinement
  // the stored labels are also compared with a fresh labelling (O(cells)).
  absl::StatusOr<Grid> ReadGrid(absl::string_view cost_bytes) {
    const absl::Span<const uint8_t> costs(
        reinterpret_cast<const uint8_t*>(cost_bytes.data()), cost_bytes.size());
    if (header_.version < kFirstCompactVersion) {
      // Version 3 labels split tiles by piece, not by component: label the
      // cells again rather than keep labels that would save differently.
      absl::StatusOr<Grid> grid =
          Grid::CreateFromPages(header_.width, header_.height, Pages(costs));
      if (!grid.ok()) return Loss("section grid: ", grid.status().message());
      return grid;
    }
    Grid::StoredComponents stored;
    absl::Span<const Grid::TileLabels> tiles;
    absl::Span<const uint8_t> cells;
    absl::Span<const uint32_t> local_global;
    absl::Span<const GridSummary> summary;
    RETURN_IF_ERROR(Read(kLabelTiles, 0, &tiles));
    RETURN_IF_ERROR(Read(kLabelCells, 0, &cells));
    RETURN_IF_ERROR(Read(kLabelGlobal, 0, &local_global));
    RETURN_IF_ERROR(Read(kGridSummary, 0, &summary));
    if (summary.size() != 1 || summary[0].reserved != 0) {
      return Loss("section grid_summary: ", summary.size(),
                  " records (expected 1)",
                  summary.size() == 1 ? ", reserved is not 0" : "");
    }
    stored.tiles = Pages(tiles);
    stored.cell_labels = Pages(cells);
    stored.local_global = Pages(local_global);
    stored.component_count = summary[0].component_count;
    stored.cost_counts.assign(std::begin(summary[0].cost_counts),
                              std::end(summary[0].cost_counts));
    absl::StatusOr<Grid> grid =
        Grid::CreateWithComponents(header_.width, header_.height, Pages(costs),
                                   std::move(stored), threads_);
    if (!grid.ok()) {
      return Loss("component labels: ", grid.status().message());
    }
    return grid;
  }

  // With verify_refinement, stored labels (version 4) against a fresh
  // labelling of the cells: O(cells), like the refinement checks.
  absl::Status CheckStoredComponents(const Grid& grid) const {
    if (header_.version < kFirstCompactVersion) return absl::OkStatus();
    const absl::Span<const uint8_t> costs(
        reinterpret_cast<const uint8_t*>(grid_costs_), grid.cell_count());
    ASSIGN_OR_RETURN(
        const Grid fresh,
        Grid::CreateFromPages(header_.width, header_.height, Pages(costs)));
    if (!grid.SameComponentsAs(fresh)) {
      return Loss(
          "component labels: disagree with the grid's cells (labelling "
          "them again gives other components or cost counts)");
    }
    return absl::OkStatus();
  }

  // Pages viewing `count` elements of section (kind, level) from element
  // `first` (found, checked and copied by Read before).
  template <typename T>
  CowArray<T> View(uint32_t kind, uint32_t level, size_t first,
                   size_t count) const {
    const absl::string_view bytes = found_.at({kind, level});
    return CowArray<T>::FromExternal(
        reinterpret_cast<const T*>(bytes.data()) + first, count, keeper_);
  }
  // The same SharedAbstraction as SharedAbstraction::FromFlat(a), viewing
  // the sections `a` was copied from.
  SharedAbstraction ViewAbstraction(const AbstractionView& a) const {
    SharedAbstraction s;
    s.params = a.params;
    s.beacons = header_.version >= kFirstCompactVersion
                    ? View<BeaconCell>(kBeacons, 0, 0, a.beacons.size())
                    : CowArray<BeaconCell>::FromVector(old_beacons_);
    s.levels.resize(a.levels.size());
    for (size_t i = 0; i < a.levels.size(); ++i) {
      const LevelView& f = a.levels[i];
      SharedLevel& v = s.levels[i];
      const uint32_t l = static_cast<uint32_t>(i + 1);
      static_cast<LevelGeometry&>(v) = f;
      v.node_beacon = View<uint32_t>(kNodeBeacon, l, 0, f.node_count());
      v.edge_begin = View<uint32_t>(kEdgeBegin, l, 0, f.node_count());
      v.edge_end = View<uint32_t>(kEdgeBegin, l, 1, f.node_count());
      v.edges = View<AbstractEdge>(kEdges, l, 0, f.edges.size());
      v.zone_node_begin = View<uint32_t>(kZoneNodeBegin, l, 0, f.zone_count());
      v.zone_node_end = View<uint32_t>(kZoneNodeBegin, l, 1, f.zone_count());
      v.node_component = View<uint32_t>(kNodeComponent, l, 0, f.node_count());
      v.live_nodes = f.node_count();
      v.live_edges = static_cast<int64_t>(f.edges.size());
    }
    if (a.params.cache_paths) {
      s.cached_paths.path_begin =
          View<uint32_t>(kPathBegin, 1, 0, a.cached_paths.path_begin.size());
      s.cached_paths.path_runs =
          View<uint32_t>(kPathRuns, 1, 0, a.cached_paths.path_runs.size());
    }
    return s;
  }

  bool Has(uint32_t kind, uint32_t level) const {
    for (const SectionEntry& e : table_) {
      if (e.kind == kind && e.level == level) return true;
    }
    return false;
  }

  // The connection tables the file holds (null if none), checked against
  // `world`'s abstraction; views of the mapping when `mapped`, else copies.
  absl::StatusOr<std::shared_ptr<const ConnectionTables>> ReadTables(
      const SharedAbstraction& abstraction, bool mapped) {
    // The header allows levels 1..8: every level has a slot.
    static_assert(ConnectionTables::kMaxLevel >= 8);
    std::array<ConnectionTables::LevelData, ConnectionTables::kMaxLevel + 1>
        parts{};
    struct Owned {
      std::vector<uint64_t> zone_begin;
      std::vector<float> values;
    };
    auto owned =
        std::make_shared<std::array<Owned, ConnectionTables::kMaxLevel + 1>>();
    bool any = false, copied = false;
    for (const SectionEntry& e : table_) {
      if (IsTableSection(e.kind) &&
          (e.level < ConnectionTables::kFirstLevel ||
           e.level > static_cast<uint32_t>(params_.levels))) {
        return Loss(SectionLabel(e.kind, e.level), ": tables are for levels ",
                    ConnectionTables::kFirstLevel, "..", params_.levels);
      }
    }
    for (int j = ConnectionTables::kFirstLevel; j <= params_.levels; ++j) {
      const uint32_t l = static_cast<uint32_t>(j);
      const bool has_begin = Has(kConnectionBegin, l);
      if (has_begin != Has(kConnectionCosts, l)) {
        return Loss(
            "missing ",
            SectionLabel(has_begin ? kConnectionCosts : kConnectionBegin, l));
      }
      if (!has_begin) continue;
      absl::Span<const uint64_t> begin;
      absl::Span<const float> values;
      RETURN_IF_ERROR(Read(kConnectionBegin, l, &begin));
      RETURN_IF_ERROR(Read(kConnectionCosts, l, &values));
      // In place only when both view the mapping (Read copies a
      // misaligned section into scratch that dies with the parser).
      const auto in_file = [&](const void* p) {
        const uintptr_t at = reinterpret_cast<uintptr_t>(p);
        const uintptr_t first = reinterpret_cast<uintptr_t>(bytes_.data());
        return at >= first && at - first <= bytes_.size();
      };
      if (!mapped || !in_file(begin.data()) || !in_file(values.data())) {
        copied = true;
        (*owned)[j].zone_begin.assign(begin.begin(), begin.end());
        (*owned)[j].values.assign(values.begin(), values.end());
        begin = (*owned)[j].zone_begin;
        values = (*owned)[j].values;
      }
      parts[j] = {begin, values};
      if (absl::Status v = ConnectionTables::Validate(
              abstraction, header_.width, header_.height, j, parts[j]);
          !v.ok()) {
        return Loss(SectionLabel(kConnectionCosts, l), ": ", v.message());
      }
      any = true;
    }
    if (!any) return nullptr;
    // Keeps the copies and, for views, the mapping.
    auto keeper = std::make_shared<
        std::pair<std::shared_ptr<const void>, std::shared_ptr<const void>>>(
        owned, mapped ? keeper_ : nullptr);
    return std::make_shared<const ConnectionTables>(parts, std::move(keeper),
                                                    mapped && !copied);
  }

  // Finds section (kind, level) and checks its size (a multiple of
  // `element_bytes`) and checksum: its bytes, in place.
  absl::StatusOr<absl::string_view> Find(uint32_t kind, uint32_t level,
                                         size_t element_bytes) {
    for (size_t i = 0; i < table_.size(); ++i) {
      const SectionEntry& e = table_[i];
      if (e.kind != kind || e.level != level) continue;
      if (e.size % element_bytes != 0) {
        return Loss(SectionLabel(kind, level), ": size ", e.size,
                    " is not a multiple of ", element_bytes);
      }
      const char* data = bytes_.data() + e.offset;
      if (verify_checksums_ && !crc_ok_[i]) {
        return Loss(SectionLabel(kind, level), ": checksum mismatch");
      }
      found_[{kind, level}] = absl::string_view(data, e.size);
      return absl::string_view(data, e.size);
    }
    return Loss("missing ", SectionLabel(kind, level));
  }
  // The same as elements, in place; copied to aligned scratch if the
  // section is misaligned for T (version-1 files, unaligned buffers).
  template <typename T>
  absl::Status Read(uint32_t kind, uint32_t level, absl::Span<const T>* out) {
    static_assert(std::is_trivially_copyable_v<T>);
    ASSIGN_OR_RETURN(const absl::string_view data,
                     Find(kind, level, sizeof(T)));
    const size_t n = data.size() / sizeof(T);
    if (reinterpret_cast<uintptr_t>(data.data()) % alignof(T) == 0) {
      *out = absl::Span<const T>(reinterpret_cast<const T*>(data.data()), n);
      return absl::OkStatus();
    }
    std::vector<uint64_t>& copy = aligned_copies_.emplace_back(
        (data.size() + sizeof(uint64_t) - 1) / sizeof(uint64_t));
    if (!data.empty()) std::memcpy(copy.data(), data.data(), data.size());
    *out = absl::Span<const T>(reinterpret_cast<const T*>(copy.data()), n);
    return absl::OkStatus();
  }

  // The beacons: 4-byte cells since version 4, Points before (converted
  // after their check). Each must be an open cell of the grid.
  absl::Status ReadBeacons(const Grid& grid,
                           absl::Span<const BeaconCell>* out) {
    if (header_.version >= kFirstCompactVersion) {
      RETURN_IF_ERROR(Read(kBeacons, 0, out));
      return CheckBeacons(grid, *out);
    }
    absl::Span<const Point> points;
    RETURN_IF_ERROR(Read(kBeacons, 0, &points));
    RETURN_IF_ERROR(CheckBeacons(grid, points));  // before narrowing them
    old_beacons_.assign(points.begin(), points.end());
    *out = old_beacons_;
    return absl::OkStatus();
  }
  template <typename Cell>  // Point or BeaconCell
  absl::Status CheckBeacons(const Grid& grid,
                            absl::Span<const Cell> beacons) const {
    for (size_t b = 0; b < beacons.size(); ++b) {
      const Point p = beacons[b];
      if (!grid.PassableOrFalse(p)) {
        return Loss("section beacons: beacon ", b, " at ", PointString(p),
                    " is outside the grid or blocked");
      }
    }
    return absl::OkStatus();
  }

  // CSR offsets: count + 1 entries from 0 to total, never decreasing.
  absl::Status CheckOffsets(absl::Span<const uint32_t> begin, size_t count,
                            size_t total, uint32_t kind, uint32_t l) const {
    if (begin.size() != count + 1) {
      return LevelLoss(l, kind, begin.size(), " entries, expected ", count + 1);
    }
    if (begin.front() != 0 || begin.back() != total) {
      return LevelLoss(l, kind, "runs from ", begin.front(), " to ",
                       begin.back(), ", expected 0 to ", total);
    }
    for (size_t i = 0; i + 1 < begin.size(); ++i) {
      if (begin[i] > begin[i + 1]) {
        return LevelLoss(l, kind, "entry ", i + 1, " (", begin[i + 1],
                         ") is below entry ", i, " (", begin[i], ")");
      }
    }
    return absl::OkStatus();
  }

  absl::Status ReadLevel(uint32_t l, absl::Span<const BeaconCell> beacons,
                         const LevelView& level_one, LevelView* level) {
    RETURN_IF_ERROR(Read(kNodeBeacon, l, &level->node_beacon));
    RETURN_IF_ERROR(Read(kEdgeBegin, l, &level->edge_begin));
    RETURN_IF_ERROR(Read(kEdges, l, &level->edges));
    RETURN_IF_ERROR(Read(kZoneNodeBegin, l, &level->zone_node_begin));
    RETURN_IF_ERROR(Read(kNodeComponent, l, &level->node_component));
    const size_t n = level->node_beacon.size();
    // Level-1 node n is beacon n (the runtime relies on it); a level-k node
    // is a node of level k-1, listed once.
    if (l == 1 && n != beacons.size()) {
      return LevelLoss(l, kNodeBeacon, n, " nodes for ", beacons.size(),
                       " beacons");
    }
    if (l == 1) {
      // Node i is beacon i: no beacon is listed twice, so the nodes can be
      // checked in parallel ranges.
      RETURN_IF_ERROR(ForNodes(n, [&](uint32_t i) -> absl::Status {
        const uint32_t b = level->node_beacon[i];
        if (b != i) {
          return LevelLoss(l, kNodeBeacon, "node ", i, " is beacon ", b,
                           "; level-1 node n must be beacon n");
        }
        beacon_level_[b] = 1;
        return absl::OkStatus();
      }));
    }
    for (uint32_t i = 0; i < n && l > 1; ++i) {
      const uint32_t b = level->node_beacon[i];
      if (b >= beacons.size()) {
        return LevelLoss(l, kNodeBeacon, "node ", i, " is beacon ", b,
                         ", out of range");
      }
      if (beacon_level_[b] != l - 1) {
        return LevelLoss(
            l, kNodeBeacon, "node ", i, " has beacon ", b,
            beacon_level_[b] >= l ? ", listed twice" : ", not a node of level ",
            beacon_level_[b] >= l ? "" : absl::StrCat(l - 1));
      }
      beacon_level_[b] = static_cast<uint8_t>(l);
    }
    RETURN_IF_ERROR(
        CheckOffsets(level->edge_begin, n, level->edges.size(), kEdgeBegin, l));
    RETURN_IF_ERROR(CheckOffsets(level->zone_node_begin, level->zone_count(), n,
                                 kZoneNodeBegin, l));
    zone_of_node_.resize(n);
    // Zone ranges are disjoint and in order (CheckOffsets), so zones can be
    // checked in parallel ranges.
    RETURN_IF_ERROR(ForNodes(
        level->zone_count(),
        [&](uint32_t z) -> absl::Status {
          for (uint32_t i = level->zone_node_begin[z];
               i < level->zone_node_begin[z + 1]; ++i) {
            if (level->ZoneOf(beacons[level->node_beacon[i]]).value() != z) {
              return LevelLoss(l, kZoneNodeBegin, "node ", i, " at ",
                               PointString(beacons[level->node_beacon[i]]),
                               " is listed in zone ", z,
                               ", which does not hold its cell");
            }
            zone_of_node_[i] = z;
          }
          return absl::OkStatus();
        },
        kMinParallelZones));
    if (level->node_component.size() != n) {
      return LevelLoss(l, kNodeComponent, "labels for ",
                       level->node_component.size(), " of ", n, " nodes");
    }
    RETURN_IF_ERROR(CheckZones(l, beacons, level_one, *level));
    return absl::OkStatus();
  }

  // check(u) for every node u < n, on threads_ threads for large levels;
  // the error is the one of the smallest failing node.
  template <typename Check>
  absl::Status ForNodes(uint32_t n, const Check& check,
                        uint64_t min_per_thread = kMinParallelNodes) const {
    return ParallelChunks(n, threads_, min_per_thread,
                          [&](uint64_t begin, uint64_t end) -> absl::Status {
                            for (uint64_t u = begin; u < end; ++u) {
                              RETURN_IF_ERROR(check(static_cast<uint32_t>(u)));
                            }
                            return absl::OkStatus();
                          });
  }
  static constexpr uint64_t kMinParallelNodes = 1 << 15;
  // Zones hold tens of nodes each: their ranges are split sooner.
  static constexpr uint64_t kMinParallelZones = 1 << 10;

  // Everything checked zone by zone, in one pass over each zone's nodes and
  // edges (zones in parallel ranges; the error is the one of the smallest
  // failing zone):
  //  - a label names a node of the same zone that labels itself;
  //  - every edge (CheckEdge), each node's edges strictly sorted by
  //    (target, inter_zone), as the builder writes them (none twice): with
  //    intra-zone edges inside the node's zone range and inter-zone ones
  //    outside it, that makes the intra-zone edges one block, which the
  //    searches jump over (LevelGraph::ForEachEdge);
  //  - labels are exactly the zone components the intra-zone edges make: two
  //    nodes share a label iff edges join them, and the label is the
  //    smallest node of the component (union-find on zone-local scratch,
  //    since intra-zone edges stay in their zone's node range);
  //  - each zone component is a clique: a node has an intra-zone edge to
  //    every other node of its component (the builder's all-pairs edges;
  //    the planner's searches skip the intra-zone edges of a node reached
  //    over one, which is exact only on cliques, best_first.h);
  //  - level 1 without cached paths: a node is on its label node's grid
  //    component, so the ends of every intra-zone edge are connected on the
  //    grid (one label lookup pair per node, not per edge);
  //  - edges come in pairs u -> v, v -> u of the same kind (the planner
  //    searches backwards from the goal over forward edges, then refines the
  //    forward ones): the multiset of (u, v, kind) equals that of (v, u,
  //    kind), tested by summing a hash keyed at random per load over the
  //    edges, forwards minus backwards. The sums differ exactly when the
  //    edges are not symmetric (no edge being listed twice), but for a
  //    chance of about 2^-64 of missing
  //    an asymmetry; the key is secret, so a file cannot be crafted to
  //    collide. Streaming, unlike a reverse lookup per edge (a cache miss per
  //    inter-zone edge: a third of the maze 32768² load). On a mismatch,
  //    CheckSymmetricExact names the edge.
  absl::Status CheckZones(uint32_t l, absl::Span<const BeaconCell> beacons,
                          const LevelView& level_one, const LevelView& level) {
    absl::BitGen random;
    const uint64_t seed[2] = {absl::Uniform<uint64_t>(random),
                              absl::Uniform<uint64_t>(random)};
    auto hash = [&seed](uint32_t from, uint32_t to, bool inter_zone) {
      uint64_t x = ((uint64_t{from} << 32) | to) ^ seed[inter_zone];
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;  // splitmix64's finaliser
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
      return x ^ (x >> 31);
    };
    const bool grid_components = l == 1 && !params_.cache_paths;
    std::atomic<uint64_t> asymmetry{0};
    RETURN_IF_ERROR(ParallelChunks(
        level.zone_count(), threads_, kMinParallelZones,
        [&](uint64_t zone_begin, uint64_t zone_end) -> absl::Status {
          // Zone-local scratch: union-find, intra-zone edges per node,
          // nodes per component root.
          std::vector<uint32_t> root, intra, size;
          uint64_t sum = 0;  // forwards minus backwards
          for (uint64_t z = zone_begin; z < zone_end; ++z) {
            const uint32_t first = level.zone_node_begin[z];
            const uint32_t last = level.zone_node_begin[z + 1];
            for (uint32_t i = first; i < last; ++i) {
              const uint32_t c = level.node_component[i];
              if (c < first || c >= last || level.node_component[c] != c) {
                return LevelLoss(l, kNodeComponent, "node ", i,
                                 " has a bad label ", c);
              }
            }
            root.resize(last - first);
            intra.assign(last - first, 0);
            for (uint32_t i = first; i < last; ++i) root[i - first] = i - first;
            auto find = [&](uint32_t v) {
              while (root[v] != v) v = root[v] = root[root[v]];
              return v;
            };
            for (uint32_t u = first; u < last; ++u) {
              for (uint32_t e = level.edge_begin[u];
                   e < level.edge_begin[u + 1]; ++e) {
                const AbstractEdge& edge = level.edges[e];
                RETURN_IF_ERROR(CheckEdge(l, beacons, level_one, level, u, e));
                if (e > level.edge_begin[u] &&
                    EdgeKey(level.edges[e - 1]) >= EdgeKey(edge)) {
                  return LevelLoss(l, kEdges, "edge ", e, " (node ", u,
                                   "): edges not sorted by target, or one "
                                   "listed twice");
                }
                sum += hash(u, edge.target, edge.inter_zone) -
                       hash(edge.target, u, edge.inter_zone);
                if (edge.inter_zone) continue;
                ++intra[u - first];
                // CheckEdge: an intra-zone edge stays in the zone.
                const uint32_t a = find(u - first);
                const uint32_t b = find(edge.target - first);
                if (a != b) root[std::max(a, b)] = std::min(a, b);
              }
            }
            for (uint32_t i = first; i < last; ++i) {
              const uint32_t smallest = find(i - first) + first;
              if (smallest != level.node_component[i]) {
                return LevelLoss(l, kNodeComponent, "node ", i, " has label ",
                                 level.node_component[i],
                                 ", its zone component's smallest node is ",
                                 smallest);
              }
              const uint32_t c = smallest;
              if (grid_components && c != i &&
                  !grid_->SameComponent(beacons[i], beacons[c])) {
                return LevelLoss(1, kNodeComponent, "node ", i, " at ",
                                 PointString(beacons[i]), " and node ", c,
                                 " at ", PointString(beacons[c]),
                                 " share a zone component but are not "
                                 "connected on the grid");
              }
            }
            // Cliques: a node's intra-zone edges go to distinct nodes of
            // its component (strict order, CheckEdge), so it is joined to
            // all the others exactly when it has size - 1 of them.
            size.assign(last - first, 0);
            for (uint32_t i = first; i < last; ++i) ++size[find(i - first)];
            for (uint32_t i = first; i < last; ++i) {
              const uint32_t nodes = size[find(i - first)];
              if (intra[i - first] != nodes - 1) {
                return LevelLoss(
                    l, kEdges, "node ", i, " has ", intra[i - first],
                    " intra-zone edges, its zone component has ", nodes,
                    " nodes (each must be joined to every other)");
              }
            }
          }
          asymmetry.fetch_add(sum, std::memory_order_relaxed);
          return absl::OkStatus();
        }));
    if (asymmetry.load() == 0) return absl::OkStatus();
    return CheckSymmetricExact(l, level);
  }

  // The order a node's edges are written in: by target, then kind.
  static uint64_t EdgeKey(const AbstractEdge& e) {
    return (uint64_t{e.target} << 1) | e.inter_zone;
  }

  // The edges of each node strictly sorted (checked): names the first edge
  // u -> v without an edge v -> u of its kind (a binary search in v's list).
  absl::Status CheckSymmetricExact(uint32_t l, const LevelView& level) const {
    for (uint32_t u = 0; u < level.node_count(); ++u) {
      for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
        const AbstractEdge edge = level.edges[e];
        AbstractEdge reverse = edge;
        reverse.target = u;
        const auto first = level.edges.begin() + level.edge_begin[edge.target];
        const auto last =
            level.edges.begin() + level.edge_begin[edge.target + 1];
        const auto it =
            std::lower_bound(first, last, reverse,
                             [&](const AbstractEdge& a, const AbstractEdge& b) {
                               return EdgeKey(a) < EdgeKey(b);
                             });
        if (it == last || EdgeKey(*it) != EdgeKey(reverse)) {
          return LevelLoss(l, kEdges, "edge ", e, " (node ", u, " -> ",
                           edge.target, ") has no reverse edge");
        }
      }
    }
    // Not reached: with no edge listed twice, unequal sums mean an edge
    // without its reverse, which the search above finds.
    return LevelLoss(l, kEdges, "edges are not symmetric");
  }

  // Refinement follows a level-l intra-zone edge a -> b on level l-1 inside
  // a's level-l zone: b must be reachable there. Union-find over the level
  // l-1 edges that stay inside one level-l zone, then each such edge's ends
  // must share a set. Linear in the edges of both levels.
  absl::Status CheckRefinable(uint32_t l, absl::Span<const BeaconCell> beacons,
                              const LevelView& below, const LevelView& level) {
    std::vector<uint32_t> root(below.node_count());
    for (uint32_t i = 0; i < root.size(); ++i) root[i] = i;
    auto find = [&](uint32_t v) {
      while (root[v] != v) v = root[v] = root[root[v]];
      return v;
    };
    std::vector<uint32_t>& zone = zone_of_node_;  // level-l zone per node
    zone.resize(below.node_count());
    for (uint32_t i = 0; i < below.node_count(); ++i) {
      zone[i] = level.ZoneOf(beacons[below.node_beacon[i]]).value();
    }
    for (uint32_t u = 0; u < below.node_count(); ++u) {
      for (uint32_t e = below.edge_begin[u]; e < below.edge_begin[u + 1]; ++e) {
        const uint32_t v = below.edges[e].target;
        if (zone[u] != zone[v]) continue;
        const uint32_t a = find(u), b = find(v);
        if (a != b) root[std::max(a, b)] = std::min(a, b);
      }
    }
    // Level-l nodes are level l-1 nodes: their ids there, by beacon.
    std::vector<uint32_t> below_of_beacon(beacons.size(), 0);
    for (uint32_t i = 0; i < below.node_count(); ++i) {
      below_of_beacon[below.node_beacon[i]] = i;
    }
    for (uint32_t u = 0; u < level.node_count(); ++u) {
      for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
        if (level.edges[e].inter_zone) continue;
        const uint32_t v = level.edges[e].target;
        if (find(below_of_beacon[level.node_beacon[u]]) !=
            find(below_of_beacon[level.node_beacon[v]])) {
          return LevelLoss(l, kEdges, "edge ", e, " (node ", u, " -> ", v,
                           "): level ", l - 1,
                           " has no path for it inside the zone");
        }
      }
    }
    return absl::OkStatus();
  }

  // One edge u -> target: what refinement and the abstract search assume.
  absl::Status CheckEdge(uint32_t l, absl::Span<const BeaconCell> beacons,
                         const LevelView& level_one, const LevelView& level,
                         uint32_t u, uint32_t e) const {
    const AbstractEdge edge = level.edges[e];
    const uint32_t v = edge.target;
    auto bad = [&](const auto&... why) {
      return LevelLoss(l, kEdges, "edge ", e, " (node ", u, " -> ", v,
                       "): ", why...);
    };
    if (v >= level.node_count() || v == u) return bad("bad target");
    if (!std::isfinite(edge.cost) || !(edge.cost > 0)) {
      return bad("cost ", edge.cost, " is not finite and positive");
    }
    // Other edges are proven walkable: inter-zone ones as one legal step,
    // cached level-1 paths by walking them, upper levels by CheckRefinable;
    // level-1 intra-zone edges without cached paths join nodes of one grid
    // component (CheckZones, per node).
    const bool same_zone = zone_of_node_[u] == zone_of_node_[v];
    if (!edge.inter_zone) {
      if (!same_zone) return bad("intra-zone edge joins two zones");
      if (level.node_component[u] != level.node_component[v]) {
        return bad("joins two zone components");
      }
      return absl::OkStatus();
    }
    if (same_zone) return bad("inter-zone edge inside one zone");
    const Point a = beacons[level.node_beacon[u]];
    const Point b = beacons[level.node_beacon[v]];
    const std::optional<Direction> d = DirectionFromDelta(b.x - a.x, b.y - a.y);
    if (!d.has_value() || !CanStep(*grid_, a, *d, params_.connectivity)) {
      return bad("inter-zone edge is not one legal step from ", PointString(a),
                 " to ", PointString(b));
    }
    if (edge.cost != static_cast<float>(StepCost(*grid_, a, *d))) {
      return bad("inter-zone cost ", edge.cost, " is not the step cost ",
                 StepCost(*grid_, a, *d));
    }
    if (l > 1) {  // refinement follows the level-1 crossing
      bool found = false;
      const uint32_t from = level.node_beacon[u], to = level.node_beacon[v];
      for (uint32_t f = level_one.edge_begin[from];
           f < level_one.edge_begin[from + 1] && !found; ++f) {
        found =
            level_one.edges[f].target == to && level_one.edges[f].inter_zone;
      }
      if (!found) return bad("no level-1 inter-zone edge under it");
    }
    return absl::OkStatus();
  }

  // Without cached paths, refinement searches the grid inside the zone for
  // each level-1 intra-zone edge: its ends must be connected there. Zone by
  // zone, union-find over the zone's cells (scratch of one zone's size):
  // 4-neighbour unions suffice, since a diagonal step needs both orthogonal
  // cells, which lie in the same rectangle. O(cells), like the grid's own
  // component labelling.
  absl::Status CheckZoneReachability(const AbstractionView& a) const {
    constexpr uint32_t kWall = std::numeric_limits<uint32_t>::max();
    const LevelView& level = a.levels[0];
    std::vector<uint32_t> root;
    auto find = [&](uint32_t v) {
      while (root[v] != v) v = root[v] = root[root[v]];
      return v;
    };
    for (uint32_t z = 0; z < level.zone_count(); ++z) {
      const uint32_t first = level.zone_node_begin[z];
      const uint32_t last = level.zone_node_begin[z + 1];
      bool any_intra = false;
      for (uint32_t e = level.edge_begin[first];
           e < level.edge_begin[last] && !any_intra; ++e) {
        any_intra = !level.edges[e].inter_zone;
      }
      if (!any_intra) continue;
      const Rect rect =
          level.ZoneRect(ZoneId(z), header_.width, header_.height);
      const int32_t w = rect.width(), h = rect.height();
      root.resize(static_cast<size_t>(w) * h);
      // Row by row: a cell joins the run to its left; a union with the row
      // above is needed only where a run starts or the cell above-left is
      // a wall (otherwise the left cell's union already covered it).
      for (int32_t y = 0; y < h; ++y) {
        const uint8_t* costs =
            reinterpret_cast<const uint8_t*>(grid_costs_) +
            static_cast<size_t>(rect.y0 + y) * header_.width + rect.x0;
        uint32_t run_root = kWall;
        for (int32_t x = 0; x < w; ++x) {
          const uint32_t i = static_cast<uint32_t>(y * w + x);
          if (costs[x] == 0) {
            root[i] = kWall;
            run_root = kWall;
            continue;
          }
          const bool up = y > 0 && root[i - w] != kWall;
          if (run_root == kWall) {
            root[i] = run_root = i;
          } else {
            root[i] = run_root;
          }
          if (up && (x == 0 || run_root == i || root[i - w - 1] == kWall)) {
            const uint32_t ri = find(i), rj = find(i - w);
            if (ri != rj) root[std::max(ri, rj)] = std::min(ri, rj);
          }
        }
      }
      auto local = [&](uint32_t node) {
        const Point p = a.beacons[node];
        return static_cast<uint32_t>((p.y - rect.y0) * w + (p.x - rect.x0));
      };
      for (uint32_t u = first; u < last; ++u) {
        for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1];
             ++e) {
          const uint32_t v = level.edges[e].target;
          if (level.edges[e].inter_zone || find(local(u)) == find(local(v))) {
            continue;
          }
          return LevelLoss(1, kEdges, "edge ", e, " (node ", u, " -> ", v,
                           "): ", PointString(a.beacons[u]), " and ",
                           PointString(a.beacons[v]),
                           " are not connected inside their zone");
        }
      }
    }
    return absl::OkStatus();
  }

  // Each level-1 intra-zone edge's cached runs walk legally inside its zone
  // from the edge's source cell to its target cell, at the edge's cost.
  // Inter-zone edges have none. Linear in the cached steps: a cached path
  // is a shortest path, so no longer than its zone has cells.
  absl::Status CheckCachedPaths(const AbstractionView& a) const {
    const LevelView& level = a.levels[0];
    const CachedPathsView& cached = a.cached_paths;
    for (uint32_t u = 0; u < level.node_count(); ++u) {
      for (uint32_t e = level.edge_begin[u]; e < level.edge_begin[u + 1]; ++e) {
        const AbstractEdge edge = level.edges[e];
        const uint32_t begin = cached.path_begin[e];
        const uint32_t end = cached.path_begin[e + 1];
        auto bad = [&](const auto&... why) {
          return LevelLoss(1, kPathRuns, "path of edge ", e, " (node ", u,
                           " -> ", edge.target, "): ", why...);
        };
        if (edge.inter_zone) {
          if (begin != end) return bad("inter-zone edges have no cached path");
          continue;
        }
        const Rect zone = level.ZoneRect(level.ZoneOf(a.beacons[u]),
                                         grid_->width(), grid_->height());
        const uint64_t max_steps =
            uint64_t{static_cast<uint32_t>(zone.width())} *
            static_cast<uint32_t>(zone.height());
        uint64_t steps = 0;
        Point at = a.beacons[u];
        double cost = 0;
        for (uint32_t r = begin; r < end; ++r) {
          const Run run = CachedPaths::UnpackRun(cached.path_runs[r]);
          steps += run.count;
          if (run.count == 0 || steps > max_steps) {
            return bad("run ", r - begin, " has count ", run.count,
                       run.count == 0 ? "" : ", longer than the zone allows");
          }
          // The hot loop of loading a world with cached paths: on the
          // flat cost bytes of the file, not the grid's pages.
          const Direction d = run.direction;
          const bool diagonal = IsDiagonal(d);
          if (diagonal && params_.connectivity == Connectivity::kFour) {
            return bad("diagonal run in a 4-connected world");
          }
          const Point delta = Step(Point{0, 0}, d);
          // The zone is a rectangle: if the run ends inside, it stays
          // inside. Step costs are sums of two cell costs, added as integers.
          const Point last{at.x + delta.x * static_cast<int32_t>(run.count),
                           at.y + delta.y * static_cast<int32_t>(run.count)};
          if (!zone.Contains(last)) {
            return bad("run ", r - begin, " leaves the zone at ",
                       PointString(at));
          }
          uint64_t twice_mean = 0;  // sum of (from + to) over the run
          for (uint32_t i = 0; i < run.count; ++i) {
            const Point next{at.x + delta.x, at.y + delta.y};
            const uint8_t to = CostAt(next);
            if (to == 0 || (diagonal && (CostAt({next.x, at.y}) == 0 ||
                                         CostAt({at.x, next.y}) == 0))) {
              return bad("step from ", PointString(at), " to ",
                         PointString(next), " is blocked or cuts a corner");
            }
            twice_mean += CostAt(at) + to;
            at = next;
          }
          cost +=
              0.5 * static_cast<double>(twice_mean) * (diagonal ? kSqrt2 : 1.0);
        }
        const Point target = a.beacons[edge.target];
        if (at != target) {
          return bad("ends at ", PointString(at), ", not at ",
                     PointString(target));
        }
        if (std::abs(cost - edge.cost) > 1e-4 * cost) {
          return bad("walks at cost ", cost, ", the edge says ", edge.cost);
        }
      }
    }
    return absl::OkStatus();
  }

  // Cost of an in-bounds cell, from the file's grid section.
  uint8_t CostAt(Point p) const {
    return static_cast<uint8_t>(
        grid_costs_[static_cast<size_t>(p.y) * header_.width + p.x]);
  }

  absl::string_view bytes_;
  const char* grid_costs_ = nullptr;     // the grid section in bytes_
  std::vector<uint8_t> supplied_costs_;  // or a supplied grid's costs
  std::string name_;
  FileHeader header_{};
  std::vector<SectionEntry> table_;
  BuildParams params_;
  bool verify_checksums_;
  bool verify_refinement_;
  int threads_;
  // Per table entry: its CRC matched (computed up front, in parallel).
  std::vector<bool> crc_ok_;
  std::shared_ptr<const void> keeper_;
  // Sections found so far, by (kind, level).
  std::map<std::pair<uint32_t, uint32_t>, absl::string_view> found_;
  // Aligned copies of misaligned sections (Read), alive while spans are.
  std::deque<std::vector<uint64_t>> aligned_copies_;
  // Version 1-3 beacons converted to BeaconCell (ReadBeacons).
  std::vector<BeaconCell> old_beacons_;
  const Grid* grid_ = nullptr;
  std::vector<uint8_t> beacon_level_;
  std::vector<uint32_t> zone_of_node_;  // of the level being read
};

}  // namespace

absl::StatusOr<World> ParseWorld(absl::string_view bytes,
                                 absl::string_view name,
                                 bool verify_checksums) {
  LoadOptions options;
  options.verify_checksums = verify_checksums;
  return ParseWorld(bytes, name, options);
}

absl::StatusOr<World> ParseWorld(absl::string_view bytes,
                                 absl::string_view name,
                                 const LoadOptions& options) {
  return Parser(bytes, name, options).Parse(nullptr);
}

absl::Status SaveWorldFile(const World& world, const std::string& path,
                           WorldFileSizes* sizes) {
  return SaveWorldFile(world.grid(), world.FlatAbstraction(), path, sizes,
                       world.connection_tables());
}

absl::Status SaveWorldFile(const Grid& grid, const Abstraction& flat,
                           const std::string& path, WorldFileSizes* sizes,
                           const ConnectionTables* tables) {
  return WriteFileAtomically(path, [&](std::ostream& out) {
    return WriteWorld(grid, flat, /*with_grid=*/true, tables, out, sizes);
  });
}

absl::Status WriteWorldWithoutGrid(const World& world, std::ostream& out,
                                   WorldFileSizes* sizes) {
  return WriteWorld(world.grid(), world.FlatAbstraction(), /*with_grid=*/false,
                    world.connection_tables(), out, sizes);
}

absl::Status WriteWorldWithoutGrid(const Grid& grid, const Abstraction& flat,
                                   const ConnectionTables* tables,
                                   std::ostream& out) {
  return WriteWorld(grid, flat, /*with_grid=*/false, tables, out, nullptr);
}

absl::StatusOr<World> ParseWorldOnGrid(absl::string_view bytes,
                                       absl::string_view name,
                                       const LoadOptions& options, Grid grid,
                                       std::shared_ptr<const void> keeper,
                                       WorldFileSizes* sizes) {
  Parser parser(bytes, name, options, std::move(keeper));
  return parser.ParseOn(std::move(grid), sizes);
}

absl::StatusOr<World> LoadWorldFile(const std::string& path,
                                    WorldFileSizes* sizes) {
  return LoadWorldFile(path, LoadOptions(), sizes);
}

absl::StatusOr<World> LoadWorldFile(const std::string& path,
                                    const LoadOptions& options,
                                    WorldFileSizes* sizes) {
  // A regular file only: a directory or FIFO would be misread or block.
  ASSIGN_OR_RETURN(const uint64_t size, InputFileSize(path));
  // What the world holds is about the file's size (the mapped grid in the
  // page cache, the abstraction copied into pages, the component labels
  // well under a byte a cell): refuse what cannot fit before touching it.
  const std::optional<uint64_t> available =
      options.memory_limit > 0 ? std::optional<uint64_t>(options.memory_limit)
                               : AvailableMemoryBytes();
  if (available.has_value() && size > *available) {
    return absl::ResourceExhaustedError(
        absl::StrCat(path, ": the world needs about ", size,
                     " bytes of memory, ", *available, " are available",
                     options.memory_limit > 0 ? "" : " (MemAvailable)"));
  }
  if (options.map) {
    ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file,
                     MappedFile::Open(path));
    return Parser(file->bytes(), path, options, file).Parse(sizes);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::string bytes(size, '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) {
    return absl::DataLossError(absl::StrCat(path, ": read error"));
  }
  return Parser(bytes, path, options).Parse(sizes);
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
