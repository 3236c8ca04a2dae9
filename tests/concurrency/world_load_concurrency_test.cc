// Loading a large world checks its sections and levels on several threads
// (LoadOptions::threads): the world loaded is the same, and a damaged file
// names the same field, whatever the thread count. Built and run under
// ThreadSanitizer in CI (the file is large enough for the checksums and the
// level-1 checks to run on threads).
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "gtest/gtest.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/world/world_file.h"
#include "zonepath/world/world_file_format.h"

namespace zonepath {
namespace {

std::string LargeWorldBytes() {
  MapGenOptions g;
  g.kind = MapKind::kRooms;
  g.width = 1600;
  g.height = 1600;
  g.seed = 4;
  BuildOptions o;
  o.params.zone_size = 16;
  o.threads = 2;
  return SerializeWorld(*BuildWorld(*GenerateMap(g), o));
}

absl::StatusOr<World> Load(const std::string& bytes, int threads,
                           bool verify_checksums) {
  LoadOptions options;
  options.threads = threads;
  options.verify_checksums = verify_checksums;
  return ParseWorld(bytes, "large.zpw", options);
}

// Byte offset of section (kind, level 1) in a valid file.
uint64_t LevelOneOffset(const std::string& bytes, uint32_t kind,
                        uint64_t* size) {
  world_format::FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  for (uint32_t i = 0; i < header.section_count; ++i) {
    world_format::SectionEntry e;
    std::memcpy(&e, bytes.data() + sizeof(header) + i * sizeof(e), sizeof(e));
    if (e.kind == kind && e.level == 1) {
      *size = e.size;
      return e.offset;
    }
  }
  ADD_FAILURE() << "no level-1 section " << kind;
  return 0;
}

TEST(WorldLoadConcurrencyTest, ThreadsLoadTheSameWorldAndNameTheSameError) {
  const std::string bytes = LargeWorldBytes();
  ASSERT_GT(bytes.size(), uint64_t{6} << 20);
  absl::StatusOr<World> one = Load(bytes, 1, true);
  absl::StatusOr<World> two = Load(bytes, 2, true);
  ASSERT_TRUE(one.ok()) << one.status();
  ASSERT_TRUE(two.ok()) << two.status();
  ASSERT_GT(one->abstraction().levels[0].live_nodes, 1 << 15);
  EXPECT_EQ(SerializeWorld(*two), bytes);

  // Two bad edge costs, at a quarter and at three quarters of level 1's
  // edges: both thread counts name the first.
  uint64_t size = 0;
  const uint64_t edges = LevelOneOffset(bytes, world_format::kEdges, &size);
  std::string bad = bytes;
  const uint64_t count = size / 8;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (uint64_t e : {count / 4, 3 * count / 4}) {
    std::memcpy(bad.data() + edges + e * 8 + 4, &nan, sizeof(nan));
  }
  absl::StatusOr<World> bad_one = Load(bad, 1, false);
  absl::StatusOr<World> bad_two = Load(bad, 2, false);
  ASSERT_FALSE(bad_one.ok());
  ASSERT_FALSE(bad_two.ok());
  EXPECT_EQ(bad_one.status(), bad_two.status());
  EXPECT_NE(std::string(bad_two.status().message())
                .find("edge " + std::to_string(count / 4) + " "),
            std::string::npos)
      << bad_two.status();
  // With checksums on, the edges section is the one that fails its CRC.
  absl::StatusOr<World> crc_two = Load(bad, 2, true);
  ASSERT_FALSE(crc_two.ok());
  EXPECT_EQ(crc_two.status(), Load(bad, 1, true).status());
  EXPECT_NE(std::string(crc_two.status().message())
                .find("level 1 section edges: checksum mismatch"),
            std::string::npos)
      << crc_two.status();
}

}  // namespace
}  // namespace zonepath
