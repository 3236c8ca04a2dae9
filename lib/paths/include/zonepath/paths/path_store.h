// PathStore: the paths of many units, encoded, with exact memory accounting.
//
// Each unit's remaining path is a short list of pieces, each a move range of
// an encoded segment. That makes the operations games need cheap:
//   - Advance (the unit walked k moves) only moves a piece's start;
//   - Splice (re-plan the first M moves around a local obstacle) adds a new
//     segment in front without re-encoding the rest;
//   - Extend appends a piece (e.g. the next moves of a PathCursor);
//   - shared corridors: AddShared encodes a path once; SetPieces lets many
//     units reference parts of it (segments are reference counted).
// Encoded segments live in a pooled arena, so a store in steady state does no
// heap allocation per path. MemoryUsage() counts every byte the store holds.
//
// Threads: any number of readers (Position, Read, CellAt, ...) run at once;
// a writer (Set, Splice, Advance, ...) takes the store exclusively for the
// duration of one operation (encoding happens before the lock is taken).
// Readers of one unit therefore never see a half-updated path.
//
//   PathStore store({.codec = PathCodec::kRunLength});
//   RETURN_IF_ERROR(store.Set(UnitId(7), planned_path));
//   RunLengthPath next;
//   RETURN_IF_ERROR(store.Read(UnitId(7), 32, &next));   // next 32 moves
//   RETURN_IF_ERROR(store.Advance(UnitId(7), 5));         // the unit walked 5
//
//   // Limited path length: keep only the next N moves; re-plan when
//   // RemainingSteps() runs low.
//   RETURN_IF_ERROR(store.Set(UnitId(8), planned_path, /*max_steps=*/64));
#ifndef ZONEPATH_PATHS_PATH_STORE_H_
#define ZONEPATH_PATHS_PATH_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "zonepath/base/mutex.h"
#include "zonepath/base/strong_id.h"
#include "zonepath/grid/path.h"
#include "zonepath/grid/zone_layout.h"
#include "zonepath/paths/path_codec.h"

namespace zonepath {

struct UnitTag {};
using UnitId = StrongId<UnitTag, uint64_t>;
struct SegmentTag {};
using SegmentId = StrongId<SegmentTag, uint32_t>;

namespace paths_internal {
class BlobArena;
}

struct PathStoreOptions {
  PathCodec codec = PathCodec::kRunLength;
  EncodeOptions encode;
};

// Moves [begin, end) of a shared segment; end < 0 means its last move.
struct PathPiece {
  SegmentId segment;
  int64_t begin = 0;
  int64_t end = -1;
};

struct PathStoreStats {
  int64_t units = 0;
  int64_t segments = 0;
  int64_t pieces = 0;
  int64_t remaining_steps = 0;  // moves still to walk, over all units
  size_t encoded_bytes = 0;     // sum of the encoded segments' sizes
};

class PathStore {
 public:
  // A unit's path holds at most this many pieces; more (after many splices
  // or extensions) are re-encoded into one private segment.
  static constexpr int kMaxPieces = 8;

  explicit PathStore(const PathStoreOptions& options = {});
  ~PathStore();
  PathStore(const PathStore&) = delete;
  PathStore& operator=(const PathStore&) = delete;

  // ---- Writers. On error nothing changes.

  // Stores `path` (at most its first `max_steps` moves if >= 0) for `unit`,
  // replacing any previous path.
  absl::Status Set(UnitId unit, const RunLengthPath& path,
                   int64_t max_steps = -1);
  // Encodes a path that several units will share; the caller holds one
  // reference, the handle, until ReleaseShared. Units that use the segment
  // keep it alive after that.
  absl::StatusOr<SegmentId> AddShared(const RunLengthPath& path);
  // Gives the handle back: NotFound for an id AddShared did not return or
  // already released (a second release never frees what units still use).
  absl::Status ReleaseShared(SegmentId segment);
  // Sets `unit`'s path to the concatenation of `pieces` (1..kMaxPieces), each
  // starting where the previous one ends. Each piece names a segment whose
  // handle is held (AddShared, not yet released), else NotFound.
  absl::Status SetPieces(UnitId unit, absl::Span<const PathPiece> pieces);
  // Replaces the unit's next `replaced_steps` moves by `detour`, which must
  // start at the unit's position and end where those moves ended.
  absl::Status Splice(UnitId unit, int64_t replaced_steps,
                      const RunLengthPath& detour);
  // Appends `more`, which must start where the unit's path ends.
  absl::Status Extend(UnitId unit, const RunLengthPath& more);
  // The unit walked its next `steps` moves (at most RemainingSteps()).
  absl::Status Advance(UnitId unit, int64_t steps);
  // Forgets the unit; false if it had no path.
  bool Remove(UnitId unit);

  // ---- Readers. NotFound for a unit without a path.

  bool Contains(UnitId unit) const;
  absl::StatusOr<Point> Position(UnitId unit) const;
  absl::StatusOr<int64_t> RemainingSteps(UnitId unit) const;
  // The cell the unit reaches after `step` more moves (0..RemainingSteps()).
  absl::StatusOr<Point> CellAt(UnitId unit, int64_t step) const;
  // Writes the unit's next moves (all if max_steps < 0) into `out`, which
  // starts at the unit's position; its capacity is reused.
  absl::Status Read(UnitId unit, int64_t max_steps, RunLengthPath* out) const;

  // ---- Watching for map changes (zones of a ZoneLayout, e.g. level 1's).

  // The zones the unit's remaining path visits (its position included),
  // sorted, each once.
  absl::Status ZonesCrossed(UnitId unit, const ZoneLayout& layout,
                            std::vector<ZoneId>* zones) const;
  // The units whose remaining path visits any of `zones`, sorted by id
  // (replacing the contents of `units`). Decodes every stored path: O(total
  // remaining moves).
  void UnitsCrossing(const ZoneLayout& layout, absl::Span<const ZoneId> zones,
                     std::vector<UnitId>* units) const;
  // Calls `affected(unit)` for each of those units, in id order, without
  // holding the store's lock: the callback may re-plan and Splice or Set.
  void ForEachUnitCrossing(const ZoneLayout& layout,
                           absl::Span<const ZoneId> zones,
                           absl::FunctionRef<void(UnitId)> affected) const;

  PathStoreStats Stats() const;
  // Bytes held: the arena's chunks, the unit table, the segment table and
  // the object itself.
  size_t MemoryUsage() const;
  const PathStoreOptions& options() const { return options_; }

 private:
  struct Segment {
    uint8_t* data = nullptr;
    uint32_t size = 0;
    uint32_t refs = 0;    // 0: free slot
    bool handle = false;  // AddShared's reference, not yet released
  };
  struct Piece {
    uint32_t segment;
    uint32_t begin;
    uint32_t end;
  };
  using Pieces = absl::InlinedVector<Piece, 1>;

  static int64_t Remaining(const Pieces& pieces);
  absl::StatusOr<uint32_t> StoreSegment(absl::string_view bytes)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Unref(uint32_t segment) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void UnrefAll(const Pieces& pieces) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  EncodedPath View(uint32_t segment) const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  absl::StatusOr<const Pieces*> Find(UnitId unit) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  absl::StatusOr<Point> CellOf(const Pieces& pieces, int64_t step) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Calls fn(run) for the unit's next moves (all if max_steps < 0), runs
  // cut at piece boundaries, until fn returns false.
  absl::Status ForEachRun(const Pieces& pieces, int64_t max_steps,
                          absl::FunctionRef<bool(Run)> fn) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Calls visit(cell) for the position and every cell entered after it,
  // until visit returns false.
  absl::Status WalkCells(const Pieces& pieces,
                         absl::FunctionRef<bool(Point)> visit) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  absl::Status ReadPieces(const Pieces& pieces, int64_t max_steps,
                          RunLengthPath* out) const
      ABSL_SHARED_LOCKS_REQUIRED(mu_);
  // Re-encodes a unit's pieces into one private segment.
  absl::Status Compact(Pieces* pieces) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Drops the consumed front of a private segment once it is most of it.
  void ReclaimFront(Pieces* pieces) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const PathStoreOptions options_;
  mutable Mutex mu_;  // absl::Mutex that TSan can check (base/mutex.h)
  std::unique_ptr<paths_internal::BlobArena> arena_ ABSL_GUARDED_BY(mu_);
  std::vector<Segment> segments_ ABSL_GUARDED_BY(mu_);
  std::vector<uint32_t> free_segments_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<UnitId, Pieces> units_ ABSL_GUARDED_BY(mu_);
  // Scratch for writers (under the lock).
  std::string scratch_bytes_ ABSL_GUARDED_BY(mu_);
  Pieces scratch_pieces_ ABSL_GUARDED_BY(mu_);
  RunLengthPath scratch_path_ ABSL_GUARDED_BY(mu_);
};

}  // namespace zonepath

#endif  // ZONEPATH_PATHS_PATH_STORE_H_
