#include "zonepath/paths/path_codec.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "bit_stream.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {
namespace {

using paths_internal::BitReader;
using paths_internal::BitWriter;
using paths_internal::ReadVarint;
using paths_internal::WriteVarint;

// Layout: codec byte, index-interval byte, varints start.x, start.y, steps,
// runs, payload bits; the payload (padded to a byte); then one 12-byte
// checkpoint before every 2^k-th run: u32 step, u16 x, u16 y,
// u32 (payload bit << 3 | direction of the previous run), little-endian.
constexpr size_t kIndexEntryBytes = 12;
constexpr uint64_t kMaxPayloadBits = uint64_t{1} << 29;
constexpr uint64_t kMaxSteps = 0xffffffffu;
constexpr int64_t kMaxCoordinate = 65535;
constexpr int kMaxIndexIntervalLog2 = 15;

int GammaBits(uint64_t value) { return 2 * (std::bit_width(value) - 1) + 1; }

// Turn codes, a prefix code for the clockwise rotation r = 1..7 from the
// previous run's direction (every run but the first; the turns codec puts a
// one bit before each); bit i of `bits` is the i-th bit written. Small
// turns, the common case on shortest paths, get the shortest codes.
struct TurnCode {
  uint32_t bits;
  int length;
};
constexpr TurnCode kTurnCodes[8] = {
    {0, 0},        // r = 0 never occurs (runs are merged)
    {0b00, 2},     // +45:  00
    {0b001, 3},    // +90:  100
    {0b00011, 4},  // +135: 1100
    {0b111, 3},    // 180:  111
    {0b1011, 4},   // -135: 1101
    {0b101, 3},    // -90:  101
    {0b10, 2},     // -45:  01
};

bool HasIndex(PathCodec codec) { return codec != PathCodec::kRawCells; }

int Rotation(Direction previous, Direction d) {
  return (static_cast<int>(d) - static_cast<int>(previous)) & 7;
}

// A run's direction: 3 bits for the first run, else its turn code.
int DirectionBits(bool first, Direction previous, Direction d) {
  return first ? 3 : kTurnCodes[Rotation(previous, d)].length;
}
void WriteDirection(bool first, Direction previous, Direction d,
                    BitWriter* writer) {
  if (first) {
    writer->Write(static_cast<uint32_t>(d), 3);
  } else {
    const TurnCode& code = kTurnCodes[Rotation(previous, d)];
    writer->Write(code.bits, code.length);
  }
}
// Reads what WriteDirection wrote; false if the bits run out.
bool ReadDirection(bool first, Direction previous, BitReader* reader,
                   Direction* d) {
  uint32_t a = 0, b = 0;
  if (first) {
    if (!reader->Read(3, &a)) return false;
    *d = static_cast<Direction>(a);
    return true;
  }
  if (!reader->Read(1, &a) || !reader->Read(1, &b)) return false;
  int r = 0;
  if (a == 0) {
    r = b ? 7 : 1;  // 00, 01
  } else {
    uint32_t c = 0;
    if (!reader->Read(1, &c)) return false;
    if (b == 0) {
      r = c ? 6 : 2;  // 100, 101
    } else if (c == 1) {
      r = 4;  // 111
    } else {
      uint32_t e = 0;
      if (!reader->Read(1, &e)) return false;
      r = e ? 5 : 3;  // 1100, 1101
    }
  }
  *d = Rotate(previous, r);
  return true;
}

uint64_t PayloadBitsOfRun(PathCodec codec, bool first, uint64_t count,
                          Direction previous, Direction d) {
  switch (codec) {
    case PathCodec::kRunLength:
      return DirectionBits(first, previous, d) + GammaBits(count);
    case PathCodec::kTurns:
      return (first ? 0 : 1) + DirectionBits(first, previous, d) + (count - 1);
    case PathCodec::kWaypoints:
      return 32;
    case PathCodec::kRawCells:
      return 0;  // counted per step by the caller
  }
  return 0;
}

void PutLittleEndian(uint64_t value, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) {
    out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}
uint64_t GetLittleEndian(const uint8_t* data, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value |= static_cast<uint64_t>(data[i]) << (8 * i);
  }
  return value;
}

// Calls fn(direction, count) for the merged runs of `runs` after skipping
// `skip` moves and keeping `take` moves.
template <typename Fn>
void ForEachMergedRun(absl::Span<const Run> runs, int64_t skip, int64_t take,
                      Fn fn) {
  Direction pending_direction = Direction::kN;
  int64_t pending = 0;
  for (const Run& run : runs) {
    if (take <= 0) break;
    int64_t count = run.count;
    if (skip >= count) {
      skip -= count;
      continue;
    }
    count = std::min(count - skip, take);
    skip = 0;
    if (count <= 0) continue;
    take -= count;
    if (pending > 0 && pending_direction == run.direction) {
      pending += count;
    } else {
      if (pending > 0) fn(pending_direction, pending);
      pending_direction = run.direction;
      pending = count;
    }
  }
  if (pending > 0) fn(pending_direction, pending);
}

bool CoordinateOk(int64_t v) { return v >= 0 && v <= kMaxCoordinate; }

absl::Status EncodeRuns(PathCodec codec, Point start,
                        absl::Span<const Run> runs, int64_t skip, int64_t take,
                        const EncodeOptions& options, std::string* out) {
  if (static_cast<int>(codec) < 1 || static_cast<int>(codec) > 4) {
    return absl::InvalidArgumentError("unknown path codec");
  }
  if (options.index_interval_log2 < 0 ||
      options.index_interval_log2 > kMaxIndexIntervalLog2) {
    return absl::InvalidArgumentError(
        absl::StrCat("index_interval_log2 must be 0..15, got ",
                     options.index_interval_log2));
  }
  if (!CoordinateOk(start.x) || !CoordinateOk(start.y)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "path start ", PointString(start), " is outside 0..65535"));
  }
  if (take < 0 || static_cast<uint64_t>(take) > kMaxSteps) {
    return absl::InvalidArgumentError(
        absl::StrCat("a path holds at most 2^32-1 moves, got ", take));
  }
  // Pass 1: sizes and coordinate checks.
  uint64_t steps = 0, run_count = 0, bits = 0;
  int64_t x = start.x, y = start.y;
  bool coordinates_ok = true;
  Direction previous = Direction::kN;
  ForEachMergedRun(runs, skip, take, [&](Direction d, int64_t count) {
    bits += codec == PathCodec::kRawCells
                ? 32 * static_cast<uint64_t>(count)
                : PayloadBitsOfRun(codec, run_count == 0, count, previous, d);
    x += Dx(d) * count;
    y += Dy(d) * count;
    coordinates_ok = coordinates_ok && CoordinateOk(x) && CoordinateOk(y);
    steps += count;
    ++run_count;
    previous = d;
  });
  if (!coordinates_ok) {
    return absl::InvalidArgumentError(
        "path leaves the coordinate range 0..65535");
  }
  if (HasIndex(codec) && bits > kMaxPayloadBits) {
    return absl::InvalidArgumentError(
        absl::StrCat("encoded path too long: ", bits, " bits (limit 2^29)"));
  }
  const int log2 = HasIndex(codec) ? options.index_interval_log2 : 0;

  out->clear();
  out->push_back(static_cast<char>(codec));
  out->push_back(static_cast<char>(log2));
  WriteVarint(start.x, out);
  WriteVarint(start.y, out);
  WriteVarint(steps, out);
  WriteVarint(run_count, out);
  WriteVarint(bits, out);
  // Pass 2: the payload, then the index (appended after the payload bytes,
  // so it is gathered in a second sweep below).
  BitWriter writer(out);
  x = start.x;
  y = start.y;
  uint64_t run = 0;
  previous = Direction::kN;
  ForEachMergedRun(runs, skip, take, [&](Direction d, int64_t count) {
    switch (codec) {
      case PathCodec::kRunLength:
        WriteDirection(run == 0, previous, d, &writer);
        writer.WriteGamma(static_cast<uint32_t>(count));
        break;
      case PathCodec::kTurns: {
        if (run > 0) writer.Write(1, 1);  // "turn", not "keep going"
        WriteDirection(run == 0, previous, d, &writer);
        for (int64_t left = count - 1; left > 0; left -= 32) {
          writer.Write(0, static_cast<int>(std::min<int64_t>(left, 32)));
        }
        break;
      }
      case PathCodec::kWaypoints:
        writer.Write(static_cast<uint32_t>(x + Dx(d) * count), 16);
        writer.Write(static_cast<uint32_t>(y + Dy(d) * count), 16);
        break;
      case PathCodec::kRawCells:
        for (int64_t i = 1; i <= count; ++i) {
          writer.Write(static_cast<uint32_t>(x + Dx(d) * i), 16);
          writer.Write(static_cast<uint32_t>(y + Dy(d) * i), 16);
        }
        break;
    }
    x += Dx(d) * count;
    y += Dy(d) * count;
    previous = d;
    ++run;
  });
  writer.Flush();
  if (log2 > 0 && run_count > 0) {
    // Checkpoint m sits before run m * 2^log2: replay the run sizes.
    const uint64_t interval = uint64_t{1} << log2;
    uint64_t bit = 0, step = 0;
    run = 0;
    x = start.x;
    y = start.y;
    previous = Direction::kN;
    ForEachMergedRun(runs, skip, take, [&](Direction d, int64_t count) {
      if (run > 0 && run % interval == 0) {
        PutLittleEndian(step, 4, out);
        PutLittleEndian(static_cast<uint64_t>(x), 2, out);
        PutLittleEndian(static_cast<uint64_t>(y), 2, out);
        PutLittleEndian(bit << 3 | static_cast<uint64_t>(previous), 4, out);
      }
      bit += PayloadBitsOfRun(codec, run == 0, count, previous, d);
      x += Dx(d) * count;
      y += Dy(d) * count;
      step += count;
      previous = d;
      ++run;
    });
  }
  return absl::OkStatus();
}

}  // namespace

absl::string_view PathCodecName(PathCodec codec) {
  switch (codec) {
    case PathCodec::kRunLength:
      return "run_length";
    case PathCodec::kTurns:
      return "turns";
    case PathCodec::kWaypoints:
      return "waypoints";
    case PathCodec::kRawCells:
      return "raw_cells";
  }
  return "unknown";
}

absl::StatusOr<PathCodec> ParsePathCodec(absl::string_view name) {
  for (PathCodec codec : kAllPathCodecs) {
    if (PathCodecName(codec) == name) return codec;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown path codec '", name,
                   "' (expected run_length, turns, waypoints or raw_cells)"));
}

// ---------------------------------------------------------------- encoder

void PathEncoder::Reset(PathCodec codec, Point start,
                        const EncodeOptions& options) {
  codec_ = codec;
  options_ = options;
  start_ = start;
  runs_.clear();
  steps_ = 0;
}

void PathEncoder::Append(Direction d, uint32_t count) {
  if (count == 0) return;
  if (!runs_.empty() && runs_.back().direction == d &&
      runs_.back().count <= kMaxSteps - count) {
    runs_.back().count += count;
  } else {
    runs_.push_back({d, count});
  }
  steps_ += count;
}

absl::Status PathEncoder::Finish(std::string* out) {
  if (static_cast<uint64_t>(steps_) > kMaxSteps) {
    return absl::InvalidArgumentError(
        absl::StrCat("a path holds at most 2^32-1 moves, got ", steps_));
  }
  return EncodeRuns(codec_, start_, runs_, 0, steps_, options_, out);
}

absl::Status EncodePath(PathCodec codec, const RunLengthPath& path,
                        std::string* out, const EncodeOptions& options,
                        int64_t begin, int64_t end) {
  if (end < 0) end = path.steps();
  if (begin < 0 || begin > end || end > path.steps()) {
    return absl::InvalidArgumentError(absl::StrCat("move range [", begin, ", ",
                                                   end, ") is not inside [0, ",
                                                   path.steps(), "]"));
  }
  return EncodeRuns(codec, CellAfterMoves(path.start(), path.runs(), begin),
                    path.runs(), begin, end - begin, options, out);
}

// ---------------------------------------------------------------- parsing

absl::StatusOr<EncodedPath> EncodedPath::Parse(absl::string_view bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t size = bytes.size();
  auto corrupt = [&](absl::string_view what) {
    return absl::DataLossError(
        absl::StrCat("encoded path (", size, " bytes): ", what));
  };
  if (size < 2) return corrupt("too short for a header");
  EncodedPath path;
  path.bytes_ = bytes;
  if (data[0] < 1 || data[0] > 4) {
    return corrupt(absl::StrCat("unknown codec ", data[0]));
  }
  path.codec_ = static_cast<PathCodec>(data[0]);
  path.index_interval_log2_ = data[1];
  if (path.index_interval_log2_ > kMaxIndexIntervalLog2 ||
      (!HasIndex(path.codec_) && path.index_interval_log2_ != 0)) {
    return corrupt(absl::StrCat("bad index interval ", data[1]));
  }
  size_t pos = 2;
  uint64_t x = 0, y = 0, steps = 0, runs = 0, bits = 0;
  if (!ReadVarint(data, size, &pos, kMaxCoordinate, &x) ||
      !ReadVarint(data, size, &pos, kMaxCoordinate, &y)) {
    return corrupt("bad start cell");
  }
  if (!ReadVarint(data, size, &pos, kMaxSteps, &steps) ||
      !ReadVarint(data, size, &pos, steps, &runs) ||
      (steps > 0) != (runs > 0)) {
    return corrupt("bad step or run count");
  }
  if (!ReadVarint(data, size, &pos, uint64_t{32} * kMaxSteps, &bits)) {
    return corrupt("bad payload size");
  }
  switch (path.codec_) {
    case PathCodec::kRawCells:
      if (bits != 32 * steps)
        return corrupt("payload size is not 32 bits/step");
      break;
    case PathCodec::kWaypoints:
      if (bits != 32 * runs) return corrupt("payload size is not 32 bits/run");
      break;
    default:
      if (bits > kMaxPayloadBits || bits < runs) {
        return corrupt("payload size out of range");
      }
  }
  const uint64_t payload_bytes = (bits + 7) / 8;
  const uint64_t entries = path.index_interval_log2_ > 0 && runs > 0
                               ? (runs - 1) >> path.index_interval_log2_
                               : 0;
  if (size - pos != payload_bytes + entries * kIndexEntryBytes) {
    return corrupt(absl::StrCat("size mismatch: ", size - pos,
                                " bytes after the header, expected ",
                                payload_bytes + entries * kIndexEntryBytes));
  }
  if (bits % 8 != 0 && (data[pos + payload_bytes - 1] >> (bits % 8)) != 0) {
    return corrupt("nonzero padding bits");  // one encoding per path
  }
  path.start_ = {static_cast<int32_t>(x), static_cast<int32_t>(y)};
  path.steps_ = static_cast<int64_t>(steps);
  path.runs_ = static_cast<int64_t>(runs);
  path.payload_ = data + pos;
  path.payload_bits_ = bits;
  path.index_ = data + pos + payload_bytes;
  path.index_entries_ = entries;
  // Checkpoints must move forward through the path and the payload.
  uint64_t last_step = 0, last_bit = 0;
  for (uint64_t m = 0; m < entries; ++m) {
    const uint8_t* e = path.index_ + m * kIndexEntryBytes;
    const uint64_t step = GetLittleEndian(e, 4);
    const uint64_t bit = GetLittleEndian(e + 8, 4) >> 3;
    if (step <= last_step || step >= steps || bit <= last_bit || bit >= bits) {
      return corrupt(absl::StrCat("index entry ", m, " out of order"));
    }
    last_step = step;
    last_bit = bit;
  }
  return path;
}

// ---------------------------------------------------------------- reading

PathReader::PathReader(const EncodedPath& path)
    : path_(&path), at_(path.start()) {}

bool PathReader::Fail(absl::string_view what) {
  status_ = absl::DataLossError(
      absl::StrCat("corrupted ", PathCodecName(path_->codec()),
                   " path at move ", step_, " (run ", run_, "): ", what));
  return false;
}

// True if the checkpoint before run run_ describes the reader's state: a
// full decode thereby validates the index too.
bool PathReader::CheckpointMatches() const {
  const EncodedPath& p = *path_;
  const uint64_t m = static_cast<uint64_t>(run_ >> p.index_interval_log2_);
  if (m == 0 || m > p.index_entries_) return false;
  const uint8_t* e = p.index_ + (m - 1) * kIndexEntryBytes;
  return GetLittleEndian(e, 4) == static_cast<uint64_t>(step_) &&
         GetLittleEndian(e + 4, 2) == static_cast<uint64_t>(at_.x) &&
         GetLittleEndian(e + 6, 2) == static_cast<uint64_t>(at_.y) &&
         GetLittleEndian(e + 8, 4) ==
             (bit_ << 3 | static_cast<uint64_t>(previous_));
}

// Decodes the next full run (at a run boundary) without moving at_/step_.
bool PathReader::ReadRun(Run* run) {
  const EncodedPath& p = *path_;
  if (counting_runs_ && run_ >= p.runs_) {
    return Fail("more runs than the header says");
  }
  if (p.index_interval_log2_ > 0 && run_ > 0 &&
      (run_ & ((int64_t{1} << p.index_interval_log2_) - 1)) == 0 &&
      !CheckpointMatches()) {
    return Fail("index entry does not match the payload");
  }
  const uint64_t remaining = static_cast<uint64_t>(p.steps_ - step_);
  BitReader reader(p.payload_, p.payload_bits_);
  reader.Seek(bit_);
  uint32_t v = 0;
  Direction d = Direction::kN;
  uint64_t count = 0, end_bit = 0;
  switch (p.codec_) {
    case PathCodec::kRunLength: {
      uint32_t n = 0;
      if (!ReadDirection(!have_previous_, previous_, &reader, &d) ||
          !reader.ReadGamma(&n)) {
        return Fail("truncated run");
      }
      count = n;
      break;
    }
    case PathCodec::kTurns: {
      if (have_previous_ && (!reader.Read(1, &v) || v != 1)) {
        return Fail("expected a turn");
      }
      if (!ReadDirection(!have_previous_, previous_, &reader, &d)) {
        return Fail("truncated turn");
      }
      count = 1 + reader.CountZeros(remaining > 0 ? remaining - 1 : 0);
      break;
    }
    case PathCodec::kWaypoints: {
      uint32_t x = 0, y = 0;
      if (!reader.Read(16, &x) || !reader.Read(16, &y)) {
        return Fail("truncated waypoint");
      }
      const int64_t dx = static_cast<int64_t>(x) - at_.x;
      const int64_t dy = static_cast<int64_t>(y) - at_.y;
      if ((dx == 0 && dy == 0) ||
          (dx != 0 && dy != 0 && dx != dy && dx != -dy)) {
        return Fail("waypoint not on a straight line");
      }
      d = *DirectionFromDelta((dx > 0) - (dx < 0), (dy > 0) - (dy < 0));
      count = static_cast<uint64_t>(std::max(std::abs(dx), std::abs(dy)));
      break;
    }
    case PathCodec::kRawCells:
      if (!ReadRawRun(&d, &count, &end_bit)) return false;
      break;
  }
  if (p.codec_ != PathCodec::kRawCells) end_bit = reader.position();
  if (have_previous_ && d == previous_) return Fail("repeated direction");
  if (count == 0 || count > remaining) return Fail("run past the path's end");
  bit_ = end_bit;
  ++run_;
  have_previous_ = true;
  previous_ = d;
  run->direction = d;
  run->count = static_cast<uint32_t>(count);
  return true;
}

// Raw cells hold no runs: gather the cells that continue one direction
// (stopping before the first that turns; it is read again next time).
bool PathReader::ReadRawRun(Direction* d, uint64_t* count, uint64_t* end_bit) {
  const EncodedPath& p = *path_;
  BitReader reader(p.payload_, p.payload_bits_);
  reader.Seek(bit_);
  Point at = at_;
  *count = 0;
  *end_bit = bit_;
  while (step_ + static_cast<int64_t>(*count) < p.steps_) {
    uint32_t x = 0, y = 0;
    if (!reader.Read(16, &x) || !reader.Read(16, &y)) {
      return Fail("truncated cell");
    }
    const std::optional<Direction> step = DirectionFromDelta(
        static_cast<int32_t>(x) - at.x, static_cast<int32_t>(y) - at.y);
    if (!step) {
      if (*count == 0) return Fail("cells are not neighbours");
      break;
    }
    if (*count > 0 && *step != *d) break;
    *d = *step;
    at = {static_cast<int32_t>(x), static_cast<int32_t>(y)};
    ++*count;
    *end_bit = reader.position();
  }
  return true;
}

bool PathReader::Next(Run* run) {
  if (!status_.ok()) return false;
  if (partial_.count == 0) {
    if (step_ == path_->steps_) {
      if ((counting_runs_ && run_ != path_->runs_) ||
          bit_ != path_->payload_bits_) {
        return Fail("payload does not end with the path");
      }
      return false;
    }
    if (!ReadRun(&partial_)) return false;
  }
  *run = partial_;
  at_.x += Dx(run->direction) * static_cast<int32_t>(run->count);
  at_.y += Dy(run->direction) * static_cast<int32_t>(run->count);
  if (!CoordinateOk(at_.x) || !CoordinateOk(at_.y)) {
    return Fail("path leaves the coordinate range");
  }
  step_ += run->count;
  partial_.count = 0;
  return true;
}

absl::Status PathReader::Seek(int64_t step) {
  const EncodedPath& p = *path_;
  if (step < 0 || step > p.steps_) {
    return absl::OutOfRangeError(
        absl::StrCat("move ", step, " is outside the path's 0..", p.steps_));
  }
  status_ = absl::OkStatus();
  partial_.count = 0;
  counting_runs_ = true;
  if (p.codec_ == PathCodec::kRawCells) {
    // Fixed-size cells: read the cell before `step` directly.
    step_ = step;
    bit_ = 32 * static_cast<uint64_t>(step);
    at_ = p.start_;
    have_previous_ = false;
    if (step > 0) {
      BitReader reader(p.payload_, p.payload_bits_);
      reader.Seek(bit_ - 32);
      uint32_t x = 0, y = 0;
      reader.Read(16, &x);
      reader.Read(16, &y);
      at_ = {static_cast<int32_t>(x), static_cast<int32_t>(y)};
    }
    // Runs are not counted from the middle of a raw path.
    counting_runs_ = step == 0;
    run_ = 0;
    return absl::OkStatus();
  }
  // Last checkpoint at or before `step` (binary search on its step).
  size_t lo = 0, hi = p.index_entries_;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (GetLittleEndian(p.index_ + mid * kIndexEntryBytes, 4) <=
        static_cast<uint64_t>(step)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0) {
    step_ = 0;
    bit_ = 0;
    at_ = p.start_;
    run_ = 0;
    have_previous_ = false;
  } else {
    const uint8_t* e = p.index_ + (lo - 1) * kIndexEntryBytes;
    step_ = static_cast<int64_t>(GetLittleEndian(e, 4));
    at_ = {static_cast<int32_t>(GetLittleEndian(e + 4, 2)),
           static_cast<int32_t>(GetLittleEndian(e + 6, 2))};
    const uint64_t packed = GetLittleEndian(e + 8, 4);
    bit_ = packed >> 3;
    previous_ = static_cast<Direction>(packed & 7);
    have_previous_ = true;
    run_ = static_cast<int64_t>(lo) << p.index_interval_log2_;
  }
  while (step_ < step) {
    Run run;
    if (!ReadRun(&run)) return status_;
    const int64_t take = std::min<int64_t>(run.count, step - step_);
    at_.x += Dx(run.direction) * static_cast<int32_t>(take);
    at_.y += Dy(run.direction) * static_cast<int32_t>(take);
    if (!CoordinateOk(at_.x) || !CoordinateOk(at_.y)) {
      Fail("path leaves the coordinate range");
      return status_;
    }
    step_ += take;
    partial_ = {run.direction, static_cast<uint32_t>(run.count - take)};
  }
  return absl::OkStatus();
}

absl::Status DecodePath(const EncodedPath& path, RunLengthPath* out) {
  out->Reset(path.start());
  out->reserve(static_cast<size_t>(path.runs()));
  PathReader reader(path);
  for (Run run; reader.Next(&run);) out->Append(run.direction, run.count);
  return reader.status();
}

absl::StatusOr<Point> CellAt(const EncodedPath& path, int64_t step) {
  PathReader reader(path);
  RETURN_IF_ERROR(reader.Seek(step));
  return reader.position();
}

}  // namespace zonepath
