// The contiguous blocks of a message's data (interpose/datatype_segments.hpp),
// counted by hand for each kind of datatype. Datatypes need an initialized
// MPI: a singleton process, as io/'s tests (tests/io/mpi_test_main.cpp).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>

#include "interpose/datatype_segments.hpp"

namespace mheta::interpose {
namespace {

// A committed type, freed at the end of the test.
struct Type {
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  Type() = default;
  Type(const Type&) = delete;
  Type& operator=(const Type&) = delete;
  ~Type() {
    if (handle != MPI_DATATYPE_NULL) MPI_Type_free(&handle);
  }
  MPI_Datatype commit() {
    MPI_Type_commit(&handle);
    return handle;
  }
};

TEST(DatatypeSegments, PredefinedAndGapFreeTypesAreOneBlock) {
  EXPECT_EQ(datatype_segments(1000, MPI_DOUBLE), 1);
  EXPECT_EQ(datatype_segments(0, MPI_DOUBLE), 0);
  Type contiguous;
  MPI_Type_contiguous(16, MPI_INT, &contiguous.handle);
  EXPECT_EQ(datatype_segments(5, contiguous.commit()), 1);
  // A vector whose stride is its block: its blocks touch.
  Type touching;
  MPI_Type_vector(8, 4, 4, MPI_DOUBLE, &touching.handle);
  EXPECT_EQ(datatype_segments(3, touching.commit()), 1);
}

TEST(DatatypeSegments, AVectorIsOneBlockPerStrideAndPerElement) {
  // A column of a 64 x 100 row-major array: 64 blocks of one double.
  Type column;
  MPI_Type_vector(64, 1, 100, MPI_DOUBLE, &column.handle);
  EXPECT_EQ(datatype_segments(1, column.commit()), 64);
  // Two of them, one after the other in memory: 128.
  EXPECT_EQ(datatype_segments(2, column.handle), 128);
  // An hvector of 10 blocks of 3 ints, 100 bytes apart.
  Type bytes_apart;
  MPI_Type_create_hvector(10, 3, 100, MPI_INT, &bytes_apart.handle);
  EXPECT_EQ(datatype_segments(1, bytes_apart.commit()), 10);
}

TEST(DatatypeSegments, AVectorOfAVectorCountsTheInnerBlocks) {
  Type inner;  // 4 blocks of 2 doubles, 3 apart
  MPI_Type_vector(4, 2, 3, MPI_DOUBLE, &inner.handle);
  Type outer;  // 5 of them, each its own block of 1 element
  MPI_Type_create_hvector(5, 1, 1000 * static_cast<MPI_Aint>(sizeof(double)), inner.commit(), &outer.handle);
  EXPECT_EQ(datatype_segments(1, outer.commit()), 20);
}

TEST(DatatypeSegments, IndexedTypesCountTheirNonEmptyBlocks) {
  const int lengths[4] = {3, 0, 2, 5};
  const int displacements[4] = {0, 10, 20, 40};
  Type indexed;
  MPI_Type_indexed(4, lengths, displacements, MPI_FLOAT, &indexed.handle);
  EXPECT_EQ(datatype_segments(1, indexed.commit()), 3);
  const int offsets[3] = {0, 7, 30};
  Type block;
  MPI_Type_create_indexed_block(3, 2, offsets, MPI_DOUBLE, &block.handle);
  EXPECT_EQ(datatype_segments(1, block.commit()), 3);
}

TEST(DatatypeSegments, AStructWithoutGapsIsOneBlockWithGapsOnePerField) {
  struct Packed {
    double a[2];
    long b[2];
    double c;
  };
  const int lengths[3] = {2, 2, 1};
  const MPI_Aint at[3] = {offsetof(Packed, a), offsetof(Packed, b), offsetof(Packed, c)};
  const MPI_Datatype types[3] = {MPI_DOUBLE, MPI_LONG, MPI_DOUBLE};
  Type packed;
  MPI_Type_create_struct(3, lengths, at, types, &packed.handle);
  EXPECT_EQ(datatype_segments(4, packed.commit()), 1);
  const MPI_Aint apart[3] = {0, 64, 256};
  Type spread;
  MPI_Type_create_struct(3, lengths, apart, types, &spread.handle);
  EXPECT_EQ(datatype_segments(1, spread.commit()), 3);
}

TEST(DatatypeSegments, ASubarrayIsOneBlockPerIndexOfItsSlowerDimensions) {
  // 10 x 20 x 30 (C order: the last fastest), a 4 x 5 x 30 block: the last
  // dimension whole runs on into the middle one, so one block of 5 · 30
  // per index of the first: 4.
  const int sizes[3] = {10, 20, 30};
  const int whole_rows[3] = {4, 5, 30};
  const int starts[3] = {1, 2, 0};
  Type rows;
  MPI_Type_create_subarray(3, sizes, whole_rows, starts, MPI_ORDER_C, MPI_DOUBLE, &rows.handle);
  EXPECT_EQ(datatype_segments(1, rows.commit()), 4);
  // A 4 x 5 x 6 block: 4 · 5 runs of 6.
  const int part[3] = {4, 5, 6};
  Type box;
  MPI_Type_create_subarray(3, sizes, part, starts, MPI_ORDER_C, MPI_DOUBLE, &box.handle);
  EXPECT_EQ(datatype_segments(1, box.commit()), 20);
  // Fortran order, the first fastest: a plane of fixed first index of a
  // 12 x 8 array is 8 runs of 1; a line of fixed second index one run.
  const int array[2] = {12, 8};
  const int plane[2] = {1, 8};
  const int line[2] = {12, 1};
  const int origin[2] = {0, 0};
  Type fortran_plane;
  MPI_Type_create_subarray(2, array, plane, origin, MPI_ORDER_FORTRAN, MPI_DOUBLE, &fortran_plane.handle);
  EXPECT_EQ(datatype_segments(1, fortran_plane.commit()), 8);
  Type fortran_line;
  MPI_Type_create_subarray(2, array, line, origin, MPI_ORDER_FORTRAN, MPI_DOUBLE, &fortran_line.handle);
  EXPECT_EQ(datatype_segments(1, fortran_line.commit()), 1);
}

TEST(DatatypeSegments, AResizedVectorRepeatsItsBlocksPerElement) {
  Type column;
  MPI_Type_vector(6, 1, 10, MPI_INT, &column.handle);
  // One int wide: consecutive columns interleave in memory, but in the
  // type's order each column's 6 ints come apart from each other.
  Type resized;
  MPI_Type_create_resized(column.commit(), 0, static_cast<MPI_Aint>(sizeof(int)), &resized.handle);
  EXPECT_EQ(datatype_segments(3, resized.commit()), 18);
}

}  // namespace
}  // namespace mheta::interpose
