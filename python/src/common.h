// Helpers shared by the Python bindings: statuses as exceptions, points and
// runs to and from NumPy.
#ifndef ZONEPATH_PYTHON_COMMON_H_
#define ZONEPATH_PYTHON_COMMON_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/grid/path.h"

namespace zonepath::python {

namespace py = pybind11;

// Raises zonepath.Error (code attribute: "INVALID_ARGUMENT", ...) carrying
// the status message.
[[noreturn]] void RaiseStatus(const absl::Status& status);

inline void ThrowIfError(const absl::Status& status) {
  if (!status.ok()) RaiseStatus(status);
}
template <typename T>
T ValueOrRaise(absl::StatusOr<T> value) {
  if (!value.ok()) RaiseStatus(value.status());
  return *std::move(value);
}

// fn() run with the GIL released, so other Python threads go on meanwhile;
// returns what fn returns. fn must not touch Python objects.
template <typename Fn>
auto WithoutGil(Fn&& fn) {
  py::gil_scoped_release release;
  return fn();
}

// (x, y) from any 2-sequence of ints; ValueError naming `what` otherwise.
Point ToPoint(const py::handle& value, const char* what);
inline py::tuple FromPoint(Point p) { return py::make_tuple(p.x, p.y); }

// Runs as an (n, 2) int64 array of (direction 0..7, count).
py::array_t<int64_t> RunsArray(const std::vector<Run>& runs);
// Every cell from the start, (steps + 1, 2) int64 array of (x, y).
py::array_t<int64_t> CellsArray(const RunLengthPath& path);
// Rebuilds a path from a start and an (n, 2) runs array.
RunLengthPath PathFromRuns(Point start, const py::handle& runs);

// `values` (an array or nested lists) as a C-contiguous int64 array;
// ValueError naming `what` when its elements are not integers (NumPy's
// cast would truncate 0.5 to 0 and NaN to INT64_MIN).
py::array_t<int64_t, py::array::c_style> IntegerArray(const py::object& values,
                                                      const char* what);

// A thread count from Python: 0 = all cores, else 1..; ValueError below 0
// (as the C API's InvalidArgument).
int ThreadsArg(int threads);

// Registration of each part of the module.
void BindWorld(py::module_& m);
void BindPlanner(py::module_& m);
void BindStore(py::module_& m);
void BindRender(py::module_& m);
void BindAgents(py::module_& m);

}  // namespace zonepath::python

#endif  // ZONEPATH_PYTHON_COMMON_H_
