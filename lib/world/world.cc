#include "zonepath/world/world.h"

namespace zonepath {

std::shared_ptr<const void> World::DerivedOnce(
    int key, const std::function<Derived()>& build) const {
  if (derived_ == nullptr) return build().data;  // a moved-from world
  std::shared_ptr<DerivedSlot> slot;
  {
    MutexLock lock(&derived_->mu);
    std::shared_ptr<DerivedSlot>& item = derived_->items[key];
    if (item == nullptr) item = std::make_shared<DerivedSlot>();
    slot = item;
  }
  MutexLock lock(&slot->mu);
  if (!slot->built) {
    Derived made = build();
    slot->data = std::move(made.data);
    slot->bytes.store(made.bytes, std::memory_order_release);
    slot->built = true;
  }
  return slot->data;
}

size_t World::DerivedBytes() const {
  if (derived_ == nullptr) return 0;  // a moved-from world
  MutexLock lock(&derived_->mu);
  size_t bytes = 0;
  for (const auto& [key, slot] : derived_->items) {
    bytes += slot->bytes.load(std::memory_order_acquire);
  }
  return bytes;
}

}  // namespace zonepath
