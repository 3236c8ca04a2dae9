// The Python World: a shared, immutable zonepath::World.
#ifndef ZONEPATH_PYTHON_WORLD_H_
#define ZONEPATH_PYTHON_WORLD_H_

#include <memory>

#include "zonepath/world/world.h"

namespace zonepath::python {

// Planners and batches keep the world alive through this pointer.
struct PyWorld {
  std::shared_ptr<const World> world;
};

}  // namespace zonepath::python

#endif  // ZONEPATH_PYTHON_WORLD_H_
