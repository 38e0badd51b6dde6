/* Metal/Metal.hpp: the part of Apple's metal-cpp that tgc's Metal packages
 * and harnesses call, emulated on the CPU (see ../tgc_gpu_emu.h).
 *
 * Objects are reference counted as in metal-cpp: what a `new...` call or
 * `alloc()->init()` returns is owned by the caller and released with
 * release(); command buffers and encoders are owned by what made them.
 * Work encoded into a command buffer runs when it is committed, in order;
 * a failure sets the buffer's status to CommandBufferStatusError and its
 * error(). Libraries are not compiled from their source: their functions
 * are the kernels the emulated build compiled as C++ and registered under
 * their names (tgc_metal_kernels.h), and the source must define them.
 */
#ifndef TGC_GPU_EMU_METAL_HPP
#define TGC_GPU_EMU_METAL_HPP

#include "tgc_gpu_emu.h"

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace NS {

using UInteger = unsigned long;
using Integer = long;

enum StringEncoding : UInteger {
  ASCIIStringEncoding = 1,
  UTF8StringEncoding = 4,
};

class Object {
public:
  void release();
  Object *retain();
  UInteger retainCount() const { return refs; }

protected:
  Object() = default;
  virtual ~Object() = default;

private:
  UInteger refs = 1;
};

template <class T> class Referencing : public Object {
public:
  T *retain() { return static_cast<T *>(Object::retain()); }
};

class String : public Referencing<String> {
public:
  /* Autoreleased in metal-cpp; here kept until the program ends. */
  static String *string(const char *text, StringEncoding encoding);
  const char *utf8String() const { return text.c_str(); }
  std::string text;
};

class Error : public Referencing<Error> {
public:
  String *localizedDescription() const { return description; }
  String *description = nullptr;
};

class AutoreleasePool : public Referencing<AutoreleasePool> {
public:
  static AutoreleasePool *alloc();
  AutoreleasePool *init() { return this; }
};

} // namespace NS

namespace MTL {

struct Size {
  NS::UInteger width, height, depth;
  Size(NS::UInteger width = 0, NS::UInteger height = 0, NS::UInteger depth = 0)
      : width(width), height(height), depth(depth) {}
  static Size Make(NS::UInteger width, NS::UInteger height,
                   NS::UInteger depth) {
    return Size(width, height, depth);
  }
};

enum ResourceOptions : NS::UInteger {
  ResourceCPUCacheModeDefaultCache = 0,
  ResourceStorageModeShared = 0,
  ResourceStorageModeManaged = 16,
  ResourceStorageModePrivate = 32,
};

enum CommandBufferStatus : NS::UInteger {
  CommandBufferStatusNotEnqueued = 0,
  CommandBufferStatusEnqueued = 1,
  CommandBufferStatusCommitted = 2,
  CommandBufferStatusScheduled = 3,
  CommandBufferStatusCompleted = 4,
  CommandBufferStatusError = 5,
};

class Buffer : public NS::Referencing<Buffer> {
public:
  ~Buffer() override;
  void *contents();
  NS::UInteger length() const { return bytes; }
  void *storage = nullptr;
  NS::UInteger bytes = 0;
  bool shared = true;
};

class CompileOptions : public NS::Referencing<CompileOptions> {
public:
  static CompileOptions *alloc();
  CompileOptions *init() { return this; }
  void setFastMathEnabled(bool enabled) { fastMath = enabled; }
  bool fastMathEnabled() const { return fastMath; }
  bool fastMath = true;
};

/* A kernel of the emulated build: called once per GPU thread with the
   bound buffers (index = position) and the thread's position. */
struct KernelThunk {
  unsigned buffers;
  std::function<void(void *const *buffers, uint3 gid, uint3 lid)> call;
};

class Function : public NS::Referencing<Function> {
public:
  std::string name;
  const KernelThunk *kernel = nullptr;
};

class Library : public NS::Referencing<Library> {
public:
  Function *newFunction(const NS::String *name);
  std::string source;
};

class ComputePipelineState : public NS::Referencing<ComputePipelineState> {
public:
  NS::UInteger maxTotalThreadsPerThreadgroup() const { return 1024; }
  NS::UInteger threadExecutionWidth() const { return 32; }
  std::string name;
  const KernelThunk *kernel = nullptr;
};

class CommandBuffer;

class ComputeCommandEncoder : public NS::Referencing<ComputeCommandEncoder> {
public:
  void setComputePipelineState(const ComputePipelineState *state);
  void setBuffer(const Buffer *buffer, NS::UInteger offset, NS::UInteger index);
  void dispatchThreadgroups(Size threadgroupsPerGrid,
                            Size threadsPerThreadgroup);
  void endEncoding();
  CommandBuffer *owner = nullptr;
  const ComputePipelineState *pipeline = nullptr;
  std::map<NS::UInteger, std::pair<const Buffer *, NS::UInteger>> bound;
  bool ended = false;
};

class BlitCommandEncoder : public NS::Referencing<BlitCommandEncoder> {
public:
  void copyFromBuffer(const Buffer *source, NS::UInteger sourceOffset,
                      const Buffer *destination, NS::UInteger destinationOffset,
                      NS::UInteger size);
  void endEncoding();
  CommandBuffer *owner = nullptr;
  bool ended = false;
};

class CommandBuffer : public NS::Referencing<CommandBuffer> {
public:
  ComputeCommandEncoder *computeCommandEncoder();
  BlitCommandEncoder *blitCommandEncoder();
  void commit();
  void waitUntilCompleted() {}
  CommandBufferStatus status() const { return state; }
  NS::Error *error() const { return failure; }

  /* Work in encoding order; each returns "" or why it failed. */
  std::vector<std::function<std::string()>> work;
  std::vector<std::unique_ptr<NS::Object, void (*)(NS::Object *)>> encoders;
  CommandBufferStatus state = CommandBufferStatusNotEnqueued;
  NS::Error *failure = nullptr;
  bool encoding = false;
};

class CommandQueue : public NS::Referencing<CommandQueue> {
public:
  /* Autoreleased in metal-cpp; here owned by the queue. */
  CommandBuffer *commandBuffer();
  ~CommandQueue() override;
  std::vector<CommandBuffer *> buffers;
};

class Device : public NS::Referencing<Device> {
public:
  Library *newLibrary(const NS::String *source, const CompileOptions *options,
                      NS::Error **error);
  ComputePipelineState *newComputePipelineState(const Function *function,
                                                NS::Error **error);
  Buffer *newBuffer(NS::UInteger length, ResourceOptions options);
  Buffer *newBuffer(const void *bytes, NS::UInteger length,
                    ResourceOptions options);
  CommandQueue *newCommandQueue();
  NS::String *name() const;
};

Device *CreateSystemDefaultDevice();

} // namespace MTL

#endif /* TGC_GPU_EMU_METAL_HPP */
