// The emitter of the map patterns (KernelGenerator.h): a loop (or a guard, or straight code)
// whose body produces f(a[i]) into dest[i]; sequential in one work-item, or over work-groups,
// work-items of a work-group or all work-items. The barriers that may follow come from the
// SyncTracker.
#include <fmt/format.h>

#include "codegen/KernelGenerator.h"
#include "codegen/Unrolling.h"
#include "core/ir/PatternTypeRules.h"

namespace lift::codegen {

using K = ir::PatternKind;

void KernelGenerator::map(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site) {
  View av = readArg(arr);
  arith::Expr n = av->type.length();
  K kind = p.pattern();
  bool parallel = ir::isParallelMap(kind);
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
  if (kind == K::MapAtomWrg || kind == K::MapAtomLcl || kind == K::MapWarp || kind == K::MapLane) {
    warpOrAtomicMap(p, av, dest, site, body);
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

// ----- issue 17 (lift17w): mapWarp, mapLane, mapAtomWrg, mapAtomLcl ----------------------------

namespace {

// The condition that holds in the first work-item of a work-group only.
const char* const kFirstWorkItem = "get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0";

}  // namespace

// mapWarp and mapLane loop over the warps of a work-group and the lanes of a warp (EmitContext's
// parallelLoop; a barrier after mapWarp as after mapLcl, none after mapLane, whose lanes Lift
// takes to run in lock step). mapAtomWrg and mapAtomLcl hand out their indices at run time from
// a counter: the first work-item of each work-group takes the next work-group index from a
// counter in global memory that the runtime zeroes before each launch (a kernel parameter,
// Memory::taskCounter) and passes it on through local memory; the work-items of a work-group
// take theirs from a counter in local memory, which the first work-item zeroes between two
// barriers. Each work-item's (work-group's) results land where the index says, so the results
// cannot be in private memory.
void KernelGenerator::warpOrAtomicMap(const ir::PatternNode& p, const View& av, const View& dest,
                                      ir::NodeId site, const std::function<void(arith::Expr)>& body) {
  K kind = p.pattern();
  std::string label = ir::diagnosticLabel(p);
  if (TemporaryStorage::allPrivate(dest))
    fail(site, fmt::format("{} writes the elements of its result from different work-items, so the result "
                           "cannot be in private memory; store it in local (toLocal) or global memory "
                           "(toGlobal)",
                           label));
  arith::Expr n = av->type.length();
  // mapAtomLcl: every work-item has left the previous use of the counter before it is zeroed
  // (before the comment, so that a barrier just before makes this one go).
  if (kind == K::MapAtomLcl) ctx_.emit(c::Stmt::Kind::Barrier, site).text = "CLK_LOCAL_MEM_FENCE";
  ctx_.comment(label, site);
  size_t before = sync_.mark();
  if (kind == K::MapWarp || kind == K::MapLane) {
    ctx_.parallelLoop(kind, 0, n, site, body, &p);
    if (kind == K::MapWarp) sync_.afterMapLcl(p, before, site);
    return;
  }
  std::string suffix = p.index() == 0 ? "" : fmt::format("_{}", p.index());
  if (kind == K::MapAtomLcl) {
    Memory* task = mem_.allocateMemory(mem_.freshName("l_task"), AddressSpace::Local, Memory::Role::Temporary,
                                       Type::int_(), arith::cst(1), site);
    std::string counter = fmt::format("&{}[0]", task->name);
    auto& zero = ctx_.emit(c::Stmt::Kind::If, site);
    zero.cond = kFirstWorkItem;
    ctx_.into(zero.body, [&] { ctx_.emit(c::Stmt::Kind::Line, site).text = task->name + "[0] = 0;"; });
    ctx_.emit(c::Stmt::Kind::Barrier, site).text = "CLK_LOCAL_MEM_FENCE";
    std::string next = fmt::format("atomic_inc({})", counter);
    ctx_.dynamicLoop(kind, p.index(), n, site, "l_id" + suffix, next, next, body);
    sync_.afterMapLcl(p, before, site);
    return;
  }
  // mapAtomWrg: the type checker keeps it outermost, so it runs once per launch.
  if (!ctx_.parallelLoops().empty() || ctx_.level() != Level::Kernel)
    fail(site, label + " must be the outermost map of the kernel: its counter is zeroed once per launch");
  Memory* counter = mem_.allocateMemory(mem_.freshName("wg_counter"), AddressSpace::Global,
                                        Memory::Role::Temporary, Type::int_(), arith::cst(1), site);
  counter->taskCounter = true;
  Memory* task = mem_.allocateMemory(mem_.freshName("wg_task"), AddressSpace::Local, Memory::Role::Temporary,
                                     Type::int_(), arith::cst(1), site);
  auto take = [&] {
    auto& s = ctx_.emit(c::Stmt::Kind::If, site);
    s.cond = kFirstWorkItem;
    ctx_.into(s.body, [&] {
      ctx_.emit(c::Stmt::Kind::Line, site).text =
          fmt::format("{}[0] = atomic_inc(&{}[0]);", task->name, counter->name);
    });
    ctx_.emit(c::Stmt::Kind::Barrier, site).text = "CLK_LOCAL_MEM_FENCE";
  };
  take();
  std::string current = task->name + "[0]";
  ctx_.dynamicLoop(kind, p.index(), n, site, "wg_id" + suffix, current, current, [&](arith::Expr i) {
    body(i);
    // Every work-item has read the index of this round before the next is taken.
    ctx_.emit(c::Stmt::Kind::Barrier, site).text = "CLK_LOCAL_MEM_FENCE";
    take();
  });
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
