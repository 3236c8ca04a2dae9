#include "zonepath/world/compact_abstraction.h"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {
namespace {

// Layout (little-endian, 4-byte fields, no padding):
//   CompactHeader
//   beacons: beacon_count x BeaconCell
//   per level 1..levels:
//     CompactLevelHead
//     zone_node_begin: zone_count + 1 x uint32 (zone_count from the
//       level's geometry)
//     node_beacon: node_count x uint32, unless node_beacon_is_id
//     crossings: crossing_count x CompactCrossing, a < b, in (a, b) order
//     split zones (more than one zone-local component): split_zone_count
//       zone ids, increasing; then for each, per node of the zone in id
//       order, its component's number in order of first appearance
//       (0, then at most one more than any before); other zones have one
//   connection tables, for each level j whose bit is set in table_levels
//     (j >= ConnectionTables::kFirstLevel), in order: zone_begin (the level's
//     zone count + 1 x uint64), then zone_begin.back() floats
//   cliques, every level's in order: per zone, per component in number
//     order, the costs of its members' pairs (i, j), i < j, members in id
//     order, row by row: c (c - 1) / 2 floats, each finite and > 0.
struct CompactHeader {
  char magic[8];
  uint32_t version;
  int32_t width;
  int32_t height;
  int32_t zone_size;
  int32_t levels;
  int32_t group;
  int32_t entrance_threshold;
  int32_t beacon_spacing;
  uint32_t connectivity;
  uint32_t beacon_count;
  uint32_t table_levels;  // bit j: level j has a connection table
  uint32_t reserved;      // 0
};
static_assert(sizeof(CompactHeader) == 56);

// The build parameters a header names (connectivity as stored: checked
// for 0 or 1 separately).
BuildParams ParamsOf(const CompactHeader& header) {
  BuildParams p;
  p.zone_size = header.zone_size;
  p.levels = header.levels;
  p.group = header.group;
  p.entrance_threshold = header.entrance_threshold;
  p.beacon_spacing = header.beacon_spacing;
  p.connectivity = static_cast<Connectivity>(header.connectivity);
  return p;
}

struct CompactLevelHead {
  uint32_t node_count;
  uint32_t crossing_count;
  uint32_t node_beacon_is_id;  // 1: node n is beacon n (the build's level 1)
  uint32_t split_zone_count;
};
static_assert(sizeof(CompactLevelHead) == 16);

struct CompactCrossing {
  uint32_t a;
  uint32_t b;
  float cost;
};
static_assert(sizeof(CompactCrossing) == 12);

constexpr uint32_t kUnnumbered = std::numeric_limits<uint32_t>::max();

// Index of member pair (i, j), i < j, in a clique of c members.
uint64_t PairIndex(uint64_t c, uint64_t i, uint64_t j) {
  return i * c - i * (i + 1) / 2 + (j - i - 1);
}

uint64_t PairCount(uint64_t c) { return c == 0 ? 0 : c * (c - 1) / 2; }

template <typename T>
void Put(std::string* out, const T& value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <typename T>
void PutArray(std::string* out, const std::vector<T>& values) {
  if (values.empty()) return;
  out->append(reinterpret_cast<const char*>(values.data()),
              values.size() * sizeof(T));
}

bool SameLevel(const AbstractLevel& x, const AbstractLevel& y) {
  if (x.zone_side != y.zone_side || x.zones_x != y.zones_x ||
      x.zones_y != y.zones_y || x.node_beacon != y.node_beacon ||
      x.edge_begin != y.edge_begin || x.zone_node_begin != y.zone_node_begin ||
      x.node_component != y.node_component ||
      x.edges.size() != y.edges.size()) {
    return false;
  }
  return x.edges.empty() ||
         std::memcmp(x.edges.data(), y.edges.data(),
                     x.edges.size() * sizeof(AbstractEdge)) == 0;
}

// One zone's components: its nodes (local 0..n-1) grouped by component
// number, in id order within each; reused from zone to zone.
class ZoneCliques {
 public:
  // `number[k]`: node k's component number (valid: first appearance).
  void Group(const uint32_t* number, uint32_t n) {
    uint32_t count = 0;
    for (uint32_t k = 0; k < n; ++k) count = std::max(count, number[k] + 1);
    begin_.assign(uint64_t{count} + 1, 0);
    for (uint32_t k = 0; k < n; ++k) ++begin_[number[k] + 1];
    std::partial_sum(begin_.begin(), begin_.end(), begin_.begin());
    members_.resize(n);
    position_.resize(n);
    std::vector<uint32_t>& next = scratch_;
    next.assign(begin_.begin(), begin_.end() - 1);
    for (uint32_t k = 0; k < n; ++k) {
      position_[k] = next[number[k]] - begin_[number[k]];
      members_[next[number[k]]++] = k;
    }
  }
  uint32_t count() const { return static_cast<uint32_t>(begin_.size() - 1); }
  uint32_t size(uint32_t c) const { return begin_[c + 1] - begin_[c]; }
  uint32_t member(uint32_t c, uint32_t i) const {
    return members_[begin_[c] + i];
  }
  // Node k's place among its component's members.
  uint32_t position(uint32_t k) const { return position_[k]; }

 private:
  std::vector<uint32_t> begin_, members_, position_, scratch_;
};

// What a level says before its cliques: read and checked.
struct LevelLayout {
  std::vector<CompactCrossing> crossings;
  std::vector<uint32_t> split_zones;  // increasing zone ids
  std::vector<uint32_t> numbers;      // the split zones' nodes' numbers
  uint64_t clique_floats = 0;
};

class Decoder {
 public:
  Decoder(absl::string_view bytes, int32_t width, int32_t height,
          absl::string_view name)
      : bytes_(bytes), width_(width), height_(height), name_(name) {}

  absl::StatusOr<CompactWorld> Decode() {
    CompactHeader header;
    RETURN_IF_ERROR(Read("the header", &header));
    RETURN_IF_ERROR(CheckHeader(header));
    CompactWorld world;
    Abstraction& flat = world.flat;
    flat.params = ParamsOf(header);
    {
      std::vector<BeaconCell> beacons;
      RETURN_IF_ERROR(ReadArray("beacons", header.beacon_count, &beacons));
      flat.beacons.assign(beacons.begin(), beacons.end());
    }
    std::vector<LevelLayout> layouts(header.levels);
    uint64_t cliques = 0, pairs = 0;
    for (int i = 0; i < header.levels; ++i) {
      AbstractLevel& level = flat.levels.emplace_back(
          AbstractLevel::WithGeometry(flat.params, width_, height_, i));
      RETURN_IF_ERROR(ReadLevel(i, header.beacon_count, &level, &layouts[i]));
      cliques += layouts[i].clique_floats;
      pairs += layouts[i].clique_floats + layouts[i].crossings.size();
    }
    // Edges are counted in 32 bits (edge_begin): two per pair or crossing.
    if (pairs >= (uint64_t{1} << 31)) {
      return Loss(pairs, " pairs and crossings, 2^31 or more");
    }
    for (int j = ConnectionTables::kFirstLevel; j <= header.levels; ++j) {
      if ((header.table_levels >> j & 1) == 0) continue;
      RETURN_IF_ERROR(ReadTable(j, flat.levels[j - 1].zone_count(),
                                &world.table_begin[j], &world.table_values[j]));
    }
    if (left() / sizeof(float) != cliques || left() % sizeof(float) != 0) {
      return Loss("the cliques' costs need ", cliques, " floats, ", left(),
                  " bytes are left");
    }
    std::vector<float> costs;
    RETURN_IF_ERROR(ReadArray("the cliques' costs", cliques, &costs));
    const float* at = costs.data();
    for (int i = 0; i < header.levels; ++i) {
      RETURN_IF_ERROR(BuildEdges(i, at, layouts[i], &flat.levels[i]));
      at += layouts[i].clique_floats;
    }
    return world;
  }

 private:
  template <typename... Args>
  absl::Status Loss(const Args&... message) const {
    return absl::DataLossError(
        absl::StrCat(name_, ": compact abstraction: ", message...));
  }

  uint64_t left() const { return bytes_.size() - at_; }

  template <typename T>
  absl::Status Read(absl::string_view what, T* value) {
    if (left() < sizeof(T)) return Loss("truncated at ", what);
    std::memcpy(value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return absl::OkStatus();
  }

  // Checks that `count` values fit in what is left before allocating.
  template <typename T>
  absl::Status ReadArray(absl::string_view what, uint64_t count,
                         std::vector<T>* values) {
    if (count > left() / sizeof(T)) {
      return Loss("truncated: ", what, " needs ", count, " x ", sizeof(T),
                  " bytes, ", left(), " are left");
    }
    values->resize(count);
    if (count > 0) {
      std::memcpy(values->data(), bytes_.data() + at_, count * sizeof(T));
    }
    at_ += count * sizeof(T);
    return absl::OkStatus();
  }

  // Magic, version, size, the build parameters' ranges (which the levels'
  // geometry is computed from) and the header's own fields; the world file's
  // parser checks the decoded abstraction.
  absl::Status CheckHeader(const CompactHeader& header) const {
    if (std::memcmp(header.magic, kCompactAbstractionMagic,
                    sizeof(header.magic)) != 0) {
      return Loss("bad magic");
    }
    if (header.version != kCompactAbstractionVersion) {
      return Loss("version ", header.version, ", this build reads ",
                  kCompactAbstractionVersion);
    }
    if (header.width != width_ || header.height != height_) {
      return Loss("header: width/height ", header.width, "x", header.height,
                  ", the grid is ", width_, "x", height_);
    }
    // The ranges the world file's parser and BuildWorld check too; needed
    // here before the levels' geometry is computed from them.
    if (absl::Status s = CheckParamRanges(ParamsOf(header)); !s.ok()) {
      return Loss("header: ", s.message());
    }
    if (header.connectivity > 1) {
      return Loss("header: connectivity ", header.connectivity, " not 0 or 1");
    }
    if (header.reserved != 0) return Loss("header: reserved is not 0");
    // Tables from level kFirstLevel up to the world's top level.
    const uint64_t allowed =
        ((uint64_t{1} << (header.levels + 1)) - 1) &
        ~((uint64_t{1} << ConnectionTables::kFirstLevel) - 1);
    if ((header.table_levels & ~allowed) != 0) {
      return Loss("header: table_levels ", header.table_levels,
                  " names a level without tables (levels ",
                  ConnectionTables::kFirstLevel, "..", header.levels, ")");
    }
    return absl::OkStatus();
  }

  // Level j's table: offsets from 0, rising, to the value count, so every
  // block lies in the values (ParseWorldOnGrid checks the blocks' sizes
  // and values against the abstraction).
  absl::Status ReadTable(int j, uint64_t zones, std::vector<uint64_t>* begin,
                         std::vector<float>* values) {
    const std::string name = absl::StrCat("level ", j, " connection table");
    RETURN_IF_ERROR(ReadArray(name, zones + 1, begin));
    if (begin->front() != 0) {
      return Loss(name, ": offsets start at ", begin->front(), ", not 0");
    }
    for (uint64_t z = 0; z < zones; ++z) {
      if ((*begin)[z + 1] < (*begin)[z]) {
        return Loss(name, ": offsets fall at zone ", z);
      }
    }
    return ReadArray(name, begin->back(), values);
  }

  absl::Status ReadLevel(int i, uint32_t beacon_count, AbstractLevel* level,
                         LevelLayout* layout) {
    const std::string name = absl::StrCat("level ", i + 1);
    CompactLevelHead head;
    RETURN_IF_ERROR(Read(name, &head));
    if (head.node_beacon_is_id > 1) {
      return Loss(name, ": node_beacon_is_id ", head.node_beacon_is_id,
                  " not 0 or 1");
    }
    if (head.node_count >= (uint32_t{1} << 31)) {
      return Loss(name, ": node_count ", head.node_count, " is 2^31 or more");
    }
    const uint64_t zones = level->zone_count();
    RETURN_IF_ERROR(ReadArray(absl::StrCat(name, " zone_node_begin"), zones + 1,
                              &level->zone_node_begin));
    const std::vector<uint32_t>& begin = level->zone_node_begin;
    if (begin.front() != 0 || begin.back() != head.node_count) {
      return Loss(name, ": zone_node_begin runs from ", begin.front(), " to ",
                  begin.back(), ", not 0 to ", head.node_count);
    }
    for (uint64_t z = 0; z < zones; ++z) {
      if (begin[z + 1] < begin[z]) {
        return Loss(name, ": zone_node_begin falls at zone ", z);
      }
    }
    if (head.node_beacon_is_id == 1) {
      if (head.node_count > beacon_count) {
        return Loss(name, ": ", head.node_count,
                    " nodes, each its own beacon, but ", beacon_count,
                    " beacons");
      }
      level->node_beacon.resize(head.node_count);
      std::iota(level->node_beacon.begin(), level->node_beacon.end(), 0u);
    } else {
      RETURN_IF_ERROR(ReadArray(absl::StrCat(name, " node_beacon"),
                                head.node_count, &level->node_beacon));
    }
    // Each crossing once, a < b, in order, between two zones.
    RETURN_IF_ERROR(ReadArray(absl::StrCat(name, " crossings"),
                              head.crossing_count, &layout->crossings));
    std::vector<uint32_t> zone_of(head.node_count);
    for (uint64_t z = 0; z < zones; ++z) {
      for (uint32_t v = begin[z]; v < begin[z + 1]; ++v) {
        zone_of[v] = static_cast<uint32_t>(z);
      }
    }
    const std::vector<CompactCrossing>& crossings = layout->crossings;
    for (size_t k = 0; k < crossings.size(); ++k) {
      const CompactCrossing& c = crossings[k];
      const bool ordered =
          k == 0 || std::make_pair(crossings[k - 1].a, crossings[k - 1].b) <
                        std::make_pair(c.a, c.b);
      if (c.a >= c.b || c.b >= head.node_count || !ordered ||
          zone_of[c.a] == zone_of[c.b] || !std::isfinite(c.cost) ||
          !(c.cost > 0)) {
        return Loss(name, ": crossing ", k, " (", c.a, ", ", c.b, ", cost ",
                    c.cost,
                    ") is not a < b < node_count, in order, between two "
                    "zones, of finite cost > 0");
      }
    }
    // The split zones and their nodes' component numbers.
    RETURN_IF_ERROR(ReadArray(absl::StrCat(name, " split zones"),
                              head.split_zone_count, &layout->split_zones));
    uint64_t numbered = 0;
    for (size_t k = 0; k < layout->split_zones.size(); ++k) {
      const uint32_t z = layout->split_zones[k];
      if (z >= zones || (k > 0 && z <= layout->split_zones[k - 1])) {
        return Loss(name, ": split zone ", k, " (zone ", z, ") is not below ",
                    zones, " and after the one before");
      }
      numbered += begin[z + 1] - begin[z];
    }
    RETURN_IF_ERROR(ReadArray(absl::StrCat(name, " component numbers"),
                              numbered, &layout->numbers));
    // Clique sizes: a split zone's from its numbers, one clique elsewhere.
    const uint32_t* number = layout->numbers.data();
    std::vector<uint64_t> sizes;
    size_t split = 0;
    for (uint64_t z = 0; z < zones; ++z) {
      const uint32_t n = begin[z + 1] - begin[z];
      if (split < layout->split_zones.size() &&
          layout->split_zones[split] == z) {
        ++split;
        // One numbering per partition (the encoder's): 0 first, a new
        // number one more than any before, and at least two of them.
        sizes.clear();
        for (uint32_t k = 0; k < n; ++k) {
          if (number[k] > sizes.size()) {
            return Loss(name, ": zone ", z, " node ", begin[z] + k,
                        ": component number ", number[k],
                        " skips ahead (numbers in order of first appearance)");
          }
          if (number[k] == sizes.size()) sizes.push_back(0);
          ++sizes[number[k]];
        }
        if (sizes.size() < 2) {
          return Loss(name, ": split zone ", z, " has ", sizes.size(),
                      " component(s), not 2 or more");
        }
        number += n;
        for (uint64_t c : sizes) layout->clique_floats += PairCount(c);
      } else {
        layout->clique_floats += PairCount(n);
      }
    }
    return absl::OkStatus();
  }

  // The level's edges (each node's by target, as LevelWriter::WriteZone
  // orders them: crossings to lower ids, its clique, crossings to higher
  // ids), edge_begin and node_component, from its cliques' costs and its
  // crossings.
  absl::Status BuildEdges(int i, const float* costs, const LevelLayout& layout,
                          AbstractLevel* level) {
    const uint32_t n = level->node_count();
    const std::vector<uint32_t>& begin = level->zone_node_begin;
    const std::vector<CompactCrossing>& crossings = layout.crossings;
    // Each node's crossings, by target: crossings come in (a, b) order, so
    // a node's crossings to lower ids (as b) arrive before those to higher
    // (as a), each in order.
    std::vector<uint32_t> crossing_begin(uint64_t{n} + 1, 0);
    for (const CompactCrossing& c : crossings) {
      ++crossing_begin[c.a + 1];
      ++crossing_begin[c.b + 1];
    }
    std::partial_sum(crossing_begin.begin(), crossing_begin.end(),
                     crossing_begin.begin());
    std::vector<AbstractEdge> crossing_edges(crossing_begin[n]);
    {
      std::vector<uint32_t> next(crossing_begin.begin(),
                                 crossing_begin.end() - 1);
      for (const CompactCrossing& c : crossings) {
        crossing_edges[next[c.a]++] = {c.b, 1, c.cost};
        crossing_edges[next[c.b]++] = {c.a, 1, c.cost};
      }
    }
    level->edge_begin.assign(uint64_t{n} + 1, 0);
    level->edges.clear();
    level->edges.reserve(2 * (layout.clique_floats + crossings.size()));
    level->node_component.resize(n);
    std::vector<uint32_t> ones;  // the numbers of a zone of one component
    const uint32_t* number = layout.numbers.data();
    size_t split = 0;
    ZoneCliques cliques;
    std::vector<uint64_t> clique_base;
    for (uint64_t z = 0; z + 1 < begin.size(); ++z) {
      const uint32_t first = begin[z], count = begin[z + 1] - begin[z];
      const uint32_t* numbers;
      if (split < layout.split_zones.size() && layout.split_zones[split] == z) {
        ++split;
        numbers = number;
        number += count;
      } else {
        ones.assign(count, 0);
        numbers = ones.data();
      }
      cliques.Group(numbers, count);
      clique_base.assign(cliques.count(), 0);
      for (uint32_t c = 0; c < cliques.count(); ++c) {
        clique_base[c] =
            c == 0 ? 0 : clique_base[c - 1] + PairCount(cliques.size(c - 1));
      }
      for (uint32_t k = 0; k < count; ++k) {
        const uint32_t u = first + k;
        const uint32_t c = numbers[k];
        const uint32_t p = cliques.position(k);
        uint32_t e = crossing_begin[u];
        for (; e < crossing_begin[u + 1] && crossing_edges[e].target < first;
             ++e) {
          level->edges.push_back(crossing_edges[e]);
        }
        for (uint32_t q = 0; q < cliques.size(c); ++q) {
          if (q == p) continue;
          const float cost = costs[clique_base[c] +
                                   (q < p ? PairIndex(cliques.size(c), q, p)
                                          : PairIndex(cliques.size(c), p, q))];
          if (!std::isfinite(cost) || !(cost > 0)) {
            return Loss("level ", i + 1, " zone ", z, ": the cost of nodes ", u,
                        " and ", first + cliques.member(c, q), " is ", cost,
                        ", not finite and > 0");
          }
          level->edges.push_back({first + cliques.member(c, q), 0, cost});
        }
        for (; e < crossing_begin[u + 1]; ++e) {
          level->edges.push_back(crossing_edges[e]);
        }
        level->edge_begin[u + 1] = static_cast<uint32_t>(level->edges.size());
        // A component's label is its smallest node id.
        level->node_component[u] = first + cliques.member(c, 0);
      }
      if (cliques.count() > 0) {
        costs +=
            clique_base.back() + PairCount(cliques.size(cliques.count() - 1));
      }
    }
    return absl::OkStatus();
  }

  absl::string_view bytes_;
  int32_t width_, height_;
  absl::string_view name_;
  uint64_t at_ = 0;
};

}  // namespace

std::unique_ptr<ConnectionTables> CompactWorld::Tables() const {
  ConnectionTables::Parts parts;
  bool any = false;
  for (int j = ConnectionTables::kFirstLevel; j <= ConnectionTables::kMaxLevel;
       ++j) {
    if (table_begin[j].empty()) continue;
    parts[j] = {table_begin[j], table_values[j]};
    any = true;
  }
  if (!any) return nullptr;
  // No keeper: the blocks view this object's arrays.
  return std::make_unique<ConnectionTables>(parts, nullptr, /*mapped=*/false);
}

absl::StatusOr<std::string> EncodeCompactAbstraction(
    const Abstraction& flat, int32_t width, int32_t height,
    const ConnectionTables* tables) {
  const auto refuse = [](auto... why) {
    return absl::FailedPreconditionError(
        absl::StrCat("no compact form: ", why...));
  };
  if (flat.params.cache_paths) return refuse("the world caches paths");
  if (flat.levels.size() != static_cast<size_t>(flat.params.levels)) {
    return refuse(flat.levels.size(), " levels, params say ",
                  flat.params.levels);
  }
  if (flat.beacons.size() > std::numeric_limits<uint32_t>::max()) {
    return refuse("too many beacons");
  }
  std::string out;
  CompactHeader header{};
  std::memcpy(header.magic, kCompactAbstractionMagic, sizeof(header.magic));
  header.version = kCompactAbstractionVersion;
  header.width = width;
  header.height = height;
  header.zone_size = flat.params.zone_size;
  header.levels = flat.params.levels;
  header.group = flat.params.group;
  header.entrance_threshold = flat.params.entrance_threshold;
  header.beacon_spacing = flat.params.beacon_spacing;
  header.connectivity = static_cast<uint32_t>(flat.params.connectivity);
  header.beacon_count = static_cast<uint32_t>(flat.beacons.size());
  // The tables in the world file's form.
  std::string table_bytes;
  std::array<std::vector<uint64_t>, ConnectionTables::kMaxLevel + 1> begins;
  std::array<std::vector<float>, ConnectionTables::kMaxLevel + 1> values;
  if (tables != nullptr) {
    for (int j = ConnectionTables::kFirstLevel;
         j <= ConnectionTables::kMaxLevel; ++j) {
      if (!tables->has_level(j)) continue;
      if (j > flat.params.levels ||
          tables->zone_count(j) != flat.levels[j - 1].zone_count()) {
        return refuse("the level-", j, " table does not fit the levels");
      }
      header.table_levels |= uint32_t{1} << j;
      begins[j].push_back(0);
      for (uint32_t z = 0; z < tables->zone_count(j); ++z) {
        const absl::Span<const float> block = tables->Block(j, z);
        values[j].insert(values[j].end(), block.begin(), block.end());
        begins[j].push_back(values[j].size());
      }
      PutArray(&table_bytes, begins[j]);
      PutArray(&table_bytes, values[j]);
    }
  }
  Put(&out, header);
  PutArray(&out,
           std::vector<BeaconCell>(flat.beacons.begin(), flat.beacons.end()));
  std::string all_costs;
  ZoneCliques cliques;
  for (const AbstractLevel& level : flat.levels) {
    const uint32_t n = level.node_count();
    if (level.zone_node_begin.size() != uint64_t{level.zone_count()} + 1 ||
        level.edge_begin.size() != uint64_t{n} + 1 ||
        level.edge_begin.back() != level.edges.size() ||
        level.node_component.size() != n) {
      return refuse("a level's arrays are not the build's");
    }
    for (uint32_t v = 0; v < n; ++v) {
      if (level.edge_begin[v] > level.edge_begin[v + 1]) {
        return refuse("edge_begin falls at node ", v);
      }
    }
    bool is_id = n <= flat.beacons.size();
    for (uint32_t v = 0; v < n && is_id; ++v) is_id = level.node_beacon[v] == v;
    std::vector<CompactCrossing> crossings;
    std::vector<uint32_t> split_zones, numbers, zone_numbers;
    std::vector<float> costs;
    for (uint32_t z = 0; z < level.zone_count(); ++z) {
      const uint32_t first = level.zone_node_begin[z];
      const uint32_t last = level.zone_node_begin[z + 1];
      if (last < first || last > n) return refuse("zone ranges out of order");
      // Component numbers in order of first appearance (labels are ids of
      // the zone's nodes).
      zone_numbers.assign(last - first, 0);
      std::vector<uint32_t> number_of_label(last - first, kUnnumbered);
      uint32_t count = 0;
      for (uint32_t u = first; u < last; ++u) {
        const uint32_t label = level.node_component[u];
        if (label < first || label >= last) {
          return refuse("a component label outside its zone");
        }
        uint32_t& number = number_of_label[label - first];
        if (number == kUnnumbered) number = count++;
        zone_numbers[u - first] = number;
      }
      if (count > 1) {
        split_zones.push_back(z);
        numbers.insert(numbers.end(), zone_numbers.begin(), zone_numbers.end());
      }
      cliques.Group(zone_numbers.data(), last - first);
      std::vector<uint64_t> base(count + 1, costs.size());
      for (uint32_t c = 0; c < count; ++c) {
        base[c + 1] = base[c] + PairCount(cliques.size(c));
      }
      // NaN until an edge gives the pair its cost: one left is an edge
      // missing inside a component.
      costs.resize(base[count], std::numeric_limits<float>::quiet_NaN());
      for (uint32_t u = first; u < last; ++u) {
        for (uint32_t k = level.edge_begin[u]; k < level.edge_begin[u + 1];
             ++k) {
          const AbstractEdge& e = level.edges[k];
          if (e.target <= u) continue;  // each pair once, from its lower id
          if (e.inter_zone) {
            crossings.push_back({u, e.target, e.cost});
            continue;
          }
          if (e.target >= last ||
              zone_numbers[e.target - first] != zone_numbers[u - first]) {
            return refuse("an intra-zone edge leaves its zone or component");
          }
          const uint32_t c = zone_numbers[u - first];
          costs[base[c] +
                PairIndex(cliques.size(c), cliques.position(u - first),
                          cliques.position(e.target - first))] = e.cost;
        }
      }
    }
    for (float c : costs) {
      if (std::isnan(c)) return refuse("an edge missing inside a component");
    }
    const CompactLevelHead head{n, static_cast<uint32_t>(crossings.size()),
                                is_id ? 1u : 0u,
                                static_cast<uint32_t>(split_zones.size())};
    Put(&out, head);
    PutArray(&out, level.zone_node_begin);
    if (!is_id) PutArray(&out, level.node_beacon);
    PutArray(&out, crossings);
    PutArray(&out, split_zones);
    PutArray(&out, numbers);
    all_costs.append(reinterpret_cast<const char*>(costs.data()),
                     costs.size() * sizeof(float));
  }
  out += table_bytes;
  out += all_costs;
  // Whatever the form cannot say (one-way costs, edges out of order)
  // shows as a difference here.
  absl::StatusOr<CompactWorld> decoded =
      DecodeCompactAbstraction(out, width, height, "encoding");
  if (!decoded.ok()) return refuse(decoded.status().message());
  if (decoded->table_begin != begins || decoded->table_values != values) {
    return refuse("the connection tables do not decode to themselves");
  }
  const Abstraction* back = &decoded->flat;
  static_assert(sizeof(BuildParams) == 24,
                "a new BuildParams field: store it, and compare it here");
  const BuildParams& p = back->params;
  const BuildParams& q = flat.params;
  if (p.zone_size != q.zone_size || p.levels != q.levels ||
      p.group != q.group || p.entrance_threshold != q.entrance_threshold ||
      p.beacon_spacing != q.beacon_spacing ||
      p.connectivity != q.connectivity || p.cache_paths != q.cache_paths) {
    return refuse("build parameters differ");
  }
  if (back->beacons != flat.beacons) return refuse("beacons differ");
  for (size_t i = 0; i < flat.levels.size(); ++i) {
    if (!SameLevel(back->levels[i], flat.levels[i])) {
      return refuse("level ", i + 1,
                    " does not decode to itself (costs that differ by "
                    "direction, or edges out of the build's order)");
    }
  }
  return out;
}

absl::StatusOr<CompactWorld> DecodeCompactAbstraction(absl::string_view bytes,
                                                      int32_t width,
                                                      int32_t height,
                                                      absl::string_view name) {
  return Decoder(bytes, width, height, name).Decode();
}

}  // namespace zonepath
