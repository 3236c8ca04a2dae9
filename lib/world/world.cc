#include "zonepath/world/world.h"

namespace zonepath {

std::shared_ptr<const void> World::DerivedOnce(
    int key, const std::function<Derived()>& build) const {
  if (derived_ == nullptr) return build().data;  // a moved-from world
  MutexLock lock(&derived_->mu);
  auto it = derived_->items.find(key);
  if (it == derived_->items.end()) {
    it = derived_->items.emplace(key, build()).first;
  }
  return it->second.data;
}

size_t World::DerivedBytes() const {
  if (derived_ == nullptr) return 0;  // a moved-from world
  MutexLock lock(&derived_->mu);
  size_t bytes = 0;
  for (const auto& [key, item] : derived_->items) bytes += item.bytes;
  return bytes;
}

}  // namespace zonepath
