#pragma once
// How many contiguous blocks of memory a message's data lies in: 1 for a
// predefined type or any type without gaps, more for a vector, indexed or
// subarray type (model::CommOp::segments). An MPI moves a message of many
// blocks far slower than its bytes in one (docs/model.md, "Messages of
// non-contiguous datatypes").
#include <mpi.h>

#include <cstdint>

namespace mheta::interpose {

// The blocks of `count` elements of `type`, from the type's constructors
// (MPI_Type_get_envelope, MPI_Type_get_contents), adjacent ones merged
// where the type says they touch (a vector whose stride is its block, a
// subarray whose faster dimensions are whole). A constructor it does not
// know (darray) counts as one block per element's gap-free run if the type
// has no gaps, else one per element. At least 1 for a message of data; 0
// for none.
std::int64_t datatype_segments(MPI_Count count, MPI_Datatype type);

}  // namespace mheta::interpose
