#include "zonepath/base/memory_info.h"

#include <fstream>
#include <string>

namespace zonepath {

std::optional<uint64_t> AvailableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    std::getline(in, unit);
  }
  return std::nullopt;
}

}  // namespace zonepath
