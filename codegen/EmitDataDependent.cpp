// The emitters of the sequential patterns whose loops depend on the data (KernelGenerator.h,
// issue 17): bSearch and lSearch (Lift's BSearch and LSearch), the early exit of reduceWhileSeq,
// filterSeq and insertionSortSeq. Their loops stop with `break` or move elements to positions
// the data decides; the loops left by `break` are loops of their own (never unrolled, never one
// iteration without a loop), and the control variables are ints declared here. The functions
// they call are sequential (checkLowered refuses a parallel map inside them: a barrier in a loop
// that some work-items leave early would not be sound).
#include <fmt/format.h>

#include "codegen/KernelGenerator.h"
#include "codegen/ViewConsumer.h"

namespace lift::codegen {

using K = ir::PatternKind;
using arith::cst;

std::string KernelGenerator::intVariable(const std::string& base, c::ExprP value, ir::NodeId site) {
  std::string name = mem_.freshName(base);
  mem_.reserve(name);
  ctx_.takeName(name);
  auto& d = ctx_.emit(c::Stmt::Kind::Decl, site);
  d.text = "int";
  d.name = name;
  d.rhs = std::move(value);
  return name;
}

std::string KernelGenerator::truthVariable(const std::string& base, const ir::Fun& f, std::vector<Arg>& args,
                                           ir::NodeId site) {
  Type t = Type::int_();
  View result = storage_.allocate(t, AddressSpace::Private, site, false, "res");
  produceApply(f, args, result, site);
  return intVariable(base, readValue(result, t, site), site);
}

c::Stmt& KernelGenerator::openLoop(const std::string& var, const std::string& init, const std::string& cond,
                                   const std::string& step, ir::NodeId site) {
  auto& loop = ctx_.emit(c::Stmt::Kind::For, site);
  loop.text = var;
  loop.init = init;
  loop.cond = cond;
  loop.step = step;
  return loop;
}

void KernelGenerator::whenThen(const std::string& cond, ir::NodeId site, const std::function<void()>& body) {
  auto& s = ctx_.emit(c::Stmt::Kind::If, site);
  s.cond = cond;
  ctx_.into(s.body, body);
}

void KernelGenerator::line(const std::string& text, ir::NodeId site) {
  ctx_.emit(c::Stmt::Kind::Line, site).text = text;
}

// bSearch: [lo, hi) halved at mid = lo + (hi - lo) / 2 while lo < hi; lSearch: i walks up while
// cmp > 0. Then dest[0] is xs[found], or the default where nothing was found (found = -1).
void KernelGenerator::search(const ir::PatternNode& p, Arg& dflt, Arg& arr, const View& dest,
                             ir::NodeId site) {
  View xs = readArg(arr);
  arith::Expr n = xs->type.length();
  bool binary = p.pattern() == K::BSearch;
  ctx_.comment(std::string(ir::patternName(p.pattern())), site);
  std::string found = intVariable("found", c::text("-1"), site);
  std::string lo, hi, it = mem_.freshName("step");
  mem_.reserve(it);
  ctx_.takeName(it);
  c::Stmt* loop = nullptr;
  if (binary) {
    lo = intVariable("lo", c::text("0"), site);
    hi = intVariable("hi", c::text(arith::toOpenCL(n)), site);
    loop = &openLoop(it, "0", fmt::format("{} < {}", lo, hi), fmt::format("{} += 1", it), site);
  } else {
    loop =
        &openLoop(it, "0", fmt::format("{} < {}", it, arith::toOpenCL(n)), fmt::format("{} += 1", it), site);
  }
  ctx_.into(loop->body, [&] {
    arith::Expr at = arith::var(it, cst(0), n);
    std::string mid = it;
    if (binary) {
      mid = intVariable("mid", c::text(fmt::format("{} + ({} - {}) / 2", lo, hi, lo)), site);
      at = arith::var(mid, cst(0), n);
    }
    std::vector<Arg> element{viewArg(view::access(xs, at))};
    std::string cmp = truthVariable("cmp", p.f(), element, site);
    if (binary) {
      whenThen(cmp + " < 0", site, [&] { line(fmt::format("{} = {};", hi, mid), site); });
      whenThen(cmp + " > 0", site, [&] { line(fmt::format("{} = {} + 1;", lo, mid), site); });
    } else {
      whenThen(cmp + " < 0", site, [&] { line("break;", site); });
    }
    whenThen(cmp + " == 0", site, [&] {
      line(fmt::format("{} = {};", found, mid), site);
      line("break;", site);
    });
  });
  View fallback = readArg(dflt);
  arith::Expr f = arith::var(found, cst(-1), n);
  guardedCopy(f, n, view::access(xs, f), fallback, view::access(dest, cst(0)), site);
}

void KernelGenerator::stopUnless(const ir::Fun& pred, const View& acc, const View& x, ir::NodeId site) {
  std::vector<Arg> args{viewArg(acc), viewArg(x)};
  std::string go = truthVariable("go", pred, args, site);
  whenThen("!" + go, site, [&] { line("break;", site); });
}

// The kept elements at count, count + 1, ... in a first pass, the others after them in a second.
void KernelGenerator::filterSeq(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site) {
  View xs = readArg(arr);
  arith::Expr n = xs->type.length();
  View out = view::get(dest, 0), count = view::get(dest, 1);
  ctx_.comment("filterSeq", site);
  std::string next = intVariable("cnt", c::text("0"), site);
  for (bool keep : {true, false}) {
    LoopForm form = ctx_.sequentialForm(n, false);
    ctx_.seqLoop(n, form, site, [&](arith::Expr i) {
      std::vector<Arg> element{viewArg(view::access(xs, i))};
      std::string test = truthVariable("keep", p.f(), element, site);
      whenThen(keep ? test : "!" + test, site, [&] {
        copyValue(view::access(xs, i), view::access(out, arith::var(next, cst(0), n)), site);
        line(fmt::format("{} += 1;", next), site);
      });
    });
    if (keep) assign(view::access(count, cst(0)), c::text(next), Type::int_(), site);
  }
}

// Element i is moved down past the sorted elements before it that it is less than:
// for (j = i; 0 < j; j -= 1) { if (!less(x, out[j - 1])) break; out[j] = out[j - 1]; pos = j - 1; }
void KernelGenerator::insertionSort(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site) {
  // It reads back what it wrote: work-items sharing its destination would race.
  if (ctx_.level() != Level::Thread && !ctx_.sequentialKernel())
    fail(site,
         "insertionSortSeq outside a parallel map would be run by every work-item at once on one array; put "
         "it "
         "inside a mapGlb or mapLcl (one sort per work-item)");
  View xs = readArg(arr);
  arith::Expr n = xs->type.length();
  Type elemT = xs->type.elem();
  ctx_.comment("insertionSortSeq", site);
  LoopForm form = ctx_.sequentialForm(n, false);
  ctx_.seqLoop(n, form, site, [&](arith::Expr i) {
    View x = storage_.allocate(elemT, AddressSpace::Private, site, false, "elem");
    copyValue(view::access(xs, i), x, site);
    std::string pos = intVariable("pos", c::text(arith::toOpenCL(i)), site);
    std::string j = mem_.freshName("srt");
    mem_.reserve(j);
    ctx_.takeName(j);
    c::Stmt& loop = openLoop(j, arith::toOpenCL(i), "0 < " + j, j + " -= 1", site);
    ctx_.into(loop.body, [&] {
      arith::Expr jv = arith::var(j, cst(1), n);
      std::vector<Arg> pair{viewArg(x), viewArg(view::access(dest, jv - cst(1)))};
      std::string less = truthVariable("less", p.f(), pair, site);
      whenThen("!" + less, site, [&] { line("break;", site); });
      copyValue(view::access(dest, jv - cst(1)), view::access(dest, jv), site);
      line(fmt::format("{} = {} - 1;", pos, j), site);
    });
    copyValue(x, view::access(dest, arith::var(pos, cst(0), n)), site);
  });
}

}  // namespace lift::codegen
