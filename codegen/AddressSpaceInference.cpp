// Address-space inference (rules in AddressSpaceInference.h).
#include "codegen/AddressSpaceInference.h"

namespace lift::codegen {

namespace {

std::optional<AddressSpace> spaceOfWrapper(ir::PatternKind k) {
  switch (k) {
    case ir::PatternKind::ToGlobal:
      return AddressSpace::Global;
    case ir::PatternKind::ToLocal:
      return AddressSpace::Local;
    case ir::PatternKind::ToPrivate:
      return AddressSpace::Private;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<AddressSpace> AddressSpaceInference::explicitSpace(const ir::Expr& e) {
  auto* c = ir::asCall(e);
  if (!c) return std::nullopt;
  auto it = memo_.find(e.get());
  if (it != memo_.end()) return it->second;
  std::optional<AddressSpace> s;
  const ir::Fun& f = c->fun();
  if (auto* p = ir::asPattern(f)) {
    using K = ir::PatternKind;
    if (auto w = spaceOfWrapper(p->pattern())) {
      s = w;
    } else if (p->pattern() == K::ReduceSeq || p->pattern() == K::ReduceSeqUnroll ||
               p->pattern() == K::Reduce || p->pattern() == K::PartRed || ir::isScanLike(p->pattern()) ||
               p->pattern() == K::ReduceWhileSeq) {
      s = explicitSpace(c->args().at(0));
      if (!s) s = explicitSpaceOf(p->f());
    } else if (ir::isDataLayout(p->pattern()) || p->pattern() == K::TransposeW) {
      for (auto& a : c->args())
        if ((s = explicitSpace(a))) break;
    } else {
      s = explicitSpaceOf(f);
    }
  } else {
    s = explicitSpaceOf(f);
  }
  memo_[e.get()] = s;
  return s;
}

std::optional<AddressSpace> AddressSpaceInference::explicitSpaceOf(const ir::Fun& f) {
  auto it = memo_.find(f.get());
  if (it != memo_.end()) return it->second;
  std::optional<AddressSpace> s;
  switch (f->kind()) {
    case ir::FunNode::Kind::Lambda:
      s = explicitSpace(ir::asLambda(f)->body());
      break;
    case ir::FunNode::Kind::UserFun:
      break;
    case ir::FunNode::Kind::Pattern: {
      auto* p = ir::asPattern(f);
      if (auto w = spaceOfWrapper(p->pattern())) {
        s = w;
      } else if (ir::isMapLike(p->pattern()) || ir::isReduceLike(p->pattern()) ||
                 ir::isScanLike(p->pattern()) || p->pattern() == ir::PatternKind::Iterate ||
                 p->pattern() == ir::PatternKind::Let || p->pattern() == ir::PatternKind::Vectorize ||
                 p->pattern() == ir::PatternKind::MapSeqSlide) {
        s = explicitSpaceOf(p->f());
      }
      break;
    }
  }
  memo_[f.get()] = s;
  return s;
}

AddressSpace AddressSpaceInference::defaultSpace(Level level, Type t) {
  arith::Expr n = t.scalarCount();
  if (level == Level::Thread && n.isCst() && n.value() <= kMaxDefaultPrivateScalars)
    return AddressSpace::Private;
  if (level == Level::WorkGroup && n.isCst() && n.value() <= kMaxDefaultLocalScalars)
    return AddressSpace::Local;
  return AddressSpace::Global;
}

}  // namespace lift::codegen
