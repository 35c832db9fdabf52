#include "io/file_image.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace mheta::io {

namespace {
// The core driver grows its buffer by this much: small, so that the image
// ends within a page of the last metadata byte.
constexpr std::size_t kIncrement = 4096;
}  // namespace

FileImage::FileImage(std::size_t metadata_bytes) : fapl_(H5Pcreate(H5P_FILE_ACCESS)) {
  H5Pset_fapl_core(fapl_, kIncrement, /*backing_store=*/false);
  H5Pset_meta_block_size(fapl_, static_cast<hsize_t>(metadata_bytes));
  // Raw data is allocated to its exact size, after the metadata block: a
  // dataset allocated early ends the file.
  H5Pset_small_data_block_size(fapl_, 0);
  H5FD_file_image_callbacks_t callbacks{};
  callbacks.image_malloc = &FileImage::allocate;
  callbacks.image_memcpy = &FileImage::copy;
  callbacks.image_realloc = &FileImage::resize;
  callbacks.image_free = &FileImage::release;
  // Every copy of the property list (HDF5 copies it into the open file)
  // reports to this one object.
  callbacks.udata_copy = &FileImage::share;
  callbacks.udata_free = &FileImage::unshare;
  callbacks.udata = &captured_;
  H5Pset_file_image_callbacks(fapl_, &callbacks);
}

FileImage::~FileImage() {
  if (fapl_ >= 0) H5Pclose(fapl_);
}

void* FileImage::allocate(std::size_t size, H5FD_file_image_op_t, void* captured) {
  static_cast<Captured*>(captured)->size = size;
  return std::malloc(size);
}

void* FileImage::copy(void* to, const void* from, std::size_t size, H5FD_file_image_op_t, void*) {
  return std::memcpy(to, from, size);
}

void* FileImage::resize(void* buffer, std::size_t size, H5FD_file_image_op_t, void* captured) {
  void* resized = std::realloc(buffer, size);
  if (resized != nullptr) static_cast<Captured*>(captured)->size = size;
  return resized;
}

herr_t FileImage::release(void* buffer, H5FD_file_image_op_t op, void* captured) {
  // Never fails: a failed callback would fail the H5Fclose this class
  // exists to keep from failing.
  if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && buffer != nullptr) {
    auto& image = *static_cast<Captured*>(captured);
    const auto* first = static_cast<const std::byte*>(buffer);
    try {
      image.bytes.assign(first, first + image.size);
    } catch (const std::bad_alloc&) {
      image.bytes.clear();  // an empty image: the caller says the file could not be built
    }
  }
  std::free(buffer);
  return 0;
}

}  // namespace mheta::io
