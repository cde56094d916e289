// The emitter of iterate (KernelGenerator.h): n applications of f, double-buffered between
// two temporaries whose roles two pointers swap after each iteration; the first iteration reads
// the input where it is and the last writes the destination when it can; iterations of
// different shapes, or over arrays of tuples (stored in one memory per component), are emitted
// one after the other.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/KernelGenerator.h"
#include "codegen/LocalPadding.h"
#include "codegen/MemoryAllocator.h"
#include "codegen/ViewConsumer.h"

namespace lift::codegen {

using arith::cst;

namespace {

// A pointer to the first element of a view whose elements are contiguous in one memory.
std::optional<std::string> pointerTo(const View& v) {
  const ViewNode* n = v.get();
  while (n->kind == ViewNode::Kind::Access || n->kind == ViewNode::Kind::Split ||
         n->kind == ViewNode::Kind::Join || n->kind == ViewNode::Kind::Retype)
    n = n->parent().get();
  if (n->kind != ViewNode::Kind::Mem) return std::nullopt;
  View first = v;
  while (first->type.isArray()) first = view::access(first, cst(0));
  ResolvedAccess r = consume(first, first->type.isVector() ? first->type.vectorWidth() : 1, arith::Expr());
  if (r.kind != ResolvedAccess::Kind::Memory || r.folded || !(r.sub.isCst() && r.sub.value() == 0))
    return std::nullopt;
  arith::Expr off = arith::simplify(r.elemIndex);
  if (off.isCst() && off.value() == 0) return r.mem->name;
  return fmt::format("{} + {}", r.mem->name, arith::toOpenCL(off));
}

}  // namespace

View KernelGenerator::iterate(const ir::Fun& pattern, Arg& x, const View* dest, ir::NodeId site) {
  const ir::PatternNode& p = *ir::asPattern(pattern);
  arith::Expr n = p.params().sizes.at(0);
  const ir::Fun& f = p.f();
  View xv = readArg(x);
  auto applyOnce = [&](const View& in, const View* d) -> View {
    std::vector<Arg> a{viewArg(in)};
    if (d) {
      produceApply(f, a, *d, site);
      return *d;
    }
    std::optional<AddressSpace> s = storage_.explicitSpaceOf(f);
    Type t = env_.typeOfApplication(f, a);
    View tmp =
        storage_.allocate(t, s ? *s : AddressSpaceInference::defaultSpace(ctx_.level(), storage_.largest(t)),
                          site, s.has_value());
    produceApply(f, a, tmp, site);
    return tmp;
  };
  if (n.isCst() && n.value() == 0) {
    if (dest) copyValue(xv, *dest, site);
    return dest ? *dest : xv;
  }
  ctx_.comment(fmt::format("iterate {}", arith::toString(n)), site);
  if (n.isCst() && n.value() == 1) return applyOnce(xv, dest);

  // The types flowing between iterations.
  auto typeAfter = [&](Type t) { return env_.typeOfApply(f, {t}); };
  std::vector<Type> ts{xv->type};
  bool loopable = xv->type.isArray();
  if (n.isCst()) {
    for (int64_t k = 0; k < n.value(); ++k) {
      ts.push_back(typeAfter(ts.back()));
      loopable = loopable && ts.back().isArray() && ts.back().elem() == xv->type.elem();
    }
  } else {
    ts.push_back(typeAfter(ts.back()));
    std::vector<Arg> whole{viewArg(xv)};
    ts.push_back(env_.typeOfApplication(pattern, whole));
  }
  // Arrays of tuples are stored component-wise, in several memories, which one pair of swapped
  // pointers cannot name: their iterations are unrolled too.
  bool tuples = containsTuple(xv->type);
  if (tuples && !n.isCst())
    fail(site,
         fmt::format("iterate with the symbolic count {} over an array of tuples ({}): its buffers would "
                     "be swapped component by component, which the code generator does not do; give a "
                     "constant count (its iterations are then unrolled) or iterate over each component",
                     arith::toString(n), xv->type.toString()));
  if (!loopable || tuples) {
    // Iterations of different shapes (or of tuples): one after the other, each into its own
    // temporary.
    View cur = xv;
    for (int64_t k = 0; k < n.value(); ++k) cur = applyOnce(cur, k + 1 == n.value() ? dest : nullptr);
    return cur;
  }
  Type elem = xv->type.elem();
  if (ctx_.level() == Level::Kernel)
    fail(site,
         "iterate at kernel level (outside mapGlb/mapWrg) would be run by every work-item on shared "
         "buffers; move it inside a parallel map");

  // Lengths: of the input of each iteration, and the largest output.
  std::vector<arith::Expr> lens;
  for (auto& t : ts) lens.push_back(t.length());
  arith::Expr maxOut = lens[1];
  for (size_t k = 2; k < lens.size(); ++k) maxOut = arith::max(maxOut, lens[k]);
  std::optional<AddressSpace> s = storage_.explicitSpaceOf(f);
  Type bufT = Type::array(elem, maxOut);
  AddressSpace space = s ? *s : AddressSpaceInference::defaultSpace(ctx_.level(), bufT);
  View a = storage_.allocate(bufT, space, site, s.has_value());
  View b = storage_.allocate(bufT, space, site, s.has_value());
  unpadLocalRows(a, mem_);  // the buffers are swapped between values of different lengths
  unpadLocalRows(b, mem_);
  std::string pa = *pointerTo(a), pb = *pointerTo(b);
  auto takeAddress = [&](const View& v) {
    std::vector<const Memory*> ms;
    view::memoriesOf(v, ms);
    for (auto& m : mem_.memories())
      if (std::find(ms.begin(), ms.end(), m.get()) != ms.end()) m->addressTaken = true;
  };
  takeAddress(a);
  takeAddress(b);

  std::string suffix = iterDepth_ == 0 ? "" : fmt::format("_{}", iterDepth_);
  std::vector<const Memory*> am;
  view::memoriesOf(a, am);
  const Memory* ma = am.front();
  Memory* src =
      mem_.allocateMemory("src" + suffix, space, Memory::Role::Pointer, ma->elemType, ma->count, site);
  Memory* dst =
      mem_.allocateMemory("dst" + suffix, space, Memory::Role::Pointer, ma->elemType, ma->count, site);
  std::string ptrType = fmt::format("{}{}{}*", space == AddressSpace::Private ? "" : qualifier(space),
                                    space == AddressSpace::Private ? "" : " ", ma->elemType.openclName());

  // The input, as a pointer when it is one contiguous array in the buffers' address space.
  std::optional<std::string> px;
  {
    std::vector<const Memory*> xm;
    view::memoriesOf(xv, xm);
    if (xm.size() == 1 && xm[0]->space == space && xm[0]->elemType == ma->elemType) px = pointerTo(xv);
    if (px) takeAddress(xv);
  }
  int64_t count = n.isCst() ? n.value() : -1;
  bool peelLast = dest && n.isCst();
  bool varying = false;
  for (auto& l : lens) varying = varying || l != lens[0];

  auto decl = [&](Memory* m, const std::string& init, bool isConst) {
    auto& d = ctx_.emit(c::Stmt::Kind::Decl, site);
    d.text = (isConst ? "const " : "") + ptrType;
    d.name = m->name;
    d.rhs = c::text(init);
  };
  decl(src, px ? *px : pa, true);
  decl(dst, pa, false);
  auto swap = [&] {
    ctx_.emit(c::Stmt::Kind::Line, site).text = fmt::format("{} = {};", src->name, dst->name);
    ctx_.emit(c::Stmt::Kind::Line, site).text =
        fmt::format("{} = ({} == {}) ? {} : {};", dst->name, dst->name, pa, pb, pa);
  };
  int start = 0;
  ++iterDepth_;
  if (!px) {
    // Peel the first iteration: it reads the input where it is.
    size_t before = sync_.mark();
    std::vector<Arg> in{viewArg(xv)};
    produceApply(f, in, view::mem(dst, ts[1]), site);
    sync_.endIteration(before, site);
    swap();
    start = 1;
  }
  arith::Expr sizeVar;
  std::string sizeName = "size" + suffix;
  size_t firstLoop = static_cast<size_t>(start);
  size_t lastLoop = peelLast ? static_cast<size_t>(count - 1) : (n.isCst() ? static_cast<size_t>(count) : 0);
  if (varying) {
    arith::Expr lo = lens[firstLoop], hi = lens[firstLoop];
    size_t upto = n.isCst() ? lastLoop : lens.size() - 1;
    for (size_t k = firstLoop; k < upto; ++k) {
      lo = arith::min(lo, lens[k]);
      hi = arith::max(hi, lens[k]);
    }
    if (!n.isCst()) {
      lo = arith::min(lo, lens.back());
      hi = arith::max(hi, lens.back());
    }
    sizeVar = arith::var(sizeName, lo, hi + 1);
    storage_.bound(sizeVar, hi);
    auto& d = ctx_.emit(c::Stmt::Kind::Decl, site);
    d.text = "int";
    d.name = sizeName;
    d.rhs = c::text(arith::toOpenCL(lens[firstLoop]));
  }
  Type inT = Type::array(elem, varying ? sizeVar : lens[0]);
  Type outT = typeAfter(inT);
  arith::Expr end = n.isCst() ? cst(static_cast<int64_t>(lastLoop)) : n;
  std::string iterName = "iter" + suffix;
  if (!(n.isCst() && static_cast<int64_t>(lastLoop) <= start)) {
    auto& loop = ctx_.emit(c::Stmt::Kind::For, site);
    loop.text = iterName;
    loop.init = std::to_string(start);
    loop.cond = fmt::format("{} < {}", iterName, arith::toOpenCL(end));
    loop.step = fmt::format("{} += 1", iterName);
    ctx_.into(loop.body, [&] {
      size_t before = sync_.mark();
      std::vector<Arg> in{viewArg(view::mem(src, inT))};
      produceApply(f, in, view::mem(dst, outT), site);
      sync_.endIteration(before, site);
      swap();
      if (varying)
        ctx_.emit(c::Stmt::Kind::Line, site).text =
            fmt::format("{} = {};", sizeName, arith::toOpenCL(outT.length()));
    });
  }
  --iterDepth_;
  if (sizeVar) storage_.unbound(sizeVar);
  if (peelLast) {
    std::vector<Arg> in{viewArg(view::mem(src, ts[count - 1]))};
    produceApply(f, in, *dest, site);
    return *dest;
  }
  View result = view::mem(src, ts.back());
  if (dest) {
    copyValue(result, *dest, site);
    return *dest;
  }
  return result;
}

}  // namespace lift::codegen
