// Input files: only regular files are read. A directory, FIFO, device
// (/dev/zero) or socket given as a world, map, scenario or change script is
// refused up front with a clear message, instead of blocking forever,
// reading without end or being taken for an empty file.
//
//   RETURN_IF_ERROR(CheckInputFile(path));           // then open and read it
//   ASSIGN_OR_RETURN(uint64_t bytes, InputFileSize(path));
#ifndef ZONEPATH_BASE_INPUT_FILE_H_
#define ZONEPATH_BASE_INPUT_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace zonepath {

// OK if `path` (after following symlinks) is a regular file; NotFound if it
// does not exist, InvalidArgument naming what it is otherwise.
absl::Status CheckInputFile(const std::string& path);

// The size in bytes of the regular file `path` (errors as CheckInputFile).
absl::StatusOr<uint64_t> InputFileSize(const std::string& path);

}  // namespace zonepath

#endif  // ZONEPATH_BASE_INPUT_FILE_H_
