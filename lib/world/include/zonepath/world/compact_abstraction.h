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
//   absl::StatusOr<std::string> bytes =
//       EncodeCompactAbstraction(flat, width, height);
//   if (bytes.ok()) {  // else: keep the world file form
//     absl::StatusOr<Abstraction> back = DecodeCompactAbstraction(
//         *bytes, width, height, "w.zpa: class tank");
//   }
//
// Encoding refuses (FailedPrecondition) an abstraction it cannot give back
// exactly: cached paths, costs that differ by direction, an edge missing
// inside a component, anything a decode would not reproduce array for
// array (it decodes and compares). Connection tables are not part of an
// Abstraction: a world that has them is not described by this form.
// Decoding checks the layout (sizes, order, ranges, costs finite and > 0)
// before allocating, and allocates a small multiple of the encoded size
// (about 6x at most, measured); the abstraction it returns is structurally
// consistent but not yet validated against a grid: write it with
// WriteWorldWithoutGrid and parse it with ParseWorldOnGrid, which run the
// world file's checks.
#ifndef ZONEPATH_WORLD_COMPACT_ABSTRACTION_H_
#define ZONEPATH_WORLD_COMPACT_ABSTRACTION_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/world/abstraction.h"

namespace zonepath {

inline constexpr char kCompactAbstractionMagic[8] = {'Z', 'P', 'C', 'O',
                                                     'M', 'P', 'A', 'B'};
inline constexpr uint32_t kCompactAbstractionVersion = 1;

// The compact bytes of `flat` (built on a width x height grid), or
// FailedPrecondition naming why it has none.
absl::StatusOr<std::string> EncodeCompactAbstraction(const Abstraction& flat,
                                                     int32_t width,
                                                     int32_t height);

// The abstraction `bytes` hold, for a width x height grid; DataLoss naming
// `name`, the level and the field when they are not what the encoder
// writes.
absl::StatusOr<Abstraction> DecodeCompactAbstraction(absl::string_view bytes,
                                                     int32_t width,
                                                     int32_t height,
                                                     absl::string_view name);

}  // namespace zonepath

#endif  // ZONEPATH_WORLD_COMPACT_ABSTRACTION_H_
