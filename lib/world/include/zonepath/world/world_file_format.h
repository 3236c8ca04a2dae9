// The world file's binary layout (version kWorldFormatVersion), in one place
// for the loader, the saver and tools that take files apart (the
// structure-aware fuzzer repairs checksums after rewriting fields). Most
// code wants world_file.h instead.
//
//   FileHeader header;                       // 64 bytes at offset 0
//   std::memcpy(&header, bytes.data(), sizeof(header));
//   // then header.section_count SectionEntry records, 32 bytes each
#ifndef ZONEPATH_WORLD_WORLD_FILE_FORMAT_H_
#define ZONEPATH_WORLD_WORLD_FILE_FORMAT_H_

#include <cstdint>

namespace zonepath::world_format {

inline constexpr char kMagic[8] = {'Z', 'O', 'N', 'E', 'P', 'A', 'T', 'H'};
inline constexpr uint32_t kEndianMark = 0x01020304;
// Since version 2 every section starts at a multiple of kSectionAlign (zero
// bytes pad the gaps), so a mapped file's arrays can be used in place.
// Version 1 files (sections packed back to back) are still read.
inline constexpr uint64_t kSectionAlign = 4096;
inline constexpr uint32_t kFirstAlignedVersion = 2;

struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t endian_mark;
  uint32_t header_bytes;  // sizeof(FileHeader)
  uint32_t section_count;
  int32_t width;
  int32_t height;
  int32_t zone_size;
  int32_t levels;
  int32_t group;
  int32_t entrance_threshold;
  uint32_t connectivity;
  uint32_t cache_paths;
  // Since version 5 (0 before: the field was reserved, always 0).
  uint32_t beacon_spacing;
  uint32_t header_crc;  // CRC-32 of header + section table, this field 0
};
static_assert(sizeof(FileHeader) == 64);

enum SectionKind : uint32_t {
  kGrid = 1,           // uint8_t per cell, row by row
  kBeacons = 2,        // BeaconCell per beacon (Point before version 4)
  kNodeBeacon = 3,     // per level: uint32_t per node
  kEdgeBegin = 4,      // per level: uint32_t per node + 1
  kEdges = 5,          // per level: AbstractEdge (8 bytes)
  kZoneNodeBegin = 6,  // per level: uint32_t per zone + 1
  kNodeComponent = 7,  // per level: uint32_t per node
  kPathBegin = 8,      // level 1: uint32_t per edge + 1
  kPathRuns = 9,       // level 1: CachedPaths::PackRun
  // Since version 3, the grid's component labels (Grid::StoredComponents),
  // so loading need not label every cell again.
  kLabelTiles = 10,   // Grid::TileLabels (16 bytes) per 64 x 64 label tile
  kLabelCells = 11,   // the tiles' packed tile-local labels
  kLabelGlobal = 12,  // uint32_t global component per tile-local one
  kGridSummary = 13,  // one GridSummary
  // Since version 6, optional, per level >= 3 (both or neither): the
  // connection tables (connection_tables.h).
  kConnectionBegin = 14,  // per level: uint64_t per zone + 1
  kConnectionCosts = 15,  // per level: float per (node, member) pair
};
inline constexpr uint32_t kFirstLabelledVersion = 3;
// Since version 4: beacons are BeaconCell (4 bytes, not Point), and a label
// tile labels its cells by global component, not by tile-local piece
// (Grid::StoredComponents). Version 3 labels are not read (the loader
// labels the cells again).
inline constexpr uint32_t kFirstCompactVersion = 4;
// Since version 5: FileHeader::beacon_spacing (reserved, 0, before). Files
// of worlds without spacing are still written as version 4.
inline constexpr uint32_t kFirstSpacedVersion = 5;
// Since version 6: connection tables (kConnectionBegin/Costs). Files of
// worlds without tables are still written as version 4 or 5.
inline constexpr uint32_t kFirstTabledVersion = 6;

// Counts the grid keeps exact under changes without a scan of its cells.
struct GridSummary {
  int64_t cost_counts[256];  // cells of each cost (0 = blocked)
  uint32_t component_count;
  uint32_t reserved;  // 0
};
static_assert(sizeof(GridSummary) == 2056);

// The section's name as messages print it ("edges"), "unknown" otherwise.
inline const char* SectionName(uint32_t kind) {
  constexpr const char* kNames[] = {
      "unknown",      "grid",         "beacons",          "node_beacon",
      "edge_begin",   "edges",        "zone_node_begin",  "node_component",
      "path_begin",   "path_runs",    "label_tiles",      "label_cells",
      "label_global", "grid_summary", "connection_begin", "connection_costs"};
  return kind <= kConnectionCosts ? kNames[kind] : kNames[0];
}

struct SectionEntry {
  uint32_t kind;
  uint32_t level;  // 1-based level, 0 for world-wide sections
  uint64_t offset;
  uint64_t size;
  uint32_t crc;  // CRC-32 of the section's bytes
  uint32_t reserved;
};
static_assert(sizeof(SectionEntry) == 32);

}  // namespace zonepath::world_format

#endif  // ZONEPATH_WORLD_WORLD_FILE_FORMAT_H_
