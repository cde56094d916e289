// See FmaPeak.h.
#include "views/FmaPeak.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cctype>

namespace lift::views {

namespace {
bool contains(std::string text, std::string what) {
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  };
  return lower(std::move(text)).find(lower(std::move(what))) != std::string::npos;
}
}  // namespace

int nvidiaFp32LanesPerSm(int major, int minor) {
  // The CUDA C++ Programming Guide's throughput table (32-bit floating-point multiply-add
  // results per clock cycle per multiprocessor); the same as cuda-samples' _ConvertSMVer2Cores.
  switch (major) {
    case 3:
      return 192;  // Kepler
    case 5:
      return 128;  // Maxwell
    case 6:
      return minor == 0 ? 64 : 128;  // Pascal: P100 64, the others 128
    case 7:
      return 64;  // Volta, Turing
    case 8:
      return minor == 0 ? 64 : 128;  // Ampere A100 64; GA10x and Ada 128
    case 9:
      return 128;  // Hopper
    case 10:
    case 12:
      return 128;  // Blackwell
    default:
      return 0;
  }
}

FmaPeak fmaPeakOf(const FmaPeakFacts& f) {
  FmaPeak out;
  if (f.computeUnits == 0 || f.maxClockMHz == 0) {
    out.why = QString("the device reports %1 compute units at %2 MHz").arg(f.computeUnits).arg(f.maxClockMHz);
    return out;
  }
  double base = static_cast<double>(f.computeUnits) * f.maxClockMHz * 1e6 * 2;  // an FMA is two flops
  if (f.nvidiaMajor >= 0) {
    int lanes = nvidiaFp32LanesPerSm(f.nvidiaMajor, f.nvidiaMinor);
    if (lanes == 0) {
      out.why = QString("FP32 lanes per SM of compute capability %1.%2 are not in the app's table")
                    .arg(f.nvidiaMajor)
                    .arg(f.nvidiaMinor);
      return out;
    }
    out.gflops = base * lanes / 1e9;
    out.how = QString(
                  "%1 SMs x %2 MHz x 2 x %3 FP32 lanes per SM (compute capability %4.%5, CUDA "
                  "Programming Guide's table)")
                  .arg(f.computeUnits)
                  .arg(f.maxClockMHz)
                  .arg(lanes)
                  .arg(f.nvidiaMajor)
                  .arg(f.nvidiaMinor);
    return out;
  }
  if (contains(f.type, "CPU")) {
    if (f.nativeFloatVectorWidth == 0) {
      out.why = "the CPU device reports no native float vector width";
      return out;
    }
    constexpr int kFmaUnitsPerCore = 2;  // an assumption, see FmaPeak.h
    out.gflops = base * f.nativeFloatVectorWidth * kFmaUnitsPerCore / 1e9;
    out.how = QString(
                  "an estimate: %1 compute units x %2 MHz x 2 x %3 floats (native vector width) x %4 "
                  "FMA units per core (assumed)")
                  .arg(f.computeUnits)
                  .arg(f.maxClockMHz)
                  .arg(f.nativeFloatVectorWidth)
                  .arg(kFmaUnitsPerCore);
    return out;
  }
  out.why = QString("OpenCL does not say how many FMA lanes a compute unit of this %1 device (%2) has")
                .arg(QString::fromStdString(f.type), QString::fromStdString(f.vendor));
  return out;
}

FmaPeakFacts fmaPeakFactsOf(const runtime::Device& device) {
  const runtime::DeviceInfo& info = device.info();
  FmaPeakFacts f;
  f.type = info.type;
  f.vendor = info.vendor;
  f.computeUnits = info.computeUnits;
  f.maxClockMHz = info.maxClockMHz;
  f.nativeFloatVectorWidth = info.nativeFloatVectorWidth;
  std::string extensions = device.handle().getInfo<CL_DEVICE_EXTENSIONS>();
  if (extensions.find("cl_nv_device_attribute_query") != std::string::npos) {
    cl_uint major = 0, minor = 0;
    if (clGetDeviceInfo(device.handle()(), CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                        nullptr) == CL_SUCCESS &&
        clGetDeviceInfo(device.handle()(), CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor,
                        nullptr) == CL_SUCCESS) {
      f.nvidiaMajor = static_cast<int>(major);
      f.nvidiaMinor = static_cast<int>(minor);
    }
  }
  return f;
}

}  // namespace lift::views
