#include "zonepath/grid/grid.h"

#include <algorithm>
#include <array>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "zonepath/base/parallel_chunks.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {

absl::Status Grid::CheckSize(int64_t width, int64_t height) {
  if (width < 1 || height < 1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "grid size %dx%d: width and height must be at least 1", width, height));
  }
  if (width > kMaxSide || height > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "grid size %dx%d: a side may be at most %d", width, height, kMaxSide));
  }
  if (width * height > kMaxCells) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "grid size %dx%d: more than %d cells", width, height, kMaxCells));
  }
  return absl::OkStatus();
}

absl::StatusOr<Grid> Grid::Create(int64_t width, int64_t height,
                                  std::vector<uint8_t> costs) {
  RETURN_IF_ERROR(CheckSize(width, height));
  return CreateFromPages(width, height, CowArray<uint8_t>::FromVector(costs));
}

absl::StatusOr<Grid> Grid::WithoutLabels(int64_t width, int64_t height,
                                         CowArray<uint8_t> costs) {
  RETURN_IF_ERROR(CheckSize(width, height));
  if (static_cast<int64_t>(costs.size()) != width * height) {
    return absl::InvalidArgumentError(
        absl::StrFormat("grid size %dx%d needs %d costs, got %d", width, height,
                        width * height, costs.size()));
  }
  Grid grid;
  grid.width_ = static_cast<int32_t>(width);
  grid.height_ = static_cast<int32_t>(height);
  grid.costs_ = std::move(costs);
  return grid;
}

absl::StatusOr<Grid> Grid::CreateFromPages(int64_t width, int64_t height,
                                           CowArray<uint8_t> costs) {
  ASSIGN_OR_RETURN(Grid grid, WithoutLabels(width, height, std::move(costs)));
  grid.CountCosts();
  grid.ComputeComponents();
  return grid;
}

Grid Grid::WithCosts(const std::vector<CellCost>& changes) const {
  Grid grid;
  grid.width_ = width_;
  grid.height_ = height_;
  grid.costs_ = costs_;
  grid.cell_labels_ = cell_labels_;
  grid.tiles_ = tiles_;
  grid.local_global_ = local_global_;
  grid.component_count_ = component_count_;
  grid.live_locals_ = live_locals_;
  grid.cost_counts_ = cost_counts_;
  std::vector<uint32_t> tiles;  // label tiles where passability changed
  for (const CellCost& c : changes) {
    uint8_t& cost = grid.costs_.Mutable(c.cell.value());
    const bool was_passable = cost != kBlocked;
    --grid.cost_counts_[cost];
    ++grid.cost_counts_[c.cost];
    cost = c.cost;
    if (was_passable != (c.cost != kBlocked)) {
      tiles.push_back(TileOf(ToPoint(c.cell)));
    }
  }
  grid.SummariseCosts();
  if (tiles.empty()) return grid;
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  std::vector<LocalLabels> locals(tiles.size());
  for (size_t k = 0; k < tiles.size(); ++k) {
    grid.LabelTile(tiles[k], &locals[k]);
    grid.StoreLocalLabels(tiles[k], locals[k]);
  }
  if (grid.RelabelTilesLocally(*this, tiles, locals)) {
    for (uint32_t t : tiles) grid.MergeTileLabels(t);
    // Dead table entries (old ranges of relabelled tiles) are dropped by
    // joining afresh once they outnumber the live ones.
    if (grid.local_global_.size() > 2 * grid.live_locals_ + 1024) {
      grid.JoinComponents();
    }
    grid.CompactLabelsIfSparse();
    return grid;
  }
  // A component that lost a cell may have split. Elsewhere a tile's label
  // may stand for several pieces of it that were joined only through the
  // changed cells, so every tile holding such a component is labelled by
  // its pieces again before the join. Other labels stay: each names cells
  // that still reach each other.
  absl::flat_hash_set<uint32_t> may_split;
  for (const CellCost& c : changes) {
    const Point p = ToPoint(c.cell);
    if (passable(p) && !grid.passable(p)) may_split.insert(component(p));
  }
  LocalLabels pieces;
  for (uint32_t t = 0; t < tile_count() && !may_split.empty(); ++t) {
    if (std::binary_search(tiles.begin(), tiles.end(), t)) continue;
    const TileLabels& r = grid.tiles_[t];
    for (uint32_t l = 0; l < r.local_count; ++l) {
      if (may_split.contains(grid.local_global_[r.first_local + l])) {
        grid.LabelTile(t, &pieces);
        grid.StoreLocalLabels(t, pieces);
        break;
      }
    }
  }
  grid.JoinComponents();
  grid.CompactLabelsIfSparse();
  return grid;
}

void Grid::CompactLabelsIfSparse() {
  // Slots keep the width of the widest labels they ever held: a split
  // stores pieces (say 8 bits) where one component needed none, and the
  // merge leaves the slot. Lay the labels out afresh once slots hold more
  // than twice the live label bytes (plus 64 KB), as a save would.
  uint64_t live = 0;
  for (uint32_t t = 0; t < tile_count(); ++t) {
    live += tiles_[t].bits == 0 ? 0 : PackedTileBytes(t, tiles_[t].bits);
  }
  if (cell_labels_.size() > 2 * live + (uint64_t{1} << 16)) AdoptCanonical();
}

void Grid::AdoptCanonical() {
  StoredComponents canonical = Components();
  tiles_ = std::move(canonical.tiles);
  cell_labels_ = std::move(canonical.cell_labels);
  local_global_ = std::move(canonical.local_global);
  component_count_ = canonical.component_count;
  live_locals_ = local_global_.size();
}

Rect Grid::TileRect(uint32_t tile) const {
  const int32_t x0 = static_cast<int32_t>(tile % tiles_x()) << kLabelTileShift;
  const int32_t y0 = static_cast<int32_t>(tile / tiles_x()) << kLabelTileShift;
  return {x0, y0, std::min(width_, x0 + kLabelTileSide),
          std::min(height_, y0 + kLabelTileSide)};
}

void Grid::LabelTile(uint32_t tile, LocalLabels* out) const {
  const Rect r = TileRect(tile);
  const int32_t w = r.width(), h = r.height();
  out->labels.assign(static_cast<size_t>(w) * h, 0);
  std::vector<LocalLabels::Run>& runs = out->runs;
  runs.clear();
  int32_t open = 0;
  for (int32_t y = 0; y < h; ++y) {
    const size_t begin = static_cast<size_t>(r.y0 + y) * width_ + r.x0;
    int32_t x = 0, run_start = -1;
    costs_.ForEachIn(begin, begin + w, [&](uint8_t cost) {
      if (cost != kBlocked) {
        if (run_start < 0) run_start = x;
      } else if (run_start >= 0) {
        runs.push_back({y, run_start, x});
        run_start = -1;
      }
      ++x;
    });
    if (run_start >= 0) runs.push_back({y, run_start, w});
  }
  for (const LocalLabels::Run& run : runs) open += run.x1 - run.x0;
  // All open (common: open ground, upscaled maps) is one component, all
  // blocked none; either way every label is 0.
  if (open == 0 || open == w * h) {
    out->count = open == 0 ? 0 : 1;
    return;
  }
  // Union-find over runs; the root is a set's earliest run, so numbering
  // roots in run order numbers pieces by first cell.
  std::vector<uint32_t>& parent = out->parent;
  parent.resize(runs.size());
  for (uint32_t i = 0; i < runs.size(); ++i) parent[i] = i;
  auto find = [&parent](uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  // Runs of the row above that share a column with run i touch it.
  uint32_t above = 0;  // first run of the previous row still to compare
  for (uint32_t i = 0; i < runs.size(); ++i) {
    const LocalLabels::Run& run = runs[i];
    while (above < i && runs[above].y < run.y - 1) ++above;
    for (uint32_t j = above; j < i && runs[j].y == run.y - 1; ++j) {
      if (runs[j].x1 <= run.x0) {
        above = j + 1;  // ends left of this run, so of every later one
        continue;
      }
      if (runs[j].x0 >= run.x1) break;
      const uint32_t a = find(i), b = find(j);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  for (uint32_t i = 0; i < runs.size(); ++i) parent[i] = find(i);
  // A root's entry becomes its label, marked by the top bit (a root comes
  // before the other runs of its piece).
  constexpr uint32_t kLabelled = 0x80000000u;
  uint32_t count = 0;
  for (uint32_t i = 0; i < runs.size(); ++i) {
    uint32_t label;
    if (parent[i] == i) {
      label = count++;
      parent[i] = label | kLabelled;
    } else {
      label = parent[parent[i]] & ~kLabelled;
    }
    const LocalLabels::Run& run = runs[i];
    std::fill(out->labels.begin() + static_cast<size_t>(run.y) * w + run.x0,
              out->labels.begin() + static_cast<size_t>(run.y) * w + run.x1,
              static_cast<uint16_t>(label));
  }
  out->count = count;
}

namespace {

// Width of a tile's packed labels for `count` tile-local components: 0, 1,
// 2, 4, 8 or 16 bits.
uint8_t LabelBits(uint32_t count) {
  uint8_t bits = 0;
  if (count > 1) {
    bits = 1;
    while ((uint32_t{1} << bits) < count) bits *= 2;
  }
  return bits;
}

// Per byte value: the largest of its 8 / bits fields (bits 2, 4 or 8).
const std::array<uint8_t, 256>& LargestFieldOfByte(uint8_t bits) {
  static const std::array<std::array<uint8_t, 256>, 4> tables = [] {
    std::array<std::array<uint8_t, 256>, 4> t{};
    for (int k = 1; k <= 3; ++k) {
      const int b = 1 << k;
      for (int v = 0; v < 256; ++v) {
        int largest = 0;
        for (int shift = 0; shift < 8; shift += b) {
          largest = std::max(largest, (v >> shift) & ((1 << b) - 1));
        }
        t[k][v] = static_cast<uint8_t>(largest);
      }
    }
    return t;
  }();
  return tables[bits == 2 ? 1 : bits == 4 ? 2 : 3];
}

}  // namespace

void Grid::StoreLocalLabels(uint32_t tile, const LocalLabels& local) {
  const uint8_t bits = LabelBits(local.count);
  const size_t n = local.labels.size();
  std::vector<uint8_t> packed((n * bits + 7) / 8, 0);
  for (size_t i = 0; bits != 0 && i < n; ++i) {
    const uint32_t v = local.labels[i];
    if (bits == 16) {
      packed[2 * i] = static_cast<uint8_t>(v);
      packed[2 * i + 1] = static_cast<uint8_t>(v >> 8);
    } else {
      packed[(i * bits) >> 3] |= static_cast<uint8_t>(v << ((i * bits) & 7));
    }
  }
  TileLabels record = tiles_[tile];
  live_locals_ += local.count;
  live_locals_ -= record.local_count;
  record.local_count = static_cast<uint16_t>(local.count);
  record.bits = bits;
  if (bits > record.slot_bits) {
    // A new slot at the end; the old one (smaller) stays unused.
    record.byte_offset = cell_labels_.size();
    record.slot_bits = bits;
    cell_labels_.Append(packed.data(), packed.size());
  } else {
    // In place; unchanged bytes are not written (their pages stay shared).
    for (size_t i = 0; i < packed.size(); ++i) {
      if (cell_labels_[record.byte_offset + i] != packed[i]) {
        cell_labels_.Set(record.byte_offset + i, packed[i]);
      }
    }
  }
  tiles_.Set(tile, record);
}

bool Grid::RelabelTilesLocally(const Grid& before,
                               const std::vector<uint32_t>& tiles,
                               const std::vector<LocalLabels>& locals) {
  // Per relabelled tile: the global label each new piece keeps (kNoComponent:
  // an inner piece, which gets a new one). The stored labels of `before`
  // may join pieces, so its tile is cut into pieces again to compare.
  std::vector<std::vector<uint32_t>> new_global(tiles.size());
  std::vector<int32_t> new_to_old, old_to_new;
  LocalLabels old_pieces;
  for (size_t k = 0; k < tiles.size(); ++k) {
    const Rect r = TileRect(tiles[k]);
    before.LabelTile(tiles[k], &old_pieces);
    new_global[k].assign(locals[k].count, kNoComponent);
    new_to_old.assign(locals[k].count, -1);
    old_to_new.assign(old_pieces.count, -1);
    bool same = true;
    auto check = [&](int32_t x, int32_t y) {
      const Point p{x, y};
      const bool open = passable(p);
      if (open != before.passable(p)) {
        same = false;
        return;
      }
      if (!open) return;
      const size_t i = static_cast<size_t>(y - r.y0) * r.width() + (x - r.x0);
      const int32_t l = locals[k].labels[i];
      const int32_t ol = old_pieces.labels[i];
      if (new_to_old[l] == -1 && old_to_new[ol] == -1) {
        new_to_old[l] = ol;
        old_to_new[ol] = l;
        new_global[k][l] = before.component(p);
      }
      same = same && new_to_old[l] == ol && old_to_new[ol] == l;
    };
    for (int32_t y = r.y0; y < r.y1 && same; ++y) {
      if (y == r.y0 || y == r.y1 - 1) {
        for (int32_t x = r.x0; x < r.x1; ++x) check(x, y);
      } else {
        check(r.x0, y);
        check(r.x1 - 1, y);
      }
    }
    if (!same) return false;
  }
  // Border pieces keep their global labels; inner ones get new ones.
  for (size_t k = 0; k < tiles.size(); ++k) {
    TileLabels record = tiles_[tiles[k]];
    record.first_local = static_cast<uint32_t>(local_global_.size());
    for (uint32_t g : new_global[k]) {
      local_global_.PushBack(g != kNoComponent ? g : component_count_++);
    }
    tiles_.Set(tiles[k], record);
  }
  return true;
}

void Grid::ComputeComponents() {
  const uint32_t n = tile_count();
  tiles_ = CowArray<TileLabels>::FromVector(std::vector<TileLabels>(n));
  cell_labels_ = CowArray<uint8_t>();
  live_locals_ = 0;
  LocalLabels local;
  for (uint32_t t = 0; t < n; ++t) {
    LabelTile(t, &local);
    StoreLocalLabels(t, local);
  }
  JoinComponents();
  // Merging left slots wider than their labels: lay them out canonically.
  AdoptCanonical();
}

void Grid::JoinComponents() {
  ComputeGlobalComponents();
  for (uint32_t t = 0; t < tile_count(); ++t) MergeTileLabels(t);
}

void Grid::MergeTileLabels(uint32_t tile) {
  const TileLabels r = tiles_[tile];
  if (r.local_count <= 1) return;
  // Labels are numbered by first cell, so numbering their components in
  // label order numbers them by first cell too.
  std::vector<uint32_t> globals;
  std::vector<uint16_t> merged_of(r.local_count);
  absl::flat_hash_map<uint32_t, uint16_t> index;
  for (uint32_t l = 0; l < r.local_count; ++l) {
    const uint32_t g = local_global_[r.first_local + l];
    const auto [it, fresh] =
        index.try_emplace(g, static_cast<uint16_t>(globals.size()));
    if (fresh) globals.push_back(g);
    merged_of[l] = it->second;
  }
  if (globals.size() == r.local_count) return;  // already one per component
  LocalLabels merged;
  merged.count = static_cast<uint32_t>(globals.size());
  if (merged.count > 1) {  // one component needs no cell labels
    const Rect rect = TileRect(tile);
    merged.labels.reserve(static_cast<size_t>(rect.width()) * rect.height());
    for (int32_t y = rect.y0; y < rect.y1; ++y) {
      for (int32_t x = rect.x0; x < rect.x1; ++x) {
        const Point p{x, y};
        merged.labels.push_back(passable(p) ? merged_of[LocalLabel(r, p)] : 0);
      }
    }
  }
  StoreLocalLabels(tile, merged);
  for (uint32_t k = 0; k < merged.count; ++k) {
    if (local_global_[r.first_local + k] != globals[k]) {
      local_global_.Set(r.first_local + k, globals[k]);
    }
  }
}

// Union-find over all tile-local components, linked across tile borders
// (orthogonal links suffice: a diagonal step needs both orthogonal
// neighbours passable, so 8- and 4-connected components are the same).
// The smaller id is always the root, so numbering roots in increasing order
// gives each component the number of its first tile-local component; a
// non-root copies the (already final) number of its parent, a smaller id.
void Grid::ComputeGlobalComponents() {
  const uint32_t n = tile_count();
  std::vector<uint32_t> first(n + 1, 0);
  for (uint32_t t = 0; t < n; ++t)
    first[t + 1] = first[t] + tiles_[t].local_count;
  std::vector<uint32_t> parent(first[n]);
  for (uint32_t i = 0; i < first[n]; ++i) parent[i] = i;
  auto find = [&parent](uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto unite = [&](uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  };
  auto id = [&](uint32_t t, Point p) {
    return first[t] + LocalLabel(tiles_[t], p);
  };
  const uint32_t tx = tiles_x();
  for (uint32_t t = 0; t < n; ++t) {
    const Rect r = TileRect(t);
    if (r.x1 < width_) {  // the tile to the right
      for (int32_t y = r.y0; y < r.y1; ++y) {
        const Point a{r.x1 - 1, y}, b{r.x1, y};
        if (passable(a) && passable(b)) unite(id(t, a), id(t + 1, b));
      }
    }
    if (r.y1 < height_) {  // the tile below
      for (int32_t x = r.x0; x < r.x1; ++x) {
        const Point a{x, r.y1 - 1}, b{x, r.y1};
        if (passable(a) && passable(b)) unite(id(t, a), id(t + tx, b));
      }
    }
  }
  uint32_t next = 0;
  for (uint32_t i = 0; i < first[n]; ++i) {
    parent[i] = parent[i] == i ? next++ : parent[parent[i]];
  }
  component_count_ = next;
  live_locals_ = first[n];
  local_global_ = CowArray<uint32_t>::FromVector(parent);
  for (uint32_t t = 0; t < n; ++t) {
    if (tiles_[t].first_local != first[t]) {
      TileLabels record = tiles_[t];
      record.first_local = first[t];
      tiles_.Set(t, record);
    }
  }
}

uint64_t Grid::PackedTileBytes(uint32_t tile, uint8_t bits) const {
  const Rect r = TileRect(tile);
  return (static_cast<uint64_t>(r.width()) * r.height() * bits + 7) / 8;
}

Grid::StoredComponents Grid::Components() const {
  StoredComponents out;
  out.component_count = component_count_;
  out.cost_counts = cost_counts_;
  // Canonical already (a grid made by Create): share the arrays.
  bool canonical = local_global_.size() == live_locals_;
  uint64_t bytes = 0;
  uint32_t locals = 0;
  for (uint32_t t = 0; t < tile_count() && canonical; ++t) {
    const TileLabels& r = tiles_[t];
    canonical = r.slot_bits == r.bits && r.first_local == locals &&
                r.byte_offset == (r.bits == 0 ? 0 : bytes);
    bytes += r.bits == 0 ? 0 : PackedTileBytes(t, r.bits);
    locals += r.local_count;
  }
  if (canonical && bytes == cell_labels_.size()) {
    uint32_t next = 0;  // numbered by first appearance?
    for (size_t i = 0; i < local_global_.size() && canonical; ++i) {
      canonical = local_global_[i] <= next;
      next += local_global_[i] == next;
    }
    canonical = canonical && next == component_count_;
  }
  if (canonical && bytes == cell_labels_.size()) {
    out.tiles = tiles_;
    out.cell_labels = cell_labels_;
    out.local_global = local_global_;
    return out;
  }
  // Copy the live slots and entries in tile order; renumber components by
  // first appearance (the order ComputeGlobalComponents gives).
  std::vector<uint32_t> renumber(component_count_, kNoComponent);
  uint32_t next = 0;
  std::vector<uint8_t> packed;
  for (uint32_t t = 0; t < tile_count(); ++t) {
    TileLabels r = tiles_[t];
    const uint64_t n = r.bits == 0 ? 0 : PackedTileBytes(t, r.bits);
    packed.resize(n);
    for (uint64_t i = 0; i < n; ++i)
      packed[i] = cell_labels_[r.byte_offset + i];
    r.byte_offset = n == 0 ? 0 : out.cell_labels.size();
    r.slot_bits = r.bits;
    r.first_local = static_cast<uint32_t>(out.local_global.size());
    out.cell_labels.Append(packed.data(), packed.size());
    for (uint32_t l = 0; l < r.local_count; ++l) {
      uint32_t& global = renumber[local_global_[tiles_[t].first_local + l]];
      if (global == kNoComponent) global = next++;
      out.local_global.PushBack(global);
    }
    out.tiles.PushBack(r);
  }
  out.component_count = next;
  return out;
}

absl::StatusOr<Grid> Grid::CreateWithComponents(int64_t width, int64_t height,
                                                CowArray<uint8_t> costs,
                                                StoredComponents stored,
                                                int threads) {
  ASSIGN_OR_RETURN(Grid grid, WithoutLabels(width, height, std::move(costs)));
  auto bad = [](const auto&... why) {
    return absl::InvalidArgumentError(absl::StrCat(why...));
  };
  // Cost counts: 256 non-negative counts of all the cells.
  if (stored.cost_counts.size() != 256) {
    return bad("cost counts: ", stored.cost_counts.size(), " entries, not 256");
  }
  int64_t cells = 0;
  for (int c = 0; c < 256; ++c) {
    const int64_t n = stored.cost_counts[c];
    if (n < 0 || n > grid.cell_count() - cells) {
      return bad("cost counts: count of cost ", c, " is ", n,
                 ", more than the grid's ", grid.cell_count(), " cells allow");
    }
    cells += n;
  }
  if (cells != grid.cell_count()) {
    return bad("cost counts: sum to ", cells, ", not the grid's ",
               grid.cell_count(), " cells");
  }
  // The canonical layout, tile by tile.
  const uint32_t n = grid.tile_count();
  if (stored.tiles.size() != n) {
    return bad("label tiles: ", stored.tiles.size(), " records, not the ", n,
               " tiles of a ", width, "x", height, " grid");
  }
  uint64_t bytes = 0;
  uint64_t locals = 0;
  for (uint32_t t = 0; t < n; ++t) {
    const TileLabels& r = stored.tiles[t];
    const uint64_t packed = grid.PackedTileBytes(t, r.bits);
    if (r.local_count > kMaxTileComponents ||
        r.bits != LabelBits(r.local_count) || r.slot_bits != r.bits ||
        r.first_local != locals || r.byte_offset != (r.bits == 0 ? 0 : bytes)) {
      return bad("label tile ", t, ": {byte_offset ", r.byte_offset,
                 ", first_local ", r.first_local, ", local_count ",
                 r.local_count, ", bits ", int{r.bits}, ", slot_bits ",
                 int{r.slot_bits},
                 "} is not the canonical record (expected byte_offset ",
                 r.bits == 0 ? 0 : bytes, ", first_local ", locals, ", bits ",
                 int{LabelBits(r.local_count)},
                 " = slot_bits, local_count <= ", kMaxTileComponents, ")");
    }
    bytes += packed;
    locals += r.local_count;
  }
  if (stored.cell_labels.size() != bytes) {
    return bad("cell labels: ", stored.cell_labels.size(),
               " bytes, the tiles need ", bytes);
  }
  if (stored.local_global.size() != locals) {
    return bad("local-to-global table: ", stored.local_global.size(),
               " entries, the tiles have ", locals, " components");
  }
  // Globals numbered by first appearance, so all below component_count.
  uint32_t next = 0;
  for (uint64_t i = 0; i < locals; ++i) {
    const uint32_t g = stored.local_global[i];
    if (g > next) {
      return bad("local-to-global table: entry ", i, " is ", g,
                 "; components are numbered in order of first appearance, "
                 "the next new one would be ",
                 next);
    }
    next += g == next;
  }
  if (next != stored.component_count) {
    return bad("component count is ", stored.component_count,
               ", the table has ", next);
  }
  // A tile's labels name distinct components (one label per component).
  {
    std::vector<uint32_t> seen_in(next, kNoComponent);
    for (uint32_t t = 0; t < n; ++t) {
      const TileLabels& r = stored.tiles[t];
      for (uint32_t l = 0; l < r.local_count; ++l) {
        const uint32_t g = stored.local_global[r.first_local + l];
        if (seen_in[g] == t) {
          return bad("label tile ", t, ": two labels name component ", g,
                     " (a tile has one label per component)");
        }
        seen_in[g] = t;
      }
    }
  }
  grid.tiles_ = std::move(stored.tiles);
  grid.cell_labels_ = std::move(stored.cell_labels);
  grid.local_global_ = std::move(stored.local_global);
  grid.component_count_ = stored.component_count;
  grid.live_locals_ = locals;
  // Every label indexes its tile's range: a tile with no components has no
  // open cell; packed values that could reach past the count are checked.
  // On `threads` threads by tile ranges (the first failing tile's error).
  RETURN_IF_ERROR(ParallelChunks(
      n, threads, uint64_t{1} << 14,
      [&](uint64_t first, uint64_t last) -> absl::Status {
        for (uint32_t t = static_cast<uint32_t>(first); t < last; ++t) {
          RETURN_IF_ERROR(grid.CheckTileLabels(t));
        }
        return absl::OkStatus();
      }));
  grid.cost_counts_ = std::move(stored.cost_counts);
  grid.SummariseCosts();
  return grid;
}

absl::Status Grid::CheckTileLabels(uint32_t t) const {
  auto bad = [](const auto&... why) {
    return absl::InvalidArgumentError(absl::StrCat(why...));
  };
  const TileLabels& r = tiles_[t];
  const Rect rect = TileRect(t);
  if (r.local_count == 0) {
    for (int32_t y = rect.y0; y < rect.y1; ++y) {
      const size_t begin = static_cast<size_t>(y) * width_ + rect.x0;
      bool open = false;
      costs_.ForEachIn(begin, begin + rect.width(),
                       [&](uint8_t c) { open |= c != kBlocked; });
      if (open) {
        return bad("label tile ", t, ": no components, but row ", y,
                   " has an open cell");
      }
    }
    return absl::OkStatus();
  }
  if (r.bits == 0 || (uint32_t{1} << r.bits) == r.local_count) {
    return absl::OkStatus();  // every value the width holds is in range
  }
  // The largest packed value (cells row by row, then zero padding).
  const uint64_t end = r.byte_offset + PackedTileBytes(t, r.bits);
  uint32_t largest = 0;
  if (r.bits == 16) {
    for (uint64_t at = r.byte_offset; at < end; at += 2) {
      largest = std::max<uint32_t>(
          largest, cell_labels_[at] | (uint32_t{cell_labels_[at + 1]} << 8));
    }
  } else {
    const std::array<uint8_t, 256>& byte_max = LargestFieldOfByte(r.bits);
    cell_labels_.ForEachIn(r.byte_offset, end, [&](uint8_t byte) {
      largest = std::max<uint32_t>(largest, byte_max[byte]);
    });
  }
  if (largest >= r.local_count) {
    return bad("label tile ", t, ": a cell has label ", largest,
               ", the tile has ", r.local_count, " components");
  }
  return absl::OkStatus();
}

bool Grid::SameComponentsAs(const Grid& other) const {
  const StoredComponents a = Components(), b = other.Components();
  return a.component_count == b.component_count &&
         a.cost_counts == b.cost_counts &&
         a.tiles.ToVector() == b.tiles.ToVector() &&
         a.cell_labels.ToVector() == b.cell_labels.ToVector() &&
         a.local_global.ToVector() == b.local_global.ToVector();
}

void Grid::CountCosts() {
  cost_counts_.assign(256, 0);
  costs_.ForEachPage([&](const uint8_t* data, size_t n) {
    for (size_t i = 0; i < n; ++i) ++cost_counts_[data[i]];
  });
  SummariseCosts();
}

void Grid::SummariseCosts() {
  passable_count_ = cell_count() - cost_counts_[kBlocked];
  min_cost_ = 1;
  for (int c = 1; c < 256; ++c) {
    if (cost_counts_[c] > 0) {
      min_cost_ = static_cast<uint8_t>(c);
      break;
    }
  }
}

size_t Grid::ComponentBytes() const {
  return cell_labels_.MemoryUsage() + tiles_.MemoryUsage() +
         local_global_.MemoryUsage();
}

size_t Grid::MemoryUsage() const {
  return sizeof(*this) + cost_counts_.capacity() * sizeof(int64_t) +
         costs_.MemoryUsage() + ComponentBytes();
}

size_t Grid::OwnedBytes() const {
  return costs_.OwnedBytes() + cell_labels_.OwnedBytes() + tiles_.OwnedBytes() +
         local_global_.OwnedBytes();
}

}  // namespace zonepath
