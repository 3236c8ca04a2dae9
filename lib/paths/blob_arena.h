// BlobArena: pooled storage for the PathStore's encoded paths (internal).
//
// Blobs are rounded up to a size class (8-byte steps up to 128 bytes, then
// eight classes per doubling, so at most 12.5% is lost to rounding above
// 128 bytes) and carved from 64 KiB chunks; freed blocks go to an intrusive
// free list per class and are reused, so a store in steady state allocates
// nothing. Blobs above 16 KiB get a block of their own. Not thread-safe: the
// PathStore's lock guards it.
#ifndef ZONEPATH_PATHS_BLOB_ARENA_H_
#define ZONEPATH_PATHS_BLOB_ARENA_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_set.h"

namespace zonepath::paths_internal {

class BlobArena {
 public:
  static constexpr size_t kChunkBytes = 64 * 1024;
  static constexpr size_t kLargestClass = 16 * 1024;

  BlobArena() = default;
  BlobArena(const BlobArena&) = delete;
  BlobArena& operator=(const BlobArena&) = delete;
  ~BlobArena();

  // A block of at least `size` bytes (size >= 1).
  uint8_t* Allocate(size_t size);
  // Returns a block from Allocate(size) with the same size.
  void Free(uint8_t* block, size_t size);

  // Bytes held from the system: chunks, large blocks and bookkeeping.
  size_t MemoryUsage() const;
  // Bytes handed out (rounded to classes) and not freed.
  size_t used_bytes() const { return used_bytes_; }

  // The size class of `size`: its index and rounded size.
  static int ClassOf(size_t size, size_t* rounded);

 private:
  static constexpr int kClassCount = 72;

  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  size_t chunk_used_ = kChunkBytes;  // bytes carved from the last chunk
  uint8_t* free_lists_[kClassCount] = {};
  absl::flat_hash_set<uint8_t*> large_blocks_;  // owned; freed by ~BlobArena
  size_t large_bytes_ = 0;
  size_t used_bytes_ = 0;
};

}  // namespace zonepath::paths_internal

#endif  // ZONEPATH_PATHS_BLOB_ARENA_H_
