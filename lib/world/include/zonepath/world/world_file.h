// The world file: one self-contained, versioned binary holding the grid and
// every abstraction level.
//
// Layout (little-endian): a fixed header (magic "ZONEPATH", format version,
// endianness mark, build parameters, grid size, section count, CRC-32 of the
// header), a section table (kind, level, offset, size, CRC-32 of the bytes),
// then the sections: the grid's cost bytes, the beacon cells, and per level
// the CSR arrays of AbstractLevel (plus cached paths when built with them).
// Sections are the canonical flat arrays (Abstraction) byte for byte, so
// loading is a bulk read, a validation pass and a copy into pages
// (SharedAbstraction), with no per-edge parsing. Saving an updated world
// writes its canonical layout (SharedAbstraction::ToFlat): the same bytes
// as a full build of its grid.
//
// Loading checks everything before use and returns
//   kDataLoss            truncated file, checksum mismatch, inconsistent data
//   kFailedPrecondition  wrong magic (not a world file), version or endianness
//   kNotFound            missing file
// with the file name and the failing field in the message. Sizes read from
// the file are checked against the file's real size before any allocation.
//
//   RETURN_IF_ERROR(SaveWorldFile(world, "map.zpw"));      // atomic
//   ASSIGN_OR_RETURN(World loaded, LoadWorldFile("map.zpw"));
#ifndef ZONEPATH_WORLD_WORLD_FILE_H_
#define ZONEPATH_WORLD_WORLD_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/world/world.h"

namespace zonepath {

inline constexpr uint32_t kWorldFormatVersion = 1;

// Bytes of each part of a serialised world, for reports.
struct WorldFileSizes {
  uint64_t total = 0;
  uint64_t header = 0;  // header and section table
  uint64_t grid = 0;
  uint64_t abstraction = 0;  // beacons and level arrays
  uint64_t cached_paths = 0;
};

std::string SerializeWorld(const World& world, WorldFileSizes* sizes = nullptr);
// `name` is used in error messages. verify_checksums = false is for fuzzing
// the structural validation behind the checksums; it must still never crash.
absl::StatusOr<World> ParseWorld(absl::string_view bytes,
                                 absl::string_view name = "<memory>",
                                 bool verify_checksums = true);

absl::Status SaveWorldFile(const World& world, const std::string& path,
                           WorldFileSizes* sizes = nullptr);
absl::StatusOr<World> LoadWorldFile(const std::string& path,
                                    WorldFileSizes* sizes = nullptr);

// Byte offsets at which sections start (for truncation tests).
std::vector<uint64_t> WorldSectionOffsets(absl::string_view bytes);

}  // namespace zonepath

#endif  // ZONEPATH_WORLD_WORLD_FILE_H_
