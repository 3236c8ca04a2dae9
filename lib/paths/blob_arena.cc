#include "blob_arena.h"

#include <bit>
#include <cstring>

namespace zonepath::paths_internal {

BlobArena::~BlobArena() {
  for (uint8_t* block : large_blocks_) delete[] block;
}

int BlobArena::ClassOf(size_t size, size_t* rounded) {
  if (size <= 128) {
    *rounded = (size + 7) & ~size_t{7};
    if (*rounded == 0) *rounded = 8;
    return static_cast<int>(*rounded / 8) - 1;  // 0..15
  }
  // 2^p < size <= 2^(p+1): eight classes, 2^(p-3) bytes apart.
  const int p = std::bit_width(size - 1) - 1;  // >= 7
  const size_t step = size_t{1} << (p - 3);
  const size_t k = (size + step - 1) / step;  // 9..16
  *rounded = k * step;
  return 16 + (p - 7) * 8 + static_cast<int>(k - 9);
}

uint8_t* BlobArena::Allocate(size_t size) {
  size_t rounded = 0;
  if (size > kLargestClass) {
    large_bytes_ += size;
    used_bytes_ += size;
    uint8_t* block = new uint8_t[size];
    large_blocks_.insert(block);
    return block;
  }
  const int c = ClassOf(size, &rounded);
  used_bytes_ += rounded;
  if (uint8_t* block = free_lists_[c]) {
    std::memcpy(&free_lists_[c], block, sizeof(uint8_t*));
    return block;
  }
  if (chunk_used_ + rounded > kChunkBytes) {
    chunks_.push_back(std::make_unique<uint8_t[]>(kChunkBytes));
    chunk_used_ = 0;
  }
  uint8_t* block = chunks_.back().get() + chunk_used_;
  chunk_used_ += rounded;
  return block;
}

void BlobArena::Free(uint8_t* block, size_t size) {
  if (size > kLargestClass) {
    large_bytes_ -= size;
    used_bytes_ -= size;
    large_blocks_.erase(block);
    delete[] block;
    return;
  }
  size_t rounded = 0;
  const int c = ClassOf(size, &rounded);
  used_bytes_ -= rounded;
  std::memcpy(block, &free_lists_[c], sizeof(uint8_t*));
  free_lists_[c] = block;
}

size_t BlobArena::MemoryUsage() const {
  return sizeof(*this) + chunks_.size() * kChunkBytes +
         chunks_.capacity() * sizeof(chunks_[0]) + large_bytes_ +
         large_blocks_.capacity() * (sizeof(uint8_t*) + 1);
}

}  // namespace zonepath::paths_internal
