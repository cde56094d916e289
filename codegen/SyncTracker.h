// What the generated code has written to local and global memory, and the barriers that
// follow from it. Work-items of a work-group run sequential loops in lock-step only if told
// to: an iteration that wrote shared memory ends with a barrier before the next overwrites what
// others may still read, and a mapLcl whose writes another work-item may read is followed by
// one. The tracker emits every barrier that may be needed; the barrier passes
// (BarrierElimination.h) remove those that are not.
#pragma once

#include <vector>

#include "codegen/EmitContext.h"
#include "codegen/View.h"

namespace lift::codegen {

class SyncTracker {
 public:
  explicit SyncTracker(EmitContext& ctx) : ctx_(ctx) {}

  struct Written {
    bool local = false, global = false;
  };

  // Records the write of an assignment's left-hand side.
  void noteWrite(const c::ExprP& lhs);
  // A position in the log of writes, and dropping what was logged after it (code discarded).
  size_t mark() const { return writeLog_.size(); }
  void rollback(size_t mark) { writeLog_.resize(mark); }
  // Local and global memory written since `since`, except the memories of `except`.
  Written written(size_t since, const View* except = nullptr) const;

  // The barrier ending an iteration of a loop a work-group runs, if it wrote shared memory
  // since `since` (other than `except`, the loop's own result).
  void endIteration(size_t since, ir::NodeId node, const View* except = nullptr);
  // The barrier after the mapLcl `mapLcl`, if it wrote shared memory since `since`.
  void afterMapLcl(const ir::PatternNode& mapLcl, size_t since, ir::NodeId node);
  // The barrier after a mapWrg at kernel level whose result `dest` is kept in a temporary
  // that the next mapWrg reads element-wise: the work-items wait for each other's parts.
  void afterWorkGroupMap(const View& dest, size_t since, ir::NodeId node);

 private:
  void barrier(Written w, ir::NodeId node, const ir::PatternNode* mapLcl = nullptr);

  EmitContext& ctx_;
  std::vector<const Memory*> writeLog_;
};

}  // namespace lift::codegen
