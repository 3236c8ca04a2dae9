#include "zonepath/update/build_connection_tables.h"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "zonepath/update/zone_kernels.h"

namespace zonepath {
namespace {

struct OwnedLevel {
  std::vector<uint64_t> zone_begin;
  std::vector<float> values;
};

// Per-thread scratch, sized by the largest zone seen.
struct ZoneScratch {
  std::vector<std::array<uint32_t, 3>> ranges;  // begin, end, first column
  update_internal::UpperZoneScratch search;     // local CSR and Dijkstra
};

// Read access to either form of an abstraction (flat, or shared pages).
struct FlatView {
  const Abstraction& a;
  const AbstractLevel& level(int j) const { return a.levels[j - 1]; }
  static uint32_t ZoneBegin(const AbstractLevel& l, uint32_t z) {
    return l.zone_node_begin[z];
  }
  static uint32_t ZoneEnd(const AbstractLevel& l, uint32_t z) {
    return l.zone_node_begin[z + 1];
  }
  static uint32_t EdgeBegin(const AbstractLevel& l, uint32_t v) {
    return l.edge_begin[v];
  }
  static uint32_t EdgeEnd(const AbstractLevel& l, uint32_t v) {
    return l.edge_begin[v + 1];
  }
  Point Beacon(uint32_t b) const { return a.beacons[b]; }
};
struct SharedView {
  const SharedAbstraction& a;
  const SharedLevel& level(int j) const { return a.levels[j - 1]; }
  static uint32_t ZoneBegin(const SharedLevel& l, uint32_t z) {
    return l.zone_node_begin[z];
  }
  static uint32_t ZoneEnd(const SharedLevel& l, uint32_t z) {
    return l.zone_node_end[z];
  }
  static uint32_t EdgeBegin(const SharedLevel& l, uint32_t v) {
    return l.edge_begin[v];
  }
  static uint32_t EdgeEnd(const SharedLevel& l, uint32_t v) {
    return l.edge_end[v];
  }
  Point Beacon(uint32_t b) const { return a.beacons[b]; }
};

// ForEachZoneMemberRange (connection_tables.h) for either form.
template <typename View, typename Fn>
uint64_t MemberRanges(const View& view, int j, uint32_t z, int32_t width,
                      int32_t height, Fn&& fn) {
  const auto& below = view.level(j - 1);
  return ForEachMemberRange(
      below, view.level(j).ZoneRect(ZoneId(z), width, height),
      [&below](uint32_t c) {
        return std::pair<uint32_t, uint32_t>(View::ZoneBegin(below, c),
                                             View::ZoneEnd(below, c));
      },
      fn);
}

// The values level j's zone z holds (ConnectionTables::BlockSize).
template <typename View>
uint64_t BlockSizeOf(const View& view, int j, uint32_t z, int32_t width,
                     int32_t height) {
  const auto& level = view.level(j);
  const uint64_t rows = View::ZoneEnd(level, z) - View::ZoneBegin(level, z);
  const uint64_t cols =
      MemberRanges(view, j, z, width, height, [](uint32_t, uint32_t) {});
  return ConnectionTables::BlockSize(rows, cols,
                                     level.ZoneRect(ZoneId(z), width, height));
}

uint32_t LocalOf(const ZoneScratch& s, uint32_t v) {
  for (const auto& r : s.ranges) {
    if (v >= r[0] && v < r[1]) return r[2] + (v - r[0]);
  }
  return update_internal::kNoLocal;
}

// Fills level j, zone z's block (rows x cols at `out`).
template <typename View>
void FillZone(const View& view, int j, uint32_t z, int32_t width,
              int32_t height, ZoneScratch* scratch, float* out) {
  ZoneScratch& s = *scratch;
  const auto& level = view.level(j);
  const auto& below = view.level(j - 1);
  s.ranges.clear();
  uint32_t cols = 0;
  MemberRanges(view, j, z, width, height, [&](uint32_t begin, uint32_t end) {
    s.ranges.push_back({begin, end, cols});
    cols += end - begin;
  });
  // The zone's level-(j-1) graph, local ids in column order.
  update_internal::UpperZoneScratch& g = s.search;
  g.edge_begin.assign(cols + 1, 0);
  g.edge_target.clear();
  g.edge_cost.clear();
  uint32_t u = 0;
  for (const auto& r : s.ranges) {
    for (uint32_t v = r[0]; v < r[1]; ++v, ++u) {
      for (uint32_t e = View::EdgeBegin(below, v); e < View::EdgeEnd(below, v);
           ++e) {
        const AbstractEdge& edge = below.edges[e];
        const uint32_t t = LocalOf(s, edge.target);
        if (t == update_internal::kNoLocal) continue;
        g.edge_target.push_back(t);
        g.edge_cost.push_back(edge.cost);
      }
      g.edge_begin[u + 1] = static_cast<uint32_t>(g.edge_target.size());
    }
  }
  uint32_t row = 0;
  for (uint32_t t = View::ZoneBegin(level, z); t < View::ZoneEnd(level, z);
       ++t, ++row) {
    float* dist_out = out + uint64_t{row} * cols;
    // The level-(j-1) node of t's beacon (in t's level-(j-1) zone).
    const uint32_t beacon = level.node_beacon[t];
    // (j >= 3, so the level below is not level 1, whose node n is beacon
    // n: its node is found among its zone's.)
    uint32_t source = update_internal::kNoLocal;
    const uint32_t bz = below.ZoneOf(view.Beacon(beacon)).value();
    for (uint32_t v = View::ZoneBegin(below, bz); v < View::ZoneEnd(below, bz);
         ++v) {
      if (below.node_beacon[v] == beacon) source = LocalOf(s, v);
    }
    if (source == update_internal::kNoLocal) {
      g.dist.assign(cols, std::numeric_limits<double>::infinity());
    } else {
      update_internal::LocalDijkstra(source, cols, &g,
                                     [](uint32_t) { return false; });
    }
    for (uint32_t c = 0; c < cols; ++c) {
      dist_out[c] = static_cast<float>(g.dist[c]);
    }
  }
}

template <typename View>
std::shared_ptr<const ConnectionTables> BuildTables(const View& view,
                                                    int levels, int32_t width,
                                                    int32_t height,
                                                    int threads) {
  if (levels < ConnectionTables::kFirstLevel) return nullptr;
  auto owned = std::make_shared<
      std::array<OwnedLevel, ConnectionTables::kMaxLevel + 1>>();
  std::array<ConnectionTables::LevelData, ConnectionTables::kMaxLevel + 1>
      parts{};
  std::vector<ZoneScratch> scratch(std::max(1, threads));
  for (int j = ConnectionTables::kFirstLevel;
       j <= std::min(levels, ConnectionTables::kMaxLevel); ++j) {
    const auto& level = view.level(j);
    OwnedLevel& out = (*owned)[j];
    out.zone_begin.assign(uint64_t{level.zone_count()} + 1, 0);
    for (uint32_t z = 0; z < level.zone_count(); ++z) {
      out.zone_begin[z + 1] =
          out.zone_begin[z] + BlockSizeOf(view, j, z, width, height);
    }
    out.values.resize(out.zone_begin.back());
    update_internal::ParallelForZones(
        level.zone_count(), static_cast<int>(scratch.size()),
        [&](int thread, int64_t z) {
          if (out.zone_begin[z + 1] == out.zone_begin[z]) return;
          FillZone(view, j, static_cast<uint32_t>(z), width, height,
                   &scratch[thread], out.values.data() + out.zone_begin[z]);
        });
    parts[j] = {out.zone_begin, out.values};
  }
  return std::make_shared<const ConnectionTables>(parts, std::move(owned),
                                                  /*mapped=*/false);
}

}  // namespace

std::shared_ptr<const ConnectionTables> BuildConnectionTables(
    const SharedAbstraction& a, int32_t width, int32_t height, int threads) {
  return BuildTables(SharedView{a}, static_cast<int>(a.levels.size()), width,
                     height, threads);
}

std::shared_ptr<const ConnectionTables> BuildConnectionTables(
    const Abstraction& a, int32_t width, int32_t height, int threads) {
  return BuildTables(FlatView{a}, static_cast<int>(a.levels.size()), width,
                     height, threads);
}

std::shared_ptr<const ConnectionTables> UpdateConnectionTables(
    const ConnectionTables& old, const SharedAbstraction& a, int32_t width,
    int32_t height, const std::vector<std::vector<uint32_t>>& rehomed) {
  const SharedView view{a};
  const int levels = static_cast<int>(a.levels.size());
  std::array<std::vector<uint32_t>, ConnectionTables::kMaxLevel + 1> dirty;
  for (int j = ConnectionTables::kFirstLevel;
       j <= std::min(levels, ConnectionTables::kMaxLevel); ++j) {
    if (!old.has_level(j)) continue;
    const SharedLevel& level = a.levels[j - 1];
    if (old.zone_count(j) != level.zone_count()) {
      // Not an update of this abstraction (zones never change in number).
      return BuildConnectionTables(a, width, height, 1);
    }
    std::vector<uint32_t>& zones = dirty[j];
    if (static_cast<size_t>(j) <= rehomed.size()) zones = rehomed[j - 1];
    // A guard: any other zone whose block no longer fits its shape (none
    // when `rehomed` is right) is recomputed rather than misread.
    for (uint32_t z = 0; z < level.zone_count(); ++z) {
      if (old.Block(j, z).size() != BlockSizeOf(view, j, z, width, height)) {
        zones.push_back(z);
      }
    }
    std::sort(zones.begin(), zones.end());
    zones.erase(std::unique(zones.begin(), zones.end()), zones.end());
  }
  ZoneScratch scratch;
  return old.WithZones(
      dirty,
      [&](int j, uint32_t z) { return BlockSizeOf(view, j, z, width, height); },
      [&](int j, uint32_t z, float* out) {
        FillZone(view, j, z, width, height, &scratch, out);
      });
}

}  // namespace zonepath
