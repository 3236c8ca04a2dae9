// The zonepath._zonepath extension module: errors, conversions, and the
// registration of worlds, planners, path stores and rendering.
#include <string>

#include "absl/strings/str_cat.h"
#include "common.h"
#include "zonepath/grid/direction.h"

namespace zonepath::python {
namespace {

py::object& ErrorType() {
  static py::object* type = nullptr;
  if (type == nullptr) type = new py::object();  // lives as long as Python
  return *type;
}

std::string CodeName(absl::StatusCode code) {
  std::string name = absl::StatusCodeToString(code);
  for (char& c : name) {
    if (c == ' ') c = '_';
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return name;
}

}  // namespace

void RaiseStatus(const absl::Status& status) {
  py::object error = ErrorType()(std::string(status.message()));
  error.attr("code") = CodeName(status.code());
  PyErr_SetObject(ErrorType().ptr(), error.ptr());
  throw py::error_already_set();
}

namespace {

// One coordinate of a point, or false.
bool Coordinate(PyObject* item, int32_t* out) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  if (overflow != 0 || v < INT32_MIN || v > INT32_MAX) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

}  // namespace

Point ToPoint(const py::handle& value, const char* what) {
  // Tuples and lists directly (the common case, and find_path's hot path);
  // any other sequence (e.g. a NumPy row) through the sequence protocol.
  PyObject* seq = PySequence_Fast(value.ptr(), "");
  if (seq != nullptr) {
    Point p;
    const bool ok = PySequence_Fast_GET_SIZE(seq) == 2 &&
                    Coordinate(PySequence_Fast_GET_ITEM(seq, 0), &p.x) &&
                    Coordinate(PySequence_Fast_GET_ITEM(seq, 1), &p.y);
    Py_DECREF(seq);
    if (ok) return p;
  } else {
    PyErr_Clear();
  }
  throw py::value_error(
      absl::StrCat(what, " must be an (x, y) pair of integers, got ",
                   std::string(py::repr(value))));
}

py::array_t<int64_t> RunsArray(const std::vector<Run>& runs) {
  py::array_t<int64_t> out(
      {static_cast<py::ssize_t>(runs.size()), py::ssize_t{2}});
  auto view = out.mutable_unchecked<2>();
  for (size_t i = 0; i < runs.size(); ++i) {
    view(i, 0) = static_cast<int64_t>(runs[i].direction);
    view(i, 1) = runs[i].count;
  }
  return out;
}

py::array_t<int64_t> CellsArray(const RunLengthPath& path) {
  py::array_t<int64_t> out(
      {static_cast<py::ssize_t>(path.steps() + 1), py::ssize_t{2}});
  auto view = out.mutable_unchecked<2>();
  Point at = path.start();
  py::ssize_t i = 0;
  view(i, 0) = at.x;
  view(i++, 1) = at.y;
  for (const Run& run : path.runs()) {
    for (uint32_t k = 0; k < run.count; ++k) {
      at = {at.x + Dx(run.direction), at.y + Dy(run.direction)};
      view(i, 0) = at.x;
      view(i++, 1) = at.y;
    }
  }
  return out;
}

RunLengthPath PathFromRuns(Point start, const py::handle& runs) {
  py::array_t<int64_t, py::array::c_style | py::array::forcecast> array =
      py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(
          runs);
  if (!array || array.ndim() != 2 || array.shape(1) != 2) {
    throw py::value_error(
        "runs must be an (n, 2) array of (direction 0..7, count >= 1)");
  }
  // Like the path codecs: cells inside 0..65535 (a grid's largest side),
  // at most 2^32 - 1 moves in all, so no caller walks an unbounded path.
  const auto outside = [](int64_t v) { return v < 0 || v > 65535; };
  if (outside(start.x) || outside(start.y)) {
    throw py::value_error(absl::StrCat("path start (", start.x, ", ", start.y,
                                       ") is outside 0..65535"));
  }
  RunLengthPath path;
  path.Reset(start);
  int64_t x = start.x, y = start.y, steps = 0;
  auto view = array.unchecked<2>();
  for (py::ssize_t i = 0; i < array.shape(0); ++i) {
    const int64_t d = view(i, 0), count = view(i, 1);
    if (d < 0 || d > 7 || count < 1 || count > UINT32_MAX) {
      throw py::value_error(absl::StrCat("runs[", i, "] = (", d, ", ", count,
                                         "): expected direction 0..7 and "
                                         "count >= 1"));
    }
    const Direction direction = static_cast<Direction>(d);
    x += Dx(direction) * count;
    y += Dy(direction) * count;
    steps += count;
    if (outside(x) || outside(y)) {
      throw py::value_error(absl::StrCat(
          "runs[", i, "]: the path leaves the coordinate range 0..65535"));
    }
    if (steps > UINT32_MAX) {
      throw py::value_error(absl::StrCat(
          "runs[", i, "]: a path holds at most 2^32-1 moves, got ", steps));
    }
    path.Append(direction, static_cast<uint32_t>(count));
  }
  return path;
}

py::array_t<int64_t, py::array::c_style> IntegerArray(const py::object& values,
                                                      const char* what) {
  const py::array raw = py::module_::import("numpy").attr("asarray")(values);
  const char kind = raw.dtype().kind();
  if (raw.size() > 0 && kind != 'i' && kind != 'u' && kind != 'b') {
    throw py::value_error(absl::StrCat(what, " must hold integers, got dtype ",
                                       std::string(py::str(raw.dtype()))));
  }
  auto array =
      py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(
          raw);
  if (!array) {
    throw py::value_error(absl::StrCat(what, " must be an integer array"));
  }
  return array;
}

int ThreadsArg(int threads) {
  if (threads < 0) {
    throw py::value_error(
        absl::StrCat("threads must be >= 0 (0 = all cores), got ", threads));
  }
  return threads;
}

}  // namespace zonepath::python

PYBIND11_MODULE(_zonepath, m) {
  namespace zp = zonepath::python;
  namespace py = pybind11;
  m.doc() =
      "zonepath: hierarchical path planning on very large grid worlds.\n\n"
      "Build or load a World, plan with a Planner (one per thread) or with\n"
      "plan_batch (many queries on a thread pool, GIL released), keep unit\n"
      "paths in a PathStore, draw with render(). Errors raise\n"
      "zonepath.Error whose .code is the status name (e.g.\n"
      "'INVALID_ARGUMENT') and whose message names the file or field.";
  zp::ErrorType() = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "zonepath.Error",
      "A zonepath operation failed. .code is the status name "
      "('INVALID_ARGUMENT', 'NOT_FOUND', 'DATA_LOSS', ...); str(error) is "
      "the message, naming the file, line or field at fault.",
      PyExc_RuntimeError, nullptr));
  m.attr("Error") = zp::ErrorType();
  m.attr("DIRECTIONS") =
      py::make_tuple("N", "NE", "E", "SE", "S", "SW", "W", "NW");
  zp::BindWorld(m);
  zp::BindPlanner(m);
  zp::BindStore(m);
  zp::BindRender(m);
  zp::BindAgents(m);
}
