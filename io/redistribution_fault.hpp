#pragma once
// Fault injection for the redistribution's crash tests, compiled in always
// and inert unless MHETA_REDISTRIBUTE_KILL is set:
//   MHETA_REDISTRIBUTE_KILL=<point>[@<rank>]
// makes rank <rank> (default 0) send itself SIGKILL when it reaches <point>,
// one of kFaultPoints. Nothing is cleaned up, as with a real crash.
#include <array>
#include <cstdint>
#include <filesystem>
#include <string_view>

namespace mheta::io {

inline constexpr std::array<std::string_view, 6> kFaultPoints = {
    "after-check",     // rank 0 checked the free space, the manifest not yet prepared
    "mid-write",       // the first received piece of the new block is written
    "after-exchange",  // every piece is exchanged and written, nothing synced or verified
    "before-commit",   // the new blocks are synced and verified, the manifest not committed
    "after-commit",    // the manifest is committed, no file switched
    "mid-switch",      // this rank switched its first file
};

// MHETA_REDISTRIBUTE_FILE_LIMIT=<bytes> makes every write beyond <bytes> of
// a file fail with EFBIG from the first row written on (RLIMIT_FSIZE, with
// SIGXFSZ ignored): a disk that fills up while the new blocks are written,
// without a small file system to mount. Set after MPI is up and the files
// are created, so it hits the row data only.
void apply_file_size_limit();

// MHETA_REDISTRIBUTE_FILL=<point>[@<rank>] with MHETA_REDISTRIBUTE_FILL_FILE=<file>
// makes rank <rank> (default 0) fill the file system holding <file> when it
// reaches <point>: it appends to <file> until the disk is full (at most
// 1 GiB, for a small test file system), as another program filling the
// disk at the worst moment would. The test removes <file> afterwards.

// MHETA_REDISTRIBUTE_CORRUPT=<rank> makes that rank flip one byte in the
// middle of the rows of `file` (`bytes` of them from byte `first_byte`),
// its first new block, once every piece is written and before it is synced
// and verified: what a write gone wrong, or another program writing into
// the staging directory, would leave. The verification must catch it.
// Throws std::invalid_argument when the variable is not a rank number.
void corrupt_point(int rank, const std::filesystem::path& file, std::int64_t first_byte, std::int64_t bytes);

// Kills this process when MHETA_REDISTRIBUTE_KILL names `point` and `rank`,
// fills the disk when MHETA_REDISTRIBUTE_FILL does. Throws
// std::invalid_argument when a variable names no known point.
void fault_point(std::string_view point, int rank);

}  // namespace mheta::io
