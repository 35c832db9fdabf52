#include "interpose/pmpi_redirect.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <mpi.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string_view>

namespace mheta::interpose {
namespace {

struct Target {
  std::string_view pmpi;  // the name a caller binds to
  void* wrapper;          // this library's MPI_ function for it
};

// This library's MPI_ function for the PMPI_ name a caller binds to: every
// function of the table (wrappers.cpp stamps them out) and the hand-written
// entry points of lifecycle.cpp. The table is built at the first call, not
// with the library's static data: the redirection runs from a load-time
// constructor, which may come before the library's own initializers.
void* wrapper_for(std::string_view name) {
  if (!name.starts_with("PMPI_")) return nullptr;
#define MHETA_MPI(Name, Cat, Params, Args, Info, Nb) {"PMPI_" #Name, reinterpret_cast<void*>(&MPI_##Name)},
  static const Target targets[] = {
#include "interpose/mpi_functions_all.def"
      {"PMPI_Init", reinterpret_cast<void*>(&MPI_Init)},
      {"PMPI_Init_thread", reinterpret_cast<void*>(&MPI_Init_thread)},
      {"PMPI_Finalize", reinterpret_cast<void*>(&MPI_Finalize)},
      {"PMPI_Pcontrol", reinterpret_cast<void*>(&MPI_Pcontrol)},
      {"PMPI_Wtime", reinterpret_cast<void*>(&MPI_Wtime)},
      {"PMPI_Wtick", reinterpret_cast<void*>(&MPI_Wtick)},
#if MPI_VERSION >= 4
      {"PMPI_Session_init", reinterpret_cast<void*>(&MPI_Session_init)},
#endif
  };
#undef MHETA_MPI
  for (const Target& t : targets) {
    if (t.pmpi == name) return t.wrapper;
  }
  return nullptr;
}

#if defined(__x86_64__)
constexpr std::uint32_t kJumpSlot = R_X86_64_JUMP_SLOT;
constexpr std::uint32_t kGlobalData = R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
constexpr std::uint32_t kJumpSlot = R_AARCH64_JUMP_SLOT;
constexpr std::uint32_t kGlobalData = R_AARCH64_GLOB_DAT;
#else
// Other machines: no relocation has these types, so nothing is redirected
// (and a program using `mpi_f08` with MPICH is not seen, as before).
constexpr std::uint32_t kJumpSlot = 0xffffffffu;
constexpr std::uint32_t kGlobalData = 0xffffffffu;
#endif

// The names of the libraries left as they are: this one, whose PMPI_ calls
// must reach MPI, and MPI's own, which defines them.
struct Skipped {
  const char* self = nullptr;
  const char* mpi = nullptr;
};

Skipped skipped_objects() {
  Skipped s;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&redirect_pmpi_calls), &info) != 0) s.self = info.dli_fname;
  if (dladdr(reinterpret_cast<void*>(&PMPI_Init), &info) != 0) s.mpi = info.dli_fname;
  return s;
}

bool same_object(const char* a, const char* b) { return a != nullptr && b != nullptr && std::strcmp(a, b) == 0; }

// A dynamic entry's address: glibc relocates most of them in place where
// .dynamic is writable; where it is not, they are still offsets.
template <typename T>
T* at(const dl_phdr_info* object, ElfW(Addr) value) {
  return reinterpret_cast<T*>(value < object->dlpi_addr ? object->dlpi_addr + value : value);
}

// Writes `to` into the entry at `slot`, making its page writable first (a
// RELRO page is read-only; redirect_object makes it so again).
bool write_slot(void** slot, void* to) {
  const long page = sysconf(_SC_PAGESIZE);
  auto* start =
      reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(slot) & ~static_cast<std::uintptr_t>(page - 1));
  if (mprotect(start, static_cast<std::size_t>(page), PROT_READ | PROT_WRITE) != 0) return false;
  *slot = to;
  return true;
}

struct Walk {
  Skipped skipped;
  PmpiRedirects result;
};

void redirect_relocations(const dl_phdr_info* object, const ElfW(Rela) * relocations, std::size_t bytes,
                          const ElfW(Sym) * symbols, const char* names, Walk& walk) {
  if (relocations == nullptr || symbols == nullptr || names == nullptr) return;
  for (std::size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
    const ElfW(Rela)& r = relocations[i];
    const auto type = static_cast<std::uint32_t>(ELF64_R_TYPE(r.r_info));
    if (type != kJumpSlot && type != kGlobalData) continue;
    void* wrapper = wrapper_for(names + symbols[ELF64_R_SYM(r.r_info)].st_name);
    if (wrapper == nullptr) continue;
    auto** slot = reinterpret_cast<void**>(object->dlpi_addr + r.r_offset);
    if (*slot == wrapper) continue;
    if (write_slot(slot, wrapper)) {
      ++walk.result.entries;
    } else {
      ++walk.result.failed;
    }
  }
}

// What the loader's dynamic section of an object says about its symbols
// and relocations.
struct DynamicTables {
  const ElfW(Sym) * symbols = nullptr;
  const char* names = nullptr;
  const ElfW(Rela) * plt = nullptr;  // the PLT's relocations (JUMP_SLOT)
  std::size_t plt_bytes = 0;
  bool plt_is_rela = true;
  const ElfW(Rela) * rela = nullptr;  // the others (GLOB_DAT among them)
  std::size_t rela_bytes = 0;
};

DynamicTables dynamic_tables(const dl_phdr_info* object, const ElfW(Dyn) * dynamic) {
  DynamicTables t;
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
    const ElfW(Addr) value = d->d_un.d_ptr;
    if (d->d_tag == DT_SYMTAB) t.symbols = at<const ElfW(Sym)>(object, value);
    if (d->d_tag == DT_STRTAB) t.names = at<const char>(object, value);
    if (d->d_tag == DT_JMPREL) t.plt = at<const ElfW(Rela)>(object, value);
    if (d->d_tag == DT_PLTRELSZ) t.plt_bytes = d->d_un.d_val;
    if (d->d_tag == DT_PLTREL) t.plt_is_rela = d->d_un.d_val == DT_RELA;
    if (d->d_tag == DT_RELA) t.rela = at<const ElfW(Rela)>(object, value);
    if (d->d_tag == DT_RELASZ) t.rela_bytes = d->d_un.d_val;
  }
  return t;
}

int redirect_object(dl_phdr_info* object, std::size_t, void* data) {
  auto& walk = *static_cast<Walk*>(data);
  // The program itself (the first object, unnamed): its own PMPI_ calls
  // are meant to go past tools.
  if (object->dlpi_name == nullptr || *object->dlpi_name == '\0') return 0;
  if (same_object(object->dlpi_name, walk.skipped.self) || same_object(object->dlpi_name, walk.skipped.mpi)) return 0;
  const ElfW(Dyn)* dynamic = nullptr;
  ElfW(Addr) relro_start = 0;
  ElfW(Addr) relro_end = 0;
  for (int p = 0; p < object->dlpi_phnum; ++p) {
    const ElfW(Phdr)& h = object->dlpi_phdr[p];
    if (h.p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const ElfW(Dyn)*>(object->dlpi_addr + h.p_vaddr);
    if (h.p_type == PT_GNU_RELRO) {
      relro_start = object->dlpi_addr + h.p_vaddr;
      relro_end = relro_start + h.p_memsz;
    }
  }
  if (dynamic == nullptr) return 0;
  const DynamicTables t = dynamic_tables(object, dynamic);
  const int before = walk.result.entries;
  if (t.plt_is_rela) redirect_relocations(object, t.plt, t.plt_bytes, t.symbols, t.names, walk);
  redirect_relocations(object, t.rela, t.rela_bytes, t.symbols, t.names, walk);
  // The RELRO pages written are read-only again, as the loader left them:
  // from the page of its start to the page its end falls in, that page
  // not included (it holds writable data too).
  if (walk.result.entries != before) {
    const auto page = static_cast<ElfW(Addr)>(sysconf(_SC_PAGESIZE));
    const ElfW(Addr) first = relro_start & ~(page - 1);
    const ElfW(Addr) last = relro_end & ~(page - 1);
    if (last > first) mprotect(reinterpret_cast<void*>(first), last - first, PROT_READ);
  }
  return 0;
}

}  // namespace

PmpiRedirects redirect_pmpi_calls() {
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  Walk walk{.skipped = skipped_objects(), .result = {}};
  dl_iterate_phdr(redirect_object, &walk);
  return walk.result;
}

namespace {

__attribute__((constructor)) void redirect_pmpi_calls_at_load() { redirect_pmpi_calls(); }

}  // namespace
}  // namespace mheta::interpose
