// zonepath.AgentWorld (an agent world file: one terrain, a world per agent
// class) and zonepath.AgentPlanner (queries that name their class,
// oriented classes included, with turns in the path).
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common.h"
#include "zonepath/agents/agent_planner.h"
#include "zonepath/agents/agent_world.h"
#include "zonepath/agents/build_agent_world.h"
#include "zonepath/base/status_macros.h"
#include "zonepath/grid/direction.h"
#include "zonepath/movingai/map_io.h"

namespace zonepath::python {
namespace {

struct PyAgentWorld {
  std::shared_ptr<const AgentWorld> world;
};

// One query's answer: the path's runs and cost (valid on its own: a copy).
struct PyAgentPath {
  AgentPath path;
  bool found = false;
  std::string agent;
  OrientedStats oriented;
};

class PyAgentPlanner {
 public:
  explicit PyAgentPlanner(std::shared_ptr<const AgentWorld> world)
      : world_(std::move(world)), planner_(*world_) {}
  AgentPlanner& planner() { return planner_; }
  // Held by a query while the GIL is released: Python threads that share
  // one planner take turns instead of racing on its scratch.
  std::mutex& busy() { return busy_; }

 private:
  std::shared_ptr<const AgentWorld> world_;  // outlives planner_
  AgentPlanner planner_;
  std::mutex busy_;
};

// An explicit list of class names; [] is refused (None means every class,
// and an empty list would quietly mean the same).
const std::vector<std::string>& NamedClasses(
    const std::vector<std::string>& classes) {
  if (classes.empty()) {
    throw py::value_error(
        "classes is empty: name at least one class, or pass None for all");
  }
  return classes;
}

Direction HeadingFrom(const std::string& name, const char* what) {
  const std::optional<Direction> d = ParseDirection(name);
  if (!d.has_value()) {
    throw py::value_error(absl::StrCat(
        what, " must be a direction name (N, NE, ... NW), got '", name, "'"));
  }
  return *d;
}

// Runs as (action, heading or rotation, count) tuples: ("forward", "E", 3),
// ("backward", "N", 2), ("turn", +1 or -1, 1).
py::list RunTuples(const AgentPath& path) {
  py::list out;
  for (const AgentRun& run : path.runs()) {
    if (run.action == AgentAction::kTurn) {
      out.append(
          py::make_tuple("turn", static_cast<int>(run.rotation), run.count));
    } else {
      out.append(py::make_tuple(
          run.action == AgentAction::kForward ? "forward" : "backward",
          std::string(DirectionName(run.heading)), run.count));
    }
  }
  return out;
}

}  // namespace

void BindAgents(py::module_& m) {
  py::class_<PyAgentWorld>(m, "AgentWorld", R"doc(
An agent world (`zonepath build MAP -o W.zpa --agents FILE`): one terrain
and a world per agent class, loaded read-only and shared by any number of
AgentPlanners (one per thread).)doc")
      .def_static(
          "load",
          [](const std::string& path,
             const std::optional<std::vector<std::string>>& classes) {
            AgentLoadOptions options;
            if (classes.has_value()) options.classes = NamedClasses(*classes);
            absl::StatusOr<AgentWorld> world =
                WithoutGil([&] { return LoadAgentWorldFile(path, options); });
            return PyAgentWorld{std::make_shared<const AgentWorld>(
                ValueOrRaise(std::move(world)))};
          },
          py::arg("path"), py::arg("classes") = py::none(),
          "Loads (maps) an agent world file; `classes` (names) loads only "
          "those classes' worlds. Raises zonepath.Error naming the file, "
          "part, class or field.")
      .def_static(
          "build",
          [](const std::string& map_path, const std::string& agents_path,
             const std::optional<std::vector<std::string>>& classes,
             int zone_size, int levels, int group, int entrance_threshold,
             int beacon_spacing, int oriented_beacon_spacing, int threads) {
            AgentWorldBuildOptions options;
            options.build.params.zone_size = zone_size;
            options.build.params.levels = levels;
            options.build.params.group = group;
            options.build.params.entrance_threshold = entrance_threshold;
            options.build.params.beacon_spacing = beacon_spacing;
            options.build.threads = ThreadsArg(threads);
            options.oriented_beacon_spacing = oriented_beacon_spacing;
            if (classes.has_value()) options.classes = NamedClasses(*classes);
            absl::StatusOr<AgentWorld> world = WithoutGil([&] {
              return BuildAgentWorldFromFiles(map_path, agents_path, options);
            });
            return PyAgentWorld{std::make_shared<const AgentWorld>(
                ValueOrRaise(std::move(world)))};
          },
          py::arg("map_path"), py::arg("agents_path"), py::kw_only(),
          py::arg("classes") = py::none(),
          py::arg("zone_size") = BuildParams().zone_size, py::arg("levels") = 0,
          py::arg("group") = 4, py::arg("entrance_threshold") = 6,
          py::arg("beacon_spacing") = BuildParams().beacon_spacing,
          py::arg("oriented_beacon_spacing") =
              AgentWorldBuildOptions().oriented_beacon_spacing,
          py::arg("threads") = 0,
          R"doc(
Builds an agent world (the offline step, as `zonepath build MAP --agents
FILE`): the .map's characters read through the agent file's terrain
legend, then one abstraction per class (`classes`: names; None = every
class of the file). Zone parameters as for World.build (each class uses
its own connectivity); oriented_beacon_spacing: the beacon spacing of
oriented classes' guide worlds when beacon_spacing is 0 (0 = none).
The GIL is released while building. Raises zonepath.Error naming the
file, line and field.)doc")
      .def(
          "save",
          [](const PyAgentWorld& self, const std::string& path,
             bool compact_classes) {
            AgentWorldWriteOptions write;
            write.compact_classes = compact_classes;
            ThrowIfError(WithoutGil([&] {
              return SaveAgentWorldFile(*self.world, path, nullptr, write);
            }));
          },
          py::arg("path"), py::arg("compact_classes") = true,
          "Saves the agent world atomically (temporary file, then rename); "
          "compact_classes=False stores the class worlds as world files "
          "(format version 1, mapped in place on load) instead of compact.")
      .def_property_readonly(
          "classes",
          [](const PyAgentWorld& self) {
            std::vector<std::string> names;
            for (const auto& c : self.world->classes()) {
              names.push_back(c.agent.name);
            }
            return names;
          },
          "Names of the classes loaded, in the agent file's order.")
      .def_property_readonly(
          "oriented",
          [](const PyAgentWorld& self) {
            std::vector<std::string> names;
            for (const auto& c : self.world->classes()) {
              if (c.agent.oriented) names.push_back(c.agent.name);
            }
            return names;
          },
          "Names of the loaded classes whose state includes a heading.")
      .def_property_readonly(
          "width",
          [](const PyAgentWorld& self) {
            return self.world->terrain().width();
          },
          "Terrain width in cells.")
      .def_property_readonly(
          "height",
          [](const PyAgentWorld& self) {
            return self.world->terrain().height();
          },
          "Terrain height in cells.")
      .def_property_readonly(
          "memory_bytes",
          [](const PyAgentWorld& self) { return self.world->MemoryUsage(); },
          "Bytes the loaded world reads (terrain, class grids, "
          "abstractions).");

  py::class_<PyAgentPath>(m, "AgentPath", R"doc(
A path of one agent class: its start anchor and heading and run-length
actions (forward and backward steps, turns in place), with its walked
cost.)doc")
      .def_readonly("found", &PyAgentPath::found,
                    "False if the goal is unreachable for the class.")
      .def_readonly("agent", &PyAgentPath::agent, "The class planned for.")
      .def_property_readonly(
          "cost", [](const PyAgentPath& self) { return self.path.cost(); },
          "Walked cost under the class's rules.")
      .def_property_readonly(
          "start",
          [](const PyAgentPath& self) { return FromPoint(self.path.start()); },
          "Start anchor (x, y): the footprint's top-left cell.")
      .def_property_readonly(
          "start_heading",
          [](const PyAgentPath& self) {
            return std::string(DirectionName(self.path.start_heading()));
          },
          "Heading at the start ('N' for unoriented classes).")
      .def_property_readonly(
          "steps", [](const PyAgentPath& self) { return self.path.steps(); },
          "Forward and backward steps.")
      .def_property_readonly(
          "turns", [](const PyAgentPath& self) { return self.path.turns(); },
          "Turn increments (90 degrees with 4 headings, 45 with 8).")
      .def_property_readonly(
          "runs", [](const PyAgentPath& self) { return RunTuples(self.path); },
          "Runs as tuples: ('forward', heading, count), ('backward', "
          "heading, count) (facing `heading`, moving the other way), "
          "('turn', +1 clockwise / -1, count).")
      .def_property_readonly(
          "moves",
          [](const PyAgentPath& self) {
            return AgentRunsToString(self.path.runs());
          },
          "The runs as text: 'E3,R1,~N2' (~ backward, R/L turns).")
      .def_property_readonly(
          "merged",
          [](const PyAgentPath& self) { return self.oriented.merged; },
          "Oriented classes: staircases merged after the horizon.")
      .def("__repr__", [](const PyAgentPath& self) {
        return absl::StrCat("<zonepath.AgentPath ", self.agent, " ",
                            self.found ? "found" : "unreachable", " cost ",
                            self.path.cost(), ", ", self.path.steps(),
                            " steps, ", self.path.turns(), " turns>");
      });

  py::class_<PyAgentPlanner>(m, "AgentPlanner", R"doc(
Plans by agent class on an AgentWorld; one per thread (it keeps scratch
between queries), any number per world.)doc")
      .def(py::init([](const PyAgentWorld& world) {
             return std::make_unique<PyAgentPlanner>(world.world);
           }),
           py::arg("world"), "A planner on `world` (kept alive by it).")
      .def(
          "find_path",
          [](PyAgentPlanner& self, const std::string& agent,
             const py::handle& start, const py::handle& goal,
             const std::string& start_heading,
             const std::optional<std::string>& goal_heading, bool smooth,
             int follow_steps, bool merge_staircases) {
            AgentPlanOptions options;
            options.hierarchical.smooth = smooth;
            options.start_heading = HeadingFrom(start_heading, "start_heading");
            if (goal_heading.has_value()) {
              options.goal_heading = HeadingFrom(*goal_heading, "goal_heading");
            }
            options.follow_steps = follow_steps;
            options.merge_staircases = merge_staircases;
            const Point s = ToPoint(start, "start"), g = ToPoint(goal, "goal");
            auto result = std::make_unique<PyAgentPath>();
            result->agent = agent;
            absl::StatusOr<SearchOutcome> outcome = WithoutGil([&] {
              const std::lock_guard<std::mutex> one_query(self.busy());
              absl::StatusOr<SearchOutcome> found =
                  self.planner().FindPath(agent, s, g, options, &result->path);
              result->oriented = self.planner().oriented_stats();
              return found;
            });
            result->found =
                ValueOrRaise(std::move(outcome)) == SearchOutcome::kFound;
            return result;
          },
          py::arg("agent"), py::arg("start"), py::arg("goal"), py::kw_only(),
          py::arg("start_heading") = "N", py::arg("goal_heading") = py::none(),
          py::arg("smooth") = false,
          py::arg("follow_steps") = AgentPlanOptions().follow_steps,
          py::arg("merge_staircases") = AgentPlanOptions().merge_staircases,
          R"doc(
Plans for class `agent` from anchor `start` to anchor `goal` ((x, y): the
footprint's top-left cell) and returns an AgentPath.

start_heading / goal_heading: direction names ('N', 'E', ...; oriented
classes; goal_heading None = any); smooth: smooth the (guide) route;
follow_steps: route cells an oriented unit advances per bounded exact
search; merge_staircases: merge the staircases the horizon leaves. An
unknown class or an illegal endpoint raises zonepath.Error
(INVALID_ARGUMENT); a class the world was loaded without,
FAILED_PRECONDITION; an unreachable goal returns found == False.)doc");
}

}  // namespace zonepath::python
