// The emitters of element access by a computed index (KernelGenerator.h): at, checkedAt and
// filter. The index is a value of the program, not an index expression of the views, so it is
// read once into an int variable, and the access is the view's element at that variable.
// at(xs, i) trusts i to be in range (the variable ranges over [0, n), as the simplifier may
// assume); checkedAt(xs, i, d) guards the read and gives d outside the array.
#include <fmt/format.h>

#include <limits>

#include "codegen/KernelGenerator.h"
#include "codegen/Unrolling.h"
#include "codegen/ViewConsumer.h"

namespace lift::codegen {

using K = ir::PatternKind;
using arith::cst;

arith::Expr KernelGenerator::indexVariable(const View& index, arith::Expr lo, arith::Expr hi,
                                           ir::NodeId site) {
  std::string name = mem_.freshName("idx");
  mem_.reserve(name);
  ctx_.takeName(name);
  auto& d = ctx_.emit(c::Stmt::Kind::Decl, site);
  d.text = "int";
  d.name = name;
  d.rhs = readValue(index, Type::scalar(ScalarKind::Int), site);
  return arith::var(name, lo, hi);
}

View KernelGenerator::access(std::vector<Arg>& args, ir::NodeId site) {
  View xs = readArg(args.at(0));
  arith::Expr i = indexVariable(readArg(args.at(1)), cst(0), xs->type.length(), site);
  return view::access(xs, i);
}

void KernelGenerator::checkedAccess(std::vector<Arg>& args, const View& dest, ir::NodeId site) {
  View xs = readArg(args.at(0));
  arith::Expr n = xs->type.length();
  arith::Expr i = indexVariable(readArg(args.at(1)), cst(std::numeric_limits<int32_t>::min()),
                                cst(int64_t(std::numeric_limits<int32_t>::max()) + 1), site);
  guardedCopy(i, n, view::access(xs, i), readArg(args.at(2)), dest, site);
}

void KernelGenerator::guardedCopy(arith::Expr i, arith::Expr n, const View& src, const View& alt,
                                  const View& to, ir::NodeId site) {
  // Every scalar (or vector) of the element is read under the guard 0 <= i < n.
  Type t = to->type;
  if (t.isArray()) {
    arith::Expr m = t.length();
    LoopForm form = ctx_.sequentialForm(m, shouldUnroll(K::MapSeq, m, false, opts_.unrolling));
    ctx_.seqLoop(m, form, site, [&](arith::Expr j) {
      guardedCopy(i, n, view::access(src, j), view::access(alt, j), view::access(to, j), site);
    });
    return;
  }
  if (t.isTuple()) {
    for (size_t k = 0; k < t.tupleElems().size(); ++k)
      guardedCopy(i, n, view::get(src, int(k)), view::get(alt, int(k)), view::get(to, int(k)), site);
    return;
  }
  c::ExprP value = c::guarded({c::Guard{i, cst(0), n}}, readValue(src, t, site), readValue(alt, t, site));
  assign(to, value, t, site);
}

void KernelGenerator::filter(std::vector<Arg>& args, const View& dest, ir::NodeId site) {
  View xs = readArg(args.at(0)), ids = readArg(args.at(1));
  arith::Expr m = ids->type.length(), n = xs->type.length();
  ctx_.comment("filter", site);
  LoopForm form = ctx_.sequentialForm(m, shouldUnroll(K::MapSeq, m, false, opts_.unrolling));
  ctx_.seqLoop(m, form, site, [&](arith::Expr j) {
    arith::Expr i = indexVariable(view::access(ids, j), cst(0), n, site);
    copyValue(view::access(xs, i), view::access(dest, j), site);
  });
}

}  // namespace lift::codegen
