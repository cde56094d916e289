// The OpenCL code generator proper (CGO 2017, section 5.5; KernelGenerator.h): traverses the
// low-level program following the data flow and emits the code of each pattern, in destination-passing style.
// `produce(e, dest)` emits code that writes the value of e into the view `dest`; `read(e)`
// gives a view of e's value, emitting code into a temporary first if e computes anything.
// Data-layout patterns generate no code: reading through them wraps views, and producing
// into them pushes the destination through their inverse (join(dest) for a split), so a map's
// body writes straight into its element of the map's result.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/AddressSpaceInference.h"
#include "codegen/BarrierElimination.h"
#include "codegen/CAst.h"
#include "codegen/CompileOptions.h"
#include "codegen/MemoryAllocator.h"
#include "codegen/NDRange.h"
#include "codegen/OpenCLNames.h"
#include "core/ir/IR.h"

namespace lift::codegen {

// A kernel parameter that is not a buffer: a program input of scalar type.
struct ScalarInput {
  std::string name;
  Type type;
  int input = -1;
};

// A vectorised user function: f applied lane by lane to vectors of `width`.
struct VectorizedFun {
  const ir::UserFunDef* def = nullptr;
  int width = 0;
  std::string name;
};

// Everything the printer needs to write the kernel.
struct KernelModel {
  std::string name;
  c::Block body;
  MemoryAllocator memories;
  std::vector<ScalarInput> scalars;
  std::vector<const ir::UserFunDef*> userFuns;  // in order of first use
  std::unordered_map<const ir::UserFunDef*, std::string> userFunNames;
  std::vector<Type> tupleTypes;           // structs the kernel itself builds
  std::vector<VectorizedFun> vectorized;  // vector versions of user functions
  NDRange ndrange;
  bool usesDouble = false;
  bool usesIntPow = false;
  // Some private value is split over the work-items (Memory::lclDims): the kernel relies on
  // the local size of its NDRange.
  bool perWorkItemPrivate = false;
  // The kernel runs a stream-K schedule (StreamK.h) on this many work-groups in dimension 0 (0: it
  // does not).
  int streamKGroups = 0;
  // Loops whose prefetching step was cut into CompileOptions::prefetchParts parts (PrefetchParts.h).
  int loopsInParts = 0;
  // The index an access prints in place of its simplified one: with common subexpressions
  // replaced by temporaries (IndexCse.h); accesses not listed print their own.
  std::unordered_map<const c::Access*, arith::Expr> indexTemporaries;
};

// Limits of what a kernel may allocate: private memory per work-item, local memory per
// work-group (the most a GPU gives one work-group by default; the OpenCL minimum is 32 KiB).
constexpr int64_t kMaxPrivateBytes = 16 * 1024;
constexpr int64_t kMaxLocalBytes = 64 * 1024;

// Generates the kernel of a lowered, type-checked program, with every barrier that may be
// needed (the barrier passes of BarrierElimination.h remove the others). Throws LiftError
// (located at the offending node) for programs that cannot be compiled.
KernelModel buildKernel(const ir::Program& p, const CompileOptions& options, const NDRange& ndrange,
                        const BarrierPlan& barriers);

}  // namespace lift::codegen
