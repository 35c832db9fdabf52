#include "interpose/datatype_segments.hpp"

#include <algorithm>
#include <vector>

namespace mheta::interpose {

namespace {

constexpr std::int64_t kMostSegments = INT64_C(1) << 40;

std::int64_t times(std::int64_t a, std::int64_t b) {
  std::int64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) || product > kMostSegments ? kMostSegments : product;
}

std::int64_t plus(std::int64_t a, std::int64_t b) { return std::min(kMostSegments, a + b); }

// The type's data, and one element after another, without gaps.
bool gap_free(MPI_Datatype type, bool repeated) {
  MPI_Count size = 0, lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_size_x(type, &size);
  PMPI_Type_get_extent_x(type, &lb, &extent);
  PMPI_Type_get_true_extent_x(type, &true_lb, &true_extent);
  return size == true_extent && (!repeated || extent == size);
}

// A type's constructor and its arguments; the types it returns that are
// not predefined are freed with it.
struct Contents {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> integers;
  std::vector<MPI_Aint> addresses;
  std::vector<MPI_Datatype> types;

  explicit Contents(MPI_Datatype type) {
    int ni = 0, na = 0, nt = 0;
    PMPI_Type_get_envelope(type, &ni, &na, &nt, &combiner);
    if (combiner == MPI_COMBINER_NAMED) return;
    integers.resize(static_cast<std::size_t>(ni));
    addresses.resize(static_cast<std::size_t>(na));
    types.resize(static_cast<std::size_t>(nt));
    PMPI_Type_get_contents(type, ni, na, nt, integers.data(), addresses.data(), types.data());
  }
  ~Contents() {
    for (MPI_Datatype& t : types) {
      int ni = 0, na = 0, nt = 0, c = MPI_COMBINER_NAMED;
      PMPI_Type_get_envelope(t, &ni, &na, &nt, &c);
      // Predefined types, and the parameterized ones MPI keeps (Fortran
      // 90's), must not be freed.
      if (c != MPI_COMBINER_NAMED && c != MPI_COMBINER_F90_REAL && c != MPI_COMBINER_F90_COMPLEX &&
          c != MPI_COMBINER_F90_INTEGER) {
        PMPI_Type_free(&t);
      }
    }
  }
  Contents(const Contents&) = delete;
  Contents& operator=(const Contents&) = delete;
};

std::int64_t element_segments(MPI_Datatype type);

// `blocks` blocks of `length` elements of `old` each (a vector's, an
// indexed type's): one segment per block when `old` has no gaps, else
// each element's own.
std::int64_t blocks_of(std::int64_t blocks, std::int64_t length, MPI_Datatype old) {
  if (gap_free(old, true)) return blocks;
  return times(times(blocks, length), element_segments(old));
}

// A subarray: the dimensions from the fastest that are whole run together
// with the first that is not; every slower dimension's index is a block.
std::int64_t subarray_segments(const Contents& c) {
  const int dims = c.integers[0];
  const int* sizes = &c.integers[1];
  const int* subsizes = &c.integers[1 + dims];
  const bool c_order = c.integers[1 + 3 * dims] == MPI_ORDER_C;
  std::int64_t segments = 1;
  bool joined = true;  // every faster dimension whole so far
  for (int k = 0; k < dims; ++k) {
    const int d = c_order ? dims - 1 - k : k;  // fastest first
    if (!joined) segments = times(segments, subsizes[d]);
    if (subsizes[d] != sizes[d]) joined = false;
  }
  if (gap_free(c.types[0], true)) return segments;
  std::int64_t elements = 1;
  for (int d = 0; d < dims; ++d) elements = times(elements, subsizes[d]);
  return times(elements, element_segments(c.types[0]));
}

// The segments of one element of `type`.
std::int64_t element_segments(MPI_Datatype type) {
  if (gap_free(type, false)) return 1;
  const Contents c(type);
  switch (c.combiner) {
    case MPI_COMBINER_NAMED:
      return 1;
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
      return element_segments(c.types[0]);
    case MPI_COMBINER_CONTIGUOUS:
      return gap_free(c.types[0], true) ? 1 : times(c.integers[0], element_segments(c.types[0]));
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
      return blocks_of(c.integers[0], c.integers[1], c.types[0]);
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED: {
      std::int64_t total = 0;
      for (int i = 0; i < c.integers[0]; ++i) {
        if (c.integers[1 + i] > 0) total = plus(total, blocks_of(1, c.integers[1 + i], c.types[0]));
      }
      return total;
    }
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
      return c.integers[1] > 0 ? blocks_of(c.integers[0], c.integers[1], c.types[0]) : 0;
    case MPI_COMBINER_STRUCT: {
      std::int64_t total = 0;
      for (int i = 0; i < c.integers[0]; ++i) {
        if (c.integers[1 + i] > 0) total = plus(total, blocks_of(1, c.integers[1 + i], c.types[static_cast<std::size_t>(i)]));
      }
      return total;
    }
    case MPI_COMBINER_SUBARRAY:
      return subarray_segments(c);
    default:
      return 1;  // a darray, or a constructor of a newer MPI: one run per element
  }
}

}  // namespace

std::int64_t datatype_segments(MPI_Count count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL || count <= 0) return 0;
  // A predefined type, as most messages' are: one call to MPI.
  int ni = 0, na = 0, nt = 0, combiner = MPI_COMBINER_NAMED;
  PMPI_Type_get_envelope(type, &ni, &na, &nt, &combiner);
  if (combiner == MPI_COMBINER_NAMED) return 1;
  if (gap_free(type, count > 1)) return 1;
  return times(static_cast<std::int64_t>(count), element_segments(type));
}

}  // namespace mheta::interpose
