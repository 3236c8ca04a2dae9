// The compact form of an abstraction, for files that hold many of them on
// one grid (agent worlds: zonepath/agents/agent_world.h).
//
// A world file stores every edge twice (once per direction) as 8 bytes:
// 16 bytes for each pair of beacons that reach each other inside a zone,
// which is most of a world's abstraction. But the build's costs are
// symmetric (moves and step costs are), a zone's nodes are a contiguous
// id range, and a zone's nodes that reach each other inside it form a
// clique. So the compact form keeps, per zone-local component, the upper
// triangle of its members' cost matrix (one float a pair), which
// components a zone's nodes are in (only for zones of more than one), and
// each border-crossing edge once (a, b, cost); edge_begin, the edges'
// order and flags, node_component and, where node n is beacon n,
// node_beacon follow from them. On the 1024² mixed terrain's seven
// classes the abstractions take 3.4x fewer bytes than in world files
// (README, "One world for every class").
//
//   absl::StatusOr<std::string> bytes = EncodeCompactAbstraction(
//       world.FlatAbstraction(), width, height, world.connection_tables());
//   if (bytes.ok()) {  // else: keep the world file form
//     absl::StatusOr<CompactWorld> back = DecodeCompactAbstraction(
//         *bytes, width, height, "w.zpa: class tank");
//     std::unique_ptr<ConnectionTables> tables = back->Tables();
//   }
//
// Encoding refuses (FailedPrecondition) an abstraction it cannot give back
// exactly: cached paths, costs that differ by direction, an edge missing
// inside a component, anything a decode would not reproduce array for
// array (it decodes and compares). A world's connection tables
// (connection_tables.h) ride along as the world file stores them.
// Decoding checks the layout (sizes, order, ranges, costs finite and > 0)
// before allocating, and allocates a small multiple of the encoded size
// (6.5x at most in a review's fuzzing); the abstraction it returns is
// structurally consistent but not yet validated against a grid: write it with
// WriteWorldWithoutGrid and parse it with ParseWorldOnGrid, which run the
// world file's checks.
#ifndef ZONEPATH_WORLD_COMPACT_ABSTRACTION_H_
#define ZONEPATH_WORLD_COMPACT_ABSTRACTION_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/world/abstraction.h"
#include "zonepath/world/connection_tables.h"

namespace zonepath {

// What the compact form holds: the abstraction and its connection tables.
struct CompactWorld {
  Abstraction flat;
  // Level j's table as the world file holds it (j from
  // ConnectionTables::kFirstLevel; empty: none): zone z's block is
  // table_values[j][table_begin[j][z] .. table_begin[j][z + 1]).
  std::array<std::vector<uint64_t>, ConnectionTables::kMaxLevel + 1>
      table_begin;
  std::array<std::vector<float>, ConnectionTables::kMaxLevel + 1> table_values;

  // Tables viewing the arrays above (null when there are none): they must
  // not outlive this object. Not yet validated against the abstraction
  // (ParseWorldOnGrid does, on the world file they are written into).
  std::unique_ptr<ConnectionTables> Tables() const;
};

inline constexpr char kCompactAbstractionMagic[8] = {'Z', 'P', 'C', 'O',
                                                     'M', 'P', 'A', 'B'};
inline constexpr uint32_t kCompactAbstractionVersion = 1;

// The compact bytes of `flat` (built on a width x height grid) and its
// `tables` (null: none), or FailedPrecondition naming why it has none.
absl::StatusOr<std::string> EncodeCompactAbstraction(
    const Abstraction& flat, int32_t width, int32_t height,
    const ConnectionTables* tables = nullptr);

// The abstraction and tables `bytes` hold, for a width x height grid;
// DataLoss naming `name`, the level and the field when they are not what
// the encoder writes.
absl::StatusOr<CompactWorld> DecodeCompactAbstraction(absl::string_view bytes,
                                                      int32_t width,
                                                      int32_t height,
                                                      absl::string_view name);

}  // namespace zonepath

#endif  // ZONEPATH_WORLD_COMPACT_ABSTRACTION_H_
