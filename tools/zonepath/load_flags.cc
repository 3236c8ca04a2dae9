// --checksums (commands that load a world file: inspect, query).
#include "absl/flags/flag.h"
#include "common_flags.h"

ABSL_FLAG(bool, checksums, true,
          "verify the CRC-32 of the world file's header and every section "
          "while loading (the structural checks run either way)");

namespace zonepath::cli {

LoadOptions LoadOptionsFromFlags() {
  LoadOptions options;
  options.verify_checksums = absl::GetFlag(FLAGS_checksums);
  return options;
}

}  // namespace zonepath::cli
