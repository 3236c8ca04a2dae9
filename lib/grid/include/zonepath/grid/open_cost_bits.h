// Open cells as bits, from a grid's costs: the packing every bit image of
// the grid (a search window's OpenBits, a grid's OpenCellTiles) is made
// with.
//
//   std::vector<uint64_t> row((width + 63) / 64, 0);
//   OrOpenCostBits(costs, width, 0, row.data());  // bit x: cell x is open
#ifndef ZONEPATH_GRID_OPEN_COST_BITS_H_
#define ZONEPATH_GRID_OPEN_COST_BITS_H_

#include <cstddef>
#include <cstdint>

namespace zonepath {

// Ors the low `count` bits of `bits` (count <= 64, the rest 0) into `row`
// from bit `at` on: one word, or two when they cross a word's end.
inline void OrBitsAt(uint64_t* row, uint32_t at, uint64_t bits,
                     uint32_t count) {
  row[at >> 6] |= bits << (at & 63);
  if ((at & 63) + count > 64) row[(at >> 6) + 1] |= bits >> (64 - (at & 63));
}

// Ors the open bits of the n costs at `data` (bit j set: cost j is not
// kBlocked) into `row` from bit `at` on; the row's words must cover bit
// at + n - 1. 64 cells a step where SSE2 is there (every x86-64).
void OrOpenCostBits(const uint8_t* data, size_t n, uint32_t at, uint64_t* row);

}  // namespace zonepath

#endif  // ZONEPATH_GRID_OPEN_COST_BITS_H_
