/* tgc_metal_registry.h: the kernels the emulated Metal libraries hold.
 *
 * Each kernel of an emulated build is a C++ function registered under its
 * name (tgc_metal_kernels.h does it); MTL::Library::newFunction finds it
 * here. A kernel's pointer parameters take the buffers bound at indices 0,
 * 1, ... in order (tgc writes [[buffer(i)]] in that order) and its uint3
 * parameters the threadgroup's position in the grid and then the thread's
 * in the threadgroup.
 */
#ifndef TGC_GPU_EMU_METAL_REGISTRY_H
#define TGC_GPU_EMU_METAL_REGISTRY_H

#include "Metal/Metal.hpp"

#include <tuple>
#include <type_traits>

namespace tgc_emu::metal {

/* Makes `kernel` the function `name` of every emulated library. */
void registerKernel(const char *name, MTL::KernelThunk kernel);

template <typename T> constexpr unsigned isBuffer() {
  return std::is_pointer_v<T> ? 1 : 0;
}

/* Hands out a kernel's arguments in parameter order. */
struct ArgumentSource {
  void *const *buffers;
  uint3 positions[2];
  unsigned nextBuffer = 0, nextPosition = 0;

  template <typename T> T next() {
    if constexpr (std::is_pointer_v<T>) {
      return static_cast<T>(buffers[nextBuffer++]);
    } else {
      static_assert(std::is_same_v<T, uint3>,
                    "a Metal kernel parameter tgc does not write");
      return positions[nextPosition++];
    }
  }
};

template <typename... Args>
bool registerKernel(const char *name, void (*function)(Args...)) {
  MTL::KernelThunk thunk;
  thunk.buffers = (isBuffer<Args>() + ... + 0);
  thunk.call = [function](void *const *buffers, uint3 gid, uint3 lid) {
    ArgumentSource source{buffers, {gid, lid}};
    /* A braced list evaluates left to right: parameters in order. */
    std::tuple<Args...> args{source.next<Args>()...};
    std::apply(function, args);
  };
  registerKernel(name, std::move(thunk));
  return true;
}

} // namespace tgc_emu::metal

#endif /* TGC_GPU_EMU_METAL_REGISTRY_H */
