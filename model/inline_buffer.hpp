#pragma once
// A buffer of n elements that lives on the stack when n is small, so the
// model's per-rank scratch (one entry per distributed variable) costs no
// allocation on the hot path for the usual handful of variables.
#include <cstddef>
#include <span>
#include <vector>

namespace mheta::model {

template <typename T, std::size_t kInline = 16>
class InlineBuffer {
 public:
  explicit InlineBuffer(std::size_t size) {
    if (size > kInline) heap_.resize(size);
    span_ = size > kInline ? std::span<T>(heap_) : std::span<T>(inline_, size);
  }
  InlineBuffer(const InlineBuffer&) = delete;
  InlineBuffer& operator=(const InlineBuffer&) = delete;

  std::span<T> span() { return span_; }
  T& operator[](std::size_t i) { return span_[i]; }

 private:
  T inline_[kInline]{};
  std::vector<T> heap_;
  std::span<T> span_;
};

}  // namespace mheta::model
