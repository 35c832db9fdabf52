#pragma once
// How mheta starts N processes of a program (`run`, `validate`,
// `microbench`, `redistribute -n`): a launcher template, given by
// --launcher, else $MHETA_LAUNCHER, else MPICH's mpiexec ($MHETA_MPIEXEC
// names another one). A template is a command line whose words may hold
//   {n}                 the number of processes
//   {program}           the program and its arguments (appended when absent)
//   [ ... {name} {value} ... ]
//                       repeated once per environment variable the
//                       processes must get (LD_PRELOAD, MHETA_*), within
//                       one word (--export=ALL[,{name}={value}]) or over
//                       several ([-x {name}={value}])
// or is the name of a preset: mpich, slurm, openmpi (docs/cli.md).
#include <string>
#include <utility>
#include <vector>

namespace mheta::cli {

using LaunchEnvironment = std::vector<std::pair<std::string, std::string>>;

// The template's words: `text` (a preset's name or a template), else the
// environment's choice. Throws UsageError (cli/command.hpp) on a malformed
// template (unclosed quote or bracket, no {n}).
std::vector<std::string> launcher_template(const std::string& text);

// The command line starting `ranks` processes of `program` with `env` set
// in each. Throws UsageError (cli/command.hpp) when a value cannot be passed
// (a comma inside a comma-separated list).
std::vector<std::string> launch_command(const std::vector<std::string>& launcher, int ranks,
                                        const LaunchEnvironment& env, const std::vector<std::string>& program);

// The help text of --launcher, shared by every command that has it.
extern const char* const kLauncherHelp;

}  // namespace mheta::cli
