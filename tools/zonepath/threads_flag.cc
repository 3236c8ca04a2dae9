// --threads, shared by `build` (default: all cores), `scen` and `changes`
// (default: 1).
#include "threads_flag.h"

#include <optional>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"

ABSL_FLAG(std::optional<int32_t>, threads, std::nullopt,
          "worker threads, 1..256 (build: default all cores, 0 = all cores; "
          "scen, changes: default 1, one planner per thread)");

namespace zonepath::cli {

absl::StatusOr<int> ThreadsFromFlag(int fallback, bool allow_all_cores) {
  const int threads = absl::GetFlag(FLAGS_threads).value_or(fallback);
  const int low = allow_all_cores ? 0 : 1;
  if (threads < low || threads > kMaxThreads) {
    return absl::OutOfRangeError(absl::StrCat(
        "--threads must be in ", low, "..", kMaxThreads, ", got ", threads));
  }
  return threads;
}

}  // namespace zonepath::cli
