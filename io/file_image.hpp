// An HDF5 file built in memory, whose bytes the caller writes to disk with
// its own, checked I/O.
//
// Why: HDF5 1.10 cannot survive a failed H5Fclose. When the close cannot
// write the file's metadata (a disk that filled up), the file's identifier
// stays registered but half freed, and the library's cleanup, which
// MPI_Finalize runs, dereferences it and the process dies of a
// segmentation fault. Built with the core driver and no backing store, the
// close writes nothing to disk and cannot fail for lack of space; a full
// disk then fails the caller's write, a clean error it can roll back.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <vector>

namespace mheta::io {

class FileImage {
 public:
  // `metadata_bytes`: an upper bound on the file's metadata. HDF5 reserves
  // that much at the start of the file for it, so that no metadata lands
  // after a dataset allocated later: the image holds the metadata only,
  // never the (unwritten) rows, and the dataset ends the file.
  explicit FileImage(std::size_t metadata_bytes);
  FileImage(const FileImage&) = delete;
  FileImage& operator=(const FileImage&) = delete;
  ~FileImage();

  // The file access property list to pass to H5Fcreate.
  hid_t access() const { return fapl_; }
  // What HDF5 wrote, from offset 0; valid once the file is closed. Bytes
  // HDF5 did not write are zero.
  const std::vector<std::byte>& bytes() const { return captured_.bytes; }

 private:
  struct Captured {
    std::size_t size = 0;  // of the buffer HDF5 holds now
    std::vector<std::byte> bytes;
  };
  static void* allocate(std::size_t size, H5FD_file_image_op_t, void* captured);
  static void* copy(void* to, const void* from, std::size_t size, H5FD_file_image_op_t, void*);
  static void* resize(void* buffer, std::size_t size, H5FD_file_image_op_t, void* captured);
  static herr_t release(void* buffer, H5FD_file_image_op_t op, void* captured);
  static void* share(void* captured) { return captured; }
  static herr_t unshare(void*) { return 0; }

  hid_t fapl_ = H5I_INVALID_HID;
  Captured captured_;
};

}  // namespace mheta::io
