// -o, the output file of `build` (a world) and `render` (a PNG).
#include <string>

#include "absl/flags/flag.h"

ABSL_FLAG(std::string, o, "", "output file (required)");
