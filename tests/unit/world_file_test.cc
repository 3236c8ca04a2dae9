// The world file: round trips, and every kind of damage is a clear status,
// never a crash (truncation at every section boundary, byte flips, foreign
// files, wrong version), plus atomic saving.
#include "zonepath/world/world_file.h"

#include <zlib.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "random_grids.h"
#include "zonepath/base/atomic_file.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"
#include "zonepath/update/build_connection_tables.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world_file_format.h"

namespace zonepath {
namespace {

using ::testing::HasSubstr;

World SmallWorld(bool cache_paths, int32_t beacon_spacing = 0,
                 bool tables = true) {
  MapGenOptions g;
  g.kind = MapKind::kRooms;
  g.width = 70;
  g.height = 50;
  g.feature = 9;
  BuildOptions o;
  o.params.zone_size = 8;
  o.params.levels = 3;
  o.params.group = 2;
  o.params.cache_paths = cache_paths;
  o.params.beacon_spacing = beacon_spacing;
  o.connection_tables = tables;
  o.threads = 2;
  return *BuildWorld(*GenerateMap(g), o);
}

TEST(WorldFileTest, RoundTripsByteForByte) {
  for (bool cache : {false, true}) {
    const World world = SmallWorld(cache);
    WorldFileSizes sizes;
    const std::string bytes = SerializeWorld(world, &sizes);
    EXPECT_EQ(sizes.total, bytes.size());
    EXPECT_EQ(sizes.grid, 70u * 50u);
    EXPECT_EQ(sizes.cached_paths > 0, cache);
    absl::StatusOr<World> back = ParseWorld(bytes);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(SerializeWorld(*back), bytes);
    EXPECT_EQ(back->grid().component_count(), world.grid().component_count());
    EXPECT_EQ(back->abstraction().levels.size(), 3u);
  }
}

TEST(WorldFileTest, TruncationAtEverySectionBoundaryIsDataLoss) {
  const std::string bytes = SerializeWorld(SmallWorld(true));
  std::vector<uint64_t> cuts = WorldSectionOffsets(bytes);
  ASSERT_GT(cuts.size(), 10u);
  for (uint64_t c : std::vector<uint64_t>(cuts)) {
    if (c > 0) cuts.push_back(c - 1);
    cuts.push_back(c + 1);
  }
  cuts.push_back(0);
  cuts.push_back(7);
  cuts.push_back(bytes.size() - 1);
  for (uint64_t cut : cuts) {
    if (cut >= bytes.size()) continue;
    absl::StatusOr<World> w = ParseWorld(bytes.substr(0, cut), "cut.zpw");
    ASSERT_FALSE(w.ok()) << "cut at " << cut;
    EXPECT_TRUE(w.status().code() == absl::StatusCode::kDataLoss ||
                w.status().code() == absl::StatusCode::kFailedPrecondition)
        << w.status();
    EXPECT_THAT(std::string(w.status().message()), HasSubstr("cut.zpw"));
  }
}

TEST(WorldFileTest, RandomByteFlipsAreDetected) {
  const std::string bytes = SerializeWorld(SmallWorld(true));
  std::mt19937_64 rng(1);
  for (int i = 0; i < 400; ++i) {
    std::string damaged = bytes;
    const size_t at = rng() % damaged.size();
    damaged[at] = static_cast<char>(damaged[at] ^ (1 + rng() % 255));
    absl::StatusOr<World> w = ParseWorld(damaged);
    EXPECT_FALSE(w.ok()) << "flip at byte " << at << " went unnoticed";
  }
}

TEST(WorldFileTest, DamageBehindTheChecksumsIsStillCaught) {
  // With checksums off, structural validation alone must reject (or safely
  // accept) damaged files: this runs under ASan/UBSan in CI.
  const std::string bytes = SerializeWorld(SmallWorld(true));
  std::mt19937_64 rng(2);
  int rejected = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string damaged = bytes;
    for (int k = 0; k < 4; ++k) {
      const size_t at = 64 + rng() % (damaged.size() - 64);
      damaged[at] = static_cast<char>(rng());
    }
    rejected += !ParseWorld(damaged, "x", /*verify_checksums=*/false).ok();
  }
  EXPECT_GT(rejected, 0);
}

TEST(WorldFileTest, ForeignAndWrongVersionFiles) {
  std::string bytes = SerializeWorld(SmallWorld(false));
  EXPECT_EQ(ParseWorld("type octile\nheight 3\n").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ParseWorld("").status().code(), absl::StatusCode::kDataLoss);
  std::string wrong_version = bytes;
  const uint32_t version = kWorldFormatVersion + 1;
  std::memcpy(wrong_version.data() + 8, &version, 4);
  absl::StatusOr<World> w = ParseWorld(wrong_version);
  EXPECT_EQ(w.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(w.status().message()), HasSubstr("version"));
  std::string wrong_endian = bytes;
  const uint32_t swapped = 0x04030201;
  std::memcpy(wrong_endian.data() + 12, &swapped, 4);
  EXPECT_EQ(ParseWorld(wrong_endian).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

uint32_t VersionOf(const std::string& b) {
  uint32_t v;
  std::memcpy(&v, b.data() + offsetof(world_format::FileHeader, version),
              sizeof v);
  return v;
}

// A world without beacon spacing or connection tables is written as
// version 4 (readable by the builds before spacing existed); one with
// spacing as version 5, which keeps it. A version-4 file with anything in
// that field, or a version-5 file with a spacing its zone size does not
// allow, is DataLoss.
TEST(WorldFileTest, BeaconSpacingIsVersionFive) {
  const std::string plain =
      SerializeWorld(SmallWorld(false, 0, /*tables=*/false));
  EXPECT_EQ(VersionOf(plain), 4u);
  const std::string bytes =
      SerializeWorld(SmallWorld(false, 3, /*tables=*/false));
  EXPECT_EQ(VersionOf(bytes), 5u);
  const absl::StatusOr<World> back = ParseWorld(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->params().beacon_spacing, 3);
  EXPECT_EQ(SerializeWorld(*back), bytes);

  const size_t at = offsetof(world_format::FileHeader, beacon_spacing);
  std::string old = plain;
  const uint32_t three = 3, one = 1;
  std::memcpy(old.data() + at, &three, 4);
  absl::StatusOr<World> w = ParseWorld(old, "old.zpw", false);
  EXPECT_EQ(w.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(w.status().message()),
              HasSubstr("beacon_spacing 3 in a version-4 file"));
  std::string small = bytes;
  std::memcpy(small.data() + at, &one, 4);
  w = ParseWorld(small, "small.zpw", false);
  EXPECT_EQ(w.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(w.status().message()),
              HasSubstr("beacon_spacing 1 not 0 or in 2..1024"));
}

// The byte offset of section (kind, level)'s entry in the section table,
// or 0 if the file has none.
size_t SectionEntryAt(const std::string& bytes, uint32_t kind, uint32_t level) {
  uint32_t sections;
  std::memcpy(&sections, bytes.data() + 20, 4);
  for (uint32_t s = 0; s < sections; ++s) {
    const size_t at = 64 + size_t{s} * 32;
    uint32_t k, l;
    std::memcpy(&k, bytes.data() + at, 4);
    std::memcpy(&l, bytes.data() + at + 4, 4);
    if (k == kind && l == level) return at;
  }
  return 0;
}

// Sets field `field` (0 kind, 1 level) of section (kind, level)'s entry.
void SetSectionEntry(std::string* bytes, uint32_t kind, uint32_t level,
                     int field, uint32_t value) {
  const size_t at = SectionEntryAt(*bytes, kind, level);
  ASSERT_NE(at, 0u) << "no section " << kind << " level " << level;
  std::memcpy(bytes->data() + at + 4 * field, &value, 4);
}

// Shortens section (kind, level) by `drop` bytes, which become (zero)
// padding.
void DropSectionTail(std::string* bytes, uint32_t kind, uint32_t level,
                     uint32_t drop) {
  const size_t at = SectionEntryAt(*bytes, kind, level);
  ASSERT_NE(at, 0u) << "no section " << kind << " level " << level;
  uint32_t size;
  uint64_t offset;
  std::memcpy(&size, bytes->data() + at + 16, 4);
  std::memcpy(&offset, bytes->data() + at + 8, 8);
  SetSectionEntry(bytes, kind, level, 4, size - drop);
  std::memset(bytes->data() + offset + size - drop, 0, drop);
}

// Overwrites element `index` of section (kind, level) with `value`; the
// caller parses without checksums to reach the structural checks.
void PokeSection(std::string* bytes, uint32_t kind, uint32_t level,
                 size_t index, uint32_t value) {
  const size_t at = SectionEntryAt(*bytes, kind, level);
  ASSERT_NE(at, 0u) << "no section " << kind << " level " << level;
  uint64_t offset;
  std::memcpy(&offset, bytes->data() + at + 8, 8);
  std::memcpy(bytes->data() + offset + index * 4, &value, 4);
}

// Fields the runtime indexes by must be consistent, not just in range (the
// loader fuzzer found a component label pointing past the nodes).
TEST(WorldFileTest, InconsistentNodeFieldsAreDataLoss) {
  const World world = SmallWorld(false);
  const std::string good = SerializeWorld(world);
  constexpr uint32_t kNodeBeacon = 3, kNodeComponent = 7;
  // Two level-1 nodes of one zone: node i claiming beacon i + 1 passes the
  // zone check and must fail the identity check.
  const AbstractLevel l1 = world.FlatAbstraction().levels[0];
  uint32_t i = 0;
  for (uint32_t z = 0; z < l1.zone_count(); ++z) {
    if (l1.zone_node_begin[z + 1] - l1.zone_node_begin[z] >= 2) {
      i = l1.zone_node_begin[z];
      break;
    }
  }
  const std::string not_beacon = absl::StrCat("is beacon ", i + 1);
  struct Case {
    uint32_t kind, level, index, value;
    const char* message;
  };
  for (const Case& c : {Case{kNodeComponent, 1, 3, 1u << 30, "component"},
                        Case{kNodeComponent, 2, 0, 1, "component"},
                        Case{kNodeBeacon, 1, i, i + 1, not_beacon.c_str()}}) {
    std::string bytes = good;
    PokeSection(&bytes, c.kind, c.level, c.index, c.value);
    absl::StatusOr<World> world =
        ParseWorld(bytes, "poked", /*verify_checksums=*/false);
    ASSERT_FALSE(world.ok()) << c.message;
    EXPECT_EQ(world.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(world.status().message(), HasSubstr(c.message));
  }
  EXPECT_TRUE(ParseWorld(good, "good", /*verify_checksums=*/false).ok());
}

TEST(WorldFileTest, HugeLengthFieldsDoNotAllocate) {
  // A valid-looking header claiming a huge section table must fail fast.
  std::string bytes = SerializeWorld(SmallWorld(false));
  const uint32_t sections = 0x7FFFFFFF;
  std::memcpy(bytes.data() + 20, &sections, 4);
  EXPECT_EQ(ParseWorld(bytes).status().code(), absl::StatusCode::kDataLoss);
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A temporary directory removed at the end of a test.
struct TempDir {
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / name) {
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string File(const std::string& name) const {
    return (path / name).string();
  }
  std::filesystem::path path;
};

TEST(WorldFileTest, SectionsStartOnPageBoundaries) {
  const std::string bytes = SerializeWorld(SmallWorld(true));
  const std::vector<uint64_t> offsets = WorldSectionOffsets(bytes);
  ASSERT_GT(offsets.size(), 2u);
  for (size_t i = 1; i < offsets.size(); ++i) {
    EXPECT_EQ(offsets[i] % world_format::kSectionAlign, 0u) << "section " << i;
  }
  // A section moved off its boundary is refused (checksums off: the
  // structural check alone).
  std::string moved = bytes;
  uint64_t offset;
  std::memcpy(&offset, moved.data() + 64 + 8, 8);
  offset += 8;
  std::memcpy(moved.data() + 64 + 8, &offset, 8);
  absl::StatusOr<World> w = ParseWorld(moved, "moved.zpw", false);
  EXPECT_EQ(w.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(w.status().message()), HasSubstr("not a multiple"));
}

TEST(WorldFileTest, MappedLoadViewsTheFileAndResavesTheSameBytes) {
  const TempDir dir("zonepath_world_map_test");
  for (bool cache : {false, true}) {
    const World world = SmallWorld(cache);
    const std::string path = dir.File("w.zpw");
    ASSERT_TRUE(SaveWorldFile(world, path).ok());
    const std::string bytes = ReadAll(path);
    absl::StatusOr<World> mapped = LoadWorldFile(path);
    ASSERT_TRUE(mapped.ok()) << mapped.status();
    // The grid and every abstraction section view the mapping (the begin
    // and end offset arrays share a section, one entry apart).
    const std::vector<uint64_t> offsets = WorldSectionOffsets(bytes);
    const size_t sections = offsets.size() - 1;
    EXPECT_GE(mapped->MappedBytes(), 70u * 50u);
    EXPECT_LE(mapped->MappedBytes(), bytes.size());
    EXPECT_GE(mapped->MappedBytes() + sections * 4096, bytes.size() - 4096);
    EXPECT_EQ(SerializeWorld(*mapped), bytes);
    LoadOptions copy;
    copy.map = false;
    absl::StatusOr<World> read = LoadWorldFile(path, copy);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(read->MappedBytes(), 0u);
    EXPECT_EQ(SerializeWorld(*read), bytes);
    // Owned bytes leave the mapped arrays out; the copy owns them.
    EXPECT_GE(read->OwnedBytes() - mapped->OwnedBytes(), mapped->MappedBytes());
    LoadOptions unverified;
    unverified.verify_checksums = false;
    absl::StatusOr<World> fast = LoadWorldFile(path, unverified);
    ASSERT_TRUE(fast.ok()) << fast.status();
    EXPECT_EQ(SerializeWorld(*fast), bytes);
  }
}

// The same file as an older format `version` (2 or 3): beacons as 8-byte
// Points (a new section at the end; the old bytes zeroed), version 2
// without the component label sections, the header and checksums redone.
std::string AsOlderVersion(const std::string& current, uint32_t version) {
  using namespace world_format;  // NOLINT: the layout under test
  std::string bytes = current;
  FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  std::vector<SectionEntry> kept;
  for (uint32_t i = 0; i < header.section_count; ++i) {
    SectionEntry e;
    std::memcpy(&e, bytes.data() + sizeof(header) + i * sizeof(e), sizeof(e));
    if (e.kind == kBeacons) {
      std::vector<Point> points(e.size / sizeof(BeaconCell));
      for (size_t b = 0; b < points.size(); ++b) {
        BeaconCell cell;
        std::memcpy(&cell, bytes.data() + e.offset + b * sizeof(cell),
                    sizeof(cell));
        points[b] = cell;
      }
      std::memset(bytes.data() + e.offset, 0, e.size);
      bytes.resize((bytes.size() + kSectionAlign - 1) / kSectionAlign *
                   kSectionAlign);
      e.offset = bytes.size();
      e.size = points.size() * sizeof(Point);
      bytes.append(reinterpret_cast<const char*>(points.data()), e.size);
      e.crc = static_cast<uint32_t>(crc32(
          crc32(0L, nullptr, 0), reinterpret_cast<const Bytef*>(points.data()),
          static_cast<uInt>(e.size)));
    }
    if (version == kFirstLabelledVersion && e.kind == kLabelGlobal) {
      // Version 3 labels are not read: zeroed, they would be refused.
      std::memset(bytes.data() + e.offset, 0, e.size);
      e.crc = static_cast<uint32_t>(
          crc32(crc32(0L, nullptr, 0),
                reinterpret_cast<const Bytef*>(bytes.data() + e.offset),
                static_cast<uInt>(e.size)));
    }
    if (version < kFirstLabelledVersion && e.kind >= kLabelTiles &&
        e.kind <= kGridSummary) {
      std::memset(bytes.data() + e.offset, 0, e.size);
    } else {
      kept.push_back(e);
    }
  }
  std::memset(bytes.data() + sizeof(header), 0,
              header.section_count * sizeof(SectionEntry));
  std::memcpy(bytes.data() + sizeof(header), kept.data(),
              kept.size() * sizeof(SectionEntry));
  header.version = version;
  header.section_count = static_cast<uint32_t>(kept.size());
  header.header_crc = 0;
  std::memcpy(bytes.data(), &header, sizeof(header));
  header.header_crc = static_cast<uint32_t>(crc32(
      crc32(0L, nullptr, 0), reinterpret_cast<const Bytef*>(bytes.data()),
      static_cast<uInt>(sizeof(header) + kept.size() * sizeof(SectionEntry))));
  std::memcpy(bytes.data(), &header, sizeof(header));
  return bytes;
}

// The bytes with section `kind`'s first 8 bytes (level 0) replaced by
// `first8`, its checksum and the header's redone.
std::string WithSectionStart(const std::string& in, uint32_t kind,
                             const char (&first8)[8]) {
  using namespace world_format;  // NOLINT: the layout under test
  std::string bytes = in;
  FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  for (uint32_t i = 0; i < header.section_count; ++i) {
    SectionEntry e;
    char* at = bytes.data() + sizeof(header) + i * sizeof(e);
    std::memcpy(&e, at, sizeof(e));
    if (e.kind != kind || e.level != 0 || e.size < 8) continue;
    std::memcpy(bytes.data() + e.offset, first8, 8);
    e.crc = static_cast<uint32_t>(
        crc32(crc32(0L, nullptr, 0),
              reinterpret_cast<const Bytef*>(bytes.data() + e.offset),
              static_cast<uInt>(e.size)));
    std::memcpy(at, &e, sizeof(e));
  }
  header.header_crc = 0;
  std::memcpy(bytes.data(), &header, sizeof(header));
  header.header_crc = static_cast<uint32_t>(
      crc32(crc32(0L, nullptr, 0), reinterpret_cast<const Bytef*>(bytes.data()),
            static_cast<uInt>(sizeof(header) +
                              header.section_count * sizeof(SectionEntry))));
  std::memcpy(bytes.data(), &header, sizeof(header));
  return bytes;
}

// Version 4 stores the component labels in canonical form (a loaded world
// answers from them without labelling its cells; the mapped load views
// them). Version 2 files, without labels, and version 3 files (labels by
// tile piece, beacons as Points) still load, labelling the cells again.
TEST(WorldFileTest, ComponentLabelsAreStoredAndOlderFilesStillLoad) {
  const TempDir dir("zonepath_world_labels_test");
  for (uint64_t seed : {1u, 2u, 3u}) {
    MapGenOptions g;
    g.kind = seed == 2 ? MapKind::kMaze : MapKind::kRooms;
    g.width = 150;
    g.height = 140;
    g.seed = seed;
    BuildOptions o;
    o.params.zone_size = 16;
    o.threads = 1;
    const World world = *BuildWorld(*GenerateMap(g), o);
    WorldFileSizes sizes;
    const std::string bytes = SerializeWorld(world, &sizes);
    EXPECT_GT(sizes.components, 0u);
    EXPECT_GE(sizes.total,
              sizes.header + sizes.grid + sizes.components + sizes.abstraction);
    absl::StatusOr<World> back = ParseWorld(bytes);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(back->grid().SameComponentsAs(world.grid())) << seed;
    const std::string path = dir.File("w.zpw");
    ASSERT_TRUE(SaveWorldFile(world, path).ok());
    absl::StatusOr<World> mapped = LoadWorldFile(path);
    ASSERT_TRUE(mapped.ok()) << mapped.status();
    EXPECT_TRUE(mapped->grid().SameComponentsAs(world.grid())) << seed;
    // Every label array views the file: mapped bytes cover the grid and
    // the labels, whatever their share.
    EXPECT_GE(
        mapped->grid().MappedBytes(),
        sizes.grid + sizes.components - sizeof(world_format::GridSummary));

    for (uint32_t version : {2u, 3u}) {
      const std::string old_bytes = AsOlderVersion(bytes, version);
      WorldFileSizes old_sizes;
      absl::StatusOr<World> old = ParseWorld(old_bytes, "old.zpw");
      ASSERT_TRUE(old.ok()) << old.status();
      const std::string old_path = dir.File("old.zpw");
      {
        std::ofstream out(old_path, std::ios::binary);
        out << old_bytes;
      }
      absl::StatusOr<World> old_mapped = LoadWorldFile(old_path);
      ASSERT_TRUE(old_mapped.ok()) << old_mapped.status();
      EXPECT_TRUE(old->grid().SameComponentsAs(world.grid())) << seed;
      EXPECT_TRUE(old_mapped->grid().SameComponentsAs(world.grid())) << seed;
      // Saving it again writes the current version, the original's bytes.
      EXPECT_EQ(SerializeWorld(*old, &old_sizes), bytes) << version;
      EXPECT_EQ(SerializeWorld(*old_mapped), bytes) << version;
      EXPECT_EQ(old_sizes.components, sizes.components);
      // An old beacon whose Point does not fit 16 bits is refused, not cut
      // down to some other cell.
      for (const int32_t x : {70000, -3}) {
        char point[8];
        const int32_t xy[2] = {x, 1};
        std::memcpy(point, xy, sizeof(point));
        absl::StatusOr<World> bad = ParseWorld(
            WithSectionStart(old_bytes, world_format::kBeacons, point),
            "old.zpw");
        ASSERT_FALSE(bad.ok()) << x;
        EXPECT_NE(std::string(bad.status().message()).find("beacon 0 at"),
                  std::string::npos)
            << bad.status();
      }
    }
  }
}

// The build's flat abstraction written directly (what `zonepath build`
// does, without making a World) gives the bytes of the World's own save,
// on several kinds, sizes, level counts and with cached paths.
TEST(WorldFileTest, FlatBuildWritesTheWorldsBytes) {
  const TempDir dir("zonepath_world_flat_test");
  int case_index = 0;
  for (MapKind kind : {MapKind::kRooms, MapKind::kMaze, MapKind::kTerrain}) {
    for (bool cache : {false, true}) {
      MapGenOptions g;
      g.kind = kind;
      g.width = 97 + 13 * case_index;
      g.height = 61 + 7 * case_index;
      g.seed = 40 + case_index;
      absl::StatusOr<Grid> grid = GenerateMap(g);
      ASSERT_TRUE(grid.ok()) << grid.status();
      BuildOptions o;
      o.params.zone_size = 8;
      o.params.levels = 1 + case_index % 3;
      o.params.group = 2;
      o.params.cache_paths = cache;
      o.threads = 2;
      absl::StatusOr<Abstraction> flat = BuildFlatAbstraction(*grid, o);
      ASSERT_TRUE(flat.ok()) << flat.status();
      const std::string direct = dir.File("direct.zpw");
      WorldFileSizes sizes;
      ASSERT_TRUE(SaveWorldFile(*grid, *flat, direct, &sizes).ok());
      const World world(*grid, *flat);
      const std::string bytes = ReadAll(direct);
      EXPECT_EQ(bytes, SerializeWorld(world)) << "case " << case_index;
      EXPECT_EQ(sizes.total, bytes.size());
      ++case_index;
    }
  }
}

TEST(WorldFileTest, TwoMappingsOfOneFilePlanAlike) {
  const TempDir dir("zonepath_world_two_maps_test");
  const std::string path = dir.File("w.zpw");
  ASSERT_TRUE(SaveWorldFile(SmallWorld(false), path).ok());
  absl::StatusOr<World> a = LoadWorldFile(path);
  absl::StatusOr<World> b = LoadWorldFile(path);
  ASSERT_TRUE(a.ok() && b.ok());
  Planner pa(*a), pb(*b);
  std::mt19937_64 rng(5);
  int found = 0;
  for (int i = 0; i < 200; ++i) {
    const Point s{static_cast<int32_t>(rng() % 70),
                  static_cast<int32_t>(rng() % 50)};
    const Point t{static_cast<int32_t>(rng() % 70),
                  static_cast<int32_t>(rng() % 50)};
    RunLengthPath path_a, path_b;
    absl::StatusOr<SearchOutcome> oa = pa.FindPath(s, t, {}, &path_a);
    absl::StatusOr<SearchOutcome> ob = pb.FindPath(s, t, {}, &path_b);
    ASSERT_EQ(oa.ok(), ob.ok());
    if (!oa.ok()) continue;
    ASSERT_EQ(path_a.runs(), path_b.runs()) << PointString(s) << PointString(t);
    EXPECT_EQ(*oa, *ob);
    found += !path_a.empty();
  }
  EXPECT_GT(found, 50);
}

TEST(WorldFileTest, ChangingAMappedWorldCopiesPagesAndLeavesTheFile) {
  const TempDir dir("zonepath_world_change_map_test");
  const std::string path = dir.File("w.zpw");
  ASSERT_TRUE(SaveWorldFile(SmallWorld(false), path).ok());
  const std::string before = ReadAll(path);
  absl::StatusOr<World> mapped = LoadWorldFile(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  std::vector<CellChange> changes;
  for (int32_t x = 0; x < 70; x += 3) {
    for (int32_t y = 0; y < 50; y += 7) {
      const uint8_t cost = mapped->grid().cost(Point{x, y});
      changes.push_back({Point{x, y}, static_cast<uint8_t>(cost == 0 ? 3 : 0)});
    }
  }
  absl::StatusOr<World> next = ApplyChanges(*mapped, changes);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(ReadAll(path), before);  // the mapping is never written
  EXPECT_EQ(SerializeWorld(*mapped), before);
  EXPECT_LT(next->MappedBytes(), mapped->MappedBytes());
  for (const CellChange& c : changes) {
    EXPECT_EQ(next->grid().cost(c.cell), c.cost);
  }
  // The changed world saves and loads like one built from its grid.
  ASSERT_TRUE(SaveWorldFile(*next, dir.File("next.zpw")).ok());
  absl::StatusOr<World> reloaded = LoadWorldFile(dir.File("next.zpw"));
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  EXPECT_EQ(SerializeWorld(*reloaded), SerializeWorld(*next));
}

TEST(WorldFileTest, TruncatedAndDamagedFilesMapToAStatus) {
  const TempDir dir("zonepath_world_map_damage_test");
  const std::string bytes = SerializeWorld(SmallWorld(true));
  const std::string path = dir.File("w.zpw");
  std::vector<uint64_t> cuts = WorldSectionOffsets(bytes);
  cuts.push_back(0);
  cuts.push_back(63);
  cuts.push_back(bytes.size() - 1);
  for (uint64_t cut : cuts) {
    if (cut >= bytes.size()) continue;
    std::ofstream(path, std::ios::binary) << bytes.substr(0, cut);
    absl::StatusOr<World> w = LoadWorldFile(path);
    EXPECT_FALSE(w.ok()) << "cut at " << cut;
  }
  std::mt19937_64 rng(4);
  for (int i = 0; i < 50; ++i) {
    std::string damaged = bytes;
    const size_t at = rng() % damaged.size();
    damaged[at] = static_cast<char>(damaged[at] ^ (1 + rng() % 255));
    std::ofstream(path, std::ios::binary) << damaged;
    EXPECT_FALSE(LoadWorldFile(path).ok()) << "flip at byte " << at;
  }
}

TEST(WorldFileTest, WorldsThatDoNotFitAreRefusedUpFront) {
  const TempDir dir("zonepath_world_limit_test");
  const std::string path = dir.File("w.zpw");
  ASSERT_TRUE(SaveWorldFile(SmallWorld(false), path).ok());
  LoadOptions small;
  small.memory_limit = 1000;
  absl::StatusOr<World> w = LoadWorldFile(path, small);
  EXPECT_EQ(w.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(w.status().message()),
              HasSubstr("bytes of memory, 1000 are available"));
}

// A writer that fails or throws leaves neither the output nor a temporary
// file, and its signal-cleanup slot is freed: more failures than there are
// slots (16), then a good write still registers and succeeds.
TEST(WorldFileTest, FailedAtomicWritesLeaveNothing) {
  TempDir dir("zonepath_atomic_test");
  const std::string path = dir.File("out.bin");
  auto count_files = [&] {
    size_t files = 0;
    for (auto it = std::filesystem::directory_iterator(dir.path);
         it != std::filesystem::directory_iterator(); ++it) {
      ++files;
    }
    return files;
  };
  for (int i = 0; i < 40; ++i) {
    if (i % 2 == 0) {
      EXPECT_THROW(
          {
            const absl::Status s =
                WriteFileAtomically(path, [](std::ostream& out) {
                  out << "partial";
                  throw std::runtime_error("writer failed");
                  return absl::OkStatus();
                });
            ADD_FAILURE() << "returned " << s;
          },
          std::runtime_error);
    } else {
      EXPECT_EQ(WriteFileAtomically(path,
                                    [](std::ostream& out) {
                                      out << "partial";
                                      return absl::DataLossError("no");
                                    })
                    .code(),
                absl::StatusCode::kDataLoss);
    }
    ASSERT_EQ(count_files(), 0u) << "after failure " << i;
  }
  ASSERT_TRUE(WriteFileAtomically(path, [](std::ostream& out) {
                out << "whole";
                return absl::OkStatus();
              }).ok());
  EXPECT_EQ(ReadAll(path), "whole");
  EXPECT_EQ(count_files(), 1u);
}

TEST(WorldFileTest, SaveIsAtomicAndLoadReportsMissingFiles) {
  const auto dir =
      std::filesystem::temp_directory_path() / "zonepath_world_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "w.zpw").string();
  const World world = SmallWorld(false);
  ASSERT_TRUE(SaveWorldFile(world, path).ok());
  absl::StatusOr<World> loaded = LoadWorldFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(SerializeWorld(*loaded), SerializeWorld(world));
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 1u);  // no temporary file left behind
  EXPECT_EQ(LoadWorldFile((dir / "none.zpw").string()).status().code(),
            absl::StatusCode::kNotFound);
  // Saving into a missing directory fails without creating anything.
  EXPECT_FALSE(SaveWorldFile(world, (dir / "no" / "w.zpw").string()).ok());
  std::filesystem::remove_all(dir);
}

// Connection tables (version 6): saved with a world that has them, read
// back the same (mapped or copied), built the same from the flat form, and
// checked on load against the abstraction they serve.
TEST(WorldFileTest, ConnectionTablesRoundTripAndAreChecked) {
  const World world = SmallWorld(false);
  ASSERT_NE(world.connection_tables(), nullptr);
  ASSERT_TRUE(world.connection_tables()->has_level(3));
  WorldFileSizes sizes;
  const std::string bytes = SerializeWorld(world, &sizes);
  EXPECT_EQ(VersionOf(bytes), 6u);
  EXPECT_GT(sizes.connection_tables, 0u);
  const absl::StatusOr<World> back = ParseWorld(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_NE(back->connection_tables(), nullptr);
  EXPECT_EQ(SerializeWorld(*back), bytes);
  // From the flat form, as `zonepath build` saves it: the same bytes.
  {
    const TempDir dir("zonepath_world_tables_test");
    const std::string path = dir.File("flat.zpw");
    const Abstraction flat = world.FlatAbstraction();
    const auto tables = BuildConnectionTables(flat, world.grid().width(),
                                              world.grid().height(), 2);
    ASSERT_TRUE(
        SaveWorldFile(world.grid(), flat, path, nullptr, tables.get()).ok());
    EXPECT_EQ(ReadAll(path), bytes);
    absl::StatusOr<World> mapped = LoadWorldFile(path);
    ASSERT_TRUE(mapped.ok()) << mapped.status();
    ASSERT_NE(mapped->connection_tables(), nullptr);
    EXPECT_EQ(mapped->connection_tables()->MappedBytes(),
              sizes.connection_tables -
                  (world.abstraction().levels[2].zone_count() + 1) * 8);
    EXPECT_EQ(mapped->connection_tables()->OwnedBytes(), 0u);
    LoadOptions copy;
    copy.map = false;
    absl::StatusOr<World> read = LoadWorldFile(path, copy);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(read->connection_tables()->MappedBytes(), 0u);
    EXPECT_EQ(SerializeWorld(*read), bytes);
  }
  using world_format::kConnectionBegin;
  using world_format::kConnectionCosts;
  struct Case {
    const char* what;
    std::function<void(std::string*)> damage;
    const char* message;
  };
  const Case cases[] = {
      {"offset past the values",
       [](std::string* b) { PokeSection(b, kConnectionBegin, 3, 2, 1u << 30); },
       "level 3 section connection_costs: level 3 connection table: zone 0"},
      {"NaN cost",
       [](std::string* b) {
         PokeSection(b, kConnectionCosts, 3, 0, 0x7fc00000);
       },
       "is nan (costs are >= 0 or +inf)"},
      {"negative cost",
       [](std::string* b) {
         PokeSection(b, kConnectionCosts, 3, 1, 0xbf800000);
       },
       "value 1 is -1"},
      {"table for level 2",
       [](std::string* b) {
         SetSectionEntry(b, kConnectionBegin, 3, 1, 2);
         SetSectionEntry(b, kConnectionCosts, 3, 1, 2);
       },
       "tables are for levels 3..3"},
      {"costs without offsets",
       [](std::string* b) { SetSectionEntry(b, kConnectionBegin, 3, 0, 99); },
       "missing level 3 section connection_begin"},
      {"one offset too few",
       [](std::string* b) { DropSectionTail(b, kConnectionBegin, 3, 8); },
       "zone offsets for"},
      {"one cost too few",
       [](std::string* b) { DropSectionTail(b, kConnectionCosts, 3, 4); },
       "offsets end at"},
  };
  for (const Case& c : cases) {
    std::string damaged = bytes;
    c.damage(&damaged);
    const absl::StatusOr<World> w = ParseWorld(damaged, "t.zpw", false);
    EXPECT_EQ(w.status().code(), absl::StatusCode::kDataLoss) << c.what;
    EXPECT_THAT(std::string(w.status().message()), HasSubstr(c.message))
        << c.what;
    EXPECT_THAT(std::string(w.status().message()), HasSubstr("t.zpw"))
        << c.what;
  }
  // A zone in the middle whose block is one value short (its neighbour
  // starts one value early).
  {
    const Abstraction flat = world.FlatAbstraction();
    const uint32_t zones = flat.levels[2].zone_count();
    ASSERT_GE(zones, 3u);
    const size_t at = SectionEntryAt(bytes, kConnectionBegin, 3);
    uint64_t offset;
    std::memcpy(&offset, bytes.data() + at + 8, 8);
    std::string damaged = bytes;
    uint64_t middle;
    std::memcpy(&middle, damaged.data() + offset + 8 * (zones / 2), 8);
    if (middle > 0) {
      --middle;
      std::memcpy(damaged.data() + offset + 8 * (zones / 2), &middle, 8);
      const absl::StatusOr<World> w = ParseWorld(damaged, "t.zpw", false);
      EXPECT_EQ(w.status().code(), absl::StatusCode::kDataLoss);
      EXPECT_THAT(std::string(w.status().message()),
                  HasSubstr(absl::StrCat("zone ", zones / 2 - 1, " has ")));
    }
  }
  // Table sections in a file that says version 5 are not read.
  {
    std::string older = bytes;
    const uint32_t five = 5;
    std::memcpy(older.data() + offsetof(world_format::FileHeader, version),
                &five, 4);
    const absl::StatusOr<World> w = ParseWorld(older, "old.zpw", false);
    ASSERT_TRUE(w.ok()) << w.status();
    EXPECT_EQ(w->connection_tables(), nullptr);
  }
}

}  // namespace
}  // namespace zonepath
