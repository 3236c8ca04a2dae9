// --checksums and --verify (commands that load a world file).
#include "absl/flags/flag.h"
#include "common_flags.h"

ABSL_FLAG(bool, checksums, true,
          "verify the CRC-32 of the world file's header and every section "
          "while loading (the structural checks run either way)");

ABSL_FLAG(bool, verify, false,
          "inspect: also check that every abstract edge has a way below it "
          "inside its zone (O(cells); queries report such an edge as data "
          "loss otherwise); changes, with --rebuild: check the update gives "
          "the same bytes as the rebuild");

namespace zonepath::cli {

LoadOptions LoadOptionsFromFlags() {
  LoadOptions options;
  options.verify_checksums = absl::GetFlag(FLAGS_checksums);
  options.verify_refinement = absl::GetFlag(FLAGS_verify);
  options.memory_limit = absl::GetFlag(FLAGS_memory_limit);
  return options;
}

}  // namespace zonepath::cli
