// WorldVersions: versioned snapshots of a changing world.
//
// Readers take a snapshot (a shared_ptr to an immutable World) and plan on
// it for as long as they like; an update builds the next version from the
// current one without touching it, then publishes it with one pointer swap.
//
// Guarantees:
//   - A snapshot never changes: every query on it sees one whole version,
//     never a half-updated world.
//   - Current() after Apply() returns sees that update (or a later one).
//   - Updates are serialised: each applies to the version before it, so no
//     update is lost. A rejected batch publishes nothing.
//   - An old version is freed when its last snapshot is dropped.
//   - Current() never waits for an update in progress (the lock guards only
//     the pointer).
// Cost: versions share copy-on-write pages (see ApplyChanges): an update
// writes only the zones it rebuilds and their neighbours' edge lists, so
// old snapshots cost only the pages later versions wrote (a page shared
// with a published version is never written).
//
//   WorldVersions versions(std::move(world));
//   // any thread:
//   std::shared_ptr<const World> snapshot = versions.Current();
//   Planner planner(*snapshot);  // plans on that version only
//   // updater thread:
//   ASSIGN_OR_RETURN(UpdateReport report, versions.Apply(changes));
#ifndef ZONEPATH_UPDATE_WORLD_VERSIONS_H_
#define ZONEPATH_UPDATE_WORLD_VERSIONS_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "zonepath/base/mutex.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world.h"

namespace zonepath {

class WorldVersions {
 public:
  explicit WorldVersions(World initial, const UpdateOptions& options = {});
  WorldVersions(const WorldVersions&) = delete;
  WorldVersions& operator=(const WorldVersions&) = delete;

  // The newest published version; keep the pointer to keep the version.
  std::shared_ptr<const World> Current() const ABSL_LOCKS_EXCLUDED(mu_);

  // Builds and publishes the next version (see ApplyChanges). On error the
  // current version stays.
  absl::StatusOr<UpdateReport> Apply(absl::Span<const CellChange> changes)
      ABSL_LOCKS_EXCLUDED(update_mu_, mu_);

 private:
  const UpdateOptions options_;
  Mutex update_mu_;   // one update at a time
  mutable Mutex mu_;  // guards current_ only (base/mutex.h: TSan-visible)
  std::shared_ptr<const World> current_ ABSL_GUARDED_BY(mu_);
};

}  // namespace zonepath

#endif  // ZONEPATH_UPDATE_WORLD_VERSIONS_H_
