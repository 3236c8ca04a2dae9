// --threads, shared by `build` (default: all cores) and `scen` (default: 1).
#include <optional>

#include "absl/flags/flag.h"

ABSL_FLAG(std::optional<int32_t>, threads, std::nullopt,
          "worker threads (build: default all cores; scen: default 1, one "
          "planner per thread)");
