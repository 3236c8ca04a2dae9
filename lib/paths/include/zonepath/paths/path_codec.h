// Path codecs: compact, lossless encodings of grid paths, with streaming
// decode and random access to step i.
//
// An encoded path is a self-contained byte string (a header, the payload and
// a sparse index); EncodedPath validates one and PathReader walks it. All
// codecs share this interface:
//
//   kRunLength  per run, the turn from the previous run (2-4 bits; 3 bits
//               of direction for the first) and an Elias-gamma length: the
//               default, best on game maps (long straight runs).
//   kTurns      one bit per step that keeps going, 3-5 bits per turn
//               (the same turn codes): best on winding paths of short runs.
//   kWaypoints  the cell at the end of every run, 16 + 16 bits: what a unit
//               steering between corners needs, no decoding arithmetic.
//   kRawCells   16 + 16 bits per step: the baseline, O(1) random access.
//
//   std::string bytes;
//   RETURN_IF_ERROR(EncodePath(PathCodec::kRunLength, path, &bytes));
//   ASSIGN_OR_RETURN(EncodedPath encoded, EncodedPath::Parse(bytes));
//   ASSIGN_OR_RETURN(Point p, CellAt(encoded, 1000));   // O(log runs)
//   PathReader reader(encoded);
//   RETURN_IF_ERROR(reader.Seek(1000));
//   for (Run run; reader.Next(&run);) Steer(run);
//   RETURN_IF_ERROR(reader.status());
//
// Limits: coordinates 0..65535 (the grid's side limit), at most 2^32 - 1
// steps, payload at most 2^29 bits (64 MiB) per path. Costs are not stored:
// WalkRuns recomputes them from the grid.
#ifndef ZONEPATH_PATHS_PATH_CODEC_H_
#define ZONEPATH_PATHS_PATH_CODEC_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "zonepath/grid/direction.h"
#include "zonepath/grid/geometry.h"
#include "zonepath/grid/path.h"

namespace zonepath {

enum class PathCodec : uint8_t {
  kRunLength = 1,
  kTurns = 2,
  kWaypoints = 3,
  kRawCells = 4,
};
inline constexpr std::array<PathCodec, 4> kAllPathCodecs = {
    PathCodec::kRunLength, PathCodec::kTurns, PathCodec::kWaypoints,
    PathCodec::kRawCells};

// "run_length", "turns", "waypoints", "raw_cells".
absl::string_view PathCodecName(PathCodec codec);
absl::StatusOr<PathCodec> ParsePathCodec(absl::string_view name);

struct EncodeOptions {
  // A checkpoint (12 bytes) every 2^index_interval_log2 runs makes locating
  // step i O(log runs + 2^k). 0 disables the index; at most 15. Raw cells
  // need no index.
  int index_interval_log2 = 4;
};

// Builds an encoded path run by run; Append is O(1) amortized, so a planner
// can stream moves into it. Reuse one encoder: its buffers keep capacity.
class PathEncoder {
 public:
  void Reset(PathCodec codec, Point start, const EncodeOptions& options = {});
  // Appends `count` >= 1 moves in direction `d` (merged with the last run).
  void Append(Direction d, uint32_t count = 1);
  void Append(const RunLengthPath& path) {
    for (const Run& run : path.runs()) Append(run.direction, run.count);
  }
  // Writes the encoded path to `out` (replacing its contents). Fails with
  // InvalidArgument if the start or a cell leaves 0..65535 or a limit is
  // exceeded; the encoder must then be Reset.
  absl::Status Finish(std::string* out);
  int64_t steps() const { return steps_; }

 private:
  PathCodec codec_ = PathCodec::kRunLength;
  EncodeOptions options_;
  Point start_;
  std::vector<Run> runs_;  // merged; written out by Finish
  int64_t steps_ = 0;
};

// Encodes moves [begin, end) of `path` (end < 0: to the end), starting at
// the cell reached after `begin` moves.
absl::Status EncodePath(PathCodec codec, const RunLengthPath& path,
                        std::string* out, const EncodeOptions& options = {},
                        int64_t begin = 0, int64_t end = -1);

// A validated, non-owning view of an encoded path. Parse checks the header,
// the sizes and the index; the payload is checked as it is decoded.
class EncodedPath {
 public:
  static absl::StatusOr<EncodedPath> Parse(absl::string_view bytes);
  int index_interval_log2() const { return index_interval_log2_; }

  PathCodec codec() const { return codec_; }
  Point start() const { return start_; }
  int64_t steps() const { return steps_; }
  int64_t runs() const { return runs_; }
  size_t size_bytes() const { return bytes_.size(); }
  absl::string_view bytes() const { return bytes_; }

 private:
  friend class PathReader;
  EncodedPath() = default;

  absl::string_view bytes_;
  PathCodec codec_ = PathCodec::kRunLength;
  int index_interval_log2_ = 0;
  Point start_;
  int64_t steps_ = 0;
  int64_t runs_ = 0;
  const uint8_t* payload_ = nullptr;
  uint64_t payload_bits_ = 0;
  const uint8_t* index_ = nullptr;
  size_t index_entries_ = 0;
};

// Streams the runs of an encoded path from the start or from any step.
// Errors (corrupted payload) end the stream and are kept in status().
class PathReader {
 public:
  explicit PathReader(const EncodedPath& path);

  // Positions the reader after `step` moves (0 <= step <= steps()), using
  // the index: O(log runs + index interval) for the variable-length codecs,
  // O(1) for raw cells.
  absl::Status Seek(int64_t step);
  // The rest of the current run, or the next run; false at the end of the
  // path or on an error (check status()).
  bool Next(Run* run);
  const absl::Status& status() const { return status_; }
  // The cell reached so far and the number of moves read.
  Point position() const { return at_; }
  int64_t step() const { return step_; }

 private:
  bool Fail(absl::string_view what);
  bool ReadRun(Run* run);
  bool ReadRawRun(Direction* d, uint64_t* count, uint64_t* end_bit);
  bool CheckpointMatches() const;

  const EncodedPath* path_;
  uint64_t bit_ = 0;  // payload position of the next run
  Point at_;          // cell after step_ moves
  int64_t step_ = 0;
  int64_t run_ = 0;            // runs fully or partly returned so far
  bool counting_runs_ = true;  // false after a raw-cell Seek
  bool have_previous_ = false;
  Direction previous_ = Direction::kN;
  Run partial_;  // remainder of a run split by Seek
  absl::Status status_;
};

// Decodes the whole path into `out` (cost left 0), validating every run,
// every index entry, and that the payload holds exactly the header's steps
// and runs. Encodings are canonical: bytes that decode are exactly what
// EncodePath writes for the decoded path (same codec and index interval).
absl::Status DecodePath(const EncodedPath& path, RunLengthPath* out);
// Cell after `step` moves.
absl::StatusOr<Point> CellAt(const EncodedPath& path, int64_t step);

}  // namespace zonepath

#endif  // ZONEPATH_PATHS_PATH_CODEC_H_
