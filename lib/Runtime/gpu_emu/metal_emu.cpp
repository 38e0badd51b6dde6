/* metal_emu.cpp: the emulated metal-cpp objects of Metal/Metal.hpp. */
#include "Metal/Metal.hpp"
#include "tgc_metal_registry.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace {

std::mutex registryMutex;

std::map<std::string, MTL::KernelThunk> &registry() {
  static std::map<std::string, MTL::KernelThunk> kernels;
  return kernels;
}

NS::Error *makeError(const std::string &message) {
  auto *error = new NS::Error();
  error->description = NS::String::string(message.c_str(),
                                          NS::UTF8StringEncoding);
  return error;
}

void deleteObject(NS::Object *object) { object->release(); }

} // namespace

void tgc_emu::metal::registerKernel(const char *name, MTL::KernelThunk kernel) {
  std::lock_guard<std::mutex> lock(registryMutex);
  registry()[name] = std::move(kernel);
}

void NS::Object::release() {
  if (--refs == 0)
    delete this;
}

NS::Object *NS::Object::retain() {
  ++refs;
  return this;
}

NS::String *NS::String::string(const char *text, StringEncoding) {
  static std::mutex mutex;
  static std::vector<std::unique_ptr<String>> strings;
  auto *s = new String();
  s->text = text ? text : "";
  std::lock_guard<std::mutex> lock(mutex);
  strings.emplace_back(s);
  return s;
}

NS::AutoreleasePool *NS::AutoreleasePool::alloc() {
  return new AutoreleasePool();
}

MTL::Buffer::~Buffer() { tgc_emu::deviceFree(storage); }

void *MTL::Buffer::contents() {
  /* Private storage has no CPU address on a GPU. */
  return shared ? storage : nullptr;
}

MTL::CompileOptions *MTL::CompileOptions::alloc() {
  return new CompileOptions();
}

MTL::Function *MTL::Library::newFunction(const NS::String *name) {
  if (!name)
    return nullptr;
  /* As a Metal compiler would: the function must be in the source. */
  std::string wanted = " " + name->text + "(";
  if (source.find("kernel void" + wanted) == std::string::npos)
    return nullptr;
  std::lock_guard<std::mutex> lock(registryMutex);
  auto it = registry().find(name->text);
  if (it == registry().end())
    return nullptr;
  auto *function = new Function();
  function->name = name->text;
  function->kernel = &it->second;
  return function;
}

void MTL::ComputeCommandEncoder::setComputePipelineState(
    const ComputePipelineState *state) {
  pipeline = state;
}

void MTL::ComputeCommandEncoder::setBuffer(const Buffer *buffer,
                                           NS::UInteger offset,
                                           NS::UInteger index) {
  bound[index] = {buffer, offset};
}

void MTL::ComputeCommandEncoder::dispatchThreadgroups(Size grid, Size block) {
  const ComputePipelineState *state = pipeline;
  std::vector<void *> buffers;
  std::string problem;
  if (ended)
    problem = "dispatch after endEncoding";
  else if (!state)
    problem = "dispatch without a pipeline state";
  else
    for (unsigned i = 0; i < state->kernel->buffers && problem.empty(); ++i) {
      auto it = bound.find(i);
      if (it == bound.end() || !it->second.first) {
        problem = state->name + ": no buffer bound at index " +
                  std::to_string(i);
        break;
      }
      const Buffer *buffer = it->second.first;
      NS::UInteger offset = it->second.second;
      if (offset > buffer->bytes)
        problem = state->name + ": buffer " + std::to_string(i) +
                  " bound past its end";
      else
        buffers.push_back(static_cast<char *>(buffer->storage) + offset);
    }
  if (problem.empty() && block.width * block.height * block.depth >
                             state->maxTotalThreadsPerThreadgroup())
    problem = state->name + ": more threads per threadgroup than the "
                            "pipeline allows";
  const KernelThunk *kernel = state ? state->kernel : nullptr;
  std::string name = state ? state->name : "";
  owner->work.push_back([=]() -> std::string {
    if (!problem.empty())
      return problem;
    uint3 g{unsigned(grid.width), unsigned(grid.height), unsigned(grid.depth)};
    uint3 b{unsigned(block.width), unsigned(block.height),
            unsigned(block.depth)};
    std::string error = tgc_emu::launch(g, b, tgc_emu::metalLimits(), [&] {
      kernel->call(buffers.data(), tgc_emu::current.block,
                   tgc_emu::current.thread);
    });
    return error.empty() ? error : name + ": " + error;
  });
}

void MTL::ComputeCommandEncoder::endEncoding() {
  ended = true;
  owner->encoding = false;
}

void MTL::BlitCommandEncoder::copyFromBuffer(const Buffer *source,
                                             NS::UInteger sourceOffset,
                                             const Buffer *destination,
                                             NS::UInteger destinationOffset,
                                             NS::UInteger size) {
  owner->work.push_back([=]() -> std::string {
    if (!source || !destination)
      return "copyFromBuffer: a null buffer";
    if (sourceOffset + size > source->bytes ||
        destinationOffset + size > destination->bytes)
      return "copyFromBuffer: a copy past the end of a buffer";
    std::memmove(static_cast<char *>(destination->storage) + destinationOffset,
                 static_cast<const char *>(source->storage) + sourceOffset,
                 size);
    return "";
  });
}

void MTL::BlitCommandEncoder::endEncoding() {
  ended = true;
  owner->encoding = false;
}

MTL::ComputeCommandEncoder *MTL::CommandBuffer::computeCommandEncoder() {
  if (encoding || state != CommandBufferStatusNotEnqueued)
    return nullptr; /* one encoder at a time, before commit */
  auto *encoder = new ComputeCommandEncoder();
  encoder->owner = this;
  encoding = true;
  encoders.emplace_back(encoder, deleteObject);
  return encoder;
}

MTL::BlitCommandEncoder *MTL::CommandBuffer::blitCommandEncoder() {
  if (encoding || state != CommandBufferStatusNotEnqueued)
    return nullptr;
  auto *encoder = new BlitCommandEncoder();
  encoder->owner = this;
  encoding = true;
  encoders.emplace_back(encoder, deleteObject);
  return encoder;
}

void MTL::CommandBuffer::commit() {
  if (state != CommandBufferStatusNotEnqueued)
    return;
  state = CommandBufferStatusCommitted;
  if (encoding) {
    failure = makeError("commit with an encoder that was not ended");
    state = CommandBufferStatusError;
    return;
  }
  for (const auto &step : work) {
    std::string problem = step();
    if (!problem.empty()) {
      failure = makeError(problem);
      state = CommandBufferStatusError;
      return;
    }
  }
  state = CommandBufferStatusCompleted;
}

MTL::CommandBuffer *MTL::CommandQueue::commandBuffer() {
  auto *buffer = new CommandBuffer();
  buffers.push_back(buffer);
  return buffer;
}

MTL::CommandQueue::~CommandQueue() {
  for (CommandBuffer *buffer : buffers)
    buffer->release();
}

MTL::Library *MTL::Device::newLibrary(const NS::String *source,
                                      const CompileOptions *options,
                                      NS::Error **error) {
  /* tgc's kernels need IEEE semantics (NaN in max, exact division). */
  if (!source || !options || options->fastMathEnabled()) {
    if (error)
      *error = makeError(!source ? "newLibrary: no source"
                                 : "newLibrary: tgc's kernels are compiled "
                                   "with fast math off (emulation check)");
    return nullptr;
  }
  auto *library = new Library();
  library->source = source->text;
  return library;
}

MTL::ComputePipelineState *
MTL::Device::newComputePipelineState(const Function *function,
                                     NS::Error **error) {
  if (!function || !function->kernel) {
    if (error)
      *error = makeError("newComputePipelineState: no function");
    return nullptr;
  }
  auto *state = new ComputePipelineState();
  state->name = function->name;
  state->kernel = function->kernel;
  return state;
}

MTL::Buffer *MTL::Device::newBuffer(NS::UInteger length,
                                    ResourceOptions options) {
  auto *buffer = new Buffer();
  buffer->storage = tgc_emu::deviceAlloc(length, 256);
  buffer->bytes = length;
  buffer->shared = (options & ResourceStorageModePrivate) == 0;
  return buffer;
}

MTL::Buffer *MTL::Device::newBuffer(const void *bytes, NS::UInteger length,
                                    ResourceOptions options) {
  Buffer *buffer = newBuffer(length, options);
  if (length)
    std::memcpy(buffer->storage, bytes, length);
  return buffer;
}

MTL::CommandQueue *MTL::Device::newCommandQueue() { return new CommandQueue(); }

NS::String *MTL::Device::name() const {
  return NS::String::string("tgc CPU emulation", NS::UTF8StringEncoding);
}

MTL::Device *MTL::CreateSystemDefaultDevice() { return new Device(); }
