// The emitter of the sequential scan (KernelGenerator.h): scanSeq(f, z) $ a, exclusive, run by
// one work-item — an accumulator in registers starting at z and a loop that first stores it as
// element i of the result, then makes f(acc, a[i]) of it; in place when no read of the old
// accumulator can see a value the iteration already wrote (InPlaceUpdate.h), else
// double-buffered.
#include <fmt/format.h>

#include "codegen/InPlaceUpdate.h"
#include "codegen/KernelGenerator.h"

namespace lift::codegen {

void KernelGenerator::scan(const ir::PatternNode& p, Arg& init, Arg& arr, const View& dest, ir::NodeId site) {
  View av = readArg(arr);
  arith::Expr n = av->type.length();
  Type accT = dest->type.elem();
  arith::Expr scalars = storage_.largest(accT).scalarCount();
  if (!scalars.isCst() || scalars.value() > kMaxDefaultPrivateScalars)
    fail(site, fmt::format("scanSeq's accumulator ({}) is too large for private memory", accT.toString()));
  if (ctx_.level() == Level::Kernel && !ctx_.sequentialKernel())
    fail(site,
         "a scanSeq at kernel level (outside mapGlb/mapWrg) would be run by every work-item at once; move it "
         "inside a parallel map, or into a kernel of its own");
  if (ctx_.level() == Level::WorkGroup && ir::containsPattern(p.f(), {ir::PatternKind::MapLcl}))
    fail(site, "a scanSeq whose function has a mapLcl is not supported: scan within one work-item");
  ctx_.comment(std::string(ir::patternName(p.pattern())), site);
  View acc = storage_.allocate(accT, AddressSpace::Private, site, false, "acc");
  size_t beforeInit = sync_.mark();
  produceArg(init, acc, site);
  sync_.endIteration(beforeInit, site);
  LoopForm form = ctx_.sequentialForm(n, false);
  int tag = ++tags_;

  auto generate = [&](const View* next, bool& safe) {
    c::Block code;
    ctx_.into(code, [&] {
      ctx_.seqLoop(n, form, site, [&](arith::Expr i) {
        c::Block iteration;
        size_t before = sync_.mark();
        ctx_.into(iteration, [&] {
          copyValue(acc, view::access(dest, i), site);
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
    mem_.rollback(mark);
    sync_.rollback(savedWrites);
    View next = storage_.allocate(accT, AddressSpace::Private, site, false, "acc");
    code = generate(&next, safe);
  }
  ctx_.splice(code);
}

}  // namespace lift::codegen
