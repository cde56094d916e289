// Built-in rules: recognise a computation that an OpenCL built-in does better. The dot product
// of vectors (004 section 5.3): a lane-wise multiplication, scalarised and summed, is a sum of
// dot products.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

// Whether f multiplies two vectors of at most four lanes: vectorize(n, mult) with mult a scalar
// product, a user function on vectors returning a * b, or fun(p => g(p._0, p._1)) of those.
bool isVectorProduct(const Fun& f) {
  if (auto* p = ir::asPattern(f); p && p->pattern() == PatternKind::Vectorize) {
    auto* u = ir::asUserFun(p->f());
    return u && userFunOperator(u->def()) == BinOp::Mul && p->size().isCst() && p->size().value() <= 4;
  }
  if (auto* u = ir::asUserFun(f)) {
    const auto& d = u->def();
    return userFunOperator(d) == BinOp::Mul && d.returnType.isVector() && d.returnType.vectorWidth() <= 4;
  }
  if (auto* l = ir::asLambda(f); l && l->params().size() == 1) {
    auto* c = ir::asCall(l->body());
    if (!c || c->args().size() != 2) return false;
    auto* g0 = m::callOf(c->args()[0], PatternKind::Get);
    auto* g1 = m::callOf(c->args()[1], PatternKind::Get);
    if (!g0 || !g1 || g0->index() == g1->index()) return false;
    if (m::arg(c->args()[0], 0) != l->params()[0] || m::arg(c->args()[1], 0) != l->params()[0]) return false;
    return isVectorProduct(c->fun());
  }
  return false;
}

Outcome dotBuiltin(const Site& s, const ParamValues&) {
  auto r = m::reduceCall(s.expr());
  if (!r || !m::isReduction(r->kind())) return fail("not a call of a reduction");
  OperatorInfo op = analyseOperator(r->f);
  if (op.op != BinOp::Add || op.liftDepth != 0) return fail("the reduction does not add (dot sums products)");
  Type acc = typeAt(s, r->init);
  if (!acc || !acc.isScalar() ||
      (acc.scalarKind() != ScalarKind::Float && acc.scalarKind() != ScalarKind::Double))
    return fail("the reduction does not sum floating-point scalars");
  if (!m::callOf(r->input, PatternKind::AsScalar))
    return fail("the reduced array is not an asScalar of vectors");
  auto mc = m::mapCall(m::arg(r->input, 0));
  if (!mc || (mc->kind() != PatternKind::Map && mc->kind() != PatternKind::MapSeq))
    return fail("the vectors are not computed by a map or mapSeq");
  if (!m::callOf(mc->input, PatternKind::Zip) || m::argCount(mc->input) != 2)
    return fail("the map's input is not a zip of two vector arrays");
  if (!isVectorProduct(mc->f)) return fail("the map does not multiply vectors of at most 4 lanes");
  Type vt = typeAt(s, m::arg(mc->input, 0));
  if (!vt || !vt.isArray() || !vt.elem().isVector() || vt.elem().vectorWidth() > 4)
    return fail("the zipped arrays are not arrays of float2, float3 or float4");
  Fun dot = m::lambda1("p", [&](Expr p) {
    return m::call(ir::PatternNode::make(PatternKind::Dot, {}), {m::callGet(0, p), m::callGet(1, p)});
  });
  return Outcome::ok(m::callReduce(r->kind(), r->f, r->init, m::callMap(mc->kind(), dot, mc->input)));
}

}  // namespace

void registerBuiltinRules(RuleRegistry& reg) {
  reg.add(makeRule("dot-builtin", Family::Builtin,
                   "Use OpenCL's dot for sums of lane-wise vector products (004 section 5.3).",
                   "zip(x, y) >> mapSeq(mult4) >> asScalar >> reduceSeq(z, add)",
                   "zip(x, y) >> mapSeq(dot) >> reduceSeq(z, add)",
                   {PatternKind::Reduce, PatternKind::ReduceSeq}, dotBuiltin, "dotBuiltin, dotBuiltinSeq"));
}

}  // namespace lift::rewrite
