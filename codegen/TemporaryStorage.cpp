// Temporary storage and its split over the work-items (TemporaryStorage.h).
#include "codegen/TemporaryStorage.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/LocalPadding.h"
#include "codegen/ProgramIndex.h"
#include "codegen/ResourceError.h"
#include "codegen/Typing.h"

namespace lift::codegen {

using K = ir::PatternKind;
using arith::cst;

namespace {

size_t memDepth(const View& v) {
  const ViewNode* n = v.get();
  while (n->kind != ViewNode::Kind::Mem && n->parent()) n = n->parent().get();
  size_t depth = 0;
  for (Type a = n->type; a.isArray(); a = a.elem()) ++depth;
  return depth;
}

// The mapLcl dimensions of a reduction's function body over its accumulator `acc`: a mapLcl
// applied to acc (or to a zip with acc first), through lambdas applied to other values and
// data-layout patterns applied to the result (a guess: every access is checked).
std::vector<int> accumulatorDims(const ir::Expr& body, const ir::ParamNode* acc) {
  auto* c = ir::asCall(body);
  if (!c) return {};
  if (auto* l = ir::asLambda(c->fun())) return accumulatorDims(l->body(), acc);
  const ir::PatternNode* p = unwrapAddressSpace(c->fun());
  // join o mapLcl0(...) $ ...: the accesses say whether the layout keeps the slices (ViewConsumer).
  if (p && ir::isDataLayout(p->pattern()) && c->args().size() == 1) return accumulatorDims(c->args()[0], acc);
  if (!p || p->pattern() != K::MapLcl || c->args().size() != 1) return {};
  const ir::Expr& a = c->args()[0];
  bool direct = a.get() == acc;
  if (!direct) {
    auto* z = ir::asCall(a);
    const ir::PatternNode* zp = z ? unwrapAddressSpace(z->fun()) : nullptr;
    if (!zp || zp->pattern() != K::Zip || z->args().empty() || z->args()[0].get() != acc) return {};
  }
  std::vector<int> d;
  if (auto* l = ir::asLambda(p->f()); l && !l->params().empty())
    d = accumulatorDims(l->body(), l->params()[0].get());
  d.insert(d.begin(), p->index());
  return d;
}

}  // namespace

void TemporaryStorage::fail(ir::NodeId at, const std::string& msg) const {
  throw LiftError(prog_.diagnosticAt(at, msg));
}

Type TemporaryStorage::largest(Type t) const { return substituteLengths(t, bounds_); }

// Each dimension lclDims selects must be covered by the work-items of its mapLcl one element each.
TemporaryStorage::WorkItemSplit TemporaryStorage::splitOverWorkItems(Type t,
                                                                     const std::vector<int>& lclDims) const {
  WorkItemSplit split;
  Type a = t;
  for (size_t d = 0; d < lclDims.size() && a.isArray(); ++d, a = a.elem()) {
    if (lclDims[d] < 0) continue;
    arith::Expr n = a.length(), threads = ctx_.ndrange().threads(K::MapLcl, lclDims[d]);
    if (!n.isCst() || !threads || !threads.isCst() || n.value() > threads.value()) {
      split.whyNot = fmt::format(
          "mapLcl{} would split it over the work-items, but its {} elements in that dimension "
          "are more than the {} work-items of the work-group in dimension {}, so a work-item "
          "would hold several slices",
          lclDims[d], arith::toString(n),
          threads ? arith::toString(threads) : std::string("(unknown number of)"), lclDims[d]);
      return split;
    }
    split.slices *= n.value();
  }
  return split;
}

View TemporaryStorage::allocate(Type t, AddressSpace space, ir::NodeId site, bool isExplicit,
                                const char* prefix, const std::vector<int>& requestedDims,
                                bool wholeIfUnsplittable) {
  Type largest = this->largest(t);
  std::vector<int> lclDims = requestedDims;
  std::string unsplit;
  // Per-work-item private memory: the dimensions l_id selects are not stored.
  int64_t slices = 1;
  if (space == AddressSpace::Private && !lclDims.empty()) {
    WorkItemSplit split = splitOverWorkItems(largest, lclDims);
    if (!split.whyNot.empty() && !wholeIfUnsplittable)
      fail(site, fmt::format("toPrivate at work-group level: this value of type {} cannot be split over the "
                             "work-items: {}; use at most as many elements as work-items, or local memory",
                             largest.toString(), split.whyNot));
    if (!split.whyNot.empty()) {
      unsplit = split.whyNot;
      lclDims.clear();
    } else
      slices = split.slices;
  }
  if (space == AddressSpace::Private) {
    arith::Expr n = largest.scalarCount();
    if (!n.isCst()) {
      if (isExplicit)
        fail(site,
             fmt::format("toPrivate: a value of type {} has no constant size; private memory needs a size "
                         "known when the kernel is generated",
                         t.toString()));
      space = AddressSpace::Global;
    }
  }
  if (space == AddressSpace::Private) {
    int64_t bytes = largest.byteSize().isCst() ? largest.byteSize().value() / slices : 0;
    if (bytes > kMaxPrivateBytes)
      throw ResourceError(prog_.diagnosticAt(
          site, fmt::format("a private array of {} bytes ({}) is more than a work-item can hold ({} bytes at "
                            "most); store it in local or global memory",
                            bytes, largest.toString(), kMaxPrivateBytes)));
  }
  if (space == AddressSpace::Local && !ctx_.inWorkGroup())
    fail(site, "local memory outside a work-group: toLocal must be nested inside a mapWrg");
  std::vector<MemoryAllocator::Replication> reps;
  for (auto& l : ctx_.parallelLoops()) {
    bool workItems = ir::isLocalMap(l.kind) || l.kind == K::MapWarp || l.kind == K::MapLane;
    bool rep = space == AddressSpace::Global || (space == AddressSpace::Local && workItems);
    if (rep) reps.push_back({l.length, l.var});
  }
  std::string base = prefix                           ? prefix
                     : space == AddressSpace::Private ? "prv"
                     : space == AddressSpace::Local   ? "tmp"
                                                      : "gtmp";
  View v = mem_.allocate(t, space, Memory::Role::Temporary, mem_.freshName(base), site, reps, bounds_);
  if (space == AddressSpace::Local) padLocalRows(v, mem_, ctx_.options().localPadding);
  std::vector<const Memory*> ms;
  view::memoriesOf(v, ms);
  if (slices > 1 || (space == AddressSpace::Private && !lclDims.empty())) {
    for (auto& m : mem_.memories()) {
      if (std::find(ms.begin(), ms.end(), m.get()) == ms.end()) continue;
      m->lclDims = lclDims;
      m->count = arith::simplify(m->count / cst(slices));
    }
    model_.perWorkItemPrivate = true;
  }
  if (!unsplit.empty())
    for (auto* m : ms) unsplit_[m] = unsplit;
  return v;
}

View TemporaryStorage::forResult(const ir::Fun& f, const ir::Expr* call, const ir::Expr* firstArg, Type t,
                                 ir::NodeId site) {
  Level level = ctx_.level();
  std::optional<AddressSpace> s = call ? spaces_.explicitSpace(*call) : spaces_.explicitSpaceOf(f);
  AddressSpace space = s ? *s : AddressSpaceInference::defaultSpace(level, largest(t));
  if (!s && level == Level::Kernel && !ctx_.sequentialKernel()) space = AddressSpace::Global;
  const ir::PatternNode* pat = unwrapAddressSpace(f);
  bool reduction = pat && ir::isReduceLike(pat->pattern());
  if (!pat) {
    // toPrivate(reduceSeq(f, z)): a lambda applying the partially applied reduction.
    ir::Fun g = f;
    while (auto* w = ir::asPattern(g)) {
      if (!ir::isAddressSpace(w->pattern())) break;
      g = w->f();
    }
    auto* l = ir::asLambda(g);
    auto* c = l ? ir::asCall(l->body()) : nullptr;
    const ir::PatternNode* inner = c ? unwrapAddressSpace(c->fun()) : nullptr;
    reduction = inner && ir::isReduceLike(inner->pattern());
  }
  // A private value a work-group's mapLcl makes: each work-item holds its own slice.
  std::vector<int> lclDims;
  if (space == AddressSpace::Private && level == Level::WorkGroup) {
    lclDims = workItemDims(f, firstArg);
    if (std::none_of(lclDims.begin(), lclDims.end(), [](int d) { return d >= 0; })) lclDims.clear();
  }
  // Not splittable: stored whole (a mapLcl writing it is then rejected unless its consumer is
  // element-wise, see KernelGenerator::checkPrivateResult).
  return allocate(t, space, site, s.has_value(),
                  reduction && space == AddressSpace::Private ? "acc" : nullptr, lclDims, true);
}

std::string TemporaryStorage::unsplitReason(const View& dest) const {
  std::vector<const Memory*> ms;
  view::memoriesOf(dest, ms);
  for (auto* m : ms)
    if (auto it = unsplit_.find(m); it != unsplit_.end()) return it->second;
  return {};
}

// mapLcl1(mapLcl0(...)) gives {1, 0}; a reduction's result has its length-1 dimension first,
// then those of its initial value or, failing that, of its function's mapLcl over the
// accumulator.
std::vector<int> TemporaryStorage::workItemDims(const ir::Fun& fun, const ir::Expr* firstArg) {
  ir::Fun f = fun;
  while (auto* w = ir::asPattern(f)) {
    if (!ir::isAddressSpace(w->pattern())) break;
    f = w->f();
  }
  if (auto* l = ir::asLambda(f)) {
    // fun(x => g $ x) (also a partially applied reduceSeq(f, init)): the dimensions of g.
    auto* c = ir::asCall(l->body());
    if (!c || c->args().empty() || c->args().back().get() != l->params().back().get()) return {};
    return workItemDims(c->fun(), &c->args()[0]);
  }
  const ir::PatternNode* p = ir::asPattern(f);
  if (!p) return {};
  if (p->pattern() == K::MapLcl) {
    std::vector<int> d = workItemDims(p->f(), nullptr);
    d.insert(d.begin(), p->index());
    return d;
  }
  if (ir::isReduceLike(p->pattern())) {
    std::vector<int> d;
    if (firstArg && *firstArg)
      if (auto* c = ir::asCall(*firstArg))
        d = workItemDims(c->fun(), c->args().empty() ? nullptr : &c->args()[0]);
    if (std::none_of(d.begin(), d.end(), [](int x) { return x >= 0; })) {
      d.clear();
      if (auto* l = ir::asLambda(p->f()); l && !l->params().empty())
        d = accumulatorDims(l->body(), l->params()[0].get());
    }
    d.insert(d.begin(), -1);
    return d;
  }
  return {};
}

// The memory's innermost dimensions: v indexes its outer ones.
std::vector<int> TemporaryStorage::workItemDimsOfView(const View& v) {
  std::vector<const Memory*> ms;
  view::memoriesOf(v, ms);
  if (ms.empty()) return {};
  size_t depth = 0;
  for (Type a = v->type; a.isArray(); a = a.elem()) ++depth;
  std::vector<int> full = ms.front()->lclDims;  // may omit trailing -1s
  full.resize(std::max(memDepth(v), full.size()), -1);
  if (full.size() < depth) return {};
  return std::vector<int>(full.end() - static_cast<std::ptrdiff_t>(depth), full.end());
}

bool TemporaryStorage::perWorkItem(const View& v) {
  std::vector<const Memory*> ms;
  view::memoriesOf(v, ms);
  for (auto* m : ms)
    if (m->lclDims.empty()) return false;
  return !ms.empty();
}

bool TemporaryStorage::allPrivate(const View& v) {
  std::vector<const Memory*> ms;
  view::memoriesOf(v, ms);
  for (auto* m : ms)
    if (m->space != AddressSpace::Private) return false;
  return !ms.empty();
}

bool TemporaryStorage::touchesPrivateArray(const View& a, const View& b) {
  std::vector<const Memory*> ms;
  view::memoriesOf(a, ms);
  if (b) view::memoriesOf(b, ms);
  for (auto* m : ms)
    if (m->space == AddressSpace::Private &&
        (!(m->count.isCst() && m->count.value() == 1) || m->elemType.isVector()))
      return true;
  return false;
}

}  // namespace lift::codegen
