// libFuzzer targets for the text readers: .map (ZONEPATH_FUZZ_READER=1),
// .scen (2), change scripts (3) and agent files (4). Any bytes give a value or
// a status naming the line, never a crash, hang or allocation beyond what the
// text holds.
//   build-fuzz/tests/map_reader_fuzz -max_total_time=30 CORPUS_DIR
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "absl/strings/string_view.h"
#if ZONEPATH_FUZZ_READER == 1
#include "zonepath/movingai/map_io.h"
#elif ZONEPATH_FUZZ_READER == 2
#include "zonepath/movingai/scenario.h"
#elif ZONEPATH_FUZZ_READER == 3
#include "change_script.h"
#else
#include "zonepath/agents/agent_file.h"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
#if ZONEPATH_FUZZ_READER == 1
  (void)zonepath::ReadMapString(text);
#elif ZONEPATH_FUZZ_READER == 2
  (void)zonepath::ReadScenarioString(text);
#elif ZONEPATH_FUZZ_READER == 3
  // A 64 x 48 world, as the seed scripts assume.
  (void)zonepath::cli::ParseChangeScript(text, "fuzz", 64, 48);
#else
  // A file that parses formats to text that parses to the same classes.
  const absl::StatusOr<zonepath::AgentSet> set =
      zonepath::ParseAgentText(text, "fuzz");
  if (set.ok()) {
    const absl::StatusOr<std::string> formatted =
        zonepath::FormatAgentText(*set);
    if (!formatted.ok() || !zonepath::ParseAgentText(*formatted, "again").ok())
      std::abort();
  }
#endif
  return 0;
}
