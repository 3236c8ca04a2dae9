// zonepath.PathStore and the path codecs (encode_path).
#include <string>

#include "absl/strings/str_cat.h"
#include "common.h"
#include "zonepath/paths/path_codec.h"
#include "zonepath/paths/path_store.h"

namespace zonepath::python {
namespace {

PathCodec CodecFrom(const std::string& name) {
  absl::StatusOr<PathCodec> codec = ParsePathCodec(name);
  if (!codec.ok()) {
    throw py::value_error(absl::StrCat(
        "codec must be one of run_length, turns, waypoints, raw_cells; got '",
        name, "'"));
  }
  return *codec;
}

// A path given as a zonepath.Path (anything with .start and .runs) or a
// (start, runs) pair.
RunLengthPath PathArgument(const py::object& path) {
  if (py::hasattr(path, "start") && py::hasattr(path, "runs")) {
    return PathFromRuns(ToPoint(path.attr("start"), "path.start"),
                        path.attr("runs"));
  }
  if (py::isinstance<py::tuple>(path) && py::len(path) == 2) {
    py::tuple pair = py::reinterpret_borrow<py::tuple>(path);
    return PathFromRuns(ToPoint(pair[0], "start"), pair[1]);
  }
  throw py::type_error("path must be a zonepath.Path or a (start, runs) pair");
}

}  // namespace

void BindStore(py::module_& m) {
  py::class_<PathStore>(m, "PathStore", R"doc(
The remaining paths of many units, encoded compactly (PathStore in C++).

codec: 'run_length' (default; best on game maps), 'turns' (winding paths of
short runs), 'waypoints' (corner cells, no decoding arithmetic) or
'raw_cells' (the baseline). Thread-safe: readers run in parallel, writers
one at a time.

    store = zonepath.PathStore("run_length")
    store.set(7, path)            # unit 7 follows `path`
    store.advance(7, 5)           # it walked 5 moves
    store.read(7, 32)             # its next 32 moves as (n, 2) runs
    store.memory_bytes
)doc")
      .def(py::init([](const std::string& codec) {
             PathStoreOptions options;
             options.codec = CodecFrom(codec);
             return std::make_unique<PathStore>(options);
           }),
           py::arg("codec") = "run_length",
           "An empty store encoding paths with `codec`.")
      .def(
          "set",
          [](PathStore& self, uint64_t unit, const py::object& path,
             int64_t max_steps) {
            ThrowIfError(self.Set(UnitId(unit), PathArgument(path), max_steps));
          },
          py::arg("unit"), py::arg("path"), py::arg("max_steps") = -1,
          "Stores `path` (a Path or a (start, runs) pair; only its first "
          "`max_steps` moves if >= 0) for `unit`, replacing its old path.")
      .def(
          "read",
          [](const PathStore& self, uint64_t unit, int64_t max_steps) {
            RunLengthPath out;
            ThrowIfError(self.Read(UnitId(unit), max_steps, &out));
            return RunsArray(out.runs());
          },
          py::arg("unit"), py::arg("max_steps") = -1,
          "The unit's next moves (all if max_steps < 0) as an (n, 2) runs "
          "array, from its position. zonepath.Error NOT_FOUND for a unit "
          "without a path.")
      .def(
          "advance",
          [](PathStore& self, uint64_t unit, int64_t steps) {
            ThrowIfError(self.Advance(UnitId(unit), steps));
          },
          py::arg("unit"), py::arg("steps"),
          "The unit walked its next `steps` moves (0..remaining).")
      .def(
          "position",
          [](const PathStore& self, uint64_t unit) {
            return FromPoint(ValueOrRaise(self.Position(UnitId(unit))));
          },
          py::arg("unit"), "The unit's current cell (x, y).")
      .def(
          "remaining",
          [](const PathStore& self, uint64_t unit) {
            return ValueOrRaise(self.RemainingSteps(UnitId(unit)));
          },
          py::arg("unit"), "Moves the unit has left.")
      .def(
          "cell_at",
          [](const PathStore& self, uint64_t unit, int64_t step) {
            return FromPoint(ValueOrRaise(self.CellAt(UnitId(unit), step)));
          },
          py::arg("unit"), py::arg("step"),
          "The cell the unit reaches after `step` more moves.")
      .def(
          "remove",
          [](PathStore& self, uint64_t unit) {
            return self.Remove(UnitId(unit));
          },
          py::arg("unit"), "Forgets the unit; False if it had no path.")
      .def("__contains__",
           [](const PathStore& self, uint64_t unit) {
             return self.Contains(UnitId(unit));
           })
      .def("__len__", [](const PathStore& self) { return self.Stats().units; })
      .def_property_readonly(
          "codec",
          [](const PathStore& self) {
            return std::string(PathCodecName(self.options().codec));
          },
          "The codec's name.")
      .def_property_readonly(
          "memory_bytes", &PathStore::MemoryUsage,
          "Every byte the store holds (arena, tables, the object).")
      .def_property_readonly(
          "stats",
          [](const PathStore& self) {
            const PathStoreStats s = self.Stats();
            py::dict d;
            d["units"] = s.units;
            d["segments"] = s.segments;
            d["pieces"] = s.pieces;
            d["remaining_steps"] = s.remaining_steps;
            d["encoded_bytes"] = s.encoded_bytes;
            d["memory_bytes"] = self.MemoryUsage();
            return d;
          },
          "units, segments, pieces, remaining_steps, encoded_bytes, "
          "memory_bytes.");

  m.attr("CODECS") =
      py::make_tuple("run_length", "turns", "waypoints", "raw_cells");
  m.def(
      "encode_path",
      [](const py::object& path, const std::string& codec) {
        std::string bytes;
        ThrowIfError(EncodePath(CodecFrom(codec), PathArgument(path), &bytes));
        return py::bytes(bytes);
      },
      py::arg("path"), py::arg("codec") = "run_length",
      "Encodes a path (a Path or a (start, runs) pair) with `codec`; "
      "len() of the result is its size in bytes.");
  m.def(
      "decode_path",
      [](const py::bytes& data) {
        const std::string bytes = data;
        const EncodedPath encoded = ValueOrRaise(EncodedPath::Parse(bytes));
        RunLengthPath path;
        ThrowIfError(DecodePath(encoded, &path));
        return py::make_tuple(FromPoint(path.start()), RunsArray(path.runs()));
      },
      py::arg("data"),
      "Decodes encode_path's bytes into (start, runs); zonepath.Error "
      "(DATA_LOSS) for corrupt bytes.");
}

}  // namespace zonepath::python
