// The performance plot's "FMA peak (estimate)" line: a device's single-precision peak from its
// OpenCL device info, compute units x clock x 2 (an FMA is two flops) x FMA lanes per compute
// unit. OpenCL does not say how many lanes a compute unit has:
// - NVIDIA GPUs: the compute capability (cl_nv_device_attribute_query) picks the FP32 lanes
//   per streaming multiprocessor from the table of the CUDA C++ Programming Guide ("Arithmetic
//   Instructions": 32-bit floating-point multiply-add results per clock cycle per
//   multiprocessor), which is also cuda-samples' _ConvertSMVer2Cores;
// - CPUs: the native float vector width x 2 FMA units per core, an estimate (x86 cores have had
//   two FMA pipes since Haswell and Zen 2; OpenCL's compute units are hardware threads, so SMT
//   counts twice);
// - any other device: no line, and a sentence saying why.
#pragma once

#include <QString>
#include <cstdint>
#include <string>

#include "codegen/runtime/Device.h"

namespace lift::views {

// What the estimate is made from (runtime::DeviceInfo's fields, and NVIDIA's extension).
struct FmaPeakFacts {
  std::string type;    // "CPU", "GPU", ...
  std::string vendor;  // the device's vendor
  uint32_t computeUnits = 0;
  uint32_t maxClockMHz = 0;
  uint32_t nativeFloatVectorWidth = 0;
  int nvidiaMajor = -1, nvidiaMinor = -1;  // the compute capability; -1 when not reported
};

struct FmaPeak {
  double gflops = 0;  // 0: no line (`why` says why)
  QString how;        // "132 SMs x 1980 MHz x 2 x 128 FP32 lanes (compute capability 9.0)"
  QString why;
};

// The FP32 lanes of an NVIDIA streaming multiprocessor of this compute capability; 0 if unknown.
int nvidiaFp32LanesPerSm(int major, int minor);

FmaPeak fmaPeakOf(const FmaPeakFacts& facts);
// Reads the facts from the device (the compute capability when it is NVIDIA's).
FmaPeakFacts fmaPeakFactsOf(const runtime::Device& device);

}  // namespace lift::views
