// The fuzz driver: mutates seed inputs (tests/fuzz/mutator.hpp) and runs the
// targets of fuzz_targets.hpp on them in this process, for a number of
// executions or seconds. A crash, a hang (no return within --timeout
// seconds) or a finding writes the input to fuzz-finding-<target>.bin and
// exits non-zero; otherwise it prints the executions per target.
//
//   mheta_fuzz --seeds DIR [--seeds DIR2 ...] [--target NAME|all] [--executions N]
//              [--seconds S] [--seed K] [--timeout S]
// The seed files profile.json, cluster.json, dist.txt, emulation.json and
// weights.txt are taken from the first DIR that has them.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_targets.hpp"
#include "tests/fuzz/mutator.hpp"

namespace {

using mheta::fuzz::NamedTarget;

// What a signal handler may touch: the input being run and its target.
const std::string* g_input = nullptr;
const char* g_target = "";

void write_finding(const char* why) {
  char path[256];
  std::snprintf(path, sizeof path, "fuzz-finding-%s.bin", g_target);
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0 && g_input != nullptr) {
    const ssize_t ignored = ::write(fd, g_input->data(), g_input->size());
    (void)ignored;
  }
  if (fd >= 0) ::close(fd);
  const ssize_t ignored = ::write(STDERR_FILENO, why, std::strlen(why));
  (void)ignored;
}

void on_signal(int signal) {
  write_finding(signal == SIGALRM ? "fuzz: hang (input in fuzz-finding-<target>.bin)\n"
                                  : "fuzz: crash (input in fuzz-finding-<target>.bin)\n");
  ::signal(signal, SIG_DFL);
  if (signal == SIGALRM) _exit(86);
  ::raise(signal);
}

void install_handlers() {
  // Its own stack, so that a stack overflow is reported too.
  static std::vector<char> stack(1 << 16);
  stack_t alternate{};
  alternate.ss_sp = stack.data();
  alternate.ss_size = stack.size();
  sigaltstack(&alternate, nullptr);
  for (int s : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGALRM}) {
    struct sigaction action {};
    action.sa_handler = on_signal;
    action.sa_flags = SA_ONSTACK;
    sigaction(s, &action, nullptr);
  }
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "mheta_fuzz: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const char* seed_file(std::string_view target) {
  if (target == "profile" || target == "model-profile") return "profile.json";
  if (target == "cluster" || target == "model-cluster") return "cluster.json";
  if (target == "dist") return "dist.txt";
  if (target == "emulation") return "emulation.json";
  return "weights.txt";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> seeds;
  std::string which = "all";
  long long executions = 0;
  double seconds = 0;
  unsigned long long seed = 1;
  unsigned timeout = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    const char* value = argv[i + 1];
    if (option == "--seeds") seeds.emplace_back(value);
    else if (option == "--target") which = value;
    else if (option == "--executions") executions = std::atoll(value);
    else if (option == "--seconds") seconds = std::atof(value);
    else if (option == "--seed") seed = std::strtoull(value, nullptr, 10);
    else if (option == "--timeout") timeout = static_cast<unsigned>(std::atoi(value));
    else {
      std::fprintf(stderr, "mheta_fuzz: unknown option %s\n", option.c_str());
      return 2;
    }
  }
  if (seeds.empty() || (executions <= 0 && seconds <= 0)) {
    std::fprintf(stderr, "usage: mheta_fuzz --seeds DIR [--target NAME|all] [--executions N] [--seconds S] "
                         "[--seed K] [--timeout S]\n");
    return 2;
  }
  std::vector<const NamedTarget*> chosen;
  for (const NamedTarget& t : mheta::fuzz::targets()) {
    if (which == "all" || which == t.name) chosen.push_back(&t);
  }
  if (chosen.empty()) {
    std::fprintf(stderr, "mheta_fuzz: no target named %s\n", which.c_str());
    return 2;
  }
  const auto seed_text = [&](const char* name) {
    for (const std::filesystem::path& dir : seeds) {
      if (std::filesystem::exists(dir / name)) return read_file(dir / name);
    }
    std::fprintf(stderr, "mheta_fuzz: no seed %s in the --seeds directories\n", name);
    std::exit(2);
  };
  mheta::fuzz::set_model_inputs(seed_text("profile.json"), seed_text("cluster.json"));
  std::map<std::string_view, std::string> seed_of;
  for (const NamedTarget* t : chosen) seed_of[t->name] = seed_text(seed_file(t->name));

  install_handlers();
  mheta::fuzz::Mutator mutator(seed);
  std::map<std::string_view, long long> runs;
  const auto start = std::chrono::steady_clock::now();
  long long done = 0;
  for (;; ++done) {
    if (executions > 0 && done >= executions) break;
    if (seconds > 0 && (done & 63) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= seconds) {
      break;
    }
    const NamedTarget* target = chosen[static_cast<std::size_t>(done) % chosen.size()];
    // Every 16th execution runs the seed itself: it must pass untouched.
    const std::string input = (done / chosen.size()) % 16 == 0 ? seed_of[target->name]
                                                               : mutator.mutate(seed_of[target->name]);
    g_input = &input;
    g_target = target->name.data();
    alarm(timeout);
    target->run(input);
    alarm(0);
    ++runs[target->name];
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("mheta_fuzz: %lld executions in %.1f s, 0 crashes, 0 hangs, 0 findings\n", done, elapsed);
  for (const auto& [name, count] : runs) std::printf("  %-14s %lld\n", std::string(name).c_str(), count);
  return 0;
}
