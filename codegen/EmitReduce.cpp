// The emitter of the sequential reductions (KernelGenerator.h): the accumulator (in registers
// when small, split over the work-items when a work-group's mapLcl spreads it), its initial
// value, and a loop producing f(acc, a[i]) into it; in place when no read of the old
// accumulator can see a value the iteration already wrote (InPlaceUpdate.h), else double-buffered.
// That loop (accumulate) is the scans' too (EmitScan.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "codegen/InPlaceUpdate.h"
#include "codegen/KernelGenerator.h"
#include "codegen/Unrolling.h"

namespace lift::codegen {

using arith::cst;

void KernelGenerator::reduce(const ir::PatternNode& p, Arg& init, Arg& arr, const View& dest,
                             ir::NodeId site) {
  View av = readArg(arr);
  arith::Expr n = av->type.length();
  Type accT = dest->type.elem();
  View destElem = view::access(dest, cst(0));
  View acc = destElem;
  bool copyBack = false;
  arith::Expr scalars = storage_.largest(accT).scalarCount();
  // A small accumulator of one work-item's own reduction lives in registers. At work-group
  // level a function with a mapLcl spreads the accumulator over the work-items, so it stays
  // shared; a function without one is run by every work-item redundantly, and each must update
  // its own copy (updating a shared one at once would add each element several times).
  bool redundant = ctx_.level() == Level::WorkGroup &&
                   !ir::containsPattern(p.f(), {ir::PatternKind::MapLcl, ir::PatternKind::MapAtomLcl,
                                                ir::PatternKind::MapWarp});
  if ((ctx_.level() == Level::Thread || redundant) && !TemporaryStorage::allPrivate(destElem) &&
      scalars.isCst() && scalars.value() <= kMaxDefaultPrivateScalars) {
    acc = storage_.allocate(accT, AddressSpace::Private, site, false, "acc");
    copyBack = true;
  }
  if (redundant && !TemporaryStorage::allPrivate(acc))
    fail(site,
         "a reduction at work-group level whose function has no mapLcl is computed by every work-item; its "
         "accumulator is too large for private memory: spread the function over the work-items (mapLcl)");
  if (ctx_.level() == Level::Kernel && !TemporaryStorage::allPrivate(acc))
    fail(site,
         "a reduction at kernel level (outside mapGlb/mapWrg) with a large accumulator would be updated by "
         "every work-item at once; move it inside a parallel map");
  ctx_.comment(std::string(ir::patternName(p.pattern())), site);
  size_t beforeInit = sync_.mark();
  bool initSplit = false;
  if (ctx_.level() == Level::WorkGroup && TemporaryStorage::perWorkItem(acc)) {
    // An accumulator split over the work-items whose initial value is not made by mapLcl
    // (zeros): each work-item initialises its own slice.
    std::vector<int> initDims;
    if (init.expr)
      if (auto* c = ir::asCall(init.expr))
        initDims = TemporaryStorage::workItemDims(c->fun(), c->args().empty() ? nullptr : &c->args()[0]);
    if (std::none_of(initDims.begin(), initDims.end(), [](int d) { return d >= 0; })) {
      copySplit(readArg(init), acc, TemporaryStorage::workItemDimsOfView(acc), 0, site);
      initSplit = true;
    }
  }
  if (!initSplit) produceArg(init, acc, site);
  // Every work-item of a work-group initialises a shared accumulator; all must be done before
  // any updates its elements.
  sync_.endIteration(beforeInit, site);
  // Unrolled when the loop index selects elements of a private array (the input's): the
  // accumulator is the same in every iteration, so its indices stay constant in a loop.
  // reduceWhileSeq (issue 17, lift17p): a loop of its own, left by `break` where the predicate
  // fails before an element.
  bool whileLoop = p.pattern() == ir::PatternKind::ReduceWhileSeq;
  bool unroll = !whileLoop && shouldUnroll(p.pattern(), n, TemporaryStorage::touchesPrivateArray(av, View()),
                                           opts_.unrolling);
  LoopForm form = whileLoop ? LoopForm::Loop : ctx_.sequentialForm(n, unroll);
  std::function<void(arith::Expr)> check;
  if (whileLoop)
    check = [&](arith::Expr i) { stopUnless(p.params().funs.at(1), acc, view::access(av, i), site); };
  accumulate(p, acc, av, n, form, site, check, [&] {
    std::vector<const Memory*> ms;
    view::memoriesOf(acc, ms);
    AddressSpace space = TemporaryStorage::allPrivate(acc) ? AddressSpace::Private : ms.front()->space;
    std::vector<int> lclDims;
    // Split over the work-items like the first.
    if (TemporaryStorage::perWorkItem(acc)) lclDims = TemporaryStorage::workItemDimsOfView(acc);
    return storage_.allocate(accT, space, site, false, "acc", lclDims);
  });
  if (copyBack) copyValue(acc, destElem, site);
}

void KernelGenerator::accumulate(const ir::PatternNode& p, const View& acc, const View& av, arith::Expr n,
                                 LoopForm form, ir::NodeId site,
                                 const std::function<void(arith::Expr)>& first,
                                 const std::function<View()>& makeNext) {
  int tag = ++tags_;
  auto generate = [&](const View* next, bool& safe) {
    c::Block code;
    ctx_.into(code, [&] {
      ctx_.seqLoop(n, form, site, [&](arith::Expr i) {
        c::Block iteration;
        size_t before = sync_.mark();
        ctx_.into(iteration, [&] {
          if (first) first(i);
          std::vector<Arg> a{viewArg(view::tag(acc, tag)), viewArg(view::access(av, i))};
          produceApply(p.f(), a, next ? *next : acc, site);
          if (next) copyValue(*next, acc, site);
          sync_.endIteration(before, site);
        });
        if (!next && !inPlaceSafe(iteration, tag)) safe = false;
        ctx_.splice(iteration);
      });
    });
    return code;
  };
  size_t mark = mem_.mark();
  size_t savedWrites = sync_.mark();
  bool safe = true;
  c::Block code = generate(nullptr, safe);
  if (!safe) {
    // Double buffering: the function writes a second accumulator, copied back per iteration.
    mem_.rollback(mark);
    sync_.rollback(savedWrites);
    View next = makeNext();
    code = generate(&next, safe);
  }
  ctx_.splice(code);
}

}  // namespace lift::codegen
