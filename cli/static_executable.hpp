#pragma once
// Whether a program `mheta run` starts can take the interposer at all: it is
// loaded with LD_PRELOAD, which the dynamic loader honours and a statically
// linked executable never reads, so such a program would run unwatched (no
// capture, no emulation, no profile) without a word.
#include <string>

namespace mheta::cli {

// The file `program` names (as the launcher would find it: a path with a
// slash as is, else the first match on $PATH), when it is a statically
// linked ELF executable; empty when it is anything else (a dynamic
// executable, a script, not found: the launcher says so itself).
std::string statically_linked(const std::string& program);

}  // namespace mheta::cli
