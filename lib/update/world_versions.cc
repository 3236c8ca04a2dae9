#include "zonepath/update/world_versions.h"

#include <utility>

namespace zonepath {

WorldVersions::WorldVersions(World initial, const UpdateOptions& options)
    : options_(options),
      current_(std::make_shared<const World>(std::move(initial))) {}

std::shared_ptr<const World> WorldVersions::Current() const {
  MutexLock lock(&mu_);
  return current_;
}

absl::StatusOr<UpdateReport> WorldVersions::Apply(
    absl::Span<const CellChange> changes) {
  MutexLock update_lock(&update_mu_);
  // Only this thread replaces current_, so reading it once is enough.
  std::shared_ptr<const World> base = Current();
  UpdateReport report;
  absl::StatusOr<World> next = ApplyChanges(*base, changes, options_, &report);
  if (!next.ok()) return next.status();
  auto published = std::make_shared<const World>(*std::move(next));
  {
    MutexLock lock(&mu_);
    current_.swap(published);
  }
  // `published` now holds the old version: dropped here, outside the lock,
  // so freeing a large world never delays readers.
  return report;
}

}  // namespace zonepath
