#pragma once
// The C library's definition of a function this library also defines (the
// program's sleeps, deadline waits and clock reads): the next one after
// this library's.
#include <dlfcn.h>

namespace mheta::interpose {

template <typename Function>
Function next_definition(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

}  // namespace mheta::interpose
