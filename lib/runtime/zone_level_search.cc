#include "zone_level_search.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "zonepath/world/shared_abstraction.h"

namespace zonepath::runtime_internal {
namespace {

// Min-heap on g.
struct ByG {
  template <typename E>
  bool operator()(const E& a, const E& b) const {
    return a.g > b.g;
  }
};

}  // namespace

absl::Status ZoneLevelSearch::Begin(const LevelGraph& graph, int j, Point p) {
  below_ = j - 1;
  const SharedLevel& below = graph.level(j - 1);
  const Rect zone = graph.ZoneRect(j, p);
  // Level sides nest (side_j = group x side_{j-1}, or a level-j zone is the
  // whole grid), so the level-(j-1) zones that meet `zone` lie inside it.
  const int32_t side = below.zone_side;
  if (zone.x0 % side != 0 || zone.y0 % side != 0) {
    return absl::InternalError(
        absl::StrCat("level ", j, " zone at (", zone.x0, ",", zone.y0,
                     ") does not start on a level-", j - 1, " zone border"));
  }
  ranges_.clear();
  uint64_t total = 0;  // 64-bit: ranges of a crafted world cannot wrap it
  ForEachMemberRange(
      below, zone,
      [&below](uint32_t c) {
        return std::pair<uint32_t, uint32_t>(below.zone_node_begin[c],
                                             below.zone_node_end[c]);
      },
      [&](uint32_t begin, uint32_t end) {
        // Zones are numbered row by row and their nodes consecutively, so
        // the zones of one row of the level-j zone usually hold one run of
        // ids: merged as they come, `group` ranges are left instead of
        // group^2, and Local() scans them instead of bisecting (it runs for
        // every edge the search relaxes).
        if (!ranges_.empty() && ranges_.back().end == begin) {
          ranges_.back().end = end;
        } else {
          ranges_.push_back({begin, end, static_cast<uint32_t>(total)});
        }
        total += end - begin;
      });
  if (total > max_nodes_) {  // before anything is sized by it
    return absl::ResourceExhaustedError(
        absl::StrCat("connecting ", PointString(p), " at level ", j,
                     ": more than max_nodes=", max_nodes_, " nodes"));
  }
  std::sort(ranges_.begin(), ranges_.end(),
            [](const Range& a, const Range& b) { return a.begin < b.begin; });
  g_.assign(total, kInf);
  state_.assign(total, 0);
  id_.resize(total);
  for (const Range& r : ranges_) {
    for (uint32_t v = r.begin; v < r.end; ++v) id_[r.local + v - r.begin] = v;
  }
  open_.clear();
  targets_ = 0;
  return absl::OkStatus();
}

uint32_t ZoneLevelSearch::Local(uint32_t v) const {
  // A handful of ranges (group^2, usually 4): scan them; many: bisect.
  if (ranges_.size() <= 8) {
    for (const Range& r : ranges_) {
      if (v >= r.begin && v < r.end) return r.local + (v - r.begin);
    }
    return kOutside;
  }
  auto it = std::upper_bound(
      ranges_.begin(), ranges_.end(), v,
      [](uint32_t id, const Range& r) { return id < r.begin; });
  if (it == ranges_.begin()) return kOutside;
  --it;
  return v < it->end ? it->local + (v - it->begin) : kOutside;
}

void ZoneLevelSearch::Seed(uint32_t lower, double g) {
  const uint32_t i = Local(lower);
  if (i == kOutside || g >= g_[i]) return;
  g_[i] = g;
  state_[i] &= ~kViaIntra;
  open_.push_back({g, i});
  std::push_heap(open_.begin(), open_.end(), ByG());
}

bool ZoneLevelSearch::MarkTarget(uint32_t lower) {
  const uint32_t i = Local(lower);
  if (i == kOutside) return false;
  if (!(state_[i] & kTarget)) ++targets_;
  state_[i] |= kTarget;
  return true;
}

void ZoneLevelSearch::Run(const LevelGraph& graph, SearchStats* stats,
                          const std::function<void(uint32_t)>& on_expand) {
  stats->heap_pushes += open_.size();
  while (!open_.empty() && targets_ > 0) {
    std::pop_heap(open_.begin(), open_.end(), ByG());
    const Entry top = open_.back();
    open_.pop_back();
    ++stats->heap_pops;
    if ((state_[top.local] & kSettled) || top.g > g_[top.local]) continue;
    state_[top.local] |= kSettled;
    ++stats->expanded;
    if (state_[top.local] & kTarget) --targets_;
    const uint32_t u = id_[top.local];
    if (on_expand) on_expand(u);
    // best_first.h: a node reached over an intra-zone edge need not relax
    // its own (the zone's edges are a clique of shortest distances).
    const bool skips_intra = (state_[top.local] & kViaIntra) != 0;
    graph.ForEachEdge(
        below_, u, skips_intra, [&](uint32_t v, float cost, bool intra) {
          const uint32_t i = Local(v);  // kOutside: leaves the zone
          if (i == kOutside) return;
          const double g = top.g + cost;
          if (g >= g_[i]) return;
          g_[i] = g;
          state_[i] = static_cast<uint8_t>((state_[i] & ~kViaIntra) |
                                           (intra ? kViaIntra : 0));
          open_.push_back({g, i});
          std::push_heap(open_.begin(), open_.end(), ByG());
          ++stats->generated;
          ++stats->heap_pushes;
        });
  }
}

double ZoneLevelSearch::G(uint32_t lower) const {
  const uint32_t i = Local(lower);
  return i == kOutside ? kInf : g_[i];
}

size_t ZoneLevelSearch::MemoryUsage() const {
  return sizeof(*this) + ranges_.capacity() * sizeof(Range) +
         g_.capacity() * sizeof(double) + id_.capacity() * sizeof(uint32_t) +
         state_.capacity() + open_.capacity() * sizeof(Entry);
}

}  // namespace zonepath::runtime_internal
