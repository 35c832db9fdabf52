#include "io/icla_array.hpp"

#include <algorithm>

namespace mheta::io {

IclaArray::IclaArray(LocalArray& array, const model::IclaPlan& plan, bool prefetch)
    : array_(&array), plan_(plan), prefetch_requested_(prefetch), prefetch_(prefetch && !plan.in_core) {
  const std::int64_t rows = plan_.in_core ? array.local_rows() : plan_.icla_rows;
  storage_.resize(static_cast<std::size_t>(rows * array.bytes_per_row() * (prefetch_ ? 2 : 1)));
}

void IclaArray::switch_plan(const model::IclaPlan& plan) {
  if (plan.in_core == plan_.in_core && plan.icla_rows == plan_.icla_rows) return;
  finish_pending();
  flush();
  plan_ = plan;
  prefetch_ = prefetch_requested_ && !plan_.in_core;
  const std::int64_t rows = plan_.in_core ? array_->local_rows() : plan_.icla_rows;
  storage_.assign(static_cast<std::size_t>(rows * array_->bytes_per_row() * (prefetch_ ? 2 : 1)), std::byte{0});
  storage_.shrink_to_fit();
  current_ = 0;
  loaded_ = false;
  changed_ = false;
}

IclaArray::~IclaArray() { finish_pending(); }

std::int64_t IclaArray::chunk_count() const {
  if (array_->local_rows() == 0) return 0;
  return plan_.in_core ? 1 : plan_.chunks;
}

RowRange IclaArray::chunk(std::int64_t k) const {
  if (plan_.in_core) return {0, array_->local_rows()};
  const std::int64_t first = k * plan_.icla_rows;
  return {first, std::min(plan_.icla_rows, array_->local_rows() - first)};
}

std::span<std::byte> IclaArray::buffer(int which, std::int64_t rows) {
  const std::size_t half = prefetch_ ? storage_.size() / 2 : storage_.size();
  return {storage_.data() + static_cast<std::size_t>(which) * half,
          static_cast<std::size_t>(rows * array_->bytes_per_row())};
}

void IclaArray::finish_pending() {
  if (pending_chunk_ < 0) return;
  LocalArray::wait(pending_);
  pending_chunk_ = -1;
}

std::span<std::byte> IclaArray::acquire(std::int64_t k) {
  const RowRange range = chunk(k);
  if (plan_.in_core) {
    if (!loaded_) array_->read_rows(0, range.count, storage_.data());
    loaded_ = true;
    return buffer(0, range.count);
  }
  if (pending_chunk_ == k) {
    LocalArray::wait(pending_);
    pending_chunk_ = -1;
    current_ = 1 - current_;
  } else {
    finish_pending();
    array_->read_rows(range.first, range.count, buffer(current_, range.count).data());
  }
  if (prefetch_ && k + 1 < chunk_count()) {
    const RowRange next = chunk(k + 1);
    pending_ = array_->start_read_rows(next.first, next.count, buffer(1 - current_, next.count).data());
    pending_chunk_ = k + 1;
  }
  return buffer(current_, range.count);
}

std::span<std::byte> IclaArray::acquire_for_write(std::int64_t k) {
  const RowRange range = chunk(k);
  if (plan_.in_core) loaded_ = true;
  return buffer(current_, range.count);
}

void IclaArray::release(std::int64_t k, bool dirty) {
  if (!dirty) return;
  const RowRange range = chunk(k);
  if (plan_.in_core) {
    changed_ = true;
    return;
  }
  array_->write_rows(range.first, range.count, buffer(current_, range.count).data());
}

void IclaArray::flush() {
  if (!plan_.in_core || !changed_) return;
  array_->write_rows(0, array_->local_rows(), storage_.data());
  changed_ = false;
}

}  // namespace mheta::io
