// libFuzzer target for the world file loader: any bytes must give a World or
// an error status, never a crash, hang, out-of-bounds read or huge allocation.
//   cmake -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DZONEPATH_FUZZ=ON
//   build-fuzz/tests/world_loader_fuzz -max_total_time=60 CORPUS_DIR
#include <cstddef>
#include <cstdint>

#include "zonepath/world/world_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  // With checksums (the real loader) and without (to reach the structural
  // checks behind them, which mutated inputs rarely pass otherwise).
  for (bool verify : {true, false}) {
    absl::StatusOr<zonepath::World> world =
        zonepath::ParseWorld(bytes, "fuzz", verify);
    if (world.ok()) {
      // Whatever was accepted re-serialises to a file that loads and
      // re-serialises identically.
      const std::string once = zonepath::SerializeWorld(*world);
      absl::StatusOr<zonepath::World> again = zonepath::ParseWorld(once);
      if (!again.ok() || zonepath::SerializeWorld(*again) != once) {
        __builtin_trap();
      }
    }
  }
  return 0;
}
