// Mutex: absl::Mutex (reader/writer, fair to writers) that ThreadSanitizer
// can see.
//
// Debian's Abseil is compiled without ThreadSanitizer, so TSan cannot see
// the ordering absl::Mutex provides and would either miss real races or
// report false ones around it. Under TSan this wrapper reports each lock and
// unlock through TSan's mutex annotations (what Abseil itself does when it
// is built with TSan); otherwise it is exactly absl::Mutex.
//
//   mutable Mutex mu_;
//   int value_ ABSL_GUARDED_BY(mu_);
//   { ReaderMutexLock lock(&mu_); read(value_); }
//   { MutexLock lock(&mu_); ++value_; }
#ifndef ZONEPATH_BASE_MUTEX_H_
#define ZONEPATH_BASE_MUTEX_H_

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

#if defined(__SANITIZE_THREAD__)
#define ZONEPATH_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ZONEPATH_TSAN 1
#endif
#endif
#ifdef ZONEPATH_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace zonepath {

class ABSL_LOCKABLE Mutex {
 public:
  Mutex() {
#ifdef ZONEPATH_TSAN
    __tsan_mutex_create(this, __tsan_mutex_not_static);
#endif
  }
  ~Mutex() {
#ifdef ZONEPATH_TSAN
    __tsan_mutex_destroy(this, __tsan_mutex_not_static);
#endif
  }
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    PreLock(0);
    mu_.Lock();
    PostLock(0);
  }
  void Unlock() ABSL_UNLOCK_FUNCTION() {
    PreUnlock(0);
    mu_.Unlock();
    PostUnlock(0);
  }
  void ReaderLock() ABSL_SHARED_LOCK_FUNCTION() {
    PreLock(kRead);
    mu_.ReaderLock();
    PostLock(kRead);
  }
  void ReaderUnlock() ABSL_UNLOCK_FUNCTION() {
    PreUnlock(kRead);
    mu_.ReaderUnlock();
    PostUnlock(kRead);
  }

 private:
#ifdef ZONEPATH_TSAN
  static constexpr unsigned kRead = __tsan_mutex_read_lock;
  void PreLock(unsigned flags) { __tsan_mutex_pre_lock(this, flags); }
  void PostLock(unsigned flags) { __tsan_mutex_post_lock(this, flags, 0); }
  void PreUnlock(unsigned flags) { __tsan_mutex_pre_unlock(this, flags); }
  void PostUnlock(unsigned flags) { __tsan_mutex_post_unlock(this, flags); }
#else
  static constexpr unsigned kRead = 1;
  void PreLock(unsigned) {}
  void PostLock(unsigned) {}
  void PreUnlock(unsigned) {}
  void PostUnlock(unsigned) {}
#endif
  absl::Mutex mu_;
};

class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->Lock();
  }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mu_;
};

class ABSL_SCOPED_LOCKABLE ReaderMutexLock {
 public:
  explicit ReaderMutexLock(Mutex* mu) ABSL_SHARED_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->ReaderLock();
  }
  ~ReaderMutexLock() ABSL_UNLOCK_FUNCTION() { mu_->ReaderUnlock(); }
  ReaderMutexLock(const ReaderMutexLock&) = delete;
  ReaderMutexLock& operator=(const ReaderMutexLock&) = delete;

 private:
  Mutex* const mu_;
};

}  // namespace zonepath

#endif  // ZONEPATH_BASE_MUTEX_H_
