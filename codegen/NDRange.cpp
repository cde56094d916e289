// Derivation of the NDRange from the lengths of the parallel maps.
#include "codegen/NDRange.h"

#include <algorithm>
#include <map>

#include "codegen/ProgramIndex.h"
#include "core/ir/PatternTypeRules.h"

namespace lift::codegen {

arith::Expr NDRange::threads(ir::PatternKind k, int dim) const {
  if (dim >= dims) return arith::cst(1);
  switch (k) {
    case ir::PatternKind::MapWarp:
      return local[0] ? local[0] / arith::cst(kWarpSize) : arith::Expr();
    case ir::PatternKind::MapLane:
      return arith::cst(kWarpSize);
    case ir::PatternKind::MapLcl:
    case ir::PatternKind::MapAtomLcl:
      return local[dim];
    case ir::PatternKind::MapWrg:
    case ir::PatternKind::MapAtomWrg:
      return global[dim] && local[dim] ? global[dim] / local[dim] : arith::Expr();
    case ir::PatternKind::MapGlb:
      return global[dim];
    default:
      return {};
  }
}

namespace {

arith::Expr maxOf(arith::Expr a, arith::Expr b) { return a ? arith::max(a, b) : b; }

// Whether f only moves data: it calls no user function (copies with id, views).
bool onlyCopies(const ir::Fun& f) {
  bool calls = false;
  ir::visitPreOrder(f, [&](const ir::NodePath& path) {
    const ir::NodeRef& n = path.back().node;
    if (!n.isExpr() && ir::asUserFun(n.fun())) calls = true;
    return !calls;
  });
  return !calls;
}

arith::Expr pickLocal(arith::Expr len) {
  if (!len) return arith::cst(1);
  if (len.isCst()) return len.value() <= kMaxWorkGroupSize ? len : arith::cst(kDefaultLocalSize);
  return arith::min(len, arith::cst(kDefaultLocalSize));
}

}  // namespace

NDRange deriveNDRange(const ir::Program& p, const ir::TypeInfo& types, const std::vector<arith::Expr>& global,
                      const std::vector<arith::Expr>& local) {
  // lcl: the longest mapLcl of each dimension; work: the longest one that computes (calls a
  // user function) outside an iterate (whose rounds shrink their maps). A work-group is as
  // large as the maps that compute need: the copies of a tiled kernel, which move more elements
  // than there are work-items, loop instead.
  std::array<arith::Expr, 3> wrg, lcl, work, glb;
  int maxDim = -1;
  bool anyGlb = false, anyWrg = false;
  ir::visitPreOrder(p.main, [&](const ir::NodePath& path) {
    const ir::NodeRef& n = path.back().node;
    if (n.isExpr()) return true;
    const ir::PatternNode* pat = ir::asPattern(n.fun());
    if (!pat) return true;
    ir::PatternKind k = pat->pattern();
    if (!ir::hasMapDimension(k) && k != ir::PatternKind::MapWarp) return true;
    const ir::FunType* ft = types.funTypeOf(n.fun());
    if (!ft || ft->inputs.empty() || !ft->inputs[0].isArray()) return true;
    arith::Expr len = ft->inputs[0].length();
    // Inside an iterate of a symbolic count the body is typed on a length variable of its own
    // (iterateBodyLength), whose values lie between the iterate's input and output lengths.
    std::map<arith::Expr, arith::Expr, std::less<>> bodyLengths;
    for (const ir::PathStep& s : path) {
      auto* q = s.node.isExpr() ? nullptr : ir::asPattern(s.node.fun());
      if (!q || q->pattern() != ir::PatternKind::Iterate || q->params().sizes.at(0).isCst()) continue;
      const ir::FunType* it = types.funTypeOf(s.node.fun());
      if (!it || it->inputs.empty() || !it->inputs[0].isArray() || !it->output.isArray()) continue;
      bodyLengths[ir::iterateBodyLength(*q)] =
          arith::substitute(arith::max(it->inputs[0].length(), it->output.length()), bodyLengths);
    }
    if (!bodyLengths.empty()) len = arith::substitute(len, bodyLengths);
    int d = pat->index();
    if (d < 0 || d > 2) return true;
    // A work-group of one warp per element of mapWarp (mapLane's lanes are the warp's).
    if (k == ir::PatternKind::MapWarp) len = len * arith::cst(kWarpSize);
    maxDim = std::max(maxDim, d);
    if (k == ir::PatternKind::MapGlb) {
      glb[d] = maxOf(glb[d], len);
      anyGlb = true;
    } else if (ir::isWorkGroupMap(k)) {
      wrg[d] = maxOf(wrg[d], len);
      anyWrg = true;
    } else {
      lcl[d] = maxOf(lcl[d], len);
      bool inIterate = std::any_of(path.begin(), path.end(), [](const ir::PathStep& s) {
        auto* q = s.node.isExpr() ? nullptr : ir::asPattern(s.node.fun());
        return q && q->pattern() == ir::PatternKind::Iterate;
      });
      if (!inIterate && !onlyCopies(pat->f())) work[d] = maxOf(work[d], len);
      anyWrg = true;
    }
    return true;
  });

  NDRange r;
  r.usesWorkGroups = anyWrg;
  r.dims = std::max(1, maxDim + 1);
  if (anyWrg) {
    for (int d = 0; d < r.dims; ++d) r.local[d] = pickLocal(work[d] ? work[d] : lcl[d]);
    // Keep a constant work-group within the limit: halve the largest dimension.
    while (true) {
      int64_t product = 1;
      int largest = -1;
      for (int d = 0; d < r.dims; ++d) {
        if (!r.local[d].isCst()) {
          product = 0;
          break;
        }
        product *= r.local[d].value();
        if (largest < 0 || r.local[d].value() > r.local[largest].value()) largest = d;
      }
      if (product <= kMaxWorkGroupSize || largest < 0) break;
      r.local[largest] = arith::cst((r.local[largest].value() + 1) / 2);
    }
    for (int d = 0; d < r.dims; ++d) r.global[d] = (wrg[d] ? wrg[d] : arith::cst(1)) * r.local[d];
  } else if (anyGlb) {
    for (int d = 0; d < r.dims; ++d) r.global[d] = glb[d] ? glb[d] : arith::cst(1);
  } else {
    r.global[0] = arith::cst(1);
    r.local[0] = arith::cst(1);
  }

  if (!global.empty()) {
    r.dims = static_cast<int>(std::min<size_t>(3, std::max(global.size(), local.size())));
    for (int d = 0; d < 3; ++d) {
      r.global[d] =
          d < static_cast<int>(global.size()) ? global[d] : (d < r.dims ? arith::cst(1) : arith::Expr());
      r.local[d] = d < static_cast<int>(local.size()) ? local[d] : arith::Expr();
    }
    if (local.empty())
      for (auto& l : r.local) l = arith::Expr();
  } else if (!local.empty()) {
    // Only the local size given: keep the number of groups the program implies.
    for (int d = 0; d < static_cast<int>(std::min<size_t>(3, local.size())); ++d) {
      if (r.usesWorkGroups) {
        arith::Expr groups = r.global[d] && r.local[d] ? r.global[d] / r.local[d] : arith::cst(1);
        r.global[d] = groups * local[d];
      } else if (!r.global[d]) {
        r.global[d] = local[d];
      }
      r.local[d] = local[d];
    }
    r.dims = std::max(r.dims, static_cast<int>(std::min<size_t>(3, local.size())));
  }
  return r;
}

}  // namespace lift::codegen
