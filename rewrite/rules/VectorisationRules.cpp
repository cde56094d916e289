// Vectorisation rules (004 section 5.3, 002 "Vectorization"): a map of a scalar user function
// becomes a map of its vectorised form over vectors of n elements, also over zipped arrays;
// a reduction with a commutative operator first reduces vectors lane-wise.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

Fun vectorizeFun(int64_t n, const Fun& f) {
  ir::PatternNode::Params ps;
  ps.funs = {f};
  ps.sizes = {arith::cst(n)};
  return ir::PatternNode::make(PatternKind::Vectorize, std::move(ps));
}

Expr asVector(int64_t n, Expr x) {
  ir::PatternNode::Params ps;
  ps.sizes = {arith::cst(n)};
  return m::call(ir::PatternNode::make(PatternKind::AsVector, std::move(ps)), {std::move(x)});
}

Expr asScalar(Expr x) { return m::call(ir::PatternNode::make(PatternKind::AsScalar, {}), {std::move(x)}); }

// The user function f is or calls: uf, fun(x => uf(x)), fun(p => uf(p._0, ..., p._k-1)).
const ir::UserFunNode* scalarUserFun(const Fun& f, size_t arity) {
  if (auto* u = ir::asUserFun(f)) return u->def().params.size() == arity ? u : nullptr;
  auto* l = ir::asLambda(f);
  if (!l || l->params().size() != 1) return nullptr;
  auto* c = ir::asCall(l->body());
  auto* u = c ? ir::asUserFun(c->fun()) : nullptr;
  if (!u || u->def().params.size() != arity) return nullptr;
  const ir::ParamNode* p = l->params()[0].get();
  if (arity == 1) return c->args().size() == 1 && c->args()[0].get() == p ? u : nullptr;
  if (c->args().size() != arity) return nullptr;
  for (size_t i = 0; i < arity; ++i) {
    auto* g = m::callOf(c->args()[i], PatternKind::Get);
    if (!g || g->index() != static_cast<int>(i) || m::arg(c->args()[i], 0).get() != p) return nullptr;
  }
  return u;
}

std::string scalarSignatureProblem(const ir::UserFunDef& d) {
  for (auto& [name, t] : d.params)
    if (!t.isScalar())
      return fmt::format("user function '{}' takes a {} ({}), not a scalar", d.name, typeStr(t), name);
  if (!d.returnType.isScalar())
    return fmt::format("user function '{}' returns {}, not a scalar", d.name, typeStr(d.returnType));
  return "";
}

Outcome vectorizeMap(const Site& s, const ParamValues& pv) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  const ir::UserFunNode* u = scalarUserFun(mc->f, 1);
  if (!u) return fail("the function of the {} is not a user function of one argument", patName(mc->kind()));
  if (std::string p = scalarSignatureProblem(u->def()); !p.empty()) return Outcome::fail(p);
  Type t = typeAt(s, mc->input);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isScalar()) return fail("the input is not an array of scalars");
  int64_t n = pv.integer("n");
  if (!arith::provablyDivisible(t.length(), arith::cst(n)))
    return fail("the vector width {} does not provably divide the length {}", n, str(t.length()));
  Fun uf = ir::UserFunNode::make(u->defPtr());
  return Outcome::ok(
      asScalar(m::callMap(mc->kind(), vectorizeFun(n, uf), asVector(n, mc->input), mc->dim())));
}

Outcome vectorizeMapZip(const Site& s, const ParamValues& pv) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  if (!m::callOf(mc->input, PatternKind::Zip)) return fail("the input of the map is not a zip");
  auto* zip = ir::asCall(mc->input);
  const ir::UserFunNode* u = scalarUserFun(mc->f, zip->args().size());
  if (!u)
    return fail("the function of the map is not a user function of the {} zipped elements",
                zip->args().size());
  if (std::string p = scalarSignatureProblem(u->def()); !p.empty()) return Outcome::fail(p);
  int64_t n = pv.integer("n");
  std::vector<Expr> vecs;
  for (auto& a : zip->args()) {
    Type t = typeAt(s, a);
    if (!t) return unknownType(s);
    if (!t.isArray() || !t.elem().isScalar()) return fail("a zipped array is not an array of scalars");
    if (!arith::provablyDivisible(t.length(), arith::cst(n)))
      return fail("the vector width {} does not provably divide the length {}", n, str(t.length()));
    vecs.push_back(asVector(n, a));
  }
  Fun uf = ir::UserFunNode::make(u->defPtr());
  return Outcome::ok(
      asScalar(m::callMap(mc->kind(), vectorizeFun(n, uf), m::callZip(std::move(vecs)), mc->dim())));
}

Outcome vectorizeReduce(const Site& s, const ParamValues& pv) {
  auto r = m::reduceCall(s.expr());
  if (!r || !m::isReduction(r->kind())) return fail("not a call of a reduction");
  auto* u = ir::asUserFun(r->f);
  if (!u) return fail("the operator is not a user function");
  if (std::string p = scalarSignatureProblem(u->def()); !p.empty()) return Outcome::fail(p);
  if (std::string p = partialReductionProblem(r->f, r->init, true); !p.empty()) return Outcome::fail(p);
  auto* lit = ir::asLiteral(r->init);
  if (!lit) return fail("the initial value is not a constant");
  Type t = typeAt(s, r->input);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isScalar()) return fail("the input is not an array of scalars");
  int64_t n = pv.integer("n");
  if (!arith::provablyDivisible(t.length(), arith::cst(n)))
    return fail("the vector width {} does not provably divide the length {}", n, str(t.length()));
  Expr vinit = ir::LiteralNode::make(lit->text(), Type::vector(t.elem().scalarKind(), static_cast<int>(n)));
  Fun vf = vectorizeFun(n, ir::UserFunNode::make(u->defPtr()));
  Expr lanes = asScalar(m::callReduce(r->kind(), vf, vinit, asVector(n, r->input)));
  return Outcome::ok(m::callReduce(r->kind(), r->f, r->init, lanes));
}

Rule withWidth(Rule r) {
  r.params = {{"n", ParamKind::Width, "vector width", "4", {}}};
  r.candidates = [](const Site&) {
    return std::vector<ParamValues>{{{"n", "4"}}, {{"n", "2"}}, {{"n", "8"}}, {{"n", "16"}}};
  };
  return r;
}

}  // namespace

void registerVectorisationRules(RuleRegistry& reg) {
  using K = PatternKind;
  std::vector<K> maps = {K::Map, K::MapSeq, K::MapGlb, K::MapWrg, K::MapLcl};
  reg.add(withWidth(makeRule("vectorize-map", Family::Vectorisation,
                             "Apply a scalar user function to vectors of n elements at a time.", "map(f)",
                             "asScalar o map(vectorize(n, f)) o asVector(n)", maps, vectorizeMap)));
  reg.add(withWidth(makeRule(
      "vectorize-map-zip", Family::Vectorisation,
      "Vectorise a map over zipped scalar arrays (004 section 5.3).", "zip(a, b) >> map(f)",
      "zip(asVector(n, a), asVector(n, b)) >> map(vectorize(n, f)) >> asScalar", maps, vectorizeMapZip)));
  reg.add(withWidth(
      makeRule("vectorize-reduce", Family::Vectorisation,
               "Reduce vectors lane-wise, then the lanes (needs a commutative operator; 004 section 5.3).",
               "reduce(f, z)", "reduce(f, z) o asScalar o reduce(vectorize(n, f), (floatn)z) o asVector(n)",
               {K::Reduce, K::ReduceSeq}, vectorizeReduce)));
}

}  // namespace lift::rewrite
