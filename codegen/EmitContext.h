// Where the code generator writes: the statement block being filled, the names it has taken,
// and the loops it has opened (sequential and parallel, with the level of parallelism they
// put the code at). Emission only: what a loop's body does and when a barrier is needed are
// decided by its callers.
#pragma once

#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "codegen/AddressSpaceInference.h"
#include "codegen/CAst.h"
#include "codegen/CompileOptions.h"
#include "codegen/ControlFlow.h"
#include "codegen/NDRange.h"
#include "core/ir/Pattern.h"

namespace lift::codegen {

class EmitContext {
 public:
  // An enclosing parallel map: its kind, dimension, loop variable, length and loop form.
  struct ParallelLoop {
    ir::PatternKind kind;
    int dim;
    arith::Expr var, length;
    LoopForm form;
  };

  EmitContext(const NDRange& nd, const CompileOptions& options) : nd_(nd), opts_(options) {}

  // ----- statements -----
  void start(c::Block& body) { out_ = &body; }
  c::Stmt& emit(c::Stmt::Kind k, ir::NodeId node);
  // A comment, left out of the second and later copies of an unrolled loop.
  void comment(const std::string& text, ir::NodeId node);
  // Runs f with statements going into b.
  void into(c::Block& b, const std::function<void()>& f);
  // Moves the statements of `from` to the end of the current block.
  void splice(c::Block& from);
  const c::Block& current() const { return *out_; }

  // ----- names -----
  // A name for a kernel-level function (user function, vectorised version) that OpenCL does
  // not reserve and nothing else took.
  std::string freshFunName(const std::string& base);
  bool nameTaken(const std::string& name) const { return usedNames_.count(name) > 0; }
  void takeName(const std::string& name) { usedNames_.insert(name); }
  const std::unordered_set<std::string>& takenNames() const { return usedNames_; }

  // ----- loops -----
  // A sequential loop over [0, n) in the given form (Single and Unrolled emit no loop).
  void seqLoop(arith::Expr n, LoopForm form, ir::NodeId node, const std::function<void(arith::Expr)>& body);
  // The loop of a parallel map (kind, dimension) over [0, n); returns its form. `pattern`: the
  // map it generates, recorded on the statement (BarrierElimination reads it).
  LoopForm parallelLoop(ir::PatternKind kind, int dim, arith::Expr n, ir::NodeId node,
                        const std::function<void(arith::Expr)>& body,
                        const ir::PatternNode* pattern = nullptr);
  // issue 17 (lift17w): the loop of mapAtomWrg or mapAtomLcl over [0, n), whose indices are
  // handed out at run time: `for (int name = first; name < n; name = next)`.
  void dynamicLoop(ir::PatternKind kind, int dim, arith::Expr n, ir::NodeId node, const std::string& name,
                   const std::string& first, const std::string& next,
                   const std::function<void(arith::Expr)>& body);
  // The form of a sequential loop over n, unrolled when `unroll`.
  LoopForm sequentialForm(arith::Expr n, bool unroll) const;

  const std::vector<ParallelLoop>& parallelLoops() const { return parallel_; }
  // Where the code being emitted runs: by the whole kernel, a work-group, or one work-item.
  Level level() const;
  bool inWorkGroup() const;
  // The kernel has no parallel map at all: one work-item runs it.
  void setSequentialKernel(bool s) { sequentialKernel_ = s; }
  bool sequentialKernel() const { return sequentialKernel_; }

  const NDRange& ndrange() const { return nd_; }
  const CompileOptions& options() const { return opts_; }

 private:
  std::string seqName() const;

  const NDRange& nd_;
  const CompileOptions& opts_;
  c::Block* out_ = nullptr;
  int quiet_ = 0;  // inside the second and later copies of an unrolled loop
  int seqDepth_ = 0;
  bool sequentialKernel_ = false;
  std::vector<ParallelLoop> parallel_;
  std::unordered_set<std::string> usedNames_;
};

}  // namespace lift::codegen
