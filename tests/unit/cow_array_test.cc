// CowArray copy semantics: after a copy neither side writes into pages the
// other reads (source after copy, copy after copy, copies of copies, moves),
// and a page nobody else holds any more is written in place.
#include "zonepath/base/cow_array.h"

#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace zonepath {
namespace {

using Array = CowArray<uint32_t>;

std::vector<uint32_t> Iota(size_t n) {
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint32_t>(i);
  return v;
}

TEST(CowArrayTest, CopiesShareUntilWritten) {
  std::vector<uint32_t> values = Iota(3 * Array::kPageSize + 5);
  const Array a = Array::FromVector(values);
  Array b = a;
  EXPECT_EQ(b.OwnedBytes(), 0u);
  EXPECT_EQ(a.OwnedBytes(), 0u);  // every page of a is shared with b
  b.Set(7, 99);
  b.PushBack(1234);
  EXPECT_EQ(a[7], 7u);
  EXPECT_EQ(b[7], 99u);
  EXPECT_EQ(a.size() + 1, b.size());
  EXPECT_EQ(b.back(), 1234u);
  // Two pages written: the first (Set) and the last (PushBack).
  EXPECT_GT(b.OwnedBytes(), 0u);
  EXPECT_LE(b.OwnedBytes(), 2 * Array::kPageBytes);
  values[7] = 99;
  values.push_back(1234);
  EXPECT_EQ(b.ToVector(), values);
}

TEST(CowArrayTest, SourceWritesAfterACopyDoNotReachTheCopy) {
  const std::vector<uint32_t> values = Iota(2 * Array::kPageSize + 3);
  Array a = Array::FromVector(values);
  const Array b = a;
  a.Set(1, 1000);                         // a full page
  a.Set(2 * Array::kPageSize + 1, 1001);  // the partly filled last page
  a.PushBack(1002);                       // appends into the shared last page
  EXPECT_EQ(b.ToVector(), values);
  EXPECT_EQ(a[1], 1000u);
  EXPECT_EQ(a[2 * Array::kPageSize + 1], 1001u);
  EXPECT_EQ(a.back(), 1002u);
  EXPECT_EQ(a.size(), values.size() + 1);
}

TEST(CowArrayTest, CopyAssignmentSharesBothWays) {
  const std::vector<uint32_t> values = Iota(Array::kPageSize + 1);
  Array a = Array::FromVector(values);
  Array b = Array::FromVector({5, 6});
  b = a;
  a.Set(0, 42);
  EXPECT_EQ(b.ToVector(), values);
  b.Set(Array::kPageSize, 43);
  EXPECT_EQ(a[Array::kPageSize], values[Array::kPageSize]);
  EXPECT_EQ(a[0], 42u);
  EXPECT_EQ(b[0], 0u);
}

TEST(CowArrayTest, CopyWritesAfterACopyOfItDoNotReachEitherCopy) {
  const std::vector<uint32_t> values = Iota(Array::kPageSize + 9);
  const Array a = Array::FromVector(values);
  Array b = a;
  b.Set(3, 7);  // b owns page 0 now
  Array c = b;  // ... and shares it again
  b.Set(4, 8);  // must not reach c
  c.Set(5, 9);  // must not reach b
  std::vector<uint32_t> vb = values, vc = values;
  vb[3] = vc[3] = 7;
  vb[4] = 8;
  vc[5] = 9;
  EXPECT_EQ(a.ToVector(), values);
  EXPECT_EQ(b.ToVector(), vb);
  EXPECT_EQ(c.ToVector(), vc);
}

TEST(CowArrayTest, MovesHandOverPagesAndOwnership) {
  const std::vector<uint32_t> values = Iota(Array::kPageSize + 2);
  Array a = Array::FromVector(values);
  Array copy = a;
  Array moved = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): documented
  moved.Set(0, 77);        // shared with `copy`: copies the page
  EXPECT_EQ(copy.ToVector(), values);
  EXPECT_EQ(moved[0], 77u);
  Array assigned;
  assigned = std::move(moved);
  assigned.Set(1, 78);
  EXPECT_EQ(copy.ToVector(), values);
  EXPECT_EQ(assigned[1], 78u);
  EXPECT_EQ(assigned[0], 77u);
}

TEST(CowArrayTest, PagesNobodyElseHoldsAreWrittenInPlace) {
  const std::vector<uint32_t> values = Iota(Array::kPageSize * 2);
  Array a = Array::FromVector(values);
  const size_t all = a.OwnedBytes();
  EXPECT_EQ(all, 2 * Array::kPageBytes);
  {
    Array b = a;
    EXPECT_EQ(a.OwnedBytes(), 0u);
  }
  // b is gone: a holds every page alone again and writes without copying.
  EXPECT_EQ(a.OwnedBytes(), all);
  const uint32_t* before = &a[0];
  a.Set(0, 5);
  EXPECT_EQ(&a[0], before);
}

// Random operations on a family of arrays (copies of copies, moves, writes
// and appends on any member) against plain vectors copied by value.
TEST(CowArrayTest, RandomFamiliesMatchValueCopies) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    std::vector<Array> arrays;
    std::vector<std::vector<uint32_t>> models;
    std::vector<uint32_t> start = Iota(rng() % (3 * Array::kPageSize));
    arrays.push_back(Array::FromVector(start));
    models.push_back(start);
    for (int step = 0; step < 400; ++step) {
      const size_t i = rng() % arrays.size();
      switch (rng() % 5) {
        case 0:
          if (arrays.size() < 8) {
            arrays.push_back(arrays[i]);
            models.push_back(models[i]);
          }
          break;
        case 1: {
          // Copy-assign, or move-assign (the moved-from array is empty).
          const size_t j = rng() % arrays.size();
          if (i == j) break;
          if ((rng() & 1) != 0) {
            arrays[j] = arrays[i];
            models[j] = models[i];
          } else {
            arrays[j] = std::move(arrays[i]);
            models[j] = std::move(models[i]);
            models[i].clear();
          }
          break;
        }
        case 2:
        case 3:
          if (!models[i].empty()) {
            const size_t at = rng() % models[i].size();
            const uint32_t value = static_cast<uint32_t>(rng());
            arrays[i].Set(at, value);
            models[i][at] = value;
          }
          break;
        default: {
          const uint32_t value = static_cast<uint32_t>(rng());
          arrays[i].PushBack(value);
          models[i].push_back(value);
        }
      }
      for (size_t k = 0; k < arrays.size(); ++k) {
        ASSERT_EQ(arrays[k].ToVector(), models[k])
            << "seed " << seed << " step " << step << " array " << k;
      }
    }
  }
}

// Pages that view external memory read it in place, are never written (a
// write copies the page), count as mapped rather than owned, and keep the
// memory's owner alive until the last array that views it lets go.
TEST(CowArrayTest, ExternalPagesAreViewsCopiedOnWrite) {
  const size_t n = 3 * Array::kPageSize + 5;
  auto memory = std::make_shared<std::vector<uint32_t>>(n);
  for (size_t i = 0; i < n; ++i) (*memory)[i] = static_cast<uint32_t>(i);
  const std::vector<uint32_t> original = *memory;
  std::weak_ptr<std::vector<uint32_t>> alive = memory;
  {
    Array a = Array::FromExternal(memory->data(), n, memory);
    memory.reset();
    ASSERT_FALSE(alive.expired());
    EXPECT_EQ(a.ToVector(), original);
    EXPECT_EQ(&a[7], alive.lock()->data() + 7);  // in place
    EXPECT_EQ(a.MappedBytes(), n * sizeof(uint32_t));
    EXPECT_EQ(a.OwnedBytes(), 0u);
    Array b = a;
    b.Set(1, 99);                        // copies page 0 of b only
    a.Set(Array::kPageSize + 2, 77);     // copies page 1 of a only
    a.PushBack(5);                       // the last (view) page is copied
    EXPECT_EQ(*alive.lock(), original);  // the memory is never written
    EXPECT_EQ(b[1], 99u);
    EXPECT_EQ(a[1], 1u);
    EXPECT_EQ(a[Array::kPageSize + 2], 77u);
    EXPECT_EQ(b[Array::kPageSize + 2], Array::kPageSize + 2);
    EXPECT_EQ(a.back(), 5u);
    EXPECT_EQ(a.size(), n + 1);
    EXPECT_EQ(a.MappedBytes(), 2 * Array::kPageSize * sizeof(uint32_t));
    EXPECT_GT(a.OwnedBytes(), 0u);
  }
  EXPECT_TRUE(alive.expired());  // released with the last view
}

}  // namespace
}  // namespace zonepath
