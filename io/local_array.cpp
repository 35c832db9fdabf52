#include "io/local_array.hpp"

#include <hdf5.h>
#include <mheta/hints.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "io/file_image.hpp"
#include "io/io_counters.hpp"

namespace mheta::io {

namespace {

constexpr const char* kDataset = "rows";

hid_t native_type(ElementType element) {
  switch (element) {
    case ElementType::f64:
      return H5T_NATIVE_DOUBLE;
    case ElementType::i64:
      return H5T_NATIVE_INT64;
    case ElementType::u8:
      return H5T_NATIVE_UINT8;
  }
  return H5T_NATIVE_UINT8;
}

const char* element_name(ElementType element) {
  switch (element) {
    case ElementType::f64:
      return "64-bit floats";
    case ElementType::i64:
      return "64-bit integers";
    case ElementType::u8:
      return "bytes";
  }
  return "bytes";
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& reason) {
  throw LocalArrayError(path.string() + ": " + reason);
}

std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

// Throws, naming the file and the MPI-IO call, when `rc` is an error.
void check_mpi_io(const std::filesystem::path& path, int rc, const char* call) {
  if (rc != MPI_SUCCESS) fail(path, std::string(call) + " failed: " + mpi_error_text(rc));
}

// Closes an HDF5 identifier with the function that matches its kind.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// HDF5 prints its error stack by default; ours name the file instead.
void silence_hdf5() {
  static const bool silenced = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)silenced;
}

// The hints of include/mheta/hints.h, for MPI_File_open and H5Pset_fapl_mpio.
class Hints {
 public:
  Hints(const RowShape& shape, std::int64_t global_rows, std::int64_t local_rows) {
    MPI_Info_create(&info_);
    MPI_Info_set(info_, MHETA_HINT_VARIABLE, shape.variable.c_str());
    MPI_Info_set(info_, MHETA_HINT_BYTES_PER_ROW, std::to_string(shape.bytes_per_row()).c_str());
    MPI_Info_set(info_, MHETA_HINT_GLOBAL_ROWS, std::to_string(global_rows).c_str());
    MPI_Info_set(info_, MHETA_HINT_LOCAL_ROWS, std::to_string(local_rows).c_str());
  }
  Hints(const Hints&) = delete;
  Hints& operator=(const Hints&) = delete;
  ~Hints() { MPI_Info_free(&info_); }
  MPI_Info get() const { return info_; }

 private:
  MPI_Info info_ = MPI_INFO_NULL;
};

// HDF5 hands `hints` to its own MPI_File_open, so the interposer can
// attribute even the metadata accesses.
Handle file_access(const Hints& hints) {
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, MPI_COMM_SELF, hints.get());
  return Handle(fapl, H5Pclose);
}

void write_attribute(const std::filesystem::path& path, hid_t object, const char* name,
                     const std::vector<std::int64_t>& values) {
  const hsize_t count = values.size();
  Handle space(count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr), H5Sclose);
  Handle attribute(H5Acreate2(object, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute.ok() || H5Awrite(attribute.get(), H5T_NATIVE_INT64, values.data()) < 0) {
    fail(path, std::string("cannot write attribute '") + name + "'");
  }
}

void write_string_attribute(const std::filesystem::path& path, hid_t object, const char* name,
                            const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), value.empty() ? 1 : value.size());
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute.ok() || H5Awrite(attribute.get(), type.get(), value.c_str()) < 0) {
    fail(path, std::string("cannot write attribute '") + name + "'");
  }
}

std::vector<std::int64_t> read_attribute(const std::filesystem::path& path, hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) fail(path, std::string("has no attribute '") + name + "'");
  Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  Handle space(H5Aget_space(attribute.get()), H5Sclose);
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  std::vector<std::int64_t> values(static_cast<std::size_t>(count < 0 ? 0 : count));
  if (count < 0 || H5Aread(attribute.get(), H5T_NATIVE_INT64, values.data()) < 0) {
    fail(path, std::string("cannot read attribute '") + name + "'");
  }
  return values;
}

std::int64_t read_scalar_attribute(const std::filesystem::path& path, hid_t object, const char* name) {
  const auto values = read_attribute(path, object, name);
  if (values.size() != 1) fail(path, std::string("attribute '") + name + "' is not a single number");
  return values.front();
}

std::string read_string_attribute(const std::filesystem::path& path, hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) fail(path, std::string("has no attribute '") + name + "'");
  Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  Handle type(H5Aget_type(attribute.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) > 0) {
    fail(path, std::string("attribute '") + name + "' is not a fixed-length string");
  }
  std::string value(H5Tget_size(type.get()), '\0');
  if (H5Aread(attribute.get(), type.get(), value.data()) < 0) {
    fail(path, std::string("cannot read attribute '") + name + "'");
  }
  value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
  return value;
}

std::string format_rows(const std::vector<std::int64_t>& rows) {
  std::string text;
  for (std::size_t i = 0; i < rows.size(); ++i) text += (i ? " " : "") + std::to_string(rows[i]);
  return "[" + text + "]";
}

// Room for a block's metadata: superblock, root group and the dataset's
// header with its attributes, the distribution the largest (8 bytes a rank).
std::size_t metadata_bound(const RowShape& shape, const model::GenBlock& dist) {
  return 16 * 1024 + 16 * static_cast<std::size_t>(dist.ranks()) + 2 * shape.variable.size();
}

MPI_Offset dataset_offset(hid_t dataset) {
  const haddr_t offset = H5Dget_offset(dataset);
  return offset == HADDR_UNDEF ? 0 : static_cast<MPI_Offset>(offset);
}

}  // namespace

std::int64_t RowShape::bytes_per_row() const {
  return elements_per_row * static_cast<std::int64_t>(H5Tget_size(native_type(element)));
}

std::filesystem::path local_array_path(const std::filesystem::path& dir, std::string_view variable, int rank) {
  return dir / (std::string(variable) + "." + std::to_string(rank) + ".h5");
}

LocalArray::LocalArray(std::filesystem::path path, RowShape shape, model::GenBlock dist, int rank)
    : path_(std::move(path)), shape_(std::move(shape)), dist_(std::move(dist)), rank_(rank) {
  if (rank < 0 || rank >= dist_.ranks()) {
    fail(path_,
         "rank " + std::to_string(rank) + " is outside the distribution's " + std::to_string(dist_.ranks()) + " ranks");
  }
  if (shape_.elements_per_row <= 0) fail(path_, "a row must hold at least one element");
  first_row_ = dist_.first_row(rank);
}

LocalArray LocalArray::create(const std::filesystem::path& dir, const RowShape& shape, const model::GenBlock& dist,
                              int rank) {
  silence_hdf5();
  LocalArray array(local_array_path(dir, shape.variable, rank), shape, dist, rank);
  std::error_code ignored;
  std::filesystem::create_directories(dir, ignored);
  // Built in memory, written below with checked MPI-IO: a full disk fails
  // that write cleanly, where a failed H5Fclose would crash the process in
  // MPI_Finalize (io/file_image.hpp).
  FileImage image(metadata_bound(shape, dist));
  MPI_Offset offset = 0;
  {
    Handle file(H5Fcreate(array.path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, image.access()), H5Fclose);
    if (!file.ok()) fail(array.path_, "cannot build the file's metadata in memory");
    const hsize_t dims[2] = {static_cast<hsize_t>(array.local_rows()), static_cast<hsize_t>(shape.elements_per_row)};
    Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
    // Contiguous and allocated now, so the rows have one byte offset; never
    // filled, so creating costs no data I/O the interposer would count.
    Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    H5Pset_layout(dcpl.get(), H5D_CONTIGUOUS);
    H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY);
    H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER);
    Handle dataset(
        H5Dcreate2(file.get(), kDataset, native_type(shape.element), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
        H5Dclose);
    if (!dataset.ok()) fail(array.path_, "cannot create the dataset");
    write_string_attribute(array.path_, dataset.get(), "variable", shape.variable);
    write_attribute(array.path_, dataset.get(), "global_rows", {array.global_rows()});
    write_attribute(array.path_, dataset.get(), "first_row", {array.first_row_});
    write_attribute(array.path_, dataset.get(), "bytes_per_row", {shape.bytes_per_row()});
    write_attribute(array.path_, dataset.get(), "rank", {rank});
    write_attribute(array.path_, dataset.get(), "distribution", dist.rows);
    offset = dataset_offset(dataset.get());
  }
  if (image.bytes().empty()) fail(array.path_, "out of memory building the file's metadata");
  array.open_data(offset, MPI_MODE_CREATE);
  array.write_image(image.bytes());
  return array;
}

LocalArray LocalArray::open(const std::filesystem::path& dir, const RowShape& shape, const model::GenBlock& dist,
                            int rank) {
  silence_hdf5();
  LocalArray array(local_array_path(dir, shape.variable, rank), shape, dist, rank);
  const std::filesystem::path& path = array.path_;
  if (!std::filesystem::exists(path)) {
    fail(path, "missing: rank " + std::to_string(rank) + "'s block of variable '" + shape.variable +
                   "' is not there (wrong data directory, or generated for fewer ranks?)");
  }
  const Hints hints(shape, array.global_rows(), array.local_rows());
  MPI_Offset offset = 0;
  {
    const Handle fapl = file_access(hints);
    Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
    if (!file.ok()) fail(path, "is not a readable HDF5 file (truncated or damaged?)");
    if (H5Lexists(file.get(), kDataset, H5P_DEFAULT) <= 0) {
      fail(path, std::string("has no dataset '") + kDataset + "': not an mheta local array");
    }
    Handle dataset(H5Dopen2(file.get(), kDataset, H5P_DEFAULT), H5Dclose);
    const std::string variable = read_string_attribute(path, dataset.get(), "variable");
    if (variable != shape.variable) {
      fail(path, "holds variable '" + variable + "', expected '" + shape.variable + "'");
    }
    Handle type(H5Dget_type(dataset.get()), H5Tclose);
    if (H5Tequal(type.get(), native_type(shape.element)) <= 0) {
      std::string held = "elements of another type";
      for (ElementType e : {ElementType::f64, ElementType::i64, ElementType::u8}) {
        if (H5Tequal(type.get(), native_type(e)) > 0) held = element_name(e);
      }
      fail(path, "holds " + held + ", expected " + element_name(shape.element));
    }
    Handle space(H5Dget_space(dataset.get()), H5Sclose);
    hsize_t dims[2] = {0, 0};
    if (H5Sget_simple_extent_ndims(space.get()) != 2) fail(path, "dataset 'rows' is not two-dimensional");
    H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    if (static_cast<std::int64_t>(dims[1]) != shape.elements_per_row ||
        read_scalar_attribute(path, dataset.get(), "bytes_per_row") != shape.bytes_per_row()) {
      fail(path, "rows hold " + std::to_string(dims[1]) + " elements but this run expects " +
                     std::to_string(shape.elements_per_row) + " (generated with other sizes?)");
    }
    const auto file_dist = read_attribute(path, dataset.get(), "distribution");
    if (file_dist != dist.rows) {
      fail(path, "was written for the distribution " + format_rows(file_dist) + " but this run uses " +
                     format_rows(dist.rows) + " (use another data directory, or redistribute)");
    }
    if (read_scalar_attribute(path, dataset.get(), "rank") != rank ||
        read_scalar_attribute(path, dataset.get(), "first_row") != array.first_row_ ||
        read_scalar_attribute(path, dataset.get(), "global_rows") != array.global_rows() ||
        static_cast<std::int64_t>(dims[0]) != array.local_rows()) {
      fail(path,
           "its rank, first row, global rows or local rows disagree with its distribution " + format_rows(file_dist));
    }
    Handle dcpl(H5Dget_create_plist(dataset.get()), H5Pclose);
    if (H5Pget_layout(dcpl.get()) != H5D_CONTIGUOUS) fail(path, "dataset 'rows' is not contiguous");
    offset = dataset_offset(dataset.get());
  }
  array.open_data(offset);
  MPI_Offset size = 0;
  MPI_File_get_size(array.file_, &size);
  const MPI_Offset needed = array.byte_offset(array.local_rows());
  if (array.local_rows() > 0 && size < needed) {
    fail(path, "is truncated: " + std::to_string(size) + " bytes, its rows need " + std::to_string(needed));
  }
  return array;
}

void LocalArray::open_data(MPI_Offset data_offset, int extra_mode) {
  data_offset_ = data_offset;
  const Hints hints(shape_, global_rows(), local_rows());
  const int rc = MPI_File_open(MPI_COMM_SELF, path_.c_str(), MPI_MODE_RDWR | extra_mode, hints.get(), &file_);
  if (rc != MPI_SUCCESS) {
    fail(path_, "MPI_File_open failed: " + mpi_error_text(rc) +
                    ((extra_mode & MPI_MODE_CREATE) != 0 ? " (check that the directory is writable)" : ""));
  }
  MPI_Type_contiguous(static_cast<int>(bytes_per_row()), MPI_BYTE, &row_type_);
  MPI_Type_commit(&row_type_);
}

void LocalArray::write_image(const std::vector<std::byte>& image) {
  // Empties a file left by an earlier run (MPI_MODE_CREATE keeps it).
  check_mpi_io(path_, MPI_File_set_size(file_, 0), "MPI_File_set_size");
  // The rows' bytes in the image are zeros HDF5 never wrote: skipped, so
  // creating a block writes its metadata only.
  const auto size = static_cast<MPI_Offset>(image.size());
  const MPI_Offset rows_end = data_offset_ + local_rows() * bytes_per_row();
  auto write = [&](MPI_Offset from, MPI_Offset to) {
    if (from >= to) return;
    check_mpi_io(path_,
                 MPI_File_write_at(file_, from, image.data() + from, static_cast<int>(to - from), MPI_BYTE,
                                   MPI_STATUS_IGNORE),
                 "MPI_File_write_at");
  };
  // Without rows, rows_end is data_offset_: the two ranges cover the image.
  write(0, std::min(size, data_offset_));
  write(rows_end, size);
  // The file ends where the rows or the metadata do, whichever is last:
  // HDF5's end of allocation (io/file_image.hpp). The rows' region stays a
  // hole until they are written.
  check_mpi_io(path_, MPI_File_set_size(file_, std::max(rows_end, size)), "MPI_File_set_size");
}

LocalArray::LocalArray(LocalArray&& other) noexcept
    : path_(std::move(other.path_)),
      shape_(std::move(other.shape_)),
      dist_(std::move(other.dist_)),
      rank_(other.rank_),
      first_row_(other.first_row_),
      data_offset_(other.data_offset_),
      file_(std::exchange(other.file_, MPI_FILE_NULL)),
      row_type_(std::exchange(other.row_type_, MPI_DATATYPE_NULL)) {}

LocalArray& LocalArray::operator=(LocalArray&& other) noexcept {
  // Swapping hands our old file to `other`, whose destructor closes it.
  std::swap(path_, other.path_);
  std::swap(shape_, other.shape_);
  std::swap(dist_, other.dist_);
  std::swap(rank_, other.rank_);
  std::swap(first_row_, other.first_row_);
  std::swap(data_offset_, other.data_offset_);
  std::swap(file_, other.file_);
  std::swap(row_type_, other.row_type_);
  return *this;
}

LocalArray::~LocalArray() {
  if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
  if (row_type_ != MPI_DATATYPE_NULL) MPI_Type_free(&row_type_);
}

void LocalArray::sync() {
  const int rc = MPI_File_sync(file_);
  if (rc != MPI_SUCCESS) fail(path_, "cannot sync (disk full?): " + mpi_error_text(rc));
}

void LocalArray::rename_to(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::rename(path_, path, error);
  if (error) fail(path_, "cannot rename to " + path.string() + ": " + error.message());
  path_ = path;
}

void LocalArray::check_range(std::int64_t first, std::int64_t count, const char* what) const {
  if (first < 0 || count < 0 || first + count > local_rows()) {
    fail(path_, std::string(what) + " of local rows [" + std::to_string(first) + ", " + std::to_string(first + count) +
                    ") outside the block's " + std::to_string(local_rows()) + " rows");
  }
}

MPI_Offset LocalArray::byte_offset(std::int64_t first) const {
  return data_offset_ + static_cast<MPI_Offset>(first) * static_cast<MPI_Offset>(bytes_per_row());
}

void LocalArray::read_rows(std::int64_t first, std::int64_t count, void* out) {
  check_range(first, count, "read");
  if (count == 0) return;
  const double start = MPI_Wtime();
  const int rc =
      MPI_File_read_at(file_, byte_offset(first), out, static_cast<int>(count), row_type_, MPI_STATUS_IGNORE);
  check_mpi_io(path_, rc, "MPI_File_read_at");
  IoCounters& c = io_counters();
  c.read_seconds += MPI_Wtime() - start;
  c.reads += 1;
  c.read_bytes += count * bytes_per_row();
}

void LocalArray::write_rows(std::int64_t first, std::int64_t count, const void* in) {
  check_range(first, count, "write");
  if (count == 0) return;
  const double start = MPI_Wtime();
  const int rc =
      MPI_File_write_at(file_, byte_offset(first), in, static_cast<int>(count), row_type_, MPI_STATUS_IGNORE);
  check_mpi_io(path_, rc, "MPI_File_write_at");
  IoCounters& c = io_counters();
  c.write_seconds += MPI_Wtime() - start;
  c.writes += 1;
  c.write_bytes += count * bytes_per_row();
}

MPI_Request LocalArray::start_read_rows(std::int64_t first, std::int64_t count, void* out) {
  check_range(first, count, "read");
  MPI_Request request = MPI_REQUEST_NULL;
  if (count == 0) return request;
  const double start = MPI_Wtime();
  const int rc = MPI_File_iread_at(file_, byte_offset(first), out, static_cast<int>(count), row_type_, &request);
  check_mpi_io(path_, rc, "MPI_File_iread_at");
  IoCounters& c = io_counters();
  c.issue_seconds += MPI_Wtime() - start;
  c.reads += 1;
  c.read_bytes += count * bytes_per_row();
  return request;
}

void LocalArray::wait(MPI_Request& request) {
  if (request == MPI_REQUEST_NULL) return;
  const double start = MPI_Wtime();
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  io_counters().wait_seconds += MPI_Wtime() - start;
}

}  // namespace mheta::io
