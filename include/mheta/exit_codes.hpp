#pragma once
// The exit codes of every mheta program: the `mheta` command, and
// mheta-microbench (documented in docs/cli.md).
namespace mheta {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;        // an unexpected failure (a bug, or the system)
inline constexpr int kExitUsage = 2;          // wrong command line
inline constexpr int kExitBadInput = 3;       // an input file is malformed or inconsistent
inline constexpr int kExitCannotWrite = 4;    // an output could not be written
inline constexpr int kExitProgramFailed = 5;  // a program mheta ran failed
inline constexpr int kExitNoProfile = 6;      // a program ran to its end, but no profile of it was captured

}  // namespace mheta
