// zonepath.World: build (NumPy grid or .map), load, save, inspect, change.
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common.h"
#include "world.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world_file.h"

namespace zonepath::python {
namespace {

// A plain world file, or class `agent` of an agent world (only that class
// is loaded). Oriented classes have only a guide world: refused.
absl::StatusOr<World> LoadWorldOrClass(
    const std::string& path, const std::optional<std::string>& agent) {
  ASSIGN_OR_RETURN(const bool agent_world, IsAgentWorldFile(path));
  if (!agent_world) {
    if (agent.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": agent='", *agent,
                       "' needs an agent world (zonepath build "
                       "--agents), this is a plain world file"));
    }
    return LoadWorldFile(path);
  }
  const std::string name = agent.value_or("default");
  AgentLoadOptions options;
  options.classes = {name};
  ASSIGN_OR_RETURN(const AgentWorld loaded, LoadAgentWorldFile(path, options));
  ASSIGN_OR_RETURN(const AgentClass* agent_class, loaded.agents().Find(name));
  if (agent_class->oriented) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": agent class '", name,
                     "' is oriented: its world is only a guide (plan it with "
                     "zonepath.AgentPlanner(zonepath.AgentWorld.load(...)))"));
  }
  ASSIGN_OR_RETURN(const World* world, loaded.ClassWorld(name));
  return *world;  // shares its pages (and the mapping) with `loaded`
}

PyWorld Share(World world) {
  return PyWorld{std::make_shared<const World>(std::move(world))};
}

// A grid from a 2-D numpy.uint8 array (rows = y) or from a .map path.
Grid GridFrom(const py::object& grid) {
  if (py::isinstance<py::str>(grid) || py::hasattr(grid, "__fspath__")) {
    const std::string path =
        py::str(py::module_::import("os").attr("fspath")(grid));
    return ValueOrRaise(ReadMapFile(path));
  }
  if (!py::isinstance<py::array>(grid)) {
    throw py::type_error(
        "grid must be a 2-D numpy.uint8 array or a .map file path");
  }
  py::array array = py::reinterpret_borrow<py::array>(grid);
  if (!array.dtype().is(py::dtype::of<uint8_t>())) {
    throw py::type_error(absl::StrCat(
        "grid must have dtype uint8 (0 blocked, 1..255 cost), got ",
        std::string(py::str(array.dtype()))));
  }
  if (array.ndim() != 2) {
    throw py::value_error(absl::StrCat("grid must be 2-D (height, width), got ",
                                       array.ndim(), " dimensions"));
  }
  // The size first: a view that costs no memory (a broadcast) may stand
  // for more cells than a grid may hold, or than a copy can get.
  const int64_t height = array.shape(0), width = array.shape(1);
  ThrowIfError(Grid::CheckSize(width, height));
  auto contiguous =
      py::array_t<uint8_t, py::array::c_style | py::array::forcecast>::ensure(
          array);
  if (!contiguous) {  // pybind11 clears NumPy's error: raise our own
    PyErr_SetString(PyExc_MemoryError,
                    absl::StrCat("grid: no memory for a contiguous copy of ",
                                 width, " x ", height, " cells")
                        .c_str());
    throw py::error_already_set();
  }
  const uint8_t* data = contiguous.data();
  return ValueOrRaise(Grid::Create(
      width, height, std::vector<uint8_t>(data, data + width * height)));
}

std::vector<CellChange> ChangesFrom(const py::object& changes) {
  const auto array = IntegerArray(changes, "changes");
  const bool triples = array.ndim() == 2 && array.shape(1) == 3;
  const bool empty = array.ndim() == 1 && array.shape(0) == 0;
  if (!triples && !empty) {
    throw py::value_error(
        "changes must be (x, y, cost) triples: an (n, 3) array or a list");
  }
  std::vector<CellChange> out;
  if (array.ndim() == 1) return out;
  auto view = array.unchecked<2>();
  for (py::ssize_t i = 0; i < array.shape(0); ++i) {
    const int64_t x = view(i, 0), y = view(i, 1), cost = view(i, 2);
    if (x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX ||
        cost < INT32_MIN || cost > INT32_MAX) {
      throw py::value_error(absl::StrCat("change ", i, ": (", x, ", ", y, ", ",
                                         cost, ") is out of range"));
    }
    out.push_back({{static_cast<int32_t>(x), static_cast<int32_t>(y)},
                   static_cast<int32_t>(cost)});
  }
  return out;
}

}  // namespace

void BindWorld(py::module_& m) {
  py::class_<PyWorld>(m, "World", R"doc(
A grid world with its zone abstraction: the unit a Planner plans on.

Immutable: share one World between any number of threads and planners.
Make one with World.build (from a NumPy grid or a MovingAI .map file),
World.load (a world file) or world.apply_changes (the next version).

    grid = numpy.ones((256, 256), dtype=numpy.uint8)   # 0 = blocked
    grid[100, 20:200] = 0
    world = zonepath.World.build(grid, zone_size=32)
    world.save("my.zpw")
)doc")
      .def_static(
          "build",
          [](const py::object& grid, int zone_size, int levels, int group,
             int entrance_threshold, int connectivity, bool cache_paths,
             int threads, int beacon_spacing, bool connection_tables) {
            if (connectivity != 8 && connectivity != 4) {
              throw py::value_error(absl::StrCat(
                  "connectivity must be 8 or 4, got ", connectivity));
            }
            Grid g = GridFrom(grid);
            BuildOptions options;
            options.params.zone_size = zone_size;
            options.params.levels = levels;
            options.params.group = group;
            options.params.entrance_threshold = entrance_threshold;
            options.params.connectivity =
                connectivity == 4 ? Connectivity::kFour : Connectivity::kEight;
            options.params.cache_paths = cache_paths;
            options.params.beacon_spacing = beacon_spacing;
            options.threads = ThreadsArg(threads);
            options.connection_tables = connection_tables;
            ThrowIfError(ValidateBuildParams(options.params));
            absl::StatusOr<World> world =
                WithoutGil([&] { return BuildWorld(std::move(g), options); });
            return Share(ValueOrRaise(std::move(world)));
          },
          py::arg("grid"), py::kw_only(),
          py::arg("zone_size") = BuildParams().zone_size, py::arg("levels") = 0,
          py::arg("group") = 4, py::arg("entrance_threshold") = 6,
          py::arg("connectivity") = 8, py::arg("cache_paths") = false,
          py::arg("threads") = 0,
          py::arg("beacon_spacing") = BuildParams().beacon_spacing,
          py::arg("connection_tables") = true,
          R"doc(
Builds a world (the offline step) from `grid`: a 2-D numpy.uint8 array
indexed [y, x] (0 = blocked, 1..255 = terrain cost), or the path of a
MovingAI .map file (digits 1-9 read as costs).

zone_size: level-1 zone side in cells (4..1024, 0 = automatic: 32 up to
4096 cells a side, 64 above); levels: abstract levels
(1..8, 0 = automatic: more levels for larger worlds); group: a level-k zone is group x group level-(k-1) zones;
entrance_threshold: entrances this long get two beacon pairs;
beacon_spacing: 0, or max(2, zone size / 8)..1024: long entrances also get beacon pairs in
between, at most this many cells apart;
connectivity: 8 or 4; cache_paths: keep level-1 cell paths (faster
refinement, more memory); connection_tables: store the tables that
connect queries to levels >= 3 by a look-up (first moves sooner on large
worlds, up to 0.5 bytes a cell per level more); threads: build threads
(0 = all). The GIL is
released while building. Raises zonepath.Error on bad input.)doc")
      .def_static(
          "load",
          [](const std::string& path, const std::optional<std::string>& agent) {
            absl::StatusOr<World> world =
                WithoutGil([&] { return LoadWorldOrClass(path, agent); });
            return Share(ValueOrRaise(std::move(world)));
          },
          py::arg("path"), py::arg("agent") = py::none(),
          "Loads a world file (from World.save or `zonepath build`), or the "
          "world of one class of an agent world (`zonepath build --agents`): "
          "agent names the class (default: 'default'; an unoriented class: "
          "coordinates are the footprint's top-left anchor). Raises "
          "zonepath.Error naming the file and the failing field (NOT_FOUND, "
          "DATA_LOSS, FAILED_PRECONDITION; INVALID_ARGUMENT for an unknown or "
          "oriented class, or agent given for a plain world file).")
      .def(
          "save",
          [](const PyWorld& self, const std::string& path) {
            ThrowIfError(
                WithoutGil([&] { return SaveWorldFile(*self.world, path); }));
          },
          py::arg("path"),
          "Saves the world file atomically (temporary file + rename).")
      .def(
          "apply_changes",
          [](const PyWorld& self, const py::object& changes, int threads) {
            const std::vector<CellChange> batch = ChangesFrom(changes);
            UpdateOptions options;
            options.threads = ThreadsArg(threads);
            absl::StatusOr<World> next = WithoutGil(
                [&] { return ApplyChanges(*self.world, batch, options); });
            return Share(ValueOrRaise(std::move(next)));
          },
          py::arg("changes"), py::kw_only(), py::arg("threads") = 1,
          R"doc(
Returns the next version of this world with `changes` applied: (x, y, cost)
triples (an (n, 3) array or a list; cost 0 = blocked, 1..255), a later
change of the same cell winning. Only the zones the changes reach are
searched again; the new world shares unchanged memory with this one, which
is not modified. A bad change rejects the whole batch (zonepath.Error
naming the change).)doc")
      .def_property_readonly(
          "width",
          [](const PyWorld& self) { return self.world->grid().width(); },
          "Columns (x range).")
      .def_property_readonly(
          "height",
          [](const PyWorld& self) { return self.world->grid().height(); },
          "Rows (y range).")
      .def_property_readonly(
          "shape",
          [](const PyWorld& self) {
            return py::make_tuple(self.world->grid().height(),
                                  self.world->grid().width());
          },
          "(height, width), as the grid array's shape.")
      .def_property_readonly(
          "levels",
          [](const PyWorld& self) { return self.world->params().levels; },
          "Abstract levels.")
      .def_property_readonly(
          "zone_size",
          [](const PyWorld& self) { return self.world->params().zone_size; },
          "Level-1 zone side in cells.")
      .def_property_readonly(
          "beacon_spacing",
          [](const PyWorld& self) {
            return self.world->params().beacon_spacing;
          },
          "Beacon spacing the world was built with (0: none).")
      .def_property_readonly(
          "connectivity",
          [](const PyWorld& self) {
            return self.world->params().connectivity == Connectivity::kFour ? 4
                                                                            : 8;
          },
          "8 or 4.")
      .def_property_readonly(
          "version", [](const PyWorld& self) { return self.world->version(); },
          "0 when built or loaded; +1 per apply_changes.")
      .def_property_readonly(
          "memory_bytes",
          [](const PyWorld& self) { return self.world->MemoryUsage(); },
          "Bytes the world reads (pages shared with other versions "
          "included).")
      .def_property_readonly(
          "owned_bytes",
          [](const PyWorld& self) { return self.world->OwnedBytes(); },
          "Bytes this version wrote itself rather than sharing with the "
          "world it came from.")
      .def_property_readonly(
          "costs",
          [](const PyWorld& self) {
            const Grid& grid = self.world->grid();
            py::array_t<uint8_t> out({grid.height(), grid.width()});
            auto view = out.mutable_unchecked<2>();
            for (int32_t y = 0; y < grid.height(); ++y) {
              for (int32_t x = 0; x < grid.width(); ++x) {
                view(y, x) = grid.cost({x, y});
              }
            }
            return out;
          },
          "A copy of the terrain as a (height, width) numpy.uint8 array.")
      .def("__repr__", [](const PyWorld& self) {
        return absl::StrCat("<zonepath.World ", self.world->grid().width(), "x",
                            self.world->grid().height(), ", ",
                            self.world->params().levels, " levels, zone ",
                            self.world->params().zone_size, ", version ",
                            self.world->version(), ">");
      });
}

}  // namespace zonepath::python
