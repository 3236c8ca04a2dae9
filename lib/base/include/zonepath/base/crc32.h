// CRC-32 (zlib's polynomial) over any number of bytes, in pieces: the
// checksum of world files and agent world files.
//
//   uint32_t crc = Crc32(header, sizeof(header));
//   crc = Crc32(body.data(), body.size(), crc);  // continues
#ifndef ZONEPATH_BASE_CRC32_H_
#define ZONEPATH_BASE_CRC32_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace zonepath {

// The CRC-32 of `size` bytes at `data` (any size: fed to zlib in pieces
// that fit its 32-bit length), continuing `crc` (0 to start).
uint32_t Crc32(const void* data, uint64_t size, uint32_t crc = 0);
inline uint32_t Crc32(absl::string_view bytes, uint32_t crc = 0) {
  return Crc32(bytes.data(), bytes.size(), crc);
}

}  // namespace zonepath

#endif  // ZONEPATH_BASE_CRC32_H_
