// Refusing work that cannot fit in memory before allocating it: a command
// estimates what it will need and compares with the memory available now,
// so `gen --width 65536 --height 65535` on a small machine is a message,
// not an abort part-way through allocating 17 GB.
//
//   RETURN_IF_ERROR(CheckAvailableMemory(cells * 4, "a 65536x65535 map"));
#ifndef ZONEPATH_TOOLS_ZONEPATH_MEMORY_BUDGET_H_
#define ZONEPATH_TOOLS_ZONEPATH_MEMORY_BUDGET_H_

#include <unistd.h>

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "zonepath/base/memory_info.h"

namespace zonepath::cli {

// Bytes of physical memory (0 if unknown).
inline uint64_t PhysicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

// ResourceExhausted if `bytes` exceed `limit` (bytes; 0: the memory
// available now, MemAvailable, or physical memory where that cannot be
// read). The message names both figures.
inline absl::Status CheckAvailableMemory(uint64_t bytes,
                                         const std::string& what,
                                         uint64_t limit = 0) {
  const uint64_t have =
      limit > 0 ? limit
                : AvailableMemoryBytes().value_or(PhysicalMemoryBytes());
  if (have == 0 || bytes <= have) return absl::OkStatus();
  return absl::ResourceExhaustedError(
      absl::StrCat(what, " needs about ", bytes, " bytes of memory, ", have,
                   limit > 0 ? " bytes are allowed (--memory_limit)"
                             : " bytes are available"));
}

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_MEMORY_BUDGET_H_
