#include "cli/static_executable.hpp"

#include <elf.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace mheta::cli {

namespace {

std::string resolve(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(candidate)) return candidate;
    start = end + 1;
  }
  return {};
}

// A 64-bit ELF executable (ET_EXEC, or ET_DYN for a position-independent
// one) without a PT_INTERP header: the kernel starts it without the dynamic
// loader. 32-bit files and anything unreadable are left alone.
bool without_loader(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  Elf64_Ehdr header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) return false;
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64) return false;
  if (header.e_type != ET_EXEC && header.e_type != ET_DYN) return false;
  if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0) return false;
  bool dynamic = false;
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(header.e_phoff + static_cast<std::uint64_t>(i) * sizeof ph));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return false;
    if (ph.p_type == PT_INTERP) return false;
    dynamic = dynamic || ph.p_type == PT_DYNAMIC;
  }
  // A shared library without an interpreter is no program; a static-pie
  // executable has PT_DYNAMIC (for its own relocations) and no loader.
  return header.e_type == ET_EXEC || dynamic;
}

}  // namespace

std::string statically_linked(const std::string& program) {
  const std::string file = resolve(program);
  return !file.empty() && without_loader(file) ? file : std::string();
}

}  // namespace mheta::cli
