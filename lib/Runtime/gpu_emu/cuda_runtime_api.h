/* cuda_runtime_api.h: see cuda_runtime.h in this folder (the emulation). */
#ifndef TGC_GPU_EMU_CUDA_RUNTIME_API_H
#define TGC_GPU_EMU_CUDA_RUNTIME_API_H
#include "cuda_runtime.h"
#endif
