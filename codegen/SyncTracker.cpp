// Writes to shared memory and the barriers they call for (SyncTracker.h).
#include "codegen/SyncTracker.h"

#include <algorithm>

namespace lift::codegen {

void SyncTracker::noteWrite(const c::ExprP& lhs) {
  if (lhs && lhs->kind == c::Expr::Kind::Access) writeLog_.push_back(lhs->access->mem);
}

SyncTracker::Written SyncTracker::written(size_t since, const View* except) const {
  std::vector<const Memory*> skip;
  if (except) view::memoriesOf(*except, skip);
  Written w;
  for (size_t i = since; i < writeLog_.size(); ++i) {
    const Memory* m = writeLog_[i];
    if (std::find(skip.begin(), skip.end(), m) != skip.end()) continue;
    w.local = w.local || m->space == AddressSpace::Local;
    w.global = w.global || m->space == AddressSpace::Global;
  }
  return w;
}

void SyncTracker::endIteration(size_t since, ir::NodeId node, const View* except) {
  if (ctx_.level() != Level::WorkGroup) return;
  Written w = written(since, except);
  if (w.local || w.global) barrier(w, node);
}

void SyncTracker::afterMapLcl(const ir::PatternNode& mapLcl, size_t since, ir::NodeId node) {
  Written w = written(since);
  if (w.local || w.global) barrier(w, node, &mapLcl);
}

void SyncTracker::afterWorkGroupMap(const View& dest, size_t since, ir::NodeId node) {
  std::vector<const Memory*> ms;
  view::memoriesOf(dest, ms);
  bool temporary = false;
  for (auto* m : ms) temporary = temporary || m->role == Memory::Role::Temporary;
  Written w = written(since);
  if (temporary && (w.local || w.global)) barrier(w, node);
}

void SyncTracker::barrier(Written w, ir::NodeId node, const ir::PatternNode* mapLcl) {
  std::string flags = w.local && w.global ? "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"
                      : w.local           ? "CLK_LOCAL_MEM_FENCE"
                                          : "CLK_GLOBAL_MEM_FENCE";
  c::Stmt& s = ctx_.emit(c::Stmt::Kind::Barrier, node);
  s.text = flags;
  s.pattern = mapLcl;
}

}  // namespace lift::codegen
