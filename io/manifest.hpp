#pragma once
// The redistribution's commit record: <dir>/mheta-manifest.json, written
// through a temporary file, fsync'ed, renamed over the old one and the
// directory fsync'ed, so that after a crash it holds either the previous
// state or the next, never half of one. Its state says which distribution
// of the data directory is complete:
//   prepared   moving from `from` to `to`; the new blocks being written in
//              <dir>/mheta-staging/ are not trusted: `from` is complete
//   committed  every new block is written, synced and verified: `to` is
//              complete (partly still in the staging directory)
//   complete   nothing in progress; the data is in `to`
#include <filesystem>
#include <optional>
#include <vector>

#include "io/local_array.hpp"
#include "model/gen_block.hpp"

namespace mheta::io {

enum class ManifestState { prepared, committed, complete };

struct Manifest {
  ManifestState state = ManifestState::complete;
  model::GenBlock from;
  model::GenBlock to;
  std::vector<RowShape> variables;
};

std::filesystem::path manifest_path(const std::filesystem::path& dir);
std::filesystem::path staging_dir(const std::filesystem::path& dir);

// The manifest of `dir`, or nothing when it has none. Throws
// model::FormatError naming the file when it is unreadable or malformed.
std::optional<Manifest> read_manifest(const std::filesystem::path& dir);

// Replaces the manifest (see above). Throws model::OutputError.
// `sync_dir` false skips the directory's fsync: for a state whose loss a
// restart repairs anyway (`complete` after `committed`: recovery finishes a
// finished switch again, which changes nothing; `prepared` after
// `complete`: recovery discards the staging directory either way).
void write_manifest(const std::filesystem::path& dir, const Manifest& manifest, bool sync_dir = true);

// fsync of a directory, so the renames and removals in it survive a crash.
void sync_directory(const std::filesystem::path& dir);

const char* element_type_name(ElementType element);

}  // namespace mheta::io
