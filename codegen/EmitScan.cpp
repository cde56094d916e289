// The emitter of the sequential scan (KernelGenerator.h): scanSeq(f, z) $ a, exclusive, run by
// one work-item — an accumulator in registers starting at z and a loop that first stores it as
// element i of the result, then makes f(acc, a[i]) of it, in the reductions' accumulator loop
// (KernelGenerator::accumulate, EmitReduce.cpp: in place or double-buffered).
#include <fmt/format.h>

#include "codegen/KernelGenerator.h"
#include "codegen/TemporaryStorage.h"
#include "codegen/Unrolling.h"

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
  if (ctx_.level() == Level::WorkGroup &&
      ir::containsPattern(p.f(),
                          {ir::PatternKind::MapLcl, ir::PatternKind::MapAtomLcl, ir::PatternKind::MapWarp}))
    fail(site, "a scanSeq whose function has a mapLcl is not supported: scan within one work-item");
  ctx_.comment(std::string(ir::patternName(p.pattern())), site);
  View acc = storage_.allocate(accT, AddressSpace::Private, site, false, "acc");
  size_t beforeInit = sync_.mark();
  produceArg(init, acc, site);
  sync_.endIteration(beforeInit, site);
  // Each iteration first stores the accumulator as element i, then updates it (EmitReduce.cpp).
  // Unrolled, as reduceSeq, when the input or the result is a private array, so that its
  // elements become registers.
  bool unroll =
      shouldUnroll(p.pattern(), n, TemporaryStorage::touchesPrivateArray(av, dest), opts_.unrolling);
  accumulate(
      p, acc, av, n, ctx_.sequentialForm(n, unroll), site,
      [&](arith::Expr i) { copyValue(acc, view::access(dest, i), site); },
      [&] { return storage_.allocate(accT, AddressSpace::Private, site, false, "acc"); });
}

}  // namespace lift::codegen
