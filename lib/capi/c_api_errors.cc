// Versions and the thread's last error.
#include <string>

#include "c_api_internal.h"

namespace zonepath::capi {
namespace {

struct LastError {
  zonepath_status code = ZONEPATH_OK;
  std::string message;
};

LastError& ThreadError() {
  thread_local LastError error;
  return error;
}

}  // namespace

zonepath_status Fail(const absl::Status& status) {
  LastError& error = ThreadError();
  error.code = static_cast<zonepath_status>(status.code());
  try {
    error.message.assign(status.message().data(), status.message().size());
  } catch (...) {
    error.message.clear();  // out of memory: keep the code
  }
  return error.code;
}

zonepath_status Succeed() {
  LastError& error = ThreadError();
  error.code = ZONEPATH_OK;
  error.message.clear();
  return ZONEPATH_OK;
}

zonepath_status ReportIn(const char* function, const absl::Status& status) {
  if (status.ok()) return Succeed();
  return Fail(absl::Status(status.code(),
                           absl::StrCat(function, ": ", status.message())));
}

zonepath_status CheckBuffer(const void* buffer, size_t capacity, size_t* needed,
                            size_t count, const char* function,
                            const char* name) {
  if (buffer == nullptr && capacity != 0) {
    return InvalidArgument(function, ": ", name, " is NULL but capacity is ",
                           capacity);
  }
  if (buffer == nullptr && needed == nullptr) {
    return InvalidArgument(function, ": ", name, " and needed are both NULL");
  }
  if (needed != nullptr) *needed = count;
  if (buffer != nullptr && capacity < count) {
    LastError& error = ThreadError();
    error.code = ZONEPATH_BUFFER_TOO_SMALL;
    error.message = absl::StrCat(function, ": ", name, " holds ", capacity,
                                 " elements, ", count, " needed");
    return ZONEPATH_BUFFER_TOO_SMALL;
  }
  return ZONEPATH_OK;
}

zonepath_status CheckPoint(const zonepath_point& p, const char* function,
                           const char* name) {
  if (p.x < 0 || p.y < 0) {
    return InvalidArgument(function, ": ", name, " (", p.x, ",", p.y,
                           ") has a negative coordinate");
  }
  return ZONEPATH_OK;
}

}  // namespace zonepath::capi

extern "C" {

const char* zonepath_version(void) {
#define ZONEPATH_C_STRING(x) #x
#define ZONEPATH_C_VERSION_STRING(major, minor) \
  ZONEPATH_C_STRING(major) "." ZONEPATH_C_STRING(minor)
  return "zonepath C API " ZONEPATH_C_VERSION_STRING(
      ZONEPATH_C_VERSION_MAJOR,
      ZONEPATH_C_VERSION_MINOR) " (library " ZONEPATH_LIBRARY_VERSION ")";
}

uint32_t zonepath_api_version(void) {
  return (uint32_t{ZONEPATH_C_VERSION_MAJOR} << 16) | ZONEPATH_C_VERSION_MINOR;
}

const char* zonepath_status_name(int32_t status) {
  switch (status) {
    case ZONEPATH_OK:
      return "OK";
    case ZONEPATH_CANCELLED:
      return "CANCELLED";
    case ZONEPATH_UNKNOWN:
      return "UNKNOWN";
    case ZONEPATH_INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case ZONEPATH_DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case ZONEPATH_NOT_FOUND:
      return "NOT_FOUND";
    case ZONEPATH_ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case ZONEPATH_PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case ZONEPATH_RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case ZONEPATH_FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case ZONEPATH_ABORTED:
      return "ABORTED";
    case ZONEPATH_OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case ZONEPATH_UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case ZONEPATH_INTERNAL:
      return "INTERNAL";
    case ZONEPATH_UNAVAILABLE:
      return "UNAVAILABLE";
    case ZONEPATH_DATA_LOSS:
      return "DATA_LOSS";
    case ZONEPATH_UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    case ZONEPATH_BUFFER_TOO_SMALL:
      return "BUFFER_TOO_SMALL";
  }
  return "UNKNOWN_STATUS";
}

zonepath_status zonepath_last_error(void) {
  return zonepath::capi::ThreadError().code;
}

const char* zonepath_last_error_message(void) {
  return zonepath::capi::ThreadError().message.c_str();
}

}  // extern "C"
