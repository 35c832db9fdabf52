#include "tests/io/mpi_file_recorder.hpp"

#include <mheta/hints.h>

#include <map>

namespace mheta::io::testing {

MpiFileRecorder& recorder() {
  static MpiFileRecorder r;
  return r;
}

namespace {

std::map<MPI_File, std::string>& variables() {
  static std::map<MPI_File, std::string> v;
  return v;
}

std::string hint(MPI_Info info, const char* key) {
  if (info == MPI_INFO_NULL) return "";
  char value[256] = {};
  int found = 0;
  MPI_Info_get(info, key, sizeof value - 1, value, &found);
  return found ? value : "";
}

void record(const char* call, MPI_File file, MPI_Offset offset, int count, MPI_Datatype type) {
  int size = 0;
  MPI_Type_size(type, &size);
  recorder().accesses.push_back({call, variables()[file], offset, static_cast<long long>(count) * size});
}

}  // namespace
}  // namespace mheta::io::testing

using mheta::io::testing::recorder;

extern "C" {

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  const int rc = PMPI_File_open(comm, filename, amode, info, fh);
  const std::string variable = mheta::io::testing::hint(info, MHETA_HINT_VARIABLE);
  recorder().opens.push_back({filename, variable, mheta::io::testing::hint(info, MHETA_HINT_BYTES_PER_ROW)});
  if (rc == MPI_SUCCESS) mheta::io::testing::variables()[*fh] = variable;
  return rc;
}

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  mheta::io::testing::record("read_at", fh, offset, count, datatype);
  return PMPI_File_read_at(fh, offset, buf, count, datatype, status);
}

int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                      MPI_Status* status) {
  mheta::io::testing::record("write_at", fh, offset, count, datatype);
  return PMPI_File_write_at(fh, offset, buf, count, datatype, status);
}

int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                      MPI_Request* request) {
  mheta::io::testing::record("iread_at", fh, offset, count, datatype);
  return PMPI_File_iread_at(fh, offset, buf, count, datatype, request);
}

}  // extern "C"
