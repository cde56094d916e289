// The code generator's emission context (EmitContext.h): statements, names and loops.
#include "codegen/EmitContext.h"

#include <fmt/format.h>

#include "codegen/OpenCLNames.h"

namespace lift::codegen {

using K = ir::PatternKind;
using arith::cst;

c::Stmt& EmitContext::emit(c::Stmt::Kind k, ir::NodeId node) {
  auto s = std::make_unique<c::Stmt>();
  s->kind = k;
  s->node = node;
  out_->push_back(std::move(s));
  return *out_->back();
}

void EmitContext::comment(const std::string& text, ir::NodeId node) {
  if (!quiet_) emit(c::Stmt::Kind::Comment, node).text = text;
}

void EmitContext::into(c::Block& b, const std::function<void()>& f) {
  c::Block* saved = out_;
  out_ = &b;
  f();
  out_ = saved;
}

void EmitContext::splice(c::Block& from) {
  for (auto& s : from) out_->push_back(std::move(s));
  from.clear();
}

std::string EmitContext::freshFunName(const std::string& base) {
  std::string name = base;
  while (isReservedOpenCLName(name) || usedNames_.count(name)) name += "_";
  usedNames_.insert(name);
  return name;
}

Level EmitContext::level() const {
  bool wrg = false;
  for (auto& l : parallel_) {
    if (ir::isLocalMap(l.kind) || l.kind == K::MapGlb || l.kind == K::MapWarp || l.kind == K::MapLane)
      return Level::Thread;
    wrg = wrg || ir::isWorkGroupMap(l.kind);
  }
  if (wrg) return Level::WorkGroup;
  return sequentialKernel_ ? Level::Thread : Level::Kernel;
}

bool EmitContext::inWorkGroup() const {
  for (auto& l : parallel_)
    if (ir::isWorkGroupMap(l.kind)) return true;
  return false;
}

LoopForm EmitContext::sequentialForm(arith::Expr n, bool unroll) const {
  return unroll ? LoopForm::Unrolled : sequentialLoopForm(n, opts_.cfgSimplification, false);
}

std::string EmitContext::seqName() const {
  static const char* names[] = {"i", "j", "k"};
  return seqDepth_ < 3 ? names[seqDepth_] : fmt::format("i{}", seqDepth_);
}

void EmitContext::seqLoop(arith::Expr n, LoopForm form, ir::NodeId node,
                          const std::function<void(arith::Expr)>& body) {
  switch (form) {
    case LoopForm::Single:
      body(cst(0));
      return;
    case LoopForm::Unrolled:
      for (int64_t k = 0; k < n.value(); ++k) {
        if (k == 1) ++quiet_;
        body(cst(k));
      }
      if (n.value() > 1) --quiet_;
      return;
    default:
      break;
  }
  std::string name = seqName();
  arith::Expr var = arith::var(name, cst(0), n);
  auto& s = emit(c::Stmt::Kind::For, node);
  s.text = name;
  s.init = "0";
  s.cond = fmt::format("{} < {}", name, arith::toOpenCL(n));
  s.step = fmt::format("{} += 1", name);
  s.trips = n.isCst() ? n.value() : 0;
  ++seqDepth_;
  into(s.body, [&] { body(var); });
  --seqDepth_;
}

LoopForm EmitContext::parallelLoop(K kind, int dim, arith::Expr n, ir::NodeId node,
                                   const std::function<void(arith::Expr)>& body,
                                   const ir::PatternNode* pattern) {
  std::string suffix = dim == 0 ? "" : fmt::format("_{}", dim);
  std::string name, idFn, sizeFn;
  switch (kind) {
    case K::MapGlb:
      name = "gl_id", idFn = "get_global_id", sizeFn = "get_global_size";
      break;
    case K::MapWrg:
      name = "wg_id", idFn = "get_group_id", sizeFn = "get_num_groups";
      break;
    case K::MapWarp:  // warps of kWarpSize work-items of dimension 0 (issue 17, lift17w)
      name = "warp_id", idFn = "get_local_id", sizeFn = "get_local_size";
      break;
    case K::MapLane:
      name = "lane_id", idFn = "get_local_id", sizeFn = "";
      break;
    default:
      name = "l_id", idFn = "get_local_id", sizeFn = "get_local_size";
      break;
  }
  name += suffix;
  LoopForm form = parallelLoopForm(n, nd_.threads(kind, dim), opts_.cfgSimplification);
  // A map over one element: its index is 0 (the work-item still checks it is the first).
  arith::Expr var = n == cst(1) ? cst(0) : arith::var(name, cst(0), n);
  std::string id = fmt::format("{}({})", idFn, dim);
  std::string stride = fmt::format("(int){}({})", sizeFn, dim);
  if (kind == K::MapWarp) {
    id = fmt::format("get_local_id(0) / {}", kWarpSize);
    stride = fmt::format("(int)get_local_size(0) / {}", kWarpSize);
  } else if (kind == K::MapLane) {
    id = fmt::format("get_local_id(0) % {}", kWarpSize);
    stride = std::to_string(kWarpSize);
  }
  c::Stmt* s = nullptr;
  switch (form) {
    case LoopForm::Single:
      s = &emit(c::Stmt::Kind::Scope, node);
      break;
    case LoopForm::Guard:
      s = &emit(c::Stmt::Kind::If, node);
      s->cond = fmt::format("{} < {}", id, arith::toOpenCL(n));
      break;
    default:
      s = &emit(c::Stmt::Kind::For, node);
      s->text = name;
      s->init = id;
      s->cond = fmt::format("{} < {}", name, arith::toOpenCL(n));
      // The stride in int: with `+= get_num_groups(0)` (size_t) PoCL 3.1 miscompiles some loops
      // that contain barriers (the induction variable goes through 64 bits and back).
      s->step = fmt::format("{} += {}", name, stride);
      // A work-group of one work-item in this dimension: the loop is that work-item's, from 0 by
      // 1 (PoCL unrolls and vectorises such a loop, not one from get_local_id by get_local_size:
      // half the speed of the tiled matmul; docs/PERFORMANCE.md, "SGEMM on the CPU device").
      if (arith::Expr t = nd_.threads(kind, dim);
          kind == K::MapLcl && opts_.cfgSimplification && t && t == cst(1)) {
        s->init = "0";
        s->step = fmt::format("{} += 1", name);
      }
      if (arith::Expr t = nd_.threads(kind, dim);
          t && t.isCst() && n.isCst() && t.value() > 0 && n.value() % t.value() == 0) {
        s->parallelTrips = n.value() / t.value();
        s->parallelStride = t.value();
      }
      break;
  }
  s->pattern = pattern;
  if (form != LoopForm::Loop && !var.isCst()) {
    auto d = std::make_unique<c::Stmt>();
    d->kind = c::Stmt::Kind::Decl;
    d->node = node;
    d->text = "int";
    d->name = name;
    d->rhs = c::text(id);
    s->body.push_back(std::move(d));
  }
  parallel_.push_back({kind, dim, var, n, form});
  into(s->body, [&] { body(var); });
  parallel_.pop_back();
  return form;
}

void EmitContext::dynamicLoop(K kind, int dim, arith::Expr n, ir::NodeId node, const std::string& name,
                              const std::string& first, const std::string& next,
                              const std::function<void(arith::Expr)>& body) {
  arith::Expr var = arith::var(name, cst(0), n);
  auto& s = emit(c::Stmt::Kind::For, node);
  s.text = name;
  s.init = first;
  s.cond = fmt::format("{} < {}", name, arith::toOpenCL(n));
  s.step = fmt::format("{} = {}", name, next);
  parallel_.push_back({kind, dim, var, n, LoopForm::Loop});
  into(s.body, [&] { body(var); });
  parallel_.pop_back();
}

}  // namespace lift::codegen
