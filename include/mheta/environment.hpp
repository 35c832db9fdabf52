#pragma once
// Every MHETA_* environment variable, with its default: the interposer,
// io/, the advisor and `mheta run` read and set them by these names
// (docs/interpose.md and docs/io.md explain each;
// tests/docs/environment_check.py checks that no source spells another).
#include <array>
#include <cstdint>
#include <string_view>

namespace mheta::env {

// The interposer's settings (interpose/settings.cpp reads them once at
// MPI_Init; `mheta run` sets them from its options).
inline constexpr const char* kCapture = "MHETA_CAPTURE";
inline constexpr const char* kCaptureIteration = "MHETA_CAPTURE_ITERATION";
inline constexpr const char* kProfile = "MHETA_PROFILE";
inline constexpr const char* kRows = "MHETA_ROWS";
inline constexpr const char* kDist = "MHETA_DIST";
inline constexpr const char* kIterations = "MHETA_ITERATIONS";
inline constexpr const char* kRowWeights = "MHETA_ROW_WEIGHTS";
inline constexpr const char* kEmulate = "MHETA_EMULATE";
inline constexpr const char* kWait = "MHETA_WAIT";
// The emulated run's clock: "virtual" (the default when emulating) or "wall".
inline constexpr const char* kClock = "MHETA_CLOCK";
// Seconds a rank waits for the others where its capture ends mid-run (a
// mark, MPI_Pcontrol(0)) before it goes on and the profile is gathered at
// MPI_Finalize instead.
inline constexpr const char* kGatherWait = "MHETA_GATHER_WAIT";
// Where the accounting service writes every iteration's compute, I/O,
// communication and waiting per rank (unset: no accounting).
inline constexpr const char* kAccounting = "MHETA_ACCOUNTING";
// With capture off: every k-th call of this function ends an accounted
// iteration ("MPI_Name[:k]"), for programs that do not mark them.
inline constexpr const char* kAccountingCall = "MHETA_ACCOUNTING_CALL";
// Keep N to 2N of the run's iterations, evenly spread, instead of every one
// (iterations ended by calls): the wrappers idle between two of them.
inline constexpr const char* kAccountingSamples = "MHETA_ACCOUNTING_SAMPLES";
// The memory budget io/ sizes its ICLAs with (set by the interposer from
// the emulation, or by the user), and the whole-run out-of-core switch.
inline constexpr const char* kMemoryBytes = "MHETA_MEMORY_BYTES";
inline constexpr const char* kForceOutOfCore = "MHETA_FORCE_OOC";
// The advisor's cluster description.
inline constexpr const char* kCluster = "MHETA_CLUSTER";
// The CLI's launcher (cli/launcher.hpp), MPICH's mpiexec for its mpich
// preset, the mark of processes `mheta redistribute -n` started, and the
// interposer library.
inline constexpr const char* kLauncher = "MHETA_LAUNCHER";
inline constexpr const char* kLaunched = "MHETA_LAUNCHED";
inline constexpr const char* kMpiexec = "MHETA_MPIEXEC";
inline constexpr const char* kInterposeLib = "MHETA_INTERPOSE_LIB";
// Fault injection for the redistribution tests (io/redistribution_fault.hpp).
inline constexpr const char* kRedistributeFileLimit = "MHETA_REDISTRIBUTE_FILE_LIMIT";
inline constexpr const char* kRedistributeKill = "MHETA_REDISTRIBUTE_KILL";
inline constexpr const char* kRedistributeFill = "MHETA_REDISTRIBUTE_FILL";
inline constexpr const char* kRedistributeFillFile = "MHETA_REDISTRIBUTE_FILL_FILE";
inline constexpr const char* kRedistributeCorrupt = "MHETA_REDISTRIBUTE_CORRUPT";

// Defaults the interposer and the advisor must agree on.
inline constexpr std::string_view kDefaultCapture = "auto";
inline constexpr std::int64_t kDefaultCaptureIteration = 2;  // 1-based: an iteration after the first
inline constexpr const char* kDefaultProfile = "mheta-profile.json";
inline constexpr std::string_view kDefaultWait = "spin";  // sleep when emulating
inline constexpr std::string_view kDefaultClock = "wall";  // virtual when emulating
inline constexpr std::int64_t kDefaultGatherWait = 60;

struct Variable {
  std::string_view name;
  std::string_view default_value;  // as the user would write it; empty: unset
};

// The list, for the documentation check and `mheta run`.
inline constexpr auto kAll = std::to_array<Variable>({
    {kCapture, kDefaultCapture},
    {kCaptureIteration, "2"},
    {kProfile, kDefaultProfile},
    {kRows, ""},
    {kDist, ""},
    {kIterations, ""},
    {kRowWeights, ""},
    {kEmulate, ""},
    {kWait, kDefaultWait},
    {kClock, kDefaultClock},
    {kGatherWait, "60"},
    {kAccounting, ""},
    {kAccountingCall, ""},
    {kAccountingSamples, ""},
    {kMemoryBytes, ""},
    {kForceOutOfCore, ""},
    {kCluster, ""},
    {kLauncher, "mpich"},
    {kLaunched, ""},
    {kMpiexec, "mpiexec"},
    {kInterposeLib, ""},
    {kRedistributeFileLimit, ""},
    {kRedistributeKill, ""},
    {kRedistributeFill, ""},
    {kRedistributeFillFile, ""},
    {kRedistributeCorrupt, ""},
});

}  // namespace mheta::env
