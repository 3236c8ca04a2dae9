// AgentClass: one kind of unit — what each terrain type costs it, how big it
// is, and how it may move. Every planner query can name a class; the default
// class is today's single unit (one cell, 8-connected, cost = terrain byte).
//
// Terrain types. A grid cell holds one byte, its terrain *type*. Type 0 is
// blocked for every class (so a class can never reach what the grid's own
// components say is unreachable). A class maps each type 1..255 to a cost
// multiplier 1..255, or to 0 = impassable for this class (a boat: only water;
// a tank: never forest). The default class maps type t to cost t, which is
// exactly the cost rule of moves.h.
//
// Footprint and anchor. A unit covers a `width` x `length` rectangle of cells
// (1 <= width, length <= kMaxFootprint). Its position is its *anchor*: the
// covered rectangle's top-left (smallest x, smallest y) cell. An unoriented
// unit never turns: it covers x in [ax, ax + width), y in [ay, ay + length).
// An oriented unit has a heading; `length` runs along the heading:
//   heading N or S:  x in [ax, ax + width),  y in [ay, ay + length)
//   heading E or W:  x in [ax, ax + length), y in [ay, ay + width)
//   diagonal heading (8-headed classes): the m x m square, m = max(w, l).
// A position is legal when every covered cell is in the grid and passable for
// the class; its class cost is the largest multiplier among covered cells.
//
// Moves (the rules every class-aware search and path check applies):
//  - A step in direction d from anchor p to q = p + d keeps the heading. It
//    is legal when q is legal; a diagonal step also needs both orthogonal
//    positions p + (dx, 0) and p + (0, dy) legal (the no-corner-cutting rule
//    of moves.h applied to whole footprints, so the cells swept by the
//    diagonal are covered). It costs StepCost(d, class cost at p, class cost
//    at q) — the rule of moves.h — times backward_factor for a backward step.
//  - An oriented unit steps forward (d = heading) or backward (d = opposite
//    of heading) only, 4-headed units orthogonally, 8-headed ones also
//    diagonally. An unoriented unit steps in any of its 4 or 8 directions.
//  - A turn in place rotates the heading by one increment (90 degrees with 4
//    headings, 45 with 8). It sweeps the m x m square at the anchor
//    (m = max(width, length)), which must be legal; it costs turn_cost,
//    whatever the terrain.
//
//   AgentClass tank = AgentClass::Default();
//   tank.name = "tank";
//   tank.width = tank.length = 3;
//   tank.cost_of_type[kForestType] = 0;     // never enters forest
//   Rect covered = tank.Covers({10, 4}, Direction::kN);
#ifndef ZONEPATH_AGENTS_AGENT_CLASS_H_
#define ZONEPATH_AGENTS_AGENT_CLASS_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "zonepath/grid/direction.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/grid/grid.h"
#include "zonepath/grid/moves.h"

namespace zonepath {

struct AgentClass {
  // Largest footprint side, in cells.
  static constexpr int kMaxFootprint = 8;

  // The single unit of every earlier release: 1 x 1, 8-connected,
  // unoriented, cost_of_type[t] = t.
  static AgentClass Default();

  std::string name = "default";
  // cost_of_type[t]: multiplier of terrain type t (0 = impassable).
  // cost_of_type[0] is always 0.
  std::array<uint8_t, 256> cost_of_type{};
  int width = 1;   // cells across the heading, 1..kMaxFootprint
  int length = 1;  // cells along the heading, 1..kMaxFootprint
  Connectivity connectivity = Connectivity::kEight;

  // Oriented units: state = anchor x heading. Headings are N, E, S, W for a
  // 4-connected class and all eight directions for an 8-connected one. A
  // forward step moves one cell along the heading, a backward step one cell
  // against it; a turn in place rotates by one heading (90 or 45 degrees).
  bool oriented = false;
  double backward_factor = 1.0;  // a backward step costs this x a forward one
  double turn_cost = 1.0;        // per 90-degree (4 headings) or 45-degree
                                 // (8 headings) turn in place, cost units

  int HeadingCount() const {
    return !oriented ? 1 : connectivity == Connectivity::kFour ? 4 : 8;
  }

  // The rectangle a unit anchored at `anchor` covers with `heading`
  // (ignored when unoriented).
  Rect Covers(Point anchor, Direction heading = Direction::kN) const {
    int w = width;
    int h = length;
    if (oriented) {
      if (IsDiagonal(heading)) {
        w = h = std::max(width, length);
      } else if (heading == Direction::kE || heading == Direction::kW) {
        std::swap(w, h);
      }
    }
    return {anchor.x, anchor.y, anchor.x + w, anchor.y + h};
  }
  // The square a turn in place at `anchor` sweeps.
  Rect TurnSweep(Point anchor) const {
    const int m = std::max(width, length);
    return {anchor.x, anchor.y, anchor.x + m, anchor.y + m};
  }
};

// OK if the class's footprint sides are in 1..kMaxFootprint, else
// InvalidArgument naming the class (every class-aware search and grid
// checks it before indexing by the footprint).
absl::Status CheckFootprint(const AgentClass& agent);

// Class cost of the cells in `rect`: the largest cost_of_type among them, or
// 0 if one is outside the grid or impassable for the class. O(rect area).
uint8_t RectCost(const Grid& grid, const AgentClass& agent, const Rect& rect);

// RectCost's scan without its bounds check, for searches that check bounds
// their own way: requires `rect` inside the grid and not empty.
inline uint8_t RectCostInGrid(const Grid& grid, const AgentClass& agent,
                              const Rect& rect) {
  uint8_t worst = 0;
  for (int32_t y = rect.y0; y < rect.y1; ++y) {
    const uint32_t row =
        static_cast<uint32_t>(y) * static_cast<uint32_t>(grid.width());
    for (int32_t x = rect.x0; x < rect.x1; ++x) {
      const uint8_t c = agent.cost_of_type[grid.cost(
          CellIndex(row + static_cast<uint32_t>(x)))];
      if (c == 0) return 0;
      worst = std::max(worst, c);
    }
  }
  return worst;
}

// Class cost of the position (anchor, heading): 0 if illegal. An anchor
// outside the grid is illegal before its footprint is computed (so one
// near INT32_MAX, read from a file, cannot overflow the footprint's ends).
inline uint8_t PositionCost(const Grid& grid, const AgentClass& agent,
                            Point anchor, Direction heading = Direction::kN) {
  if (!grid.InBounds(anchor)) return 0;
  return RectCost(grid, agent, agent.Covers(anchor, heading));
}

}  // namespace zonepath

#endif  // ZONEPATH_AGENTS_AGENT_CLASS_H_
