#include "interpose/file_variables.hpp"

#include <mheta/hints.h>

#include <algorithm>
#include <cstdlib>

#include "interpose/variable_name.hpp"

namespace mheta::interpose {

namespace {

std::int64_t info_integer(MPI_Info info, const char* key) {
  if (info == MPI_INFO_NULL) return -1;
  char value[64] = {};
  int flag = 0;
  PMPI_Info_get(info, key, static_cast<int>(sizeof value) - 1, value, &flag);
  if (!flag) return -1;
  char* end = nullptr;
  const long long v = std::strtoll(value, &end, 10);
  return end != value && *end == '\0' && v >= 0 ? static_cast<std::int64_t>(v) : -1;
}

}  // namespace

void FileVariables::open(MPI_File fh, const char* filename, MPI_Info info, int rank) {
  VariableSeen v;
  if (info != MPI_INFO_NULL) {
    char name[256] = {};
    int flag = 0;
    PMPI_Info_get(info, MHETA_HINT_VARIABLE, static_cast<int>(sizeof name) - 1, name, &flag);
    if (flag && name[0] != '\0') {
      v.name = name;
      v.hinted = true;
    }
  }
  if (v.name.empty()) v.name = variable_name_from_path(filename != nullptr ? filename : "?", rank);
  v.bytes_per_row = std::max<std::int64_t>(0, info_integer(info, MHETA_HINT_BYTES_PER_ROW));
  v.global_rows = std::max<std::int64_t>(0, info_integer(info, MHETA_HINT_GLOBAL_ROWS));
  v.local_rows = info_integer(info, MHETA_HINT_LOCAL_ROWS);
  MPI_Offset size = 0;
  if (PMPI_File_get_size(fh, &size) == MPI_SUCCESS) v.file_bytes = size;
  int index = -1;
  for (std::size_t i = 0; i < variables_.size(); ++i) {
    if (variables_[i].name == v.name) index = static_cast<int>(i);
  }
  if (index < 0) {
    index = static_cast<int>(variables_.size());
    variables_.push_back(v);
  } else {
    VariableSeen& known = variables_[static_cast<std::size_t>(index)];
    known.file_bytes = std::max(known.file_bytes, v.file_bytes);
    if (v.bytes_per_row > 0) known.bytes_per_row = v.bytes_per_row;
    if (v.global_rows > 0) known.global_rows = v.global_rows;
    if (v.local_rows >= 0) known.local_rows = v.local_rows;
  }
  files_[fh] = index;
}

int FileVariables::variable_of(MPI_File fh) const {
  const auto it = files_.find(fh);
  return it == files_.end() ? -1 : it->second;
}

int FileVariables::offset_step(MPI_File fh, MPI_Offset offset) {
  MPI_Offset& last = last_offsets_.try_emplace(fh, offset).first->second;  // the first access: 0
  const MPI_Offset step = offset - last;
  last = offset;
  return static_cast<int>(step ^ (step >> 32));
}

void FileVariables::note_write(int variable) {
  if (variable >= 0) variables_[static_cast<std::size_t>(variable)].written = true;
}

void FileVariables::begin_capture() {
  last_write_.clear();
  for (VariableSeen& v : variables_) {
    v.written = false;
    v.accessed = FileExtent{};
  }
}

// In bytes from the start of the file, whatever the view: whether a rank
// streamed its own block of rows is a question about the file's bytes
// (profile_assembly.cpp, per_row_bytes).
void FileVariables::note_access(MPI_File fh, int variable, FilePointer pointer, MPI_Offset offset,
                                std::int64_t bytes) {
  if (variable < 0) return;
  FileExtent& extent = variables_[static_cast<std::size_t>(variable)].accessed;
  MPI_Offset at = 0;
  if (pointer == FilePointer::shared) {
    extent.unknown = true;
  } else if (pointer == FilePointer::explicit_offset) {
    if (PMPI_File_get_byte_offset(fh, offset, &at) == MPI_SUCCESS) {
      extent.add(at, bytes);
    } else {
      extent.unknown = true;
    }
  } else {
    // The pointer has moved past the data: the access ended where it is now.
    // A file opened MPI_MODE_SEQUENTIAL has no position to ask for (an
    // error, fatal under the program's MPI_ERRORS_ARE_FATAL).
    int amode = 0;
    MPI_Offset position = 0;
    if (PMPI_File_get_amode(fh, &amode) == MPI_SUCCESS && (amode & MPI_MODE_SEQUENTIAL) == 0 &&
        PMPI_File_get_position(fh, &position) == MPI_SUCCESS &&
        PMPI_File_get_byte_offset(fh, position, &at) == MPI_SUCCESS) {
      extent.add(std::max<MPI_Offset>(0, at - bytes), bytes);
    } else {
      extent.unknown = true;
    }
  }
}

void FileVariables::add_to_last_write(Timeline& timeline, int variable, double seconds) {
  const auto it = last_write_.find(variable);
  if (it != last_write_.end()) timeline.add_io_seconds(it->second, true, seconds);
}

}  // namespace mheta::interpose
