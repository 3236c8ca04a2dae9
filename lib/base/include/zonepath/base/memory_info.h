// What the machine can still give: for refusing work that cannot fit up
// front, with a message naming the bytes, instead of an allocation abort.
//
//   std::optional<uint64_t> free = AvailableMemoryBytes();
//   if (free && needed > *free) return absl::ResourceExhaustedError(...);
#ifndef ZONEPATH_BASE_MEMORY_INFO_H_
#define ZONEPATH_BASE_MEMORY_INFO_H_

#include <cstdint>
#include <optional>

namespace zonepath {

// MemAvailable from /proc/meminfo in bytes; nullopt where it cannot be read
// (not Linux, no /proc).
std::optional<uint64_t> AvailableMemoryBytes();

}  // namespace zonepath

#endif  // ZONEPATH_BASE_MEMORY_INFO_H_
