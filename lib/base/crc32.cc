#include "zonepath/base/crc32.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

namespace zonepath {

uint32_t Crc32(const void* data, uint64_t size, uint32_t crc) {
  uLong c = crc;
  const auto* bytes = static_cast<const Bytef*>(data);
  while (size > 0) {
    const uInt chunk = static_cast<uInt>(
        std::min<uint64_t>(size, std::numeric_limits<uInt>::max()));
    c = crc32(c, bytes, chunk);
    bytes += chunk;
    size -= chunk;
  }
  return static_cast<uint32_t>(c);
}

}  // namespace zonepath
