// --threads (threads_flag.cc), checked: 1..kMaxThreads, or 0 (all cores)
// where the command allows it. Out of range is a usage error (exit 2).
//
//   ASSIGN_OR_RETURN(const int threads, ThreadsFromFlag(/*fallback=*/1));
#ifndef ZONEPATH_TOOLS_ZONEPATH_THREADS_FLAG_H_
#define ZONEPATH_TOOLS_ZONEPATH_THREADS_FLAG_H_

#include "absl/status/statusor.h"
#include "zonepath/base/parallel_chunks.h"

namespace zonepath::cli {

using ::zonepath::kMaxThreads;  // the library's clamp (parallel_chunks.h)

// The flag's value, or `fallback` when it is not given. 0 (all cores) is
// accepted only if `allow_all_cores`.
absl::StatusOr<int> ThreadsFromFlag(int fallback, bool allow_all_cores);

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_THREADS_FLAG_H_
