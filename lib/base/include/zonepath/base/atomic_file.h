// Atomic file output: write to a temporary file beside the target, then
// rename it over the target, so readers and interrupted runs never see a
// half-written file under the final name. Only a regular file (or nothing)
// at the target is replaced; the data and the rename are fsynced before
// success is reported.
//
//   RETURN_IF_ERROR(WriteFileAtomically("out.map", [&](std::ostream& out) {
//     out << "type octile\n";
//     return absl::OkStatus();
//   }));
#ifndef ZONEPATH_BASE_ATOMIC_FILE_H_
#define ZONEPATH_BASE_ATOMIC_FILE_H_

#include <functional>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace zonepath {

// Calls `write` on a stream to a temporary file in the same directory as
// `path`; if it returns OK and the stream has no error, flushes and renames
// the file to `path`. On any failure the temporary file is removed and
// `path` is left as it was.
absl::Status WriteFileAtomically(
    const std::string& path,
    const std::function<absl::Status(std::ostream&)>& write);

// Removes the temporary files of writes in progress. Async-signal-safe
// (only unlink), for a SIGINT / SIGTERM handler, so that an interrupted
// tool leaves no OUT.tmp.PID.N behind (SIGKILL cannot be caught).
void RemovePendingTempFiles();

}  // namespace zonepath

#endif  // ZONEPATH_BASE_ATOMIC_FILE_H_
