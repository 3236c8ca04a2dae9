// How GridAStar holds path costs in SearchNode::g (internal to the search
// library: grid_astar.cc and jump_points.cc).
#ifndef ZONEPATH_SEARCH_PATH_COSTS_H_
#define ZONEPATH_SEARCH_PATH_COSTS_H_

#include <bit>
#include <cstdint>
#include <limits>

#include "zonepath/grid/moves.h"

namespace zonepath::search_internal {

constexpr double kHalfSqrt2 = 0.5 * kSqrt2;

// How a search holds path costs in SearchNode::g.
//
// A step between cells of terrain costs a and b costs (a + b) / 2 straight
// and (a + b) / 2 * sqrt2 diagonally, so every path cost is (A + B sqrt2) / 2
// for integers A (the sums of straight steps) and B (of diagonal ones).
// PairCost keeps g as exactly that pair, A | B << 32: equal costs are equal
// bit for bit, and so are the f = g + h of nodes on one f contour (h is a
// pair too), so ties really go to the larger g. Summed as doubles, equal
// costs reached along different paths differ in the last bits and ties
// break at random: 4-11 % more expansions on the MovingAI maps. A and B
// grow by at most 2 x 255 per step and a path has fewer steps than the
// bounds have cells, so PairCost serves bounds of up to kMaxPairCells cells
// and DoubleCost (g as a double) larger ones.
struct PairCost {
  static constexpr int64_t kMaxPairCells = 0xFFFFFFFEll / 510;
  static constexpr uint64_t kUnreached = ~uint64_t{0};  // above any real g

  static uint64_t Add(uint64_t g, int d, uint32_t cost_sum) {
    return g + (uint64_t{cost_sum} << ((d & 1) * 32));  // odd d: diagonal
  }
  // a and b are below 2^63: signed conversions are one instruction.
  static double Value(uint64_t a, uint64_t b) {
    return static_cast<double>(static_cast<int64_t>(a)) * 0.5 +
           static_cast<double>(static_cast<int64_t>(b)) * kHalfSqrt2;
  }
  static double Value(uint64_t g) { return Value(g & 0xFFFFFFFFu, g >> 32); }
  // `steps` steps in direction d, each of cost sum cost_sum.
  static uint64_t AddSteps(uint64_t g, int d, uint32_t cost_sum,
                           uint32_t steps) {
    return g + (uint64_t{cost_sum} * steps << ((d & 1) * 32));
  }
  static bool Equal(uint64_t g, uint64_t other) { return g == other; }
};

struct DoubleCost {
  static constexpr uint64_t kUnreached =
      std::bit_cast<uint64_t>(std::numeric_limits<double>::infinity());

  static uint64_t Add(uint64_t g, int d, uint32_t cost_sum) {
    // StepCost exactly: halving is exact in binary floating point.
    return std::bit_cast<uint64_t>(std::bit_cast<double>(g) +
                                   static_cast<double>(cost_sum) *
                                       ((d & 1) != 0 ? kHalfSqrt2 : 0.5));
  }
  static uint64_t AddSteps(uint64_t g, int d, uint32_t cost_sum,
                           uint32_t steps) {
    return std::bit_cast<uint64_t>(std::bit_cast<double>(g) +
                                   static_cast<double>(cost_sum) * steps *
                                       ((d & 1) != 0 ? kHalfSqrt2 : 0.5));
  }
  static double Value(uint64_t g) { return std::bit_cast<double>(g); }
  // "Equally short" up to rounding.
  static bool Equal(uint64_t g, uint64_t other) {
    return Value(g) <= Value(other) + 1e-9 * Value(other);
  }
};

}  // namespace zonepath::search_internal

#endif  // ZONEPATH_SEARCH_PATH_COSTS_H_
