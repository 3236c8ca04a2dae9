// Peak resident memory of this process, measured by the kernel (Linux):
// what `build --json`, `inspect --json` and `report` print, not an
// estimate.
#ifndef ZONEPATH_TOOLS_ZONEPATH_PROCESS_MEMORY_H_
#define ZONEPATH_TOOLS_ZONEPATH_PROCESS_MEMORY_H_

#include <cstdint>
#include <fstream>
#include <string>

namespace zonepath::cli {

// A /proc/self/status figure in kB ("VmHWM:", "VmRSS:") as bytes, 0 if
// unknown.
inline int64_t ProcessStatusBytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == field) {
      int64_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
    status.ignore(1 << 12, '\n');
  }
  return 0;
}

// Peak resident memory (VmHWM) in bytes, 0 if unknown.
inline int64_t PeakResidentBytes() { return ProcessStatusBytes("VmHWM:"); }

// Resident memory now (VmRSS: the pages this process has touched, its
// share of a mapped file included) in bytes, 0 if unknown.
inline int64_t ResidentBytes() { return ProcessStatusBytes("VmRSS:"); }

// Resets the peak to the current resident size, so the next
// PeakResidentBytes() measures one phase. False if the kernel refused.
inline bool ResetPeakResident() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  return static_cast<bool>(clear.flush());
}

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_PROCESS_MEMORY_H_
