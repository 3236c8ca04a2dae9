#include "zonepath/mapgen/generators.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {
namespace {

// SplitMix64: tiny, fast and fully specified, so maps are the same on every
// platform (std distributions are not).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n >= 1.
  int64_t Below(int64_t n) {
    return static_cast<int64_t>(Next() % static_cast<uint64_t>(n));
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

class Canvas {
 public:
  Canvas(int64_t w, int64_t h, uint8_t fill)
      : w_(w), h_(h), cells_(static_cast<size_t>(w * h), fill) {}
  void Set(int64_t x, int64_t y, uint8_t c) {
    if (x >= 0 && y >= 0 && x < w_ && y < h_) cells_[y * w_ + x] = c;
  }
  uint8_t Get(int64_t x, int64_t y) const { return cells_[y * w_ + x]; }
  void FillRect(int64_t x0, int64_t y0, int64_t x1, int64_t y1, uint8_t c) {
    for (int64_t y = std::max<int64_t>(y0, 0); y < std::min(y1, h_); ++y) {
      for (int64_t x = std::max<int64_t>(x0, 0); x < std::min(x1, w_); ++x) {
        cells_[y * w_ + x] = c;
      }
    }
  }
  void FillDisc(int64_t cx, int64_t cy, int64_t r, uint8_t c) {
    for (int64_t y = cy - r; y <= cy + r; ++y) {
      for (int64_t x = cx - r; x <= cx + r; ++x) {
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) Set(x, y, c);
      }
    }
  }
  std::vector<uint8_t> Take() { return std::move(cells_); }

 private:
  int64_t w_, h_;
  std::vector<uint8_t> cells_;
};

std::vector<uint8_t> Random(const MapGenOptions& o, Rng& rng) {
  Canvas canvas(o.width, o.height, 1);
  for (int64_t y = 0; y < o.height; ++y) {
    for (int64_t x = 0; x < o.width; ++x) {
      if (rng.Unit() < o.density) canvas.Set(x, y, kBlocked);
    }
  }
  return canvas.Take();
}

// Rooms of side `room` separated by 1-cell walls. Doors: a random spanning
// tree over the rooms (so all are connected) plus each other wall with
// probability 1/2; a door is a gap of width max(1, room / 8).
std::vector<uint8_t> Rooms(const MapGenOptions& o, Rng& rng) {
  const int64_t room = o.feature > 0 ? o.feature : 32;
  const int64_t pitch = room + 1;
  const int64_t rx = std::max<int64_t>(1, (o.width + pitch - 1) / pitch);
  const int64_t ry = std::max<int64_t>(1, (o.height + pitch - 1) / pitch);
  Canvas canvas(o.width, o.height, 1);
  for (int64_t i = 1; i < rx; ++i) {
    canvas.FillRect(i * pitch - 1, 0, i * pitch, o.height, kBlocked);
  }
  for (int64_t j = 1; j < ry; ++j) {
    canvas.FillRect(0, j * pitch - 1, o.width, j * pitch, kBlocked);
  }
  const int64_t door = std::max<int64_t>(1, room / 8);
  auto open_door = [&](int64_t i, int64_t j, bool east) {
    // Edge rooms may be cut short by the map border: keep doors inside.
    const int64_t span =
        std::min(room, east ? o.height - j * pitch : o.width - i * pitch);
    const int64_t offset = rng.Below(std::max<int64_t>(1, span - door + 1));
    if (east) {  // wall between room (i,j) and (i+1,j)
      const int64_t x = (i + 1) * pitch - 1;
      canvas.FillRect(x, j * pitch + offset, x + 1, j * pitch + offset + door,
                      1);
    } else {  // wall between room (i,j) and (i,j+1)
      const int64_t y = (j + 1) * pitch - 1;
      canvas.FillRect(i * pitch + offset, y, i * pitch + offset + door, y + 1,
                      1);
    }
  };
  // Spanning tree by randomized depth-first search over rooms.
  std::vector<uint8_t> seen(static_cast<size_t>(rx * ry), 0);
  std::vector<int64_t> stack = {0};
  seen[0] = 1;
  while (!stack.empty()) {
    const int64_t cur = stack.back();
    const int64_t i = cur % rx, j = cur / rx;
    int64_t options[4];
    int n = 0;
    if (i + 1 < rx && !seen[cur + 1]) options[n++] = cur + 1;
    if (i > 0 && !seen[cur - 1]) options[n++] = cur - 1;
    if (j + 1 < ry && !seen[cur + rx]) options[n++] = cur + rx;
    if (j > 0 && !seen[cur - rx]) options[n++] = cur - rx;
    if (n == 0) {
      stack.pop_back();
      continue;
    }
    const int64_t next = options[rng.Below(n)];
    const int64_t a = std::min(cur, next);
    open_door(a % rx, a / rx, next - cur == 1 || cur - next == 1);
    seen[next] = 1;
    stack.push_back(next);
  }
  for (int64_t j = 0; j < ry; ++j) {
    for (int64_t i = 0; i < rx; ++i) {
      if (i + 1 < rx && rng.Below(2) == 0) open_door(i, j, true);
      if (j + 1 < ry && rng.Below(2) == 0) open_door(i, j, false);
    }
  }
  return canvas.Take();
}

// Perfect maze by randomized depth-first search over corridor cells of side
// `corridor`, walls 1 cell thick.
std::vector<uint8_t> Maze(const MapGenOptions& o, Rng& rng) {
  const int64_t corridor = o.feature > 0 ? o.feature : 1;
  const int64_t pitch = corridor + 1;
  const int64_t cx = std::max<int64_t>(1, (o.width + 1) / pitch);
  const int64_t cy = std::max<int64_t>(1, (o.height + 1) / pitch);
  Canvas canvas(o.width, o.height, kBlocked);
  auto carve_cell = [&](int64_t i, int64_t j) {
    canvas.FillRect(i * pitch, j * pitch, i * pitch + corridor,
                    j * pitch + corridor, 1);
  };
  std::vector<uint8_t> seen(static_cast<size_t>(cx * cy), 0);
  std::vector<int64_t> stack = {0};
  seen[0] = 1;
  carve_cell(0, 0);
  while (!stack.empty()) {
    const int64_t cur = stack.back();
    const int64_t i = cur % cx, j = cur / cx;
    int64_t options[4];
    int n = 0;
    if (i + 1 < cx && !seen[cur + 1]) options[n++] = cur + 1;
    if (i > 0 && !seen[cur - 1]) options[n++] = cur - 1;
    if (j + 1 < cy && !seen[cur + cx]) options[n++] = cur + cx;
    if (j > 0 && !seen[cur - cx]) options[n++] = cur - cx;
    if (n == 0) {
      stack.pop_back();
      continue;
    }
    const int64_t next = options[rng.Below(n)];
    const int64_t ni = next % cx, nj = next / cx;
    carve_cell(ni, nj);
    // Knock out the wall between the two cells.
    const int64_t x0 = std::min(i, ni) * pitch, y0 = std::min(j, nj) * pitch;
    if (ni != i) {
      canvas.FillRect(x0 + corridor, y0, x0 + pitch, y0 + corridor, 1);
    } else {
      canvas.FillRect(x0, y0 + corridor, x0 + corridor, y0 + pitch, 1);
    }
    seen[next] = 1;
    stack.push_back(next);
  }
  return canvas.Take();
}

// Round patches of the terrain kinds: about one per 2 x scale² cells, each
// with a centre, a radius 1..scale / 2 and a kind 0..9 (drawn in that order,
// so a seed gives the same map as before this helper).
struct Blob {
  int64_t x, y, r, kind;
};
int64_t BlobCount(const MapGenOptions& o, int64_t scale) {
  return std::max<int64_t>(1, o.width * o.height / (scale * scale * 2));
}
Blob NextBlob(const MapGenOptions& o, int64_t scale, Rng& rng) {
  Blob b;
  b.x = rng.Below(o.width);
  b.y = rng.Below(o.height);
  b.r = 1 + rng.Below(std::max<int64_t>(1, scale / 2));
  b.kind = rng.Below(10);
  return b;
}

// Grass with blobs of forest and swamp, small lakes, and straight roads.
std::vector<uint8_t> Terrain(const MapGenOptions& o, Rng& rng) {
  constexpr uint8_t kGrass = 2, kForest = 4, kSwamp = 7, kRoad = 1;
  Canvas canvas(o.width, o.height, kGrass);
  const int64_t scale = std::max<int64_t>(4, std::min(o.width, o.height) / 16);
  for (int64_t b = BlobCount(o, scale); b > 0; --b) {
    const Blob blob = NextBlob(o, scale, rng);
    const uint8_t c = blob.kind < 5   ? kForest
                      : blob.kind < 8 ? kSwamp
                                      : kBlocked;
    canvas.FillDisc(blob.x, blob.y,
                    c == kBlocked ? std::max<int64_t>(1, blob.r / 2) : blob.r,
                    c);
  }
  const int64_t roads =
      std::max<int64_t>(1, (o.width + o.height) / (4 * scale));
  for (int64_t k = 0; k < roads; ++k) {
    if (rng.Below(2) == 0) {
      const int64_t y = rng.Below(o.height);
      canvas.FillRect(0, y, o.width, y + 1, kRoad);
    } else {
      const int64_t x = rng.Below(o.width);
      canvas.FillRect(x, 0, x + 1, o.height, kRoad);
    }
  }
  return canvas.Take();
}

// Mixed terrain for agent classes (types of mixed_terrain.h): ground with
// forests, hills and lakes (deep water ringed by shallows), roads, and a
// lattice of 2-cell walls every `pitch` cells; each wall segment between
// crossings has one passage of each width 1..4 (in random order, one per
// quarter of the segment), so units of different sizes take different
// routes.
std::vector<uint8_t> Mixed(const MapGenOptions& o, Rng& rng) {
  Canvas canvas(o.width, o.height, kMixedGround);
  const int64_t scale = std::max<int64_t>(8, std::min(o.width, o.height) / 16);
  for (int64_t b = BlobCount(o, scale); b > 0; --b) {
    const Blob blob = NextBlob(o, scale, rng);
    if (blob.kind < 4) {
      canvas.FillDisc(blob.x, blob.y, blob.r, kMixedForest);
    } else if (blob.kind < 7) {
      canvas.FillDisc(blob.x, blob.y, blob.r, kMixedHills);
    } else {
      canvas.FillDisc(blob.x, blob.y, blob.r, kMixedShallow);
      canvas.FillDisc(blob.x, blob.y, blob.r / 2, kMixedDeep);
    }
  }
  const int64_t roads =
      std::max<int64_t>(1, (o.width + o.height) / (4 * scale));
  for (int64_t k = 0; k < roads; ++k) {
    const int64_t width = 1 + rng.Below(2);
    if (rng.Below(2) == 0) {
      const int64_t y = rng.Below(o.height);
      canvas.FillRect(0, y, o.width, y + width, kMixedRoad);
    } else {
      const int64_t x = rng.Below(o.width);
      canvas.FillRect(x, 0, x + width, o.height, kMixedRoad);
    }
  }
  const int64_t pitch = o.feature > 0 ? std::max(o.feature, 24) : 64;
  constexpr int64_t kWall = 2;
  for (int64_t x = pitch; x + kWall <= o.width; x += pitch) {
    canvas.FillRect(x, 0, x + kWall, o.height, kBlocked);
  }
  for (int64_t y = pitch; y + kWall <= o.height; y += pitch) {
    canvas.FillRect(0, y, o.width, y + kWall, kBlocked);
  }
  // Passages: segment [s0, s0 + pitch - kWall) of the wall at `at`.
  const int64_t quarter = (pitch - kWall) / 4;
  auto passages = [&](int64_t at, int64_t s0, int64_t end, bool vertical) {
    int64_t widths[4] = {1, 2, 3, 4};
    for (int i = 3; i > 0; --i) std::swap(widths[i], widths[rng.Below(i + 1)]);
    for (int q = 0; q < 4; ++q) {
      const int64_t w = widths[q];
      const int64_t from = s0 + q * quarter + 1 +
                           rng.Below(std::max<int64_t>(1, quarter - w - 1));
      if (from + w > end) continue;  // cut short by the map border
      if (vertical) {
        canvas.FillRect(at, from, at + kWall, from + w, kMixedGround);
      } else {
        canvas.FillRect(from, at, from + w, at + kWall, kMixedGround);
      }
    }
  };
  for (int64_t x = pitch; x + kWall <= o.width; x += pitch) {
    for (int64_t s0 = 0; s0 < o.height; s0 += pitch) {
      passages(x, s0 == 0 ? 0 : s0 + kWall, o.height, true);
    }
  }
  for (int64_t y = pitch; y + kWall <= o.height; y += pitch) {
    for (int64_t s0 = 0; s0 < o.width; s0 += pitch) {
      passages(y, s0 == 0 ? 0 : s0 + kWall, o.width, false);
    }
  }
  return canvas.Take();
}

}  // namespace

std::optional<MapKind> ParseMapKind(absl::string_view name) {
  for (MapKind kind : {MapKind::kRooms, MapKind::kMaze, MapKind::kRandom,
                       MapKind::kTerrain, MapKind::kMixed}) {
    if (MapKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

absl::string_view MapKindName(MapKind kind) {
  switch (kind) {
    case MapKind::kRooms:
      return "rooms";
    case MapKind::kMaze:
      return "maze";
    case MapKind::kRandom:
      return "random";
    case MapKind::kTerrain:
      return "terrain";
    case MapKind::kMixed:
      return "mixed";
  }
  return "?";
}

absl::StatusOr<Grid> GenerateMap(const MapGenOptions& options) {
  RETURN_IF_ERROR(Grid::CheckSize(options.width, options.height));
  if (!(options.density >= 0 && options.density <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("density must be in [0, 1], got ", options.density));
  }
  if (options.feature < 0 || options.feature > 4096) {
    return absl::InvalidArgumentError(absl::StrCat(
        "feature size must be in [0, 4096], got ", options.feature));
  }
  Rng rng(options.seed);
  std::vector<uint8_t> costs;
  switch (options.kind) {
    case MapKind::kRooms:
      costs = Rooms(options, rng);
      break;
    case MapKind::kMaze:
      costs = Maze(options, rng);
      break;
    case MapKind::kRandom:
      costs = Random(options, rng);
      break;
    case MapKind::kTerrain:
      costs = Terrain(options, rng);
      break;
    case MapKind::kMixed:
      costs = Mixed(options, rng);
      break;
  }
  return Grid::Create(options.width, options.height, std::move(costs));
}

}  // namespace zonepath
