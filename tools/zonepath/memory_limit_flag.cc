// --memory_limit: gen, build and the commands that load a world file.
#include <cstdint>

#include "absl/flags/flag.h"

ABSL_FLAG(uint64_t, memory_limit, 0,
          "bytes of memory the command may count on: work estimated to need "
          "more (gen: 4 bytes a cell; build: 4.5 bytes per byte of map; "
          "loading: the world file's size) is refused up front, naming the "
          "bytes (0: the memory available now, MemAvailable)");
