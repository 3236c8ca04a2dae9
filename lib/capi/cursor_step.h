// The one place zonepath's bindings (C API and Python) drive a PathCursor,
// so that a change of PathCursor::Next's signature is adapted here only.
#ifndef ZONEPATH_CAPI_CURSOR_STEP_H_
#define ZONEPATH_CAPI_CURSOR_STEP_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "zonepath/grid/path.h"
#include "zonepath/runtime/planner.h"

namespace zonepath::bindings {

// Appends at least `min_steps` moves of the cursor's path to `out` (fewer
// only at its end). Returns whether moves remain after them; an error ends
// the path (the moves appended before it are legal).
inline absl::StatusOr<bool> CursorStep(PathCursor& cursor, int64_t min_steps,
                                       RunLengthPath* out) {
  if (absl::Status status = cursor.Next(min_steps, out); !status.ok()) {
    return status;
  }
  return !cursor.done();
}

// Whether a fresh cursor has moves to yield.
inline bool CursorHasMoves(const PathCursor& cursor) { return !cursor.done(); }

}  // namespace zonepath::bindings

#endif  // ZONEPATH_CAPI_CURSOR_STEP_H_
