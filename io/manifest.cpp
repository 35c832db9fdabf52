#include "io/manifest.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "model/format_error.hpp"
#include "model/json_fields.hpp"
#include "model/text_file.hpp"

namespace mheta::io {

namespace {

constexpr std::string_view kManifestFormat = "mheta-manifest/1";

constexpr std::array<std::pair<ManifestState, const char*>, 3> kStates = {{
    {ManifestState::prepared, "prepared"},
    {ManifestState::committed, "committed"},
    {ManifestState::complete, "complete"},
}};

constexpr std::array<std::pair<ElementType, const char*>, 3> kElements = {{
    {ElementType::f64, "f64"},
    {ElementType::i64, "i64"},
    {ElementType::u8, "u8"},
}};

template <typename Enum, std::size_t N>
const char* name_of(const std::array<std::pair<Enum, const char*>, N>& table, Enum value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "?";
}

template <typename Enum, std::size_t N>
Enum value_of(const std::array<std::pair<Enum, const char*>, N>& table, const std::string& name,
              const model::JsonFields& fields, std::string_view path) {
  std::string names;
  for (const auto& [v, n] : table) {
    if (name == n) return v;
    names += (names.empty() ? "" : ", ") + std::string(n);
  }
  fields.fail(path, "'" + name + "' is not one of " + names);
}

model::GenBlock rows_from(const model::Json& object, std::string_view key, const model::JsonFields& fields) {
  model::GenBlock dist;
  const model::Json& rows = fields.array(object, key, key);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    dist.rows.push_back(fields.integer_value(rows[i], std::string(key) + "[" + std::to_string(i) + "]"));
  }
  return dist;
}

}  // namespace

std::filesystem::path manifest_path(const std::filesystem::path& dir) { return dir / "mheta-manifest.json"; }
std::filesystem::path staging_dir(const std::filesystem::path& dir) { return dir / "mheta-staging"; }

const char* element_type_name(ElementType element) { return name_of(kElements, element); }

std::optional<Manifest> read_manifest(const std::filesystem::path& dir) {
  const std::filesystem::path path = manifest_path(dir);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  const model::Json json = model::parse_json_text(model::read_text_file(path), path.string());
  const model::JsonFields fields(path.string());
  if (!json.is_object()) fields.fail("", "expected a JSON object");
  if (fields.string(json, "format", "format") != kManifestFormat) {
    fields.fail("format", "expected \"" + std::string(kManifestFormat) + "\"");
  }
  Manifest m;
  m.state = value_of(kStates, fields.string(json, "state", "state"), fields, "state");
  m.from = rows_from(json, "from", fields);
  m.to = rows_from(json, "to", fields);
  if (m.from.ranks() != m.to.ranks() || m.from.total_rows() != m.to.total_rows()) {
    fields.fail("to", "does not have the ranks and rows of 'from'");
  }
  const model::Json& variables = fields.array(json, "variables", "variables");
  for (std::size_t i = 0; i < variables.size(); ++i) {
    const std::string path_i = "variables[" + std::to_string(i) + "]";
    RowShape shape;
    shape.variable = fields.string(variables[i], "name", path_i + ".name");
    shape.element =
        value_of(kElements, fields.string(variables[i], "element", path_i + ".element"), fields, path_i + ".element");
    shape.elements_per_row = fields.integer(variables[i], "elements_per_row", path_i + ".elements_per_row", 1);
    m.variables.push_back(std::move(shape));
  }
  return m;
}

void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0)
    throw model::OutputError(dir.string() + ": cannot open the directory to sync it: " + std::strerror(errno));
  const bool ok = ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!ok) throw model::OutputError(dir.string() + ": cannot sync the directory: " + std::strerror(saved));
}

void write_manifest(const std::filesystem::path& dir, const Manifest& manifest, bool sync_dir) {
  model::Json variables = model::Json::array();
  for (const RowShape& v : manifest.variables) {
    variables.push_back(
        {{"name", v.variable}, {"element", element_type_name(v.element)}, {"elements_per_row", v.elements_per_row}});
  }
  const model::Json json = {{"format", kManifestFormat},
                            {"state", name_of(kStates, manifest.state)},
                            {"from", manifest.from.rows},
                            {"to", manifest.to.rows},
                            {"variables", variables}};
  model::write_text_file_atomically(manifest_path(dir), json.dump(1) + "\n");
  if (sync_dir) sync_directory(dir);
}

}  // namespace mheta::io
