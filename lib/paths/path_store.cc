#include "zonepath/paths/path_store.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "blob_arena.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {
namespace {

// Per-thread encoding buffer: writers encode before taking the store's lock,
// and the buffer keeps its capacity between calls.
std::string& EncodeScratch() {
  thread_local std::string bytes;
  return bytes;
}

Point EndOf(const RunLengthPath& path) {
  return CellAfterMoves(path.start(), path.runs(), path.steps());
}

absl::Status NoUnit(UnitId unit) {
  return absl::NotFoundError(
      absl::StrCat("unit ", unit.value(), " has no stored path"));
}

}  // namespace

int64_t PathStore::Remaining(const Pieces& pieces) {
  int64_t remaining = 0;
  for (const Piece& piece : pieces) remaining += piece.end - piece.begin;
  return remaining;
}

PathStore::PathStore(const PathStoreOptions& options)
    : options_(options),
      arena_(std::make_unique<paths_internal::BlobArena>()) {}

PathStore::~PathStore() = default;

absl::StatusOr<uint32_t> PathStore::StoreSegment(absl::string_view bytes) {
  if (bytes.size() > std::numeric_limits<uint32_t>::max()) {
    return absl::InvalidArgumentError("encoded path larger than 4 GiB");
  }
  uint32_t id = 0;
  if (!free_segments_.empty()) {
    id = free_segments_.back();
    free_segments_.pop_back();
  } else {
    if (segments_.size() >= std::numeric_limits<uint32_t>::max() - 1) {
      return absl::ResourceExhaustedError("too many path segments");
    }
    id = static_cast<uint32_t>(segments_.size());
    segments_.emplace_back();
  }
  Segment& s = segments_[id];
  s.size = static_cast<uint32_t>(bytes.size());
  s.data = arena_->Allocate(std::max<size_t>(1, bytes.size()));
  std::memcpy(s.data, bytes.data(), bytes.size());
  s.refs = 1;
  return id;
}

void PathStore::Unref(uint32_t segment) {
  Segment& s = segments_[segment];
  if (--s.refs > 0) return;
  arena_->Free(s.data, std::max<size_t>(1, s.size));
  s = Segment();
  free_segments_.push_back(segment);
}

void PathStore::UnrefAll(const Pieces& pieces) {
  for (const Piece& piece : pieces) Unref(piece.segment);
}

EncodedPath PathStore::View(uint32_t segment) const {
  const Segment& s = segments_[segment];
  // The store wrote these bytes with its own encoder: they always parse.
  return *EncodedPath::Parse(
      absl::string_view(reinterpret_cast<const char*>(s.data), s.size));
}

absl::StatusOr<const PathStore::Pieces*> PathStore::Find(UnitId unit) const {
  auto it = units_.find(unit);
  if (it == units_.end()) return NoUnit(unit);
  return &it->second;
}

absl::StatusOr<Point> PathStore::CellOf(const Pieces& pieces,
                                        int64_t step) const {
  if (step < 0) {
    return absl::OutOfRangeError(absl::StrCat("negative move ", step));
  }
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece& piece = pieces[i];
    const int64_t length = piece.end - piece.begin;
    if (step < length || (step == length && i + 1 == pieces.size())) {
      return zonepath::CellAt(View(piece.segment), piece.begin + step);
    }
    step -= length;
  }
  return absl::OutOfRangeError(
      absl::StrCat("move ", step, " is past the end of the stored path"));
}

absl::Status PathStore::ForEachRun(const Pieces& pieces, int64_t max_steps,
                                   absl::FunctionRef<bool(Run)> fn) const {
  int64_t budget =
      max_steps < 0 ? std::numeric_limits<int64_t>::max() : max_steps;
  for (const Piece& piece : pieces) {
    if (budget == 0) break;
    const EncodedPath view = View(piece.segment);
    PathReader reader(view);
    RETURN_IF_ERROR(reader.Seek(piece.begin));
    int64_t left = std::min<int64_t>(piece.end - piece.begin, budget);
    budget -= left;
    Run run;
    while (left > 0 && reader.Next(&run)) {
      const uint32_t take =
          static_cast<uint32_t>(std::min<int64_t>(run.count, left));
      if (!fn({run.direction, take})) return absl::OkStatus();
      left -= take;
    }
    RETURN_IF_ERROR(reader.status());
  }
  return absl::OkStatus();
}

absl::Status PathStore::ReadPieces(const Pieces& pieces, int64_t max_steps,
                                   RunLengthPath* out) const {
  ASSIGN_OR_RETURN(Point start, CellOf(pieces, 0));
  out->Reset(start);
  return ForEachRun(pieces, max_steps, [out](Run run) {
    out->Append(run.direction, run.count);
    return true;
  });
}

absl::Status PathStore::Set(UnitId unit, const RunLengthPath& path,
                            int64_t max_steps) {
  const int64_t end =
      max_steps < 0 ? path.steps() : std::min(max_steps, path.steps());
  std::string& bytes = EncodeScratch();
  RETURN_IF_ERROR(
      EncodePath(options_.codec, path, &bytes, options_.encode, 0, end));
  MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(uint32_t segment, StoreSegment(bytes));
  Pieces& pieces = units_[unit];
  UnrefAll(pieces);
  pieces.erase(pieces.begin(), pieces.end());  // keeps capacity, unlike clear
  pieces.push_back({segment, 0, static_cast<uint32_t>(end)});
  return absl::OkStatus();
}

absl::StatusOr<SegmentId> PathStore::AddShared(const RunLengthPath& path) {
  std::string& bytes = EncodeScratch();
  RETURN_IF_ERROR(EncodePath(options_.codec, path, &bytes, options_.encode));
  MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(uint32_t segment, StoreSegment(bytes));
  segments_[segment].handle = true;
  return SegmentId(segment);
}

absl::Status PathStore::ReleaseShared(SegmentId segment) {
  MutexLock lock(&mu_);
  if (!segment.valid() || segment.value() >= segments_.size() ||
      !segments_[segment.value()].handle) {
    return absl::NotFoundError(
        absl::StrCat("no shared segment ", segment.value(),
                     " (never added, or already released)"));
  }
  segments_[segment.value()].handle = false;
  Unref(segment.value());
  return absl::OkStatus();
}

absl::Status PathStore::SetPieces(UnitId unit,
                                  absl::Span<const PathPiece> pieces) {
  if (pieces.empty() || pieces.size() > kMaxPieces) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a path has 1..", kMaxPieces, " pieces, got ", pieces.size()));
  }
  MutexLock lock(&mu_);
  Pieces resolved;
  Point previous_end;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const PathPiece& piece = pieces[i];
    const uint32_t id = piece.segment.value();
    if (!piece.segment.valid() || id >= segments_.size() ||
        !segments_[id].handle) {
      return absl::NotFoundError(absl::StrCat(
          "piece ", i, ": no shared segment ", piece.segment.value(),
          " (never added, or already released)"));
    }
    const EncodedPath view = View(id);
    const int64_t end = piece.end < 0 ? view.steps() : piece.end;
    if (piece.begin < 0 || piece.begin > end || end > view.steps()) {
      return absl::InvalidArgumentError(
          absl::StrCat("piece ", i, ": moves [", piece.begin, ", ", end,
                       ") not inside the segment's ", view.steps()));
    }
    ASSIGN_OR_RETURN(Point start, zonepath::CellAt(view, piece.begin));
    if (i > 0 && !(start == previous_end)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "piece ", i, " starts at ", PointString(start),
          " but the previous piece ends at ", PointString(previous_end)));
    }
    ASSIGN_OR_RETURN(previous_end, zonepath::CellAt(view, end));
    resolved.push_back(
        {id, static_cast<uint32_t>(piece.begin), static_cast<uint32_t>(end)});
  }
  for (const Piece& piece : resolved) ++segments_[piece.segment].refs;
  Pieces& stored = units_[unit];
  UnrefAll(stored);
  stored = std::move(resolved);
  return absl::OkStatus();
}

absl::Status PathStore::Splice(UnitId unit, int64_t replaced_steps,
                               const RunLengthPath& detour) {
  std::string& bytes = EncodeScratch();
  RETURN_IF_ERROR(EncodePath(options_.codec, detour, &bytes, options_.encode));
  MutexLock lock(&mu_);
  auto it = units_.find(unit);
  if (it == units_.end()) return NoUnit(unit);
  Pieces& pieces = it->second;
  ASSIGN_OR_RETURN(Point position, CellOf(pieces, 0));
  ASSIGN_OR_RETURN(Point rejoin, CellOf(pieces, replaced_steps));
  if (!(detour.start() == position) || !(EndOf(detour) == rejoin)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the detour runs ", PointString(detour.start()), " -> ",
        PointString(EndOf(detour)), " but must run from the unit's position ",
        PointString(position), " to ", PointString(rejoin), " (move ",
        replaced_steps, ")"));
  }
  ASSIGN_OR_RETURN(uint32_t segment, StoreSegment(bytes));
  // Built in scratch, then copied into the unit's list, which keeps its
  // capacity: a unit spliced before allocates nothing here.
  Pieces& spliced = scratch_pieces_;
  spliced.erase(spliced.begin(), spliced.end());
  spliced.push_back({segment, 0, static_cast<uint32_t>(detour.steps())});
  int64_t skip = replaced_steps;
  for (const Piece& piece : pieces) {
    const int64_t length = piece.end - piece.begin;
    if (skip >= length) {
      skip -= length;
      continue;
    }
    spliced.push_back(
        {piece.segment, piece.begin + static_cast<uint32_t>(skip), piece.end});
    ++segments_[piece.segment].refs;
    skip = 0;
  }
  UnrefAll(pieces);
  pieces.assign(spliced.begin(), spliced.end());
  if (pieces.size() > kMaxPieces) return Compact(&pieces);
  return absl::OkStatus();
}

absl::Status PathStore::Extend(UnitId unit, const RunLengthPath& more) {
  std::string& bytes = EncodeScratch();
  RETURN_IF_ERROR(EncodePath(options_.codec, more, &bytes, options_.encode));
  MutexLock lock(&mu_);
  auto it = units_.find(unit);
  if (it == units_.end()) return NoUnit(unit);
  Pieces& pieces = it->second;
  ASSIGN_OR_RETURN(Point end, CellOf(pieces, Remaining(pieces)));
  if (!(more.start() == end)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the extension starts at ", PointString(more.start()),
                     " but the stored path ends at ", PointString(end)));
  }
  ASSIGN_OR_RETURN(uint32_t segment, StoreSegment(bytes));
  if (pieces.back().begin == pieces.back().end) {  // walked to its end
    Unref(pieces.back().segment);
    pieces.pop_back();
  }
  pieces.push_back({segment, 0, static_cast<uint32_t>(more.steps())});
  if (pieces.size() > kMaxPieces) return Compact(&pieces);
  return absl::OkStatus();
}

absl::Status PathStore::Advance(UnitId unit, int64_t steps) {
  MutexLock lock(&mu_);
  auto it = units_.find(unit);
  if (it == units_.end()) return NoUnit(unit);
  Pieces& pieces = it->second;
  const int64_t remaining = Remaining(pieces);
  if (steps < 0 || steps > remaining) {
    return absl::OutOfRangeError(absl::StrCat(
        "cannot advance ", steps, " moves; ", remaining, " remain"));
  }
  // Walk through whole pieces (keeping the last one, even if empty, so the
  // unit still has a position), then into the first remaining one.
  size_t drop = 0;
  while (drop + 1 < pieces.size() &&
         steps >= pieces[drop].end - pieces[drop].begin) {
    steps -= pieces[drop].end - pieces[drop].begin;
    Unref(pieces[drop].segment);
    ++drop;
  }
  pieces.erase(pieces.begin(), pieces.begin() + drop);
  pieces.front().begin += static_cast<uint32_t>(steps);
  ReclaimFront(&pieces);
  return absl::OkStatus();
}

void PathStore::ReclaimFront(Pieces* pieces) {
  Piece& front = pieces->front();
  const Segment& s = segments_[front.segment];
  if (s.refs != 1 || s.size < 64 || front.begin == 0) return;
  if (front.begin < View(front.segment).steps() / 2) return;
  // The unit walked over most of its private segment: re-encode the rest so
  // the memory follows what is left to walk (amortised O(1) per move).
  Pieces one;
  one.push_back(front);
  if (!ReadPieces(one, -1, &scratch_path_).ok() ||
      !EncodePath(options_.codec, scratch_path_, &scratch_bytes_,
                  options_.encode)
           .ok()) {
    return;  // keep the old segment; nothing lost
  }
  absl::StatusOr<uint32_t> segment = StoreSegment(scratch_bytes_);
  if (!segment.ok()) return;
  Unref(front.segment);
  front = {*segment, 0, static_cast<uint32_t>(scratch_path_.steps())};
}

absl::Status PathStore::Compact(Pieces* pieces) {
  RETURN_IF_ERROR(ReadPieces(*pieces, -1, &scratch_path_));
  RETURN_IF_ERROR(EncodePath(options_.codec, scratch_path_, &scratch_bytes_,
                             options_.encode));
  ASSIGN_OR_RETURN(uint32_t segment, StoreSegment(scratch_bytes_));
  UnrefAll(*pieces);
  pieces->erase(pieces->begin(), pieces->end());
  pieces->push_back({segment, 0, static_cast<uint32_t>(scratch_path_.steps())});
  return absl::OkStatus();
}

bool PathStore::Remove(UnitId unit) {
  MutexLock lock(&mu_);
  auto it = units_.find(unit);
  if (it == units_.end()) return false;
  UnrefAll(it->second);
  units_.erase(it);
  return true;
}

bool PathStore::Contains(UnitId unit) const {
  ReaderMutexLock lock(&mu_);
  return units_.contains(unit);
}

absl::StatusOr<Point> PathStore::Position(UnitId unit) const {
  return CellAt(unit, 0);
}

absl::StatusOr<int64_t> PathStore::RemainingSteps(UnitId unit) const {
  ReaderMutexLock lock(&mu_);
  ASSIGN_OR_RETURN(const Pieces* pieces, Find(unit));
  return Remaining(*pieces);
}

absl::StatusOr<Point> PathStore::CellAt(UnitId unit, int64_t step) const {
  ReaderMutexLock lock(&mu_);
  ASSIGN_OR_RETURN(const Pieces* pieces, Find(unit));
  return CellOf(*pieces, step);
}

absl::Status PathStore::Read(UnitId unit, int64_t max_steps,
                             RunLengthPath* out) const {
  ReaderMutexLock lock(&mu_);
  ASSIGN_OR_RETURN(const Pieces* pieces, Find(unit));
  return ReadPieces(*pieces, max_steps, out);
}

absl::Status PathStore::WalkCells(const Pieces& pieces,
                                  absl::FunctionRef<bool(Point)> visit) const {
  ASSIGN_OR_RETURN(Point at, CellOf(pieces, 0));
  if (!visit(at)) return absl::OkStatus();
  return ForEachRun(pieces, -1, [&](Run run) {
    for (uint32_t i = 0; i < run.count; ++i) {
      at = Step(at, run.direction);
      if (!visit(at)) return false;
    }
    return true;
  });
}

absl::Status PathStore::ZonesCrossed(UnitId unit, const ZoneLayout& layout,
                                     std::vector<ZoneId>* zones) const {
  zones->clear();
  ReaderMutexLock lock(&mu_);
  ASSIGN_OR_RETURN(const Pieces* pieces, Find(unit));
  ZoneId last(~0u);
  RETURN_IF_ERROR(WalkCells(*pieces, [&](Point p) {
    const ZoneId z = layout.ZoneOf(p);
    if (z != last) zones->push_back(z);
    last = z;
    return true;
  }));
  std::sort(zones->begin(), zones->end());
  zones->erase(std::unique(zones->begin(), zones->end()), zones->end());
  return absl::OkStatus();
}

void PathStore::UnitsCrossing(const ZoneLayout& layout,
                              absl::Span<const ZoneId> zones,
                              std::vector<UnitId>* units) const {
  units->clear();
  // The valid ids, sorted: memory follows the caller's list, not the
  // largest id in it (an invalid or huge id is simply never crossed).
  std::vector<uint32_t> wanted;
  wanted.reserve(zones.size());
  for (ZoneId z : zones) {
    if (z.valid()) wanted.push_back(z.value());
  }
  if (wanted.empty()) return;
  std::sort(wanted.begin(), wanted.end());
  ReaderMutexLock lock(&mu_);
  for (const auto& [unit, pieces] : units_) {
    bool hit = false;
    uint32_t last = ZoneId().value();  // looked up once per zone entered
    // A stored path that fails to decode cannot be checked: report it, so
    // the caller re-plans it rather than trusting it.
    const absl::Status walked = WalkCells(pieces, [&](Point p) {
      const uint32_t z = layout.ZoneOf(p).value();
      if (z != last) {
        last = z;
        hit = std::binary_search(wanted.begin(), wanted.end(), z);
      }
      return !hit;
    });
    if (hit || !walked.ok()) units->push_back(unit);
  }
  std::sort(units->begin(), units->end());
}

void PathStore::ForEachUnitCrossing(
    const ZoneLayout& layout, absl::Span<const ZoneId> zones,
    absl::FunctionRef<void(UnitId)> affected) const {
  std::vector<UnitId> units;
  UnitsCrossing(layout, zones, &units);
  for (UnitId unit : units) affected(unit);
}

PathStoreStats PathStore::Stats() const {
  ReaderMutexLock lock(&mu_);
  PathStoreStats stats;
  stats.units = static_cast<int64_t>(units_.size());
  for (const auto& [unit, pieces] : units_) {
    stats.pieces += static_cast<int64_t>(pieces.size());
    stats.remaining_steps += Remaining(pieces);
  }
  for (const Segment& s : segments_) {
    if (s.refs == 0) continue;
    ++stats.segments;
    stats.encoded_bytes += s.size;
  }
  return stats;
}

size_t PathStore::MemoryUsage() const {
  ReaderMutexLock lock(&mu_);
  size_t bytes = sizeof(*this) + arena_->MemoryUsage() +
                 segments_.capacity() * sizeof(Segment) +
                 free_segments_.capacity() * sizeof(uint32_t) +
                 scratch_bytes_.capacity() + scratch_path_.MemoryUsage();
  // flat_hash_map: one slot and one control byte per bucket.
  bytes += units_.capacity() * (sizeof(std::pair<UnitId, Pieces>) + 1);
  for (const auto& [unit, pieces] : units_) {
    if (pieces.capacity() > 1) bytes += pieces.capacity() * sizeof(Piece);
  }
  if (scratch_pieces_.capacity() > 1) {
    bytes += scratch_pieces_.capacity() * sizeof(Piece);
  }
  return bytes;
}

}  // namespace zonepath
