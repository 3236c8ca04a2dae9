// Flags of the hierarchical planner shared by `scen` and `query`.
#include "absl/flags/flag.h"

ABSL_FLAG(bool, smooth, false, "hpa: smooth the refined paths");
