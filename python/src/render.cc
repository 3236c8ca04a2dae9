// zonepath.render: a small terrain + path rasteriser for notebooks and
// scripts, returning an RGB NumPy array (the `zonepath render` tool draws
// more: zone borders, beacons, expansions; it writes PNG files).
#include <algorithm>
#include <array>
#include <string>

#include "absl/strings/str_cat.h"
#include "common.h"
#include "world.h"
#include "zonepath/grid/direction.h"

namespace zonepath::python {
namespace {

using Rgb = std::array<uint8_t, 3>;

// Plain ground light, costlier ground darker green, blocked near black.
Rgb TerrainColor(uint8_t cost, uint8_t max_cost) {
  if (cost == 0) return {40, 40, 40};
  const double t =
      max_cost > 1 ? static_cast<double>(cost - 1) / (max_cost - 1) : 0.0;
  return {static_cast<uint8_t>(235 - 175 * t),
          static_cast<uint8_t>(235 - 95 * t),
          static_cast<uint8_t>(225 - 165 * t)};
}

constexpr std::array<Rgb, 6> kPathColors = {{{220, 30, 30},
                                             {30, 90, 220},
                                             {230, 140, 0},
                                             {150, 40, 180},
                                             {0, 150, 150},
                                             {200, 0, 120}}};

}  // namespace

void BindRender(py::module_& m) {
  m.def(
      "render",
      [](const PyWorld& world, const py::iterable& paths, int cell_px) {
        const Grid& grid = world.world->grid();
        const int64_t w = grid.width(), h = grid.height();
        if (cell_px < 1) {
          throw py::value_error(
              absl::StrCat("cell_px must be >= 1, got ", cell_px));
        }
        if (w * h * cell_px * cell_px > 100'000'000) {
          throw py::value_error(
              absl::StrCat("render: ", w * cell_px, " x ", h * cell_px,
                           " pixels is more than 10^8; lower cell_px"));
        }
        std::vector<RunLengthPath> to_draw;
        for (const py::handle& p : paths) {
          py::object path = py::reinterpret_borrow<py::object>(p);
          to_draw.push_back(PathFromRuns(
              ToPoint(path.attr("start"), "path.start"), path.attr("runs")));
          // Drawn cell by cell: only paths inside the world (each run is
          // straight, so its ends tell).
          Point at = to_draw.back().start();
          bool inside = grid.InBounds(at);
          for (const Run& run : to_draw.back().runs()) {
            at = {at.x + Dx(run.direction) * static_cast<int32_t>(run.count),
                  at.y + Dy(run.direction) * static_cast<int32_t>(run.count)};
            inside = inside && grid.InBounds(at);
          }
          if (!inside) {
            throw py::value_error(absl::StrCat("paths[", to_draw.size() - 1,
                                               "] leaves the world (", w, " x ",
                                               h, ")"));
          }
        }
        py::array_t<uint8_t> image({h * cell_px, w * cell_px, int64_t{3}});
        auto view = image.mutable_unchecked<3>();
        auto paint = [&](int64_t x, int64_t y, Rgb c) {
          if (x < 0 || y < 0 || x >= w || y >= h) return;
          for (int dy = 0; dy < cell_px; ++dy) {
            for (int dx = 0; dx < cell_px; ++dx) {
              for (int k = 0; k < 3; ++k) {
                view(y * cell_px + dy, x * cell_px + dx, k) = c[k];
              }
            }
          }
        };
        uint8_t max_cost = 1;
        for (int32_t y = 0; y < h; ++y) {
          for (int32_t x = 0; x < w; ++x) {
            max_cost = std::max(max_cost, grid.cost({x, y}));
          }
        }
        for (int32_t y = 0; y < h; ++y) {
          for (int32_t x = 0; x < w; ++x) {
            paint(x, y, TerrainColor(grid.cost({x, y}), max_cost));
          }
        }
        for (size_t i = 0; i < to_draw.size(); ++i) {
          const Rgb color = kPathColors[i % kPathColors.size()];
          Point at = to_draw[i].start();
          paint(at.x, at.y, color);
          for (const Run& run : to_draw[i].runs()) {
            for (uint32_t k = 0; k < run.count; ++k) {
              at = {at.x + Dx(run.direction), at.y + Dy(run.direction)};
              paint(at.x, at.y, color);
            }
          }
        }
        return image;
      },
      py::arg("world"), py::arg("paths") = py::list(), py::kw_only(),
      py::arg("cell_px") = 1,
      R"doc(
Draws the world's terrain (plain ground light, costlier ground darker
green, blocked cells dark) and `paths` (Path objects, or anything with
.start and .runs; one colour each, cycling) into a (height * cell_px,
width * cell_px, 3) numpy.uint8 RGB array, cell_px pixels per cell. At most
10^8 pixels. For zone borders, beacons and search expansions use the
`zonepath render` tool.)doc");
}

}  // namespace zonepath::python
