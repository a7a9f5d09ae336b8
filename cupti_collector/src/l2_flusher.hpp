#pragma once
// Puts the GPU's L2 cache in a known state: a memset over twice its capacity evicts whatever earlier work left
// there, so a measurement does not depend on what ran before it in the process. Used before every counted
// launch (CounterOptions::l2) and, with L2State::cold timing, before every timed one.

#include <cstddef>

namespace bankgate::detail {

class L2Flusher {
 public:
  explicit L2Flusher(int device) : device_(device) {}
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;

  // Enqueues the flush on the legacy default stream, so it orders before launches there. A memset is an
  // Activity API MEMSET record, never a kernel, so it is neither counted nor mistaken for a timing sample.
  void enqueue();

 private:
  int device_;
  void* buffer_ = nullptr;  // allocated on first use: a collector that never flushes takes no memory
  std::size_t bytes_ = 0;
};

}  // namespace bankgate::detail
