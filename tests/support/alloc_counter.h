// Counts calls to the global operator new in this test binary, to prove that
// warmed-up searches allocate nothing. Link alloc_counter.cc into the test.
#ifndef ZONEPATH_TESTS_SUPPORT_ALLOC_COUNTER_H_
#define ZONEPATH_TESTS_SUPPORT_ALLOC_COUNTER_H_

#include <cstdint>

namespace zonepath::testing {

// Number of operator new calls so far in this process.
int64_t AllocationCount();

}  // namespace zonepath::testing

#endif  // ZONEPATH_TESTS_SUPPORT_ALLOC_COUNTER_H_
