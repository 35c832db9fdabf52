#include "cli/launcher.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "cli/app_command_line.hpp"
#include "cli/command.hpp"
#include <mheta/environment.hpp>

namespace mheta::cli {

const char* const kLauncherHelp =
    "How to start the processes: mpich, slurm, openmpi, or a template such as "
    "\"srun -n {n} --export=ALL[,{name}={value}] {program}\" (default: $MHETA_LAUNCHER, else mpich)";

namespace {

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

// The presets: how each launcher takes the process count and passes
// environment variables to the processes (it must not set LD_PRELOAD in
// the launcher itself).
std::vector<std::string> preset(const std::string& name) {
  if (name == "mpich") {
    const char* mpiexec = env(mheta::env::kMpiexec);
    return {mpiexec != nullptr ? mpiexec : MHETA_MPIEXEC_DEFAULT, "-n", "{n}", "[-genv", "{name}", "{value}]",
            "{program}"};
  }
  if (name == "slurm") return {"srun", "-n", "{n}", "--export=ALL[,{name}={value}]", "{program}"};
  if (name == "openmpi") return {"mpirun", "-n", "{n}", "[-x", "{name}={value}]", "{program}"};
  return {};
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

std::string for_variable(std::string text, const std::pair<std::string, std::string>& variable) {
  replace_all(text, "{name}", variable.first);
  replace_all(text, "{value}", variable.second);
  return text;
}

}  // namespace

std::vector<std::string> launcher_template(const std::string& text) {
  const std::string chosen = !text.empty() ? text : env(mheta::env::kLauncher) != nullptr ? env(mheta::env::kLauncher) : "mpich";
  if (std::vector<std::string> words = preset(chosen); !words.empty()) return words;
  std::vector<std::string> words;
  try {
    words = split_command_line(chosen);
  } catch (const std::invalid_argument& error) {
    throw UsageError("launcher \"" + chosen + "\": " + error.what());
  }
  if (std::none_of(words.begin(), words.end(), [](const std::string& w) { return w.find("{n}") != std::string::npos; })) {
    throw UsageError("launcher \"" + chosen +
                                "\": neither a preset (mpich, slurm, openmpi) nor a template with {n}");
  }
  int depth = 0;
  for (const std::string& w : words) {
    for (char c : w) depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (depth < 0 || depth > 1) break;
  }
  if (depth != 0) throw UsageError("launcher \"" + chosen + "\": unbalanced [ ]");
  return words;
}

std::vector<std::string> launch_command(const std::vector<std::string>& launcher, int ranks,
                                        const LaunchEnvironment& env, const std::vector<std::string>& program) {
  std::vector<std::string> out;
  bool placed_program = false;
  for (std::size_t i = 0; i < launcher.size(); ++i) {
    std::string word = launcher[i];
    replace_all(word, "{n}", std::to_string(ranks));
    if (word == "{program}") {
      out.insert(out.end(), program.begin(), program.end());
      placed_program = true;
    } else if (word.starts_with('[')) {
      // Words repeated per variable: [-x {name}={value}], [--env={name}={value}].
      std::size_t end = i;
      while (end < launcher.size() && !launcher[end].ends_with(']')) ++end;
      std::vector<std::string> group(launcher.begin() + static_cast<std::ptrdiff_t>(i),
                                     launcher.begin() + static_cast<std::ptrdiff_t>(std::min(end + 1, launcher.size())));
      group.front().erase(0, 1);
      group.back().pop_back();
      for (const auto& variable : env) {
        for (const std::string& g : group) out.push_back(for_variable(g, variable));
      }
      i = end;
    } else if (const std::size_t open = word.find('['); open != std::string::npos) {
      // Within one word, repeated per variable: --export=ALL[,{name}={value}].
      const std::size_t close = word.find(']', open);
      const std::string piece = word.substr(open + 1, close - open - 1);
      std::string expanded;
      for (const auto& variable : env) {
        if (piece.find(',') != std::string::npos && variable.second.find(',') != std::string::npos) {
          throw UsageError("the launcher passes variables as a comma-separated list, but " +
                                      variable.first + "=" + variable.second + " holds a comma");
        }
        expanded += for_variable(piece, variable);
      }
      out.push_back(word.substr(0, open) + expanded + word.substr(close + 1));
    } else {
      out.push_back(word);
    }
  }
  if (!placed_program) out.insert(out.end(), program.begin(), program.end());
  return out;
}

}  // namespace mheta::cli
