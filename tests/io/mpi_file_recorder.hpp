#pragma once
// Records the MPI-IO calls of the test process, as the interposer sees them:
// each MPI_File_open with its mheta_variable hint, each row access with its
// offset and bytes.
#include <mpi.h>

#include <string>
#include <vector>

namespace mheta::io::testing {

struct RecordedOpen {
  std::string filename;
  std::string variable;       // the mheta_variable hint; empty when absent
  std::string bytes_per_row;  // the mheta_bytes_per_row hint
};

struct RecordedAccess {
  std::string call;  // "read_at", "write_at", "iread_at"
  std::string variable;
  MPI_Offset offset = 0;
  long long bytes = 0;
};

struct MpiFileRecorder {
  std::vector<RecordedOpen> opens;
  std::vector<RecordedAccess> accesses;
  void clear() {
    opens.clear();
    accesses.clear();
  }
};

MpiFileRecorder& recorder();

}  // namespace mheta::io::testing
