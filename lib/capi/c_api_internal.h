// Internals of the C API: the handle structs behind the opaque pointers,
// error reporting into the thread's last error, and the guard that keeps
// C++ exceptions from crossing the C boundary.
#ifndef ZONEPATH_CAPI_C_API_INTERNAL_H_
#define ZONEPATH_CAPI_C_API_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "cursor_step.h"
#include "zonepath/grid/path.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/paths/path_store.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/world/world.h"
#include "zonepath/zonepath.h"

struct zonepath_world {
  explicit zonepath_world(zonepath::World w) : world(std::move(w)) {}
  zonepath::World world;
};

struct zonepath_planner {
  explicit zonepath_planner(const zonepath::World& w) : planner(w) {}
  zonepath::Planner planner;
  zonepath::RunLengthPath path;  // the last find_path's path
  uint64_t generation = 0;       // +1 per find_path/plan
  bool planned = false;          // the last call was a successful plan
};

struct zonepath_cursor {
  zonepath_cursor(zonepath_planner* p, zonepath::PathCursor c)
      : owner(p),
        generation(p->generation),
        cursor(c),
        more(zonepath::bindings::CursorHasMoves(c)) {}
  zonepath_planner* owner;
  uint64_t generation;
  zonepath::PathCursor cursor;
  zonepath::RunLengthPath pending;  // moves produced but not yet handed out
  size_t pending_next = 0;          // first run of `pending` not handed out
  bool more;                        // the cursor has moves left
};

struct zonepath_store {
  explicit zonepath_store(const zonepath::PathStoreOptions& options)
      : store(options) {}
  zonepath::PathStore store;
};

namespace zonepath::capi {

// Records `status` as the thread's last error and returns its code.
zonepath_status Fail(const absl::Status& status);
// Fail(InvalidArgument(StrCat(args...))).
template <typename... Args>
zonepath_status InvalidArgument(const Args&... args) {
  return Fail(absl::InvalidArgumentError(absl::StrCat(args...)));
}
// Reports `status` (OK or not) with the C function's name in front of its
// message: "zonepath_store_read: unit 9 has no path".
zonepath_status ReportIn(const char* function, const absl::Status& status);
// Resets the last error; returns ZONEPATH_OK.
zonepath_status Succeed();
// Hands a new handle made from `value` to the caller through `out`, or
// reports its error with the C function's name.
template <typename Handle, typename T>
zonepath_status Deliver(absl::StatusOr<T> value, const char* function,
                        Handle** out) {
  if (!value.ok()) return ReportIn(function, value.status());
  *out = new Handle(*std::move(value));
  return Succeed();
}

// Empties `path` (at `start`; an AgentPath heading N) when it goes out of
// scope, unless `keep` was set: a failed query, by an error or by an
// exception half-way through the search, never leaves a stale or partial
// path.
template <typename Path>
struct EmptyPathUnlessKept {
  Path* path;
  Point start;
  bool keep = false;
  ~EmptyPathUnlessKept() {
    if (!keep) path->Reset(start);
  }
};

inline zonepath_outcome ToOutcome(SearchOutcome outcome) {
  return outcome == SearchOutcome::kFound ? ZONEPATH_FOUND
                                          : ZONEPATH_UNREACHABLE;
}

// Runs `body` (returning zonepath_status), turning an escaping exception
// into ZONEPATH_INTERNAL / RESOURCE_EXHAUSTED instead of crossing into C.
template <typename Body>
zonepath_status Guard(const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(absl::ResourceExhaustedError(
        absl::StrCat(function, ": out of memory")));
  } catch (const std::exception& e) {
    return Fail(absl::InternalError(absl::StrCat(function, ": ", e.what())));
  } catch (...) {
    return Fail(absl::InternalError(absl::StrCat(function, ": exception")));
  }
}

// A caller's versioned struct: non-NULL with struct_size covering at least
// `oldest_size` bytes (the struct's first published layout; sizeof(T) for
// structs that never grew). Fields past struct_size are the caller's
// memory: see Fits().
template <typename T>
zonepath_status CheckStruct(const T* value, const char* function,
                            const char* name, size_t oldest_size = sizeof(T)) {
  if (value == nullptr)
    return InvalidArgument(function, ": ", name, " is NULL");
  if (value->struct_size < oldest_size) {
    return InvalidArgument(function, ": ", name, "->struct_size is ",
                           value->struct_size, ", expected >= ", oldest_size,
                           " (fill it with its _init function or sizeof)");
  }
  return ZONEPATH_OK;
}

// True if the caller's struct (struct_size bytes) holds `field`, a member
// added after the struct's first layout.
template <typename T, typename Field>
bool Fits(const T& value, const Field& field) {
  const size_t end =
      static_cast<size_t>(reinterpret_cast<const char*>(&field) -
                          reinterpret_cast<const char*>(&value)) +
      sizeof(Field);
  return value.struct_size >= end;
}

// The caller-buffer convention: size query (NULL, 0), or a buffer of at
// least `count` elements. Sets *needed when given.
zonepath_status CheckBuffer(const void* buffer, size_t capacity, size_t* needed,
                            size_t count, const char* function,
                            const char* name);

zonepath_status CheckPoint(const zonepath_point& p, const char* function,
                           const char* name);

// Converts (and range-checks, through ValidateBuildParams) C build
// parameters; NULL means defaults.
zonepath_status ToBuildOptions(const zonepath_build_params* params,
                               const char* function, BuildOptions* options);

}  // namespace zonepath::capi

#define ZONEPATH_C_CHECK(expr)         \
  do {                                 \
    const zonepath_status _s = (expr); \
    if (_s != ZONEPATH_OK) return _s;  \
  } while (0)

#define ZONEPATH_C_NOT_NULL(ptr, function)                            \
  do {                                                                \
    if ((ptr) == nullptr) {                                           \
      return ::zonepath::capi::InvalidArgument(function,              \
                                               ": " #ptr " is NULL"); \
    }                                                                 \
  } while (0)

#endif  // ZONEPATH_CAPI_C_API_INTERNAL_H_
