// StoredKernel: a skeleton's kernel taken from a result store (rewrite/explore/ResultStore.h,
// docs/RESULTS.md) — the fastest valid kernel that a search (`liftc explore`) measured for the
// skeleton's high-level program at one size on one device (ResultStore::bestKernel), its
// derivation replayed from the program specialised to that size and compiled as the search
// compiled it (explore::replayStored: work-group size, code generator parameters): one kernel or
// several run in order, the sizes constants. StoredKernels looks them up for one high-level
// program of a skeleton in its device set's store (DeviceSet::setResultStore), once per store,
// device and size; a stored derivation that no longer replays or compiles is not used (the
// skeleton's own kernel runs, and `whyNot` says why). Every skeleton takes its kernels this way:
// `StoredKernels::enqueue` or, when it is false, the skeleton's own kernel (skelcl/README.md
// lists each skeleton's high-level program and the sizes it looks up).
#pragma once

#include <CL/opencl.hpp>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "codegen/CompiledProgram.h"
#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"
#include "rewrite/explore/ResultStore.h"
#include "skelcl/DeviceSet.h"

namespace lift::skelcl {

class StoredKernel {
 public:
  // `sizes`: those the kernel was stored for (it may still take them as arguments).
  StoredKernel(explore::KernelRecord record, codegen::CompiledProgram compiled, arith::Env sizes,
               std::string what);

  const explore::KernelRecord& record() const { return record_; }
  const codegen::CompiledProgram& compiled() const { return compiled_; }

  // Enqueues the kernels on `device` of `devices`: `inputs` the program's input buffers in order,
  // `output` its result's buffer; returns without waiting. Build failures are BuildErrors,
  // OpenCL failures DeviceErrors.
  void enqueue(DeviceSet& devices, int device, const std::vector<cl::Buffer>& inputs,
               const cl::Buffer& output);

 private:
  explore::KernelRecord record_;
  codegen::CompiledProgram compiled_;
  arith::Env sizes_;
  std::string what_;
  // By the device's context and the stage.
  std::map<std::pair<cl_context, size_t>, cl::Kernel> kernels_;
};

class StoredKernels {
 public:
  // `liftText`: the skeleton's high-level program (what `liftc explore` searches); `what` names
  // the skeleton in messages. Throws LiftError when it does not parse or type-check.
  StoredKernels(const std::string& liftText, const std::string& what);

  const std::string& liftText() const { return liftText_; }
  // The best stored kernel for `sizes` on `device`, null when the device set has no store or
  // the store none that can be used.
  StoredKernel* find(DeviceSet& devices, int device, const arith::Env& sizes);
  // The best stored kernel for `sizes` on `device` enqueued on `inputs` (the program's input
  // buffers in order) and `output` (StoredKernel::enqueue); false when there is none that can be
  // used, and nothing enqueued: the skeleton runs its own kernel.
  bool enqueue(DeviceSet& devices, int device, const arith::Env& sizes, const std::vector<cl::Buffer>& inputs,
               const cl::Buffer& output);
  // Why the last lookup that failed could not use a stored kernel: the best one no longer
  // replays or compiles, or the program does not take the sizes ("" when none failed).
  const std::string& whyNot() const { return whyNot_; }
  // The store's id of the kernel the last lookup gave (0: none, the skeleton's own kernel ran).
  int64_t lastUsed() const { return lastUsed_; }
  // The skeleton runs its own kernel on a part that cannot take a stored one, without a lookup
  // (its elements do not start its buffer, or it needs what the parts before it computed):
  // lastUsed() is 0.
  void ranOwnKernel() { lastUsed_ = 0; }

 private:
  std::string liftText_, what_;
  ir::Program program_;
  // By store path, device name and sizes; null: looked up, nothing usable.
  std::map<std::tuple<std::string, std::string, std::string>, std::unique_ptr<StoredKernel>> found_;
  std::string whyNot_;
  int64_t lastUsed_ = 0;
};

}  // namespace lift::skelcl
