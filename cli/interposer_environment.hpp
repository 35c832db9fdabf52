#pragma once
// What the commands that run programs under libmheta-interpose.so (`mheta
// run`, `mheta microbench --emulate`) hand to the launcher: the library to
// preload and the emulation settings, as the ranks' environment.
#include <filesystem>
#include <string>

#include "cli/launcher.hpp"

namespace mheta::cli {

// MHETA_INTERPOSE_LIB, else beside this executable in the build tree
// (<build>/cli/mheta -> <build>/interpose/), else the installed layout
// (<prefix>/bin/mheta -> <prefix>/lib/). Throws naming what is missing.
std::filesystem::path interpose_library();

// LD_PRELOAD (the library before any preload already set), MHETA_EMULATE
// (a preset by name, a file by absolute path) and MHETA_CLOCK; empty
// settings are left out. `emulate` and `clock` must have been checked.
void add_interposer(LaunchEnvironment& environment, const std::string& emulate, const std::string& clock);

// OMP_WAIT_POLICY=passive when the ranks' own waits sleep (`sleeping`) and
// the user has not chosen a policy: an OpenMP thread that spins at a
// barrier takes a core from the ranks sharing it, and under the virtual
// clock the spinning of the rank's thread would count as its compute
// (docs/emulation.md, "Threads of a rank").
void add_thread_wait_policy(LaunchEnvironment& environment, bool sleeping);

}  // namespace mheta::cli
