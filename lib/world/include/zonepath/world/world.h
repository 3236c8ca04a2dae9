// World: a grid plus its abstraction, the unit the runtime plans on.
//
// A World is immutable once made; share one `const World` between any number
// of threads. It comes from a world file (zonepath build), from building in
// memory (zonepath::offline::BuildWorld), or from applying cell changes to
// another world (zonepath::offline::ApplyChanges, which numbers versions).
//
// Its arrays are copy-on-write pages (CowArray): a world made by
// ApplyChanges shares every page the changes did not touch with the world
// it came from, so keeping both costs little more than keeping one. What
// planners derive from a world (DerivedOnce: landmark, distance and level-2
// connection tables, the grid's open bits of ~4 bits a cell, or on a larger
// grid its open cell tiles of 1 bit a cell) is each version's own.
//
//   ASSIGN_OR_RETURN(World world, LoadWorldFile("den520d.zpw"));
//   const Grid& grid = world.grid();
//   const SharedLevel& level1 = world.abstraction().levels[0];
#ifndef ZONEPATH_WORLD_WORLD_H_
#define ZONEPATH_WORLD_WORLD_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "zonepath/base/mutex.h"
#include "zonepath/grid/grid.h"
#include "zonepath/world/abstraction.h"
#include "zonepath/world/connection_tables.h"
#include "zonepath/world/shared_abstraction.h"

namespace zonepath {

class World {
 public:
  // `tables`, if any, must be the abstraction's (BuildConnectionTables, or
  // checked by ConnectionTables::Validate). The abstraction is trusted as
  // built (BuildWorld, ApplyChanges): its arrays, node_component among
  // them, are read as they are; a file's go through LoadWorldFile's checks.
  World(Grid grid, const Abstraction& abstraction, uint64_t version = 0,
        std::shared_ptr<const ConnectionTables> tables = nullptr)
      : grid_(std::move(grid)),
        abstraction_(SharedAbstraction::FromFlat(abstraction)),
        version_(version),
        connection_tables_(std::move(tables)) {}
  World(Grid grid, SharedAbstraction abstraction, uint64_t version,
        std::shared_ptr<const ConnectionTables> tables = nullptr)
      : grid_(std::move(grid)),
        abstraction_(std::move(abstraction)),
        version_(version),
        connection_tables_(std::move(tables)) {}

  const Grid& grid() const { return grid_; }
  const SharedAbstraction& abstraction() const { return abstraction_; }
  // The abstraction in canonical flat form (a copy; O(abstraction)).
  Abstraction FlatAbstraction() const { return abstraction_.ToFlat(); }
  const BuildParams& params() const { return abstraction_.params; }
  // 0 when built or loaded; each ApplyChanges adds 1. Not saved in files.
  uint64_t version() const { return version_; }
  // The connection tables of levels >= 3 (connection_tables.h), or null
  // for a world built without them or loaded from a file without them (its
  // planners connect by search). ApplyChanges keeps them up to date.
  const ConnectionTables* connection_tables() const {
    return connection_tables_.get();
  }

  // Bytes this world reads (pages shared with other versions included),
  // with what planners derived from it so far (DerivedOnce).
  size_t MemoryUsage() const {
    return grid_.MemoryUsage() + abstraction_.MemoryUsage() + TableBytes() +
           DerivedBytes();
  }

  // Data the runtime derives from this world on first use and shares
  // between all its planners, on any thread (the landmark bounds and the
  // distance table of a level, runtime/landmarks.h, level_distances.h; the
  // connection tables of levels the file has none of, derived_connections.h;
  // the grid's open bits or open cell tiles, search/grid_astar.h):
  // `build` runs once per key, the first caller's, under that key's own lock;
  // a later call with the key waits for it and returns the same object, while
  // calls with other keys, and DerivedBytes / MemoryUsage, go on meanwhile (a
  // table that takes 0.6 s to build stalls only the planners that need it).
  // Its `bytes` count in MemoryUsage() once built. Copies of a world share
  // what was derived (their content is the same); a world made by
  // ApplyChanges starts with nothing derived. `build` must not ask for its
  // own key again (it would wait for itself).
  // Keys from 65536 up are the runtime's (landmark tables, keyed by level
  // and count; the grid's open cells as bits; distance tables by level;
  // derived connection tables).
  struct Derived {
    std::shared_ptr<const void> data;
    size_t bytes = 0;
  };
  std::shared_ptr<const void> DerivedOnce(
      int key, const std::function<Derived()>& build) const;
  size_t DerivedBytes() const;
  // Bytes of pages this world wrote itself instead of sharing them with the
  // world it was made from (all of them for a built or loaded world).
  size_t OwnedBytes() const {
    return grid_.OwnedBytes() + abstraction_.OwnedBytes() +
           (connection_tables_ ? connection_tables_->OwnedBytes() : 0);
  }
  // The part of MemoryUsage that views a mapped world file (the grid's costs
  // and component labels, the abstraction's arrays and the connection
  // tables: file-backed, shared by every process that maps the file; never
  // owned).
  size_t MappedBytes() const {
    return grid_.MappedBytes() + abstraction_.MappedBytes() +
           (connection_tables_ ? connection_tables_->MappedBytes() : 0);
  }
  size_t TableBytes() const {
    return connection_tables_ ? connection_tables_->MemoryUsage() : 0;
  }

 private:
  // One key's item: built under its own lock, so that a slow build holds
  // up only callers of that key.
  struct DerivedSlot {
    Mutex mu;
    bool built ABSL_GUARDED_BY(mu) = false;
    std::shared_ptr<const void> data ABSL_GUARDED_BY(mu);
    std::atomic<size_t> bytes{0};  // set once built, read without mu
  };
  struct DerivedCache {
    mutable Mutex mu;  // absl::Mutex that TSan can check (base/mutex.h)
    std::map<int, std::shared_ptr<DerivedSlot>> items ABSL_GUARDED_BY(mu);
  };

  Grid grid_;
  SharedAbstraction abstraction_;
  uint64_t version_ = 0;
  std::shared_ptr<const ConnectionTables> connection_tables_;
  std::shared_ptr<DerivedCache> derived_ = std::make_shared<DerivedCache>();
};

}  // namespace zonepath

#endif  // ZONEPATH_WORLD_WORLD_H_
