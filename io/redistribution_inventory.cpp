#include "io/redistribution_inventory.hpp"

#include <hdf5.h>

#include <algorithm>
#include <string>

namespace mheta::io {

namespace {

constexpr std::string_view kRankZeroSuffix = ".0.h5";

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& reason) {
  throw LocalArrayError(path.string() + ": " + reason);
}

// HDF5 identifiers closed on every path out.
struct Id {
  hid_t id;
  herr_t (*close)(hid_t);
  ~Id() {
    if (id >= 0) close(id);
  }
};

StoredVariable read_stored(const std::filesystem::path& path, std::string name) {
  StoredVariable v;
  v.shape.variable = std::move(name);
  Id file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose};
  if (file.id < 0) fail(path, "is not a readable HDF5 file");
  if (H5Lexists(file.id, "rows", H5P_DEFAULT) <= 0) fail(path, "has no dataset 'rows': not an mheta local array");
  Id dataset{H5Dopen2(file.id, "rows", H5P_DEFAULT), H5Dclose};
  Id type{H5Dget_type(dataset.id), H5Tclose};
  if (H5Tequal(type.id, H5T_NATIVE_DOUBLE) > 0) {
    v.shape.element = ElementType::f64;
  } else if (H5Tequal(type.id, H5T_NATIVE_INT64) > 0) {
    v.shape.element = ElementType::i64;
  } else if (H5Tequal(type.id, H5T_NATIVE_UINT8) > 0) {
    v.shape.element = ElementType::u8;
  } else {
    fail(path, "holds elements of a type mheta does not write");
  }
  Id space{H5Dget_space(dataset.id), H5Sclose};
  hsize_t dims[2] = {0, 0};
  if (H5Sget_simple_extent_ndims(space.id) != 2) fail(path, "dataset 'rows' is not two-dimensional");
  H5Sget_simple_extent_dims(space.id, dims, nullptr);
  v.shape.elements_per_row = static_cast<std::int64_t>(dims[1]);
  if (H5Aexists(dataset.id, "distribution") <= 0) fail(path, "has no attribute 'distribution'");
  Id attribute{H5Aopen(dataset.id, "distribution", H5P_DEFAULT), H5Aclose};
  Id attribute_space{H5Aget_space(attribute.id), H5Sclose};
  const hssize_t count = H5Sget_simple_extent_npoints(attribute_space.id);
  v.dist.rows.resize(static_cast<std::size_t>(std::max<hssize_t>(count, 0)));
  if (count <= 0 || H5Aread(attribute.id, H5T_NATIVE_INT64, v.dist.rows.data()) < 0) {
    fail(path, "cannot read attribute 'distribution'");
  }
  return v;
}

}  // namespace

std::vector<StoredVariable> stored_variables(const std::filesystem::path& dir) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) fail(dir, "is not a directory");
  std::vector<std::filesystem::path> blocks;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (entry.is_regular_file() && file.size() > kRankZeroSuffix.size() && file.ends_with(kRankZeroSuffix)) {
      blocks.push_back(entry.path());
    }
  }
  std::sort(blocks.begin(), blocks.end());
  std::vector<StoredVariable> variables;
  for (const auto& path : blocks) {
    const std::string file = path.filename().string();
    variables.push_back(read_stored(path, file.substr(0, file.size() - kRankZeroSuffix.size())));
  }
  if (variables.empty()) fail(dir, "holds no local arrays (<variable>.0.h5)");
  return variables;
}

}  // namespace mheta::io
