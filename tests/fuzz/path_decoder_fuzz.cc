// libFuzzer target for one path decoder (the codec is fixed at build time by
// ZONEPATH_FUZZ_CODEC, so each decoder gets a target of its own): any bytes
// must give a path or an error status, never a crash, hang or bad read; what
// decodes must re-encode to the same bytes and agree with random access.
//   cmake -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DZONEPATH_FUZZ=ON
//   build-fuzz/tests/path_decoder_fuzz_run_length -max_total_time=60
#include <cstddef>
#include <cstdint>
#include <string>

#include "zonepath/paths/path_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The first byte selects this target's codec whatever the input says, so
  // the fuzzer spends its time inside one decoder.
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (!bytes.empty()) bytes[0] = static_cast<char>(ZONEPATH_FUZZ_CODEC);
  absl::StatusOr<zonepath::EncodedPath> encoded =
      zonepath::EncodedPath::Parse(bytes);
  if (!encoded.ok()) return 0;
  // Random access must not misbehave even when the payload is bad.
  for (int64_t step : {int64_t{0}, encoded->steps() / 3, encoded->steps()}) {
    (void)zonepath::CellAt(*encoded, step);
  }
  zonepath::RunLengthPath path;
  if (!zonepath::DecodePath(*encoded, &path).ok()) return 0;
  zonepath::EncodeOptions options;
  options.index_interval_log2 = encoded->index_interval_log2();
  std::string again;
  if (!zonepath::EncodePath(encoded->codec(), path, &again, options).ok() ||
      again != bytes) {
    __builtin_trap();
  }
  // A valid path: random access agrees with walking it.
  zonepath::Point at = path.start();
  int64_t step = 0;
  for (const zonepath::Run& run : path.runs()) {
    at.x += zonepath::Dx(run.direction) * static_cast<int32_t>(run.count);
    at.y += zonepath::Dy(run.direction) * static_cast<int32_t>(run.count);
    step += run.count;
    absl::StatusOr<zonepath::Point> cell = zonepath::CellAt(*encoded, step);
    if (!cell.ok() || !(*cell == at)) __builtin_trap();
  }
  return 0;
}
