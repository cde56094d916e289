// CompiledKernel: what code generation gives for one program — the OpenCL source, the kernel's
// parameters (with the program inputs and outputs they hold), the launch configuration in the
// program's size variables, the index report (every memory access with its raw and simplified
// index) and provenance (the IR node each source line came from).
#pragma once

#include <string>
#include <vector>

#include "codegen/AddressSpace.h"
#include "codegen/CompileOptions.h"
#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"
#include "core/types/Type.h"

namespace lift::codegen {

struct KernelParam {
  enum class Kind : uint8_t {
    Input,        // global buffer holding a program input (read only)
    Output,       // global buffer receiving the program's result
    Temporary,    // global buffer for values made and consumed inside the kernel
    LocalBuffer,  // local memory whose size is only known at launch (`local T*`)
    Scalar,       // a program input of scalar type (`float alpha`)
    Size,         // a size variable (`int N`)
    Counter,      // mapAtomWrg's counter: global ints the runtime zeroes before each launch
  };
  Kind kind = Kind::Input;
  std::string name;
  Type elemType;          // buffers: the element type (scalar or vector); Scalar: its type; Size: int
  arith::Expr count;      // buffers: number of elements, in the size variables
  int input = -1;         // Input, Scalar: index of the program input
  int component = -1;     // Input, Output: which part of a tuple-typed value it stores (-1: all)
  std::vector<int> path;  // Input, Output: the tuple components of that part, outermost first

  bool isBuffer() const {
    return kind == Kind::Input || kind == Kind::Output || kind == Kind::Temporary || kind == Kind::Counter;
  }
};

const char* toString(KernelParam::Kind k);

struct LaunchInfo {
  int dims = 1;
  std::vector<arith::Expr> global;  // work-items per dimension
  std::vector<arith::Expr> local;   // work-group size per dimension; empty: the runtime chooses
  arith::Expr localMemoryBytes;     // local memory declared in the kernel (constant)
  // The kernel was simplified for exactly this NDRange (it has no loop where one work-item per
  // element was assumed): launch it with these sizes.
  bool fixed = false;
  // issue 17 (lift17w): the warp patterns the kernel uses ("mapWarp, mapLane"; empty: none). Its
  // warps are of kWarpSize (32) work-items, NVIDIA's: the runtime refuses other devices.
  std::string warpPatterns;
  // The work-groups of its stream-K schedule (CompileOptions::streamK, StreamK.h); 0: none.
  int streamKGroups = 0;
};

// One memory access of the kernel.
struct IndexEntry {
  std::string buffer;
  std::string raw;         // the index as views build it (C syntax)
  std::string simplified;  // the same simplified with the ranges of thread ids and loop counters
  arith::Expr rawExpr, simplifiedExpr;
  ir::NodeId node = 0;
  bool write = false;
  int line = 0;      // 1-based line of the kernel source
  std::string form;  // "element", "lane", "vload4", "vstore4", ...
};

struct CompiledKernel {
  std::string source;
  std::string kernelName;
  std::vector<KernelParam> params;  // in the kernel's parameter order
  LaunchInfo launch;
  std::vector<IndexEntry> indices;
  std::vector<ir::NodeId> lineNodes;  // lineNodes[i]: the node line i+1 came from (0: none)
  std::vector<Type> inputTypes;       // the program's inputs
  Type resultType;
  std::vector<std::string> sizeNames;  // the program's size variables, in declaration order
  CompileOptions options;
  // Loops whose prefetching step was cut into options.prefetchParts parts (PrefetchParts.h); 0:
  // the switch did not apply.
  int loopsInParts = 0;

  // Lines of source whose provenance is `node`.
  std::vector<int> linesOf(ir::NodeId node) const;
};

}  // namespace lift::codegen
