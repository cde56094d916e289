// The emitter of mapSeqSlide(size, step, f) (KernelGenerator.h; Lift's MapSeqSlide, issue 16):
// map(f) o slide(size, step) in one work-item, the window a private array that is loaded once
// and then shifted. Before the loop the window's first size - step elements are loaded; each
// iteration loads the step new ones behind them, produces f(window) and moves the last
// size - step elements to the front. Every element of the input is read once (not size / step
// times as through slide's view), and the window loops are unrolled so that the window lives in
// registers (window_0, window_1, ... once scalarized).
#include <fmt/format.h>

#include "codegen/KernelGenerator.h"
#include "codegen/Unrolling.h"

namespace lift::codegen {

using arith::cst;
using K = ir::PatternKind;

void KernelGenerator::mapSeqSlide(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site) {
  arith::Expr size = p.size(0), step = p.size(1);
  if (!size.isCst() || !step.isCst())
    fail(site, fmt::format("mapSeqSlide({}, {}, ...): the window size and step must be constants, for the "
                           "window is an array in registers",
                           arith::toString(size), arith::toString(step)));
  if (ctx_.level() == Level::WorkGroup)
    fail(site,
         "mapSeqSlide at work-group level would be run by every work-item of the work-group; put it inside "
         "a mapLcl (or a mapGlb)");
  View av = readArg(arr);
  arith::Expr windows = dest->type.length();
  int64_t n = size.value(), s = step.value();
  int64_t kept = n > s ? n - s : 0;  // the elements one window passes on to the next
  View window =
      storage_.allocate(Type::array(av->type.elem(), size), AddressSpace::Private, site, false, "window");
  auto windowLoop = [&](int64_t from, int64_t to, const std::function<void(arith::Expr)>& body) {
    if (to <= from) return;
    arith::Expr count = cst(to - from);
    LoopForm form = ctx_.sequentialForm(count, shouldUnroll(K::MapSeq, count, true, opts_.unrolling));
    ctx_.seqLoop(count, form, site, [&](arith::Expr j) { body(j + cst(from)); });
  };
  ctx_.comment(fmt::format("mapSeqSlide: the window of {} elements in private memory, {} loaded per step", n,
                           n - kept),
               site);
  windowLoop(0, kept, [&](arith::Expr j) { copyValue(view::access(av, j), view::access(window, j), site); });
  bool unroll =
      shouldUnroll(K::MapSeq, windows, TemporaryStorage::touchesPrivateArray(av, dest), opts_.unrolling);
  ctx_.seqLoop(windows, ctx_.sequentialForm(windows, unroll), site, [&](arith::Expr i) {
    windowLoop(kept, n, [&](arith::Expr j) {
      copyValue(view::access(av, i * step + j), view::access(window, j), site);
    });
    std::vector<Arg> a{viewArg(window)};
    produceApply(p.f(), a, view::access(dest, i), site);
    windowLoop(0, kept, [&](arith::Expr j) {
      copyValue(view::access(window, j + step), view::access(window, j), site);
    });
  });
}

}  // namespace lift::codegen
