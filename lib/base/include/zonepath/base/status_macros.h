// Status propagation macros for absl::Status / absl::StatusOr.
//
// Abseil 20220623 (the Debian package) has no status macros, so zonepath keeps
// these two here, and only here.
//
//   absl::StatusOr<Grid> LoadGrid(...) {
//     RETURN_IF_ERROR(CheckHeader(...));
//     ASSIGN_OR_RETURN(Grid grid, ReadRows(...));
//     return grid;
//   }
#ifndef ZONEPATH_BASE_STATUS_MACROS_H_
#define ZONEPATH_BASE_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define RETURN_IF_ERROR(expr)                                 \
  do {                                                        \
    if (absl::Status zp_status_ = (expr); !zp_status_.ok()) { \
      return zp_status_;                                      \
    }                                                         \
  } while (false)

#define ZP_STATUS_CONCAT_INNER_(a, b) a##b
#define ZP_STATUS_CONCAT_(a, b) ZP_STATUS_CONCAT_INNER_(a, b)

// Evaluates `rexpr` (an absl::StatusOr<T>); on error returns its status from
// the enclosing function, otherwise moves the value into `lhs`, which may be
// a declaration (`ASSIGN_OR_RETURN(auto x, F())`) or an existing variable.
#define ASSIGN_OR_RETURN(lhs, rexpr)                                        \
  ZP_ASSIGN_OR_RETURN_IMPL_(ZP_STATUS_CONCAT_(zp_statusor_, __LINE__), lhs, \
                            rexpr)

#define ZP_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                              \
  if (!statusor.ok()) {                                 \
    return std::move(statusor).status();                \
  }                                                     \
  lhs = std::move(statusor).value()

#endif  // ZONEPATH_BASE_STATUS_MACROS_H_
