// Launcher templates (cli/launcher.hpp) expanded by hand, and the rank a
// process gets from any launcher's variables (interpose/launcher_rank.hpp).
#include "cli/launcher.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "cli/command.hpp"
#include "interpose/launcher_rank.hpp"

namespace mheta::cli {
namespace {

using Words = std::vector<std::string>;
const LaunchEnvironment kEnv = {{"LD_PRELOAD", "/p/lib.so"}, {"MHETA_ROWS", "64"}};
const Words kProgram = {"./prog", "--rows", "8"};

TEST(Launcher, MpichPassesEachVariableWithGenv) {
  setenv("MHETA_MPIEXEC", "/opt/mpich/bin/mpiexec", 1);
  EXPECT_EQ(launch_command(launcher_template("mpich"), 4, kEnv, kProgram),
            (Words{"/opt/mpich/bin/mpiexec", "-n", "4", "-genv", "LD_PRELOAD", "/p/lib.so", "-genv", "MHETA_ROWS", "64",
                   "./prog", "--rows", "8"}));
  unsetenv("MHETA_MPIEXEC");
}

TEST(Launcher, SlurmExportsAllAndTheVariablesInOneWord) {
  EXPECT_EQ(launch_command(launcher_template("slurm"), 2, kEnv, kProgram),
            (Words{"srun", "-n", "2", "--export=ALL,LD_PRELOAD=/p/lib.so,MHETA_ROWS=64", "./prog", "--rows", "8"}));
  EXPECT_EQ(launch_command(launcher_template("slurm"), 2, {}, {"./prog"}), (Words{"srun", "-n", "2", "--export=ALL", "./prog"}));
}

TEST(Launcher, OpenMpiPassesEachVariableWithX) {
  EXPECT_EQ(launch_command(launcher_template("openmpi"), 3, kEnv, {"./prog"}),
            (Words{"mpirun", "-n", "3", "-x", "LD_PRELOAD=/p/lib.so", "-x", "MHETA_ROWS=64", "./prog"}));
}

TEST(Launcher, TemplateFromTheEnvironmentWithProgramAppended) {
  setenv("MHETA_LAUNCHER", "aprun -n {n} -N 1 [-e {name}={value}]", 1);
  EXPECT_EQ(launch_command(launcher_template(""), 8, {{"A", "x y"}}, {"./prog"}),
            (Words{"aprun", "-n", "8", "-N", "1", "-e", "A=x y", "./prog"}));
  // The option wins over the environment.
  EXPECT_EQ(launcher_template("openmpi").front(), "mpirun");
  unsetenv("MHETA_LAUNCHER");
}

TEST(Launcher, RejectsWhatCannotWork) {
  EXPECT_THROW(launcher_template("srun"), UsageError);               // no {n}
  EXPECT_THROW(launcher_template("srun -n {n} [-x {name}"), UsageError);  // unclosed [
  EXPECT_THROW(launcher_template("srun -n {n} 'x"), UsageError);     // unclosed quote
  EXPECT_THROW(launch_command(launcher_template("slurm"), 2, {{"A", "1,2"}}, {"./p"}), UsageError);
}

struct SavedEnvironment {
  SavedEnvironment() {
    for (const char* name : kNames) unsetenv(name);
  }
  ~SavedEnvironment() {
    for (const char* name : kNames) unsetenv(name);
  }
  static constexpr const char* kNames[] = {"PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
                                           "PMIX_RANK", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_NPROCS",
                                           "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE"};
};

TEST(LauncherRank, FromAnyLaunchersVariables) {
  const SavedEnvironment clean;
  EXPECT_FALSE(interpose::launcher_rank());
  setenv("SLURM_PROCID", "3", 1);
  EXPECT_FALSE(interpose::launcher_rank());  // no size
  setenv("SLURM_NTASKS", "4", 1);
  ASSERT_TRUE(interpose::launcher_rank());
  EXPECT_EQ(interpose::launcher_rank()->rank, 3);
  EXPECT_EQ(interpose::launcher_rank()->size, 4);
  // Open MPI's own variables before the allocation's.
  setenv("OMPI_COMM_WORLD_RANK", "1", 1);
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  EXPECT_EQ(interpose::launcher_rank()->rank, 1);
  EXPECT_EQ(interpose::launcher_rank()->size, 2);
  // PMIx's rank with Open MPI's size.
  unsetenv("OMPI_COMM_WORLD_RANK");
  setenv("PMIX_RANK", "0", 1);
  EXPECT_EQ(interpose::launcher_rank()->rank, 0);
}

TEST(LauncherRank, IgnoresNonsense) {
  const SavedEnvironment clean;
  setenv("PMI_RANK", "2", 1);
  setenv("PMI_SIZE", "2", 1);  // rank not below size
  EXPECT_FALSE(interpose::launcher_rank());
  setenv("PMI_RANK", "x", 1);
  EXPECT_FALSE(interpose::launcher_rank());
  setenv("PMI_RANK", "1", 1);
  EXPECT_EQ(interpose::launcher_rank()->rank, 1);
}

}  // namespace
}  // namespace mheta::cli
