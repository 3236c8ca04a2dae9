// Path codecs: lossless round trips on random and planner-produced paths,
// exact sizes, streaming and random access from any step, range encoding,
// and clean errors (never a bad read) on truncated or corrupted input.
#include "zonepath/paths/path_codec.h"

#include <random>
#include <string>

#include "gtest/gtest.h"
#include "random_paths.h"
#include "zonepath/mapgen/generators.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/runtime/planner.h"

namespace zonepath {
namespace {

using testing::CellAfter;
using testing::RandomPath;

std::string Encode(PathCodec codec, const RunLengthPath& path,
                   int index_log2 = 4) {
  std::string bytes;
  EncodeOptions options;
  options.index_interval_log2 = index_log2;
  const absl::Status status = EncodePath(codec, path, &bytes, options);
  EXPECT_TRUE(status.ok()) << status;
  return bytes;
}

// Checks decode, random access and seeking against the original path.
void CheckRoundTrip(PathCodec codec, const RunLengthPath& path, int index_log2,
                    const std::string& context) {
  const std::string bytes = Encode(codec, path, index_log2);
  absl::StatusOr<EncodedPath> encoded = EncodedPath::Parse(bytes);
  ASSERT_TRUE(encoded.ok()) << context << encoded.status();
  EXPECT_EQ(encoded->steps(), path.steps()) << context;
  EXPECT_EQ(encoded->runs(), static_cast<int64_t>(path.runs().size()))
      << context;
  EXPECT_EQ(encoded->start(), path.start()) << context;
  EXPECT_EQ(encoded->size_bytes(), bytes.size()) << context;

  RunLengthPath decoded;
  ASSERT_TRUE(DecodePath(*encoded, &decoded).ok()) << context;
  ASSERT_EQ(decoded.start(), path.start()) << context;
  ASSERT_EQ(decoded.runs(), path.runs()) << context;

  // Random access and streaming from sampled steps (all for short paths).
  std::mt19937_64 rng(path.steps());
  const int64_t samples = std::min<int64_t>(path.steps() + 1, 60);
  for (int64_t k = 0; k < samples; ++k) {
    const int64_t step = path.steps() < 60
                             ? k
                             : static_cast<int64_t>(rng() % (path.steps() + 1));
    absl::StatusOr<Point> cell = CellAt(*encoded, step);
    ASSERT_TRUE(cell.ok()) << context << " step " << step;
    ASSERT_EQ(*cell, CellAfter(path, step)) << context << " step " << step;
    PathReader reader(*encoded);
    ASSERT_TRUE(reader.Seek(step).ok()) << context;
    RunLengthPath rest;
    rest.Reset(reader.position());
    for (zonepath::Run run; reader.Next(&run);)
      rest.Append(run.direction, run.count);
    ASSERT_TRUE(reader.status().ok()) << context << reader.status();
    RunLengthPath want;
    std::string want_bytes;
    ASSERT_TRUE(EncodePath(codec, path, &want_bytes, {}, step).ok());
    ASSERT_TRUE(DecodePath(*EncodedPath::Parse(want_bytes), &want).ok());
    ASSERT_EQ(rest.start(), want.start()) << context << " step " << step;
    ASSERT_EQ(rest.runs(), want.runs()) << context << " step " << step;
  }
  EXPECT_FALSE(CellAt(*encoded, -1).ok());
  EXPECT_FALSE(CellAt(*encoded, path.steps() + 1).ok());
}

TEST(PathCodecTest, RandomPathsRoundTrip) {
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    const RunLengthPath path = RandomPath(seed, 200, seed % 3 == 0);
    for (PathCodec codec : kAllPathCodecs) {
      for (int log2 : {0, 1, 4}) {
        CheckRoundTrip(
            codec, path, log2,
            absl::StrCat("seed ", seed, " codec ", PathCodecName(codec),
                         " index ", log2, " path ", RunsToString(path.runs())));
      }
    }
  }
}

TEST(PathCodecTest, PlannerPathsRoundTrip) {
  MapGenOptions gen;
  gen.kind = MapKind::kRooms;
  gen.width = gen.height = 160;
  gen.seed = 4;
  const Grid grid = *GenerateMap(gen);
  BuildOptions build;
  build.params.zone_size = 16;
  const World world = *BuildWorld(grid, build);
  Planner planner(world);
  std::mt19937_64 rng(11);
  int planned = 0;
  for (int q = 0; q < 40; ++q) {
    const Point s{static_cast<int32_t>(rng() % 160),
                  static_cast<int32_t>(rng() % 160)};
    const Point t{static_cast<int32_t>(rng() % 160),
                  static_cast<int32_t>(rng() % 160)};
    RunLengthPath path;
    absl::StatusOr<SearchOutcome> outcome =
        planner.FindPath(s, t, PlanOptions{.smooth = true}, &path);
    if (!outcome.ok() || *outcome != SearchOutcome::kFound) continue;
    ++planned;
    for (PathCodec codec : kAllPathCodecs) {
      CheckRoundTrip(
          codec, path, 2,
          absl::StrCat("query ", q, " codec ", PathCodecName(codec)));
    }
  }
  EXPECT_GT(planned, 10);
}

TEST(PathCodecTest, ExactSizes) {
  RunLengthPath path;
  path.Reset({1, 5});
  path.Append(Direction::kE, 5);
  path.Append(Direction::kNE, 3);
  // Header: 2 bytes + five one-byte varints.
  // Run-length: (3 + gamma(5) = 5) + (turn +45 = 2 + gamma(3) = 3) = 13
  // bits -> 2 bytes.
  EXPECT_EQ(Encode(PathCodec::kRunLength, path).size(), 7u + 2);
  // Turns: 3 + 4 zeros, then 1 + "00" (+45) + 2 zeros = 12 bits -> 2 bytes.
  EXPECT_EQ(Encode(PathCodec::kTurns, path).size(), 7u + 2);
  // Waypoints: 2 x 32 bits.
  EXPECT_EQ(Encode(PathCodec::kWaypoints, path).size(), 7u + 8);
  // Raw cells: 8 x 32 bits; the payload-bit varint needs two bytes (256).
  EXPECT_EQ(Encode(PathCodec::kRawCells, path).size(), 8u + 32);

  // A long straight run costs a few bytes in run-length form.
  RunLengthPath straight;
  straight.Reset({0, 0});
  straight.Append(Direction::kS, 60000);
  EXPECT_LE(Encode(PathCodec::kRunLength, straight).size(), 16u);
}

TEST(PathCodecTest, EmptyPath) {
  RunLengthPath path;
  path.Reset({7, 9});
  for (PathCodec codec : kAllPathCodecs) {
    CheckRoundTrip(codec, path, 4, std::string(PathCodecName(codec)));
  }
}

TEST(PathCodecTest, StreamingEncoderMatchesEncodePath) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const RunLengthPath path = RandomPath(seed, 100, false);
    for (PathCodec codec : kAllPathCodecs) {
      PathEncoder encoder;
      encoder.Reset(codec, path.start());
      for (const zonepath::Run& run : path.runs()) {
        // Feed one move at a time: appends merge into runs.
        for (uint32_t i = 0; i < run.count; ++i) encoder.Append(run.direction);
      }
      std::string streamed;
      ASSERT_TRUE(encoder.Finish(&streamed).ok());
      EXPECT_EQ(streamed, Encode(codec, path)) << "seed " << seed;
    }
  }
}

TEST(PathCodecTest, RangeEncodingMatchesSubPath) {
  const RunLengthPath path = RandomPath(5, 80, false);
  ASSERT_GT(path.steps(), 20);
  const int64_t begin = path.steps() / 3, end = 2 * path.steps() / 3;
  std::string bytes;
  ASSERT_TRUE(EncodePath(PathCodec::kTurns, path, &bytes, {}, begin, end).ok());
  RunLengthPath sub;
  ASSERT_TRUE(DecodePath(*EncodedPath::Parse(bytes), &sub).ok());
  EXPECT_EQ(sub.start(), CellAfter(path, begin));
  EXPECT_EQ(sub.steps(), end - begin);
  for (int64_t i = 0; i <= end - begin; ++i) {
    ASSERT_EQ(*CellAt(*EncodedPath::Parse(bytes), i),
              CellAfter(path, begin + i));
  }
  EXPECT_FALSE(
      EncodePath(PathCodec::kTurns, path, &bytes, {}, end, begin).ok());
}

TEST(PathCodecTest, RejectsPathsOutsideTheCoordinateRange) {
  RunLengthPath path;
  path.Reset({0, 0});
  path.Append(Direction::kW, 1);
  std::string bytes;
  EXPECT_FALSE(EncodePath(PathCodec::kRunLength, path, &bytes).ok());
  path.Reset({-1, 0});
  EXPECT_FALSE(EncodePath(PathCodec::kRunLength, path, &bytes).ok());
  path.Reset({0, 0});
  EncodeOptions bad;
  bad.index_interval_log2 = 16;
  EXPECT_FALSE(EncodePath(PathCodec::kRunLength, path, &bytes, bad).ok());
}

TEST(PathCodecTest, ParseNamesCodecs) {
  for (PathCodec codec : kAllPathCodecs) {
    EXPECT_EQ(*ParsePathCodec(PathCodecName(codec)), codec);
  }
  EXPECT_FALSE(ParsePathCodec("zip").ok());
}

// Decodes fully and from sampled steps; returns false on any error. Must
// never crash or hang whatever the bytes are.
bool DecodesCleanly(const std::string& bytes) {
  absl::StatusOr<EncodedPath> encoded = EncodedPath::Parse(bytes);
  if (!encoded.ok()) return false;
  RunLengthPath decoded;
  if (!DecodePath(*encoded, &decoded).ok()) return false;
  EXPECT_EQ(decoded.steps(), encoded->steps());
  // Canonical: what decodes re-encodes to the same bytes.
  std::string again;
  EncodeOptions options;
  options.index_interval_log2 = encoded->index_interval_log2();
  EXPECT_TRUE(EncodePath(encoded->codec(), decoded, &again, options).ok());
  EXPECT_EQ(again, bytes);
  for (int64_t step : {int64_t{0}, encoded->steps() / 2, encoded->steps()}) {
    if (!CellAt(*encoded, step).ok()) return false;
  }
  return true;
}

TEST(PathCodecTest, TruncationIsAlwaysDetected) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const RunLengthPath path = RandomPath(seed, 60, seed % 2 == 0);
    for (PathCodec codec : kAllPathCodecs) {
      const std::string bytes = Encode(codec, path, 1);
      for (size_t n = 0; n < bytes.size(); ++n) {
        EXPECT_FALSE(DecodesCleanly(bytes.substr(0, n)))
            << PathCodecName(codec) << " seed " << seed << " cut at " << n;
      }
      EXPECT_FALSE(DecodesCleanly(bytes + '\0')) << PathCodecName(codec);
    }
  }
}

TEST(PathCodecTest, CorruptionGivesErrorsOrConsistentPaths) {
  // Flipping any single bit must give a clean error or a path that decodes
  // consistently; most flips must be caught.
  int detected = 0, flips = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const RunLengthPath path = RandomPath(seed, 40, seed % 2 == 0);
    for (PathCodec codec : kAllPathCodecs) {
      const std::string bytes = Encode(codec, path, 1);
      for (size_t bit = 0; bit < 8 * bytes.size(); ++bit) {
        std::string bad = bytes;
        bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
        ++flips;
        if (!DecodesCleanly(bad)) ++detected;
      }
    }
  }
  EXPECT_GT(detected, flips / 4) << detected << " of " << flips;
}

TEST(PathCodecTest, HeaderLiesAreRejected) {
  const RunLengthPath path = RandomPath(3, 30, false);
  for (PathCodec codec : kAllPathCodecs) {
    std::string bytes = Encode(codec, path, 1);
    std::string bad = bytes;
    bad[0] = 9;  // unknown codec
    EXPECT_FALSE(EncodedPath::Parse(bad).ok());
    bad = bytes;
    bad[1] = 20;  // index interval out of range
    EXPECT_FALSE(EncodedPath::Parse(bad).ok());
    EXPECT_FALSE(EncodedPath::Parse("").ok());
    EXPECT_FALSE(EncodedPath::Parse(std::string(1, '\1')).ok());
  }
}

// A header varint of ten bytes whose last byte carries more than bit 63
// used to lose those bits and decode (to a value that re-encodes shorter):
// the raw-cells fuzzer's input, refused for every codec.
TEST(PathCodecTest, VarintsWiderThan64BitsAreRejected) {
  const std::string found_by_fuzzer(
      "\x04\x00\x82\x80\x80\x80\x80\x80\x80\x80\x80\x04\x00\x00\x80\x80"
      "\x80\x80\x80\x80\x80\x80\x80\x04\x00",
      25);
  for (PathCodec codec : kAllPathCodecs) {
    std::string bytes = found_by_fuzzer;
    bytes[0] = static_cast<char>(codec);
    EXPECT_FALSE(EncodedPath::Parse(bytes).ok()) << PathCodecName(codec);
  }
}

}  // namespace
}  // namespace zonepath
