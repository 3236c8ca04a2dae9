#include "world_mutation.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <limits>

#include "absl/strings/str_cat.h"
#include "zonepath/grid/moves.h"
#include "zonepath/grid/path.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/world/world_file.h"
#include "zonepath/world/world_file_format.h"

namespace zonepath::fuzz {
namespace {

using namespace world_format;  // NOLINT: the layout this file takes apart
using Entry = SectionEntry;
constexpr size_t kHeaderBytes = sizeof(FileHeader);
constexpr size_t kEntryBytes = sizeof(SectionEntry);
constexpr size_t kHeaderCrcAt = offsetof(FileHeader, header_crc);
constexpr size_t kSectionCountAt = offsetof(FileHeader, section_count);

// Header fields after the magic: version .. beacon_spacing (4 bytes each).
constexpr const char* kHeaderFields[] = {"version",       "endian_mark",
                                         "header_bytes",  "section_count",
                                         "width",         "height",
                                         "zone_size",     "levels",
                                         "group",         "entrance_threshold",
                                         "connectivity",  "cache_paths",
                                         "beacon_spacing"};

template <typename T>
T Load(const std::string& b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}
template <typename T>
void Store(std::string* b, size_t at, T v) {
  std::memcpy(b->data() + at, &v, sizeof(T));
}

std::vector<Entry> Table(const std::string& b) {
  std::vector<Entry> table;
  if (b.size() < kHeaderBytes) return table;
  const uint32_t count = Load<uint32_t>(b, kSectionCountAt);
  for (uint32_t i = 0; i < count; ++i) {
    const size_t at = kHeaderBytes + size_t{i} * kEntryBytes;
    if (at + kEntryBytes > b.size()) break;
    table.push_back(Load<Entry>(b, at));
  }
  return table;
}

uint64_t Below(std::mt19937_64& rng, uint64_t n) {
  return n == 0 ? 0 : rng() % n;
}

// A new value for a 32-bit field: near the old one, an index in
// [0, bound], or an extreme.
uint32_t NewU32(std::mt19937_64& rng, uint32_t old, uint32_t bound) {
  switch (rng() % 9) {
    case 0:
      return old + 1;
    case 1:
      return old - 1;
    case 2:
      return old + static_cast<uint32_t>(Below(rng, 64)) - 32;
    case 3:
    case 4:
      return static_cast<uint32_t>(Below(rng, uint64_t{bound} + 1));
    case 5:
      return 0;
    case 6:
      return std::numeric_limits<uint32_t>::max();
    case 7:
      return std::numeric_limits<int32_t>::max();
    default:
      return static_cast<uint32_t>(rng());
  }
}

float NewCost(std::mt19937_64& rng, float old) {
  switch (rng() % 8) {
    case 0:
      return old * 0.5f;
    case 1:
      return old * 2.0f;
    case 2:
      return std::nextafter(old, 0.0f);
    case 3:
      return old + 1.0f;
    case 4:
      return 0.0f;
    case 5:
      return -1.0f;
    case 6:
      return std::numeric_limits<float>::quiet_NaN();
    default:
      return std::numeric_limits<float>::infinity();
  }
}

// Mutates element `i` of a section of `kind` starting at byte `at`.
std::string MutateElement(std::mt19937_64& rng, const Entry& e, uint64_t count,
                          std::string* b) {
  const uint64_t i = Below(rng, count);
  const std::string where =
      absl::StrCat("level ", e.level, " ", SectionName(e.kind), "[", i, "]");
  switch (e.kind) {
    case kGrid: {
      const size_t at = e.offset + i;
      const uint8_t old = static_cast<uint8_t>((*b)[at]);
      const uint8_t v = rng() % 3 == 0   ? 0
                        : rng() % 2 == 0 ? static_cast<uint8_t>(1 + rng() % 255)
                                         : (old == 0 ? 1 : 0);
      (*b)[at] = static_cast<char>(v);
      return absl::StrCat(where, " = ", v);
    }
    case kBeacons: {  // BeaconCell: uint16_t x, y
      const size_t at = e.offset + i * 4 + (rng() % 2) * 2;
      const uint16_t old = Load<uint16_t>(*b, at);
      const uint16_t v = static_cast<uint16_t>(
          rng() % 3 == 0 ? old + 1
          : rng() % 2    ? old - 1
                         : static_cast<int32_t>(Below(rng, 64)));
      Store(b, at, v);
      return absl::StrCat(where, (at - e.offset) % 4 ? ".y" : ".x", " = ", v);
    }
    case kEdges: {
      const size_t at = e.offset + i * 8;
      uint32_t word = Load<uint32_t>(*b, at);
      switch (rng() % 3) {
        case 0: {
          const uint32_t target =
              NewU32(rng, word & 0x7FFFFFFF, static_cast<uint32_t>(count)) &
              0x7FFFFFFF;
          word = (word & 0x80000000u) | target;
          Store(b, at, word);
          return absl::StrCat(where, ".target = ", target);
        }
        case 1:
          Store(b, at, word ^ 0x80000000u);
          return absl::StrCat(where, ".inter_zone flipped");
        default: {
          const float cost = NewCost(rng, Load<float>(*b, at + 4));
          Store(b, at + 4, cost);
          return absl::StrCat(where, ".cost = ", cost);
        }
      }
    }
    case kLabelTiles: {  // one field of a Grid::TileLabels record
      const size_t at = e.offset + i * 16;
      switch (rng() % 5) {
        case 0:
          Store<uint64_t>(b, at, Load<uint64_t>(*b, at) + Below(rng, 9) - 4);
          return absl::StrCat(where, ".byte_offset");
        case 1:
          Store(b, at + 8, NewU32(rng, Load<uint32_t>(*b, at + 8), 64));
          return absl::StrCat(where, ".first_local");
        case 2:
          Store<uint16_t>(b, at + 12,
                          static_cast<uint16_t>(
                              NewU32(rng, Load<uint16_t>(*b, at + 12), 2100)));
          return absl::StrCat(where, ".local_count");
        default: {
          const size_t field = at + 14 + rng() % 2;
          (*b)[field] = static_cast<char>(
              rng() % 2 ? 1u << (rng() % 5) : static_cast<uint8_t>(rng()));
          return absl::StrCat(where, field == at + 14 ? ".bits" : ".slot_bits");
        }
      }
    }
    case kLabelCells: {
      const size_t at = e.offset + i;
      (*b)[at] = static_cast<char>(rng() % 2 ? (*b)[at] ^ (1 << (rng() % 8))
                                             : static_cast<char>(rng()));
      return absl::StrCat(where, " changed");
    }
    case kGridSummary: {  // a cost count or the component count
      const uint64_t pick = rng() % 6;
      if (pick < 2) {
        const size_t at = e.offset + 256 * 8;
        Store(b, at, NewU32(rng, Load<uint32_t>(*b, at), 64));
        return absl::StrCat(where, ".component_count");
      }
      if (pick < 4) {
        // Counts that still sum to the cells, which is all the loader can
        // check without reading every cell: cells moved from one cost to
        // another, or every open cell said to cost the cheapest cost there
        // is (Grid::OneCost then holds of a weighted grid).
        const auto count_at = [&](size_t c) { return e.offset + c * 8; };
        if (pick == 2) {
          const size_t from = rng() % 2 ? rng() % 8 : rng() % 256;
          const size_t to = rng() % 2 ? rng() % 8 : rng() % 256;
          const int64_t have = Load<int64_t>(*b, count_at(from));
          if (have <= 0 || from == to) return absl::StrCat(where, " kept");
          const int64_t moved =
              1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(have));
          Store<int64_t>(b, count_at(from), have - moved);
          Store<int64_t>(b, count_at(to),
                         Load<int64_t>(*b, count_at(to)) + moved);
          return absl::StrCat(where, ".cost_counts: ", moved, " cells from ",
                              from, " to ", to);
        }
        size_t cheapest = 0;
        int64_t open = 0;
        for (size_t c = 1; c < 256; ++c) {
          const int64_t n = Load<int64_t>(*b, count_at(c));
          if (n > 0 && cheapest == 0) cheapest = c;
          open += n;
          Store<int64_t>(b, count_at(c), 0);
        }
        if (cheapest == 0) cheapest = 1;
        Store<int64_t>(b, count_at(cheapest), open);
        return absl::StrCat(where, ".cost_counts: every open cell costs ",
                            cheapest);
      }
      const size_t c = rng() % 2 ? rng() % 4 : rng() % 256;
      const size_t at = e.offset + c * 8;
      Store<int64_t>(
          b, at, Load<int64_t>(*b, at) + static_cast<int64_t>(rng() % 3) - 1);
      return absl::StrCat(where, ".cost_counts[", c, "]");
    }
    case kConnectionBegin: {  // a zone's offset into its level's costs
      const size_t at = e.offset + i * 8;
      const uint64_t v = rng() % 4 == 0
                             ? Below(rng, 1u << 20)
                             : Load<uint64_t>(*b, at) + Below(rng, 9) - 4;
      Store<uint64_t>(b, at, v);
      return absl::StrCat(where, " = ", v);
    }
    case kConnectionCosts: {
      const size_t at = e.offset + i * 4;
      const float cost = NewCost(rng, Load<float>(*b, at));
      Store(b, at, cost);
      return absl::StrCat(where, " = ", cost);
    }
    case kPathRuns: {
      const size_t at = e.offset + i * 4;
      const uint32_t old = Load<uint32_t>(*b, at);
      uint32_t v;
      switch (rng() % 3) {
        case 0:
          v = (old & ~7u) | static_cast<uint32_t>(rng() % 8);  // direction
          break;
        case 1:
          v = old + (rng() % 2 ? 8 : -8);  // count +- 1
          break;
        default:
          v = NewU32(rng, old, 1u << 10);
      }
      Store(b, at, v);
      return absl::StrCat(where, " = ", v);
    }
    default: {  // arrays of uint32_t ids and offsets
      const size_t at = e.offset + i * 4;
      uint32_t v;
      if (rng() % 6 == 0 && count > 1) {  // swap two entries
        const size_t other = e.offset + Below(rng, count) * 4;
        v = Load<uint32_t>(*b, other);
        Store(b, other, Load<uint32_t>(*b, at));
      } else {
        v = NewU32(rng, Load<uint32_t>(*b, at), static_cast<uint32_t>(count));
      }
      Store(b, at, v);
      return absl::StrCat(where, " = ", v);
    }
  }
}

size_t ElementBytes(uint32_t kind) {
  switch (kind) {
    case kGrid:
    case kLabelCells:
      return 1;
    case kEdges:
    case kConnectionBegin:
      return 8;
    case kLabelTiles:
      return 16;
    case kGridSummary:  // mutated as a whole record
      return sizeof(GridSummary);
    default:
      return 4;
  }
}

}  // namespace

std::optional<size_t> ElementOffset(const std::string& bytes, uint32_t kind,
                                    uint32_t level, uint64_t index,
                                    size_t element_bytes) {
  for (const Entry& e : Table(bytes)) {
    if (e.kind != kind || e.level != level) continue;
    if ((index + 1) * element_bytes > e.size) return std::nullopt;
    return e.offset + index * element_bytes;
  }
  return std::nullopt;
}

void RepairChecksums(std::string* bytes) {
  std::string& b = *bytes;
  if (b.size() < kHeaderBytes) return;
  const std::vector<Entry> table = Table(b);
  for (size_t i = 0; i < table.size(); ++i) {
    const Entry& e = table[i];
    if (e.offset > b.size() || e.size > b.size() - e.offset) continue;
    const uint32_t crc = static_cast<uint32_t>(
        crc32(crc32(0L, nullptr, 0),
              reinterpret_cast<const Bytef*>(b.data() + e.offset),
              static_cast<uInt>(e.size)));
    Store(&b, kHeaderBytes + i * kEntryBytes + 24, crc);
  }
  Store<uint32_t>(&b, kHeaderCrcAt, 0);
  const size_t covered = kHeaderBytes + table.size() * kEntryBytes;
  Store(&b, kHeaderCrcAt,
        static_cast<uint32_t>(crc32(crc32(0L, nullptr, 0),
                                    reinterpret_cast<const Bytef*>(b.data()),
                                    static_cast<uInt>(covered))));
}

std::string MutateWorldBytes(std::mt19937_64& rng, std::string* bytes) {
  std::string& b = *bytes;
  const std::vector<Entry> table = Table(b);
  std::string what;
  const uint64_t pick = rng() % 100;
  if (b.size() < kHeaderBytes || table.empty()) {
    if (!b.empty())
      b[Below(rng, b.size())] ^= static_cast<char>(1 + rng() % 255);
    what = "byte flip";
  } else if (pick < 8) {  // a header field
    const size_t field = Below(rng, std::size(kHeaderFields));
    const size_t at = 8 + field * 4;
    const uint32_t v = NewU32(rng, Load<uint32_t>(b, at), 16);
    Store(&b, at, v);
    what = absl::StrCat("header ", kHeaderFields[field], " = ", v);
  } else if (pick < 12) {  // a table entry field
    const size_t i = Below(rng, table.size());
    const size_t at = kHeaderBytes + i * kEntryBytes;
    switch (rng() % 4) {
      case 0:
        Store(&b, at, NewU32(rng, table[i].kind, kConnectionCosts + 1));
        what = absl::StrCat("table[", i, "].kind");
        break;
      case 1:
        Store(&b, at + 4, NewU32(rng, table[i].level, 4));
        what = absl::StrCat("table[", i, "].level");
        break;
      case 2:
        Store<uint64_t>(&b, at + 8, table[i].offset + NewU32(rng, 0, 64) - 32);
        what = absl::StrCat("table[", i, "].offset");
        break;
      default:
        Store<uint64_t>(&b, at + 16,
                        rng() % 2
                            ? table[i].size + ElementBytes(table[i].kind)
                            : table[i].size - ElementBytes(table[i].kind));
        what = absl::StrCat("table[", i, "].size");
    }
  } else {  // one element of a section
    const Entry& e = table[Below(rng, table.size())];
    if (e.kind < kGrid || e.kind > kConnectionCosts || e.offset > b.size() ||
        e.size > b.size() - e.offset || e.size < ElementBytes(e.kind)) {
      return MutateWorldBytes(rng, bytes);
    }
    what = MutateElement(rng, e, e.size / ElementBytes(e.kind), &b);
  }
  RepairChecksums(&b);
  return what;
}

MutantResult CheckMutant(const std::string& bytes, std::mt19937_64& rng,
                         int queries) {
  MutantResult r;
  absl::StatusOr<World> world = ParseWorld(bytes, "mutant");
  if (!world.ok()) return r;
  r.loaded = true;
  const Grid& grid = world->grid();
  const Connectivity connectivity = world->params().connectivity;
  auto random_passable = [&](Point* p) {
    for (int tries = 0; tries < 64; ++tries) {
      *p = {static_cast<int32_t>(Below(rng, grid.width())),
            static_cast<int32_t>(Below(rng, grid.height()))};
      if (grid.passable(*p)) return true;
    }
    return false;
  };
  Planner planner(*world);
  RunLengthPath path;
  for (int q = 0; q < queries; ++q) {
    Point s, t;
    if (!random_passable(&s) || !random_passable(&t)) break;
    for (bool smooth : {false, true}) {
      PlanOptions options;
      options.smooth = smooth;
      // Also the abstract route for close pairs, half of the time; free
      // crossings (cell windows over several zones) a third of the time.
      if (rng() % 2) options.direct_search_zones = 0;
      options.free_crossings = rng() % 3 == 0;
      // Smoothing by window searches (not string pulling) a third of the
      // smoothed queries.
      options.smooth_by_search = smooth && rng() % 3 == 0;
      ++r.queries;
      absl::StatusOr<SearchOutcome> outcome =
          planner.FindPath(s, t, options, &path);
      if (!outcome.ok()) {
        ++r.errors;
        continue;
      }
      if (*outcome != SearchOutcome::kFound) {
        ++r.unreachable;
        continue;
      }
      ++r.found;
      std::string problem;
      absl::StatusOr<PathWalk> walk = WalkPath(grid, path, connectivity);
      if (path.start() != s) {
        problem = "starts elsewhere";
      } else if (!walk.ok()) {
        problem = std::string(walk.status().message());
      } else if (walk->end != t) {
        problem = absl::StrCat("ends at ", PointString(walk->end));
      } else if (std::abs(walk->cost - path.cost()) >
                 1e-9 * std::max(1.0, walk->cost)) {
        problem =
            absl::StrCat("reports cost ", path.cost(), ", walks ", walk->cost);
      }
      if (!problem.empty()) {
        if (r.illegal_paths++ == 0) {
          r.first_problem = absl::StrCat(
              "path ", PointString(s), " -> ", PointString(t),
              smooth ? (options.smooth_by_search ? " (smoothed by search)"
                                                 : " (smoothed)")
                     : "",
              options.free_crossings ? " (free crossings)" : "", ": ", problem);
        }
      }
    }
  }
  return r;
}

std::vector<std::string> SeedWorlds() {
  struct Shape {
    MapKind kind;
    int width, height, zone, group, levels;
    bool cache;
    Connectivity connectivity;
  };
  const Shape shapes[] = {
      {MapKind::kRooms, 48, 40, 8, 2, 3, true, Connectivity::kEight},
      {MapKind::kTerrain, 40, 36, 8, 2, 2, false, Connectivity::kEight},
      {MapKind::kMaze, 36, 28, 6, 3, 2, true, Connectivity::kFour},
      {MapKind::kRandom, 32, 32, 8, 2, 1, true, Connectivity::kEight},
      // Three levels of group-2 zones of 16: connection tables on level 3.
      {MapKind::kRooms, 128, 112, 16, 2, 3, false, Connectivity::kEight},
  };
  std::vector<std::string> seeds;
  for (const Shape& s : shapes) {
    MapGenOptions g;
    g.kind = s.kind;
    g.width = s.width;
    g.height = s.height;
    g.seed = 7;
    BuildOptions o;
    o.params.zone_size = s.zone;
    o.params.group = s.group;
    o.params.levels = s.levels;
    o.params.cache_paths = s.cache;
    o.params.connectivity = s.connectivity;
    o.threads = 1;
    absl::StatusOr<Grid> grid = GenerateMap(g);
    if (!grid.ok()) continue;
    absl::StatusOr<World> world = BuildWorld(*std::move(grid), o);
    if (world.ok()) seeds.push_back(SerializeWorld(*world));
  }
  return seeds;
}

}  // namespace zonepath::fuzz
