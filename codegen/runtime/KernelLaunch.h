// KernelLaunch: a value describing one kernel to run — its OpenCL source, kernel name, build
// options, arguments (global buffers with element type, count and role; scalars; local memory)
// and NDRange — or a sequence of kernels run in order in one queue, sharing buffers (a program
// that needs several kernels, codegen/CompiledProgram.h). The code generator produces one per
// compiled program; the runner, the worker protocol and the result store take it as is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/runtime/HostArray.h"

namespace lift::runtime {

enum class ArgRole : uint8_t { Input, Output, InOut };
const char* toString(ArgRole r);

struct KernelArg {
  enum class Kind : uint8_t { Buffer, Scalar, Local };
  Kind kind = Kind::Buffer;
  std::string name;  // for messages ("A", "out")

  // Buffer: `count` elements of `type` in global memory. Scalar: `type` is its scalar type.
  ElementType type;
  uint64_t count = 0;
  ArgRole role = ArgRole::Input;
  // Input and InOut buffers: the initial contents as scalars; generated from the launch's seed
  // when absent.
  std::optional<HostArray> data;
  // Output and InOut buffers: the contents expected after the kernel; without it the output is
  // only checked for elements left unwritten.
  std::optional<HostArray> expected;
  // Identify the contents of `data` and `expected` (0: not identified). Two arrays with the same
  // non-zero key are equal; whoever shares one array among launches (a search's prepared
  // reference) sets it, and the worker then keeps the array between requests instead of
  // receiving it again.
  uint64_t dataKey = 0;
  uint64_t expectedKey = 0;

  // Scalar: the value (intValue for int, floatValue for float and double).
  int64_t intValue = 0;
  double floatValue = 0;

  // Local: bytes of local memory (a `__local T*` parameter).
  uint64_t localBytes = 0;

  static KernelArg input(std::string name, ElementType type, uint64_t count);
  static KernelArg output(std::string name, ElementType type, uint64_t count);
  static KernelArg inout(std::string name, ElementType type, uint64_t count);
  static KernelArg scalarInt(std::string name, int32_t value);
  static KernelArg scalarFloat(std::string name, float value);
  static KernelArg scalarDouble(std::string name, double value);
  static KernelArg local(std::string name, uint64_t bytes);

  bool isBuffer() const { return kind == Kind::Buffer; }
  bool readsInput() const { return isBuffer() && role != ArgRole::Output; }
  bool writesOutput() const { return isBuffer() && role != ArgRole::Input; }
  // Scalars in the buffer (count x vector width).
  uint64_t scalarCount() const { return count * type.scalarsPerElement(); }
  uint64_t byteSize() const { return count * type.bytes(); }
};

// One kernel of a sequence (KernelLaunch::sequence).
struct KernelCall {
  std::string source;  // OpenCL C
  std::string kernelName;
  std::string sourceName = "kernel.cl";
  std::vector<uint32_t> args;    // indices into KernelLaunch::args, in the kernel's parameter order
  std::vector<uint64_t> global;  // 1 to 3 dimensions
  std::vector<uint64_t> local;   // empty: the implementation chooses; else as many as global
};

struct KernelLaunch {
  std::string source;  // OpenCL C
  std::string kernelName;
  std::string buildOptions;              // passed to clBuildProgram
  int maxRegisters = 0;                  // a register cap where the device takes one (RegisterCap.h); 0: none
  std::string sourceName = "kernel.cl";  // the file name diagnostics show
  std::vector<KernelArg> args;           // in the kernel's parameter order
  std::vector<uint64_t> global;          // 1 to 3 dimensions
  std::vector<uint64_t> local;           // empty: the implementation chooses; else as many as global
  uint64_t seed = 1;                     // for inputs without data
  // issue 17 (lift17w): the warp patterns the kernel uses ("mapWarp and mapLane"; empty: none),
  // which need NVIDIA's warps of 32 work-items: other devices refuse the launch.
  std::string warpPatterns;
  // Several kernels: when not empty, these run in order instead of the launch's own source,
  // kernelName, global and local (which then describe the first one, for messages), and `args`
  // holds every argument of the sequence once (a buffer one kernel writes and the next reads is
  // one argument, an InOut buffer). The whole sequence is validated and timed as one.
  std::vector<KernelCall> sequence;

  // The kernels to run: `sequence`, or the launch's own kernel taking every argument.
  std::vector<KernelCall> calls() const;

  // Empty when the description is well-formed, else what is wrong with it.
  std::string check() const;
  // The initial contents of buffer argument i: its data, or the seeded inputs.
  HostArray inputData(size_t i) const;
  // Fills in `data` of every input and inout buffer that has none, so that a caller can
  // compute the expected outputs (e.g. with the interpreter) from exactly the kernel's inputs.
  void materializeInputs();
};

}  // namespace lift::runtime
