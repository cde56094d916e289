// The emitter of the map patterns (KernelGenerator.h): a loop (or a guard, or straight code)
// whose body produces f(a[i]) into dest[i]; sequential in one work-item, or over work-groups,
// work-items of a work-group or all work-items. The barriers that may follow come from the
// SyncTracker.
#include <fmt/format.h>

#include "codegen/KernelGenerator.h"
#include "codegen/Unrolling.h"

namespace lift::codegen {

using K = ir::PatternKind;

void KernelGenerator::map(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site) {
  View av = readArg(arr);
  arith::Expr n = av->type.length();
  K kind = p.pattern();
  bool parallel = kind == K::MapGlb || kind == K::MapWrg || kind == K::MapLcl;
  auto body = [&](arith::Expr i) {
    std::vector<Arg> a{viewArg(view::access(av, i))};
    produceApply(p.f(), a, view::access(dest, i), site);
  };
  if (!parallel) {
    ctx_.comment(std::string(ir::patternName(kind)), site);
    bool unroll = shouldUnroll(kind, n, TemporaryStorage::touchesPrivateArray(av, dest), opts_.unrolling);
    LoopForm form = ctx_.sequentialForm(n, unroll);
    if (ctx_.level() == Level::WorkGroup && form != LoopForm::Single) {
      ctx_.seqLoop(n, form, site, [&](arith::Expr i) {
        size_t before = sync_.mark();
        body(i);
        sync_.endIteration(before, site, &dest);
      });
    } else {
      ctx_.seqLoop(n, form, site, body);
    }
    return;
  }
  ctx_.comment(fmt::format("{}{}", ir::patternName(kind), p.index()), site);
  size_t before = sync_.mark();
  ctx_.parallelLoop(
      kind, p.index(), n, site,
      [&](arith::Expr i) {
        size_t inner = sync_.mark();
        body(i);
        // More than one work-group iteration may run: the next must not overwrite local memory
        // that other work-items still read.
        if (kind == K::MapWrg && ctx_.parallelLoops().back().form != LoopForm::Single)
          sync_.endIteration(inner, site, &dest);
      },
      &p);
  // A result kept in a temporary is consumed element-wise by the next mapWrg (LoweringCheck).
  if (kind == K::MapWrg && ctx_.level() == Level::Kernel) sync_.afterWorkGroupMap(dest, before, site);
  if (kind == K::MapLcl) {
    checkPrivateResult(p, dest, site);
    // R4 (BarrierElimination.h): the enclosing mapLcl's barrier orders it; one here would be
    // inside a loop that not every work-item enters.
    const BarrierPlan::Facts* facts = barriers_.facts(&p);
    if (!(facts && facts->nestedInLocal)) sync_.afterMapLcl(p, before, site);
  }
}

// A mapLcl's result in private memory at work-group level must be split over the work-items
// (each writes its own slice), unless its consumer is element-wise or it is nested in another
// mapLcl.
void KernelGenerator::checkPrivateResult(const ir::PatternNode& mapLcl, const View& dest, ir::NodeId site) {
  const BarrierPlan::Facts* facts = barriers_.facts(&mapLcl);
  if (ctx_.level() != Level::WorkGroup || !TemporaryStorage::allPrivate(dest) ||
      TemporaryStorage::perWorkItem(dest) || (facts && (facts->elementwiseConsumer || facts->nestedInLocal)))
    return;
  std::string why = storage_.unsplitReason(dest);
  if (!why.empty())
    fail(site, fmt::format("mapLcl{} stores its result in private memory at work-group level: {}; store "
                           "it in local memory (toLocal)",
                           mapLcl.index(), why));
  fail(site,
       fmt::format("mapLcl{} stores its result in private memory at work-group level, where it would be "
                   "split over the work-items, but the value is not made by mapLcl at work-group level "
                   "(toPrivate(mapLcl1(mapLcl0(...))), or a reduceSeq whose initial value or function "
                   "is such a mapLcl), so no work-item knows which slice it holds; store it in local "
                   "memory (toLocal)",
                   mapLcl.index()));
}

// Copies src into a per-work-item private dest: the dimensions l_id selects are not looped
// over, each work-item copies its own slice (as mapLcl would).
void KernelGenerator::copySplit(const View& src, const View& dest, const std::vector<int>& dims, size_t d,
                                ir::NodeId node) {
  bool more = false;
  for (size_t k = d; k < dims.size(); ++k) more = more || dims[k] >= 0;
  if (!more || !dest->type.isArray()) {
    copyValue(src, dest, node);
    return;
  }
  arith::Expr n = dest->type.length();
  auto body = [&](arith::Expr i) {
    copySplit(view::access(src, i), view::access(dest, i), dims, d + 1, node);
  };
  if (dims[d] >= 0)
    ctx_.parallelLoop(K::MapLcl, dims[d], n, node, body);
  else
    ctx_.seqLoop(n, ctx_.sequentialForm(n, false), node, body);
}

}  // namespace lift::codegen
