// Builds an OpenCL source on a device and prints what the driver says of it: the build log
// (with NVIDIA's -cl-nv-verbose: registers, spills and shared memory per kernel, from ptxas) and,
// per kernel, the private and local memory sizes and the largest work-group it can launch. For
// reading why a generated kernel runs slower than a hand-written one of the same tiling.
//
// Usage: cl_build_info [--binary OUT] [--ptx-directive TEXT] FILE.cl [BUILD OPTIONS...]   (the first
//        GPU device, else the first device; --binary writes the program's binary, PTX on NVIDIA, to
//        OUT for ptxas -v, cuobjdump or nvdisasm; --ptx-directive adds TEXT, e.g. ".maxnreg 128", to
//        each kernel entry of that PTX and builds the program again from it: what the driver
//        says of the second build is printed too)
// pack-gpu.sh builds it into .gpu-ex/.
#include "ClFirstDevice.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::string binaryOut, directive;
  while (argc >= 3 && (std::string(argv[1]) == "--binary" || std::string(argv[1]) == "--ptx-directive")) {
    (std::string(argv[1]) == "--binary" ? binaryOut : directive) = argv[2];
    argv += 2;
    argc -= 2;
  }
  if (argc < 2) {
    std::fprintf(stderr, "usage: cl_build_info [--binary OUT] FILE.cl [BUILD OPTIONS...]\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cl_build_info: cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string source = ss.str(), options;
  for (int i = 2; i < argc; ++i) options += std::string(i > 2 ? " " : "") + argv[i];
  cl_device_id dev = firstDeviceOrExit("cl_build_info");
  const std::string name = deviceName(dev);
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  const char* src = source.c_str();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
  cl_int built = clBuildProgram(prog, 1, &dev, options.c_str(), nullptr, nullptr);
  size_t logSize = 0;
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &logSize);
  std::string log(logSize, '\0');
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, logSize, log.data(), nullptr);
  std::printf("device: %s\noptions: %s\nbuild: %s\n%s\n", name.c_str(), options.c_str(),
              built == CL_SUCCESS ? "ok" : "FAILED", log.c_str());
  if (built != CL_SUCCESS) return 1;
  if (!binaryOut.empty() || !directive.empty()) {
    size_t size = 0;
    clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
    std::vector<unsigned char> binary(size);
    unsigned char* data = binary.data();
    clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof data, &data, nullptr);
    std::string ptx(reinterpret_cast<const char*>(data), size);
    if (!directive.empty()) {
      // The directive goes between each entry's parameter list and its body.
      for (size_t at = ptx.find(".entry"); at != std::string::npos; at = ptx.find(".entry", at + 1)) {
        size_t body = ptx.find("\n{", at);
        if (body == std::string::npos) break;
        ptx.insert(body + 1, directive + "\n");
      }
      const unsigned char* text = reinterpret_cast<const unsigned char*>(ptx.c_str());
      size_t textSize = ptx.size() + 1;
      cl_int status = CL_SUCCESS;
      cl_program again = clCreateProgramWithBinary(ctx, 1, &dev, &textSize, &text, &status, &err);
      cl_int rebuilt =
          err == CL_SUCCESS ? clBuildProgram(again, 1, &dev, options.c_str(), nullptr, nullptr) : err;
      std::string againLog;
      if (err == CL_SUCCESS) {
        clGetProgramBuildInfo(again, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &logSize);
        againLog.assign(logSize, '\0');
        clGetProgramBuildInfo(again, dev, CL_PROGRAM_BUILD_LOG, logSize, againLog.data(), nullptr);
      }
      std::printf("with %s from the PTX: %s (%d)\n%s\n", directive.c_str(),
                  rebuilt == CL_SUCCESS ? "ok" : "FAILED", rebuilt, againLog.c_str());
      if (rebuilt == CL_SUCCESS) {
        clReleaseProgram(prog);
        prog = again;
      }
    }
    if (!binaryOut.empty()) {
      std::ofstream(binaryOut, std::ios::binary).write(ptx.data(), std::streamsize(ptx.size()));
      std::printf("binary: %zu bytes in %s\n", ptx.size(), binaryOut.c_str());
    }
  }
  cl_uint nk = 0;
  clCreateKernelsInProgram(prog, 0, nullptr, &nk);
  std::vector<cl_kernel> kernels(nk);
  clCreateKernelsInProgram(prog, nk, kernels.data(), nullptr);
  for (auto k : kernels) {
    char kname[256] = {};
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof kname, kname, nullptr);
    size_t wg = 0;
    cl_ulong priv = 0, local = 0;
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr);
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, nullptr);
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, nullptr);
    std::printf("kernel %s: max work-group %zu, private %llu B, local %llu B\n", kname, wg,
                (unsigned long long)priv, (unsigned long long)local);
    clReleaseKernel(k);
  }
  clReleaseProgram(prog);
  clReleaseContext(ctx);
  return 0;
}
