#include "zonepath/grid/open_cost_bits.h"

#include <bit>
#include <cstring>

#include "zonepath/grid/grid.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace zonepath {
namespace {

// Bit i of the result: byte i of the 8 costs at `data` is open (not
// kBlocked = 0).
uint64_t OpenByteBits(const uint8_t* data) {
  static_assert(kBlocked == 0);
  if constexpr (std::endian::native == std::endian::little) {
    uint64_t v;
    std::memcpy(&v, data, 8);
    // The high bit of each byte: set iff the byte is not 0.
    const uint64_t high =
        (((v & 0x7F7F7F7F7F7F7F7Full) + 0x7F7F7F7F7F7F7F7Full) | v) &
        0x8080808080808080ull;
    // Gather the eight high bits into the top byte, byte i as bit i.
    return ((high >> 7) * 0x0102040810204080ull) >> 56;
  } else {
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits |= uint64_t{data[i] != 0} << i;
    return bits;
  }
}

}  // namespace

// 64 cells a step, written as one word's worth of bits, then 16, and a
// span of at least 16 cells ends with one 16-byte read of its last 16
// bytes (inside the span) for the 1..15 cells left; 8 a step and then one
// at a time without SSE2.
void OrOpenCostBits(const uint8_t* data, size_t n, uint32_t at, uint64_t* row) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  // Bit j of the result: byte j of the 16 at `at` is open (64 bits wide,
  // so that the shifts by 32 and 48 below are defined).
  const auto open16 = [&](const uint8_t* at) -> uint64_t {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    return ~static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero))) &
           0xFFFFu;
  };
  for (; i + 64 <= n; i += 64, at += 64) {
    const uint64_t bits = open16(data + i) | open16(data + i + 16) << 16 |
                          open16(data + i + 32) << 32 |
                          open16(data + i + 48) << 48;
    // Bits at .. at + 63, all below the span's end.
    OrBitsAt(row, at, bits, 64);
  }
  for (; i + 16 <= n; i += 16, at += 16) {
    OrBitsAt(row, at, open16(data + i), 16);
  }
  if (i < n && n >= 16) {
    // The last 1..15 cells: the 16 bytes that end with them (some of them
    // already done), shifted down to the first cell not done.
    const uint32_t rest = static_cast<uint32_t>(n - i);
    OrBitsAt(row, at, open16(data + n - 16) >> (16 - rest), rest);
    return;
  }
#endif
  for (; i + 8 <= n; i += 8, at += 8) {
    OrBitsAt(row, at, OpenByteBits(data + i), 8);
  }
  for (; i < n; ++i, ++at) {
    row[at >> 6] |= uint64_t{data[i] != kBlocked} << (at & 63);
  }
}

}  // namespace zonepath
