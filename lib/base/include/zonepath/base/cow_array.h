// CowArray: a flat array stored in fixed-size pages that copies of the array
// share until one of them writes a page (copy-on-write per page).
//
// Versions of a world hold their big arrays (grid cells, beacons, abstract
// nodes and edges) in CowArrays: the next version starts as a copy, which
// costs one pointer per page, and pays only for the pages it changes. A
// page is never written while another array shares it, so a published
// version is immutable and may be read from any number of threads while a
// copy of it is being changed on another.
//
//   CowArray<uint32_t> a = CowArray<uint32_t>::FromVector({1, 2, 3});
//   CowArray<uint32_t> b = a;   // shares a's pages
//   b.Set(1, 7);                // b copies one page; a still reads 2
//   b.PushBack(9);
//   uint32_t x = b[1];
//
// Reads are one extra (cache-hot) load per access compared with a vector;
// ForEachIn walks a range a page at a time. Measured against flat vectors
// (README, "Changing worlds"): HPA* queries 1-4 % slower (5-9 % with cached
// paths), exact grid A* no slower.
// `kPageBytes` is the page size: 16 KiB, about one level-1 zone's share of
// a level's edges, so rewriting a zone copies a page or two per array; the
// page table of a 4096 x 4096 grid's costs is 1024 pointers.
//
// Pages may also start as views of external read-only memory (a world file
// mapped into memory): FromExternal makes every page a view that shares a
// `keeper` (which keeps the memory alive, e.g. unmaps it when the last array
// lets go). A view page is never written: the first write copies it into an
// owned page, like a shared one, so the file behind a mapping is never
// changed.
//
//   auto keep = std::make_shared<Mapping>(...);   // owns the mapped bytes
//   CowArray<uint8_t> costs =
//       CowArray<uint8_t>::FromExternal(mapped_costs, n, keep);
#ifndef ZONEPATH_BASE_COW_ARRAY_H_
#define ZONEPATH_BASE_COW_ARRAY_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace zonepath {

template <typename T>
class CowArray {
 public:
  static constexpr size_t kPageBytes = size_t{1} << 14;
  static constexpr int kPageShift = [] {
    int shift = 0;
    while ((size_t{1} << (shift + 1)) * sizeof(T) <= kPageBytes) ++shift;
    return shift;
  }();
  static constexpr size_t kPageSize = size_t{1} << kPageShift;  // elements
  static constexpr size_t kPageMask = kPageSize - 1;

  CowArray() = default;
  // A copy shares every page. From then on neither the copy nor the source
  // may write a shared page: whichever writes one first copies it.
  CowArray(const CowArray& other) = default;
  CowArray& operator=(const CowArray& other) = default;
  // A move hands the pages over; the moved-from array is empty.
  CowArray(CowArray&& other) noexcept
      : pages_(std::move(other.pages_)),
        data_(std::move(other.data_)),
        size_(std::exchange(other.size_, 0)) {
    other.pages_.clear();
    other.data_.clear();
  }
  CowArray& operator=(CowArray&& other) noexcept {
    if (this != &other) {
      pages_ = std::move(other.pages_);
      data_ = std::move(other.data_);
      size_ = std::exchange(other.size_, 0);
      other.pages_.clear();
      other.data_.clear();
    }
    return *this;
  }

  static CowArray FromVector(const std::vector<T>& v) {
    CowArray a;
    a.Append(v.data(), v.size());
    return a;
  }
  // Pages that view `n` elements at `data` (read-only, kept valid while any
  // holder of `keeper` lives) instead of copying them.
  static CowArray FromExternal(const T* data, size_t n,
                               std::shared_ptr<const void> keeper) {
    CowArray a;
    for (size_t at = 0; at < n; at += kPageSize) {
      Page* page = new Page;
      page->view = data + at;
      page->view_size = std::min(kPageSize, n - at);
      page->keeper = keeper;
      a.pages_.emplace_back(page);
      a.data_.push_back(page->view);
    }
    a.size_ = n;
    return a;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const {
    return data_[i >> kPageShift][i & kPageMask];
  }
  const T& back() const { return (*this)[size_ - 1]; }
  // Calls fn(element) for elements [begin, end) in order: one page lookup
  // per page rather than per element (for hot loops over short ranges).
  template <typename Fn>
  void ForEachIn(size_t begin, size_t end, Fn&& fn) const {
    while (begin < end) {
      const size_t offset = begin & kPageMask;
      const size_t n = std::min(end - begin, kPageSize - offset);
      const T* p = data_[begin >> kPageShift] + offset;
      for (const T* stop = p + n; p != stop; ++p) fn(*p);
      begin += n;
    }
  }

  // Calls fn(const T* data, size_t n) for the stretches of elements
  // [begin, end) that lie in one page each, in order.
  template <typename Fn>
  void ForEachSpanIn(size_t begin, size_t end, Fn&& fn) const {
    while (begin < end) {
      const size_t offset = begin & kPageMask;
      const size_t n = std::min(end - begin, kPageSize - offset);
      fn(data_[begin >> kPageShift] + offset, n);
      begin += n;
    }
  }

  void Set(size_t i, const T& value) { Mutable(i) = value; }
  // Writable element i; copies its page first if another array shares it.
  T& Mutable(size_t i) {
    return (*MutablePage(i >> kPageShift))[i & kPageMask];
  }

  void PushBack(const T& value) { Append(&value, 1); }
  void Append(const T* values, size_t n) {
    while (n > 0) {
      std::vector<T>* page;
      if (size_ % kPageSize == 0) {
        page = AddPage();
      } else {
        page = MutablePage(size_ >> kPageShift);
      }
      const size_t take = std::min(n, kPageSize - page->size());
      page->insert(page->end(), values, values + take);
      data_.back() = page->data();
      size_ += take;
      values += take;
      n -= take;
    }
  }

  std::vector<T> ToVector() const {
    std::vector<T> v;
    v.reserve(size_);
    ForEachPage(
        [&](const T* data, size_t n) { v.insert(v.end(), data, data + n); });
    return v;
  }
  // Whether both arrays read the very same pages (one a copy of the other,
  // neither written since): their page bytes exist once.
  bool SharesPagesWith(const CowArray& other) const {
    return size_ == other.size_ && data_ == other.data_;
  }
  // Calls fn(const T* data, size_t n) for each page's elements, in order.
  template <typename Fn>
  void ForEachPage(Fn&& fn) const {
    for (const PageRef& page : pages_) fn(page.data(), page.size());
  }

  // Bytes of all pages this array reads (shared and mapped pages included),
  // of the pages no other array shares (written since a copy, or never
  // copied; view pages are never owned), and of the view pages (external
  // memory: file-backed and shareable between processes when mapped).
  size_t MemoryUsage() const {
    size_t bytes = sizeof(*this) + pages_.capacity() * sizeof(pages_[0]) +
                   data_.capacity() * sizeof(data_[0]);
    for (const PageRef& page : pages_) bytes += page.Bytes();
    return bytes;
  }
  size_t OwnedBytes() const {
    size_t bytes = 0;
    for (const PageRef& page : pages_) {
      if (page.unique() && !page.is_view()) bytes += page.Bytes();
    }
    return bytes;
  }
  size_t MappedBytes() const {
    size_t bytes = 0;
    for (const PageRef& page : pages_) {
      if (page.is_view()) bytes += page.Bytes();
    }
    return bytes;
  }

 private:
  // A page and the number of arrays holding it. An array writes a page only
  // while it is the sole holder (count 1, read with acquire so that every
  // read by a holder that has since let go happened before the write);
  // otherwise it writes a private copy. So copying never lets either side
  // write into pages the other reads, and a page whose other holders are
  // gone is written in place.
  // A view page reads view_size elements at `view` and has no items.
  struct Page {
    std::atomic<uint32_t> holders{1};
    std::vector<T> items;
    const T* view = nullptr;
    size_t view_size = 0;
    std::shared_ptr<const void> keeper;
  };
  class PageRef {
   public:
    explicit PageRef(Page* page) : page_(page) {}
    PageRef(const PageRef& other) : page_(other.page_) {
      page_->holders.fetch_add(1, std::memory_order_relaxed);
    }
    PageRef& operator=(const PageRef& other) {
      PageRef copy(other);
      std::swap(page_, copy.page_);
      return *this;
    }
    PageRef(PageRef&& other) noexcept
        : page_(std::exchange(other.page_, nullptr)) {}
    PageRef& operator=(PageRef&& other) noexcept {
      std::swap(page_, other.page_);
      return *this;
    }
    ~PageRef() {
      if (page_ != nullptr &&
          page_->holders.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        delete page_;
      }
    }
    bool unique() const {
      return page_->holders.load(std::memory_order_acquire) == 1;
    }
    bool is_view() const { return page_->view != nullptr; }
    const T* data() const {
      return is_view() ? page_->view : page_->items.data();
    }
    size_t size() const {
      return is_view() ? page_->view_size : page_->items.size();
    }
    size_t Bytes() const {
      return (is_view() ? page_->view_size : page_->items.capacity()) *
             sizeof(T);
    }
    std::vector<T>* operator->() const { return &page_->items; }
    std::vector<T>& operator*() const { return page_->items; }

   private:
    Page* page_;
  };

  // Pages grow like vectors (so a small world's arrays stay small); callers
  // that resize a page refresh data_ for it.
  std::vector<T>* AddPage() {
    pages_.emplace_back(new Page);
    data_.push_back(pages_.back()->data());
    return &*pages_.back();
  }
  std::vector<T>* MutablePage(size_t p) {
    if (!pages_[p].unique() || pages_[p].is_view()) {
      Page* copy = new Page;
      copy->items.assign(pages_[p].data(), pages_[p].data() + pages_[p].size());
      pages_[p] = PageRef(copy);
      data_[p] = pages_[p]->data();
    }
    return &*pages_[p];
  }

  // Pages are full except the last.
  std::vector<PageRef> pages_;
  std::vector<const T*> data_;  // pages_[p]->data(), for one-load reads
  size_t size_ = 0;
};

}  // namespace zonepath

#endif  // ZONEPATH_BASE_COW_ARRAY_H_
