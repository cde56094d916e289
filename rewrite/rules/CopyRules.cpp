// Copy rules (Lift CopyRules.scala): insert copies (id) where data should move to another
// memory — any array, the element a sequential reduction reads, the input of a work-group's
// local map, a work-group's element, a reduction's result — and implement them as maps (one
// level, or down to scalars) that the OpenCL rules then lower (000 Listing 5.8 copies into local
// memory with toLocal(mapLcl(mapSeq(id)))).
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

Outcome addId(const Site& s, const ParamValues&) {
  if (!s.node.isExpr()) return fail("only computed arrays and inputs are copied");
  if (m::callOf(s.expr(), PatternKind::Id)) return fail("the array is already copied");
  ParentCall pc = parentCall(s);
  // A literal is copied only where it becomes memory: the initial value of a reduction (its
  // accumulator, e.g. the zero tile of a register-blocked reduction, which the copy then places
  // in private or local memory).
  bool reduceInit = pc.call && pc.argIndex == 0 && pc.call->args().size() == 2 &&
                    ir::asPattern(pc.call->fun()) &&
                    ir::isReduceLike(ir::asPattern(pc.call->fun())->pattern());
  if (ir::asLiteral(s.expr()) && !reduceInit)
    return fail("a literal is copied only as the initial value of a reduction");
  if (pc.call) {
    if (auto* p = ir::asPattern(pc.call->fun()); p && p->pattern() == PatternKind::Id)
      return fail("the array is already copied");
  }
  // Copies move data between memories: a computed array, or the input that a map, reduction or
  // iteration reads.
  auto computesArray = [](const ir::PatternNode* p) {
    return p && (ir::isMapLike(p->pattern()) || ir::isReduceLike(p->pattern()) ||
                 p->pattern() == PatternKind::Iterate || ir::isAddressSpace(p->pattern()));
  };
  bool result = computes(s.expr()) || reduceInit;
  bool input = pc.call && pc.argIndex + 1 == static_cast<int>(pc.call->args().size()) &&
               computesArray(ir::asPattern(pc.call->fun()));
  if (!result && !input)
    return fail("copies are made of computed arrays and of the inputs of maps, reductions and iterations");
  Type t = typeAt(s, s.expr());
  if (!t) return unknownType(s);
  if (!t.isArray()) return fail("only arrays are copied, not {}", typeStr(t));
  return Outcome::ok(m::call(ir::PatternNode::make(PatternKind::Id, {}), {s.expr()}));
}

Outcome implementId(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Id)) return fail("not a call of id");
  const Expr& in = m::arg(s.expr(), 0);
  Type t = typeAt(s, in);
  if (!t) return unknownType(s);
  if (!t.isArray()) return fail("the copied value is not an array");
  Fun id = ir::PatternNode::make(PatternKind::Id, {});
  Fun f = t.elem().isArray() ? m::lambda1("y", [&](Expr y) { return m::call(id, {y}); }) : id;
  return Outcome::ok(m::callMap(PatternKind::Map, f, in));
}

bool isCopy(const Expr& e) { return m::callOf(e, PatternKind::Id) != nullptr; }

// Whether e copies the parameter p somewhere: id $ p.
bool copiesParam(const Expr& e, const ir::ParamNode* p);
bool copiesParam(const Fun& f, const ir::ParamNode* p) {
  if (auto* l = ir::asLambda(f)) return copiesParam(l->body(), p);
  if (auto* pat = ir::asPattern(f)) {
    for (auto& g : pat->params().funs)
      if (copiesParam(g, p)) return true;
  }
  return false;
}
bool copiesParam(const Expr& e, const ir::ParamNode* p) {
  auto* c = ir::asCall(e);
  if (!c) return false;
  if (isCopy(e) && c->args()[0].get() == p) return true;
  if (copiesParam(c->fun(), p)) return true;
  for (auto& a : c->args())
    if (copiesParam(a, p)) return true;
  return false;
}

// The copy of a value of type t down to its scalars (Lift generateCopy): maps of `kind` over the
// levels of an array (map(y => map(id) $ y)), a tuple of the copies of a tuple's components, id for scalars
// and vectors.
Fun deepCopy(Type t, PatternKind kind) {
  if (t.isArray()) {
    if (!t.elem().isArray() && !t.elem().isTuple()) return m::mapOfKind(kind, deepCopy(t.elem(), kind));
    // Inner levels as calls in lambdas, so that each level's map can be rewritten on its own.
    Type elem = t.elem();
    return m::mapOfKind(kind, m::lambda1("y", [&](Expr y) { return m::apply(deepCopy(elem, kind), {y}); }));
  }
  if (t.isTuple()) {
    std::vector<Type> elems(t.tupleElems().begin(), t.tupleElems().end());
    return m::lambda1("t", [&](Expr x) {
      std::vector<Expr> parts;
      for (size_t i = 0; i < elems.size(); ++i)
        parts.push_back(m::apply(deepCopy(elems[i], kind), {m::callGet(static_cast<int>(i), x)}));
      return m::callTuple(std::move(parts));
    });
  }
  return ir::PatternNode::make(PatternKind::Id, {});
}

Outcome implementIdDeep(const Site& s, const ParamValues&) {
  if (!isCopy(s.expr())) return fail("not a call of id");
  const Expr& in = m::arg(s.expr(), 0);
  Type t = typeAt(s, in);
  if (!t) return unknownType(s);
  if (!t.isArray() && !t.isTuple())
    return fail("the copied value is a {}, which id already copies as a whole", typeStr(t));
  return Outcome::ok(m::apply(deepCopy(t, PatternKind::Map), {in}));
}

// reduceSeq((acc, x) => F) => reduceSeq((acc, x) => (fun(y => F[x := y])) $ id(x))
Outcome addIdForCurrentValueInReduce(const Site& s, const ParamValues&) {
  auto r = m::reduceCall(s.expr());
  if (!r || (r->kind() != PatternKind::ReduceSeq && r->kind() != PatternKind::ReduceSeqUnroll))
    return fail("not a call of reduceSeq (the copy is made in each iteration of a sequential loop)");
  auto* l = ir::asLambda(r->f);
  if (!l || l->params().size() != 2) return fail("the operator is not a lambda of two parameters (acc, x)");
  const ir::Param& x = l->params()[1];
  if (!m::mentions(l->body(), x.get())) return fail("the operator does not use the current value");
  if (copiesParam(l->body(), x.get())) return fail("the current value is already copied");
  ir::Param y = ir::ParamNode::make("y");
  Expr body = ir::substitute(l->body(), {{x.get(), y}});
  Expr copied = m::call(ir::PatternNode::make(PatternKind::Id, {}), {x});
  Fun op = ir::LambdaNode::make({l->params()[0], x}, m::call(ir::LambdaNode::make({y}, body), {copied}));
  return Outcome::ok(m::call(m::withFun(*r->pattern, op), {r->init, r->input}));
}

// mapLcl(f) $ x => mapLcl(f) $ id(x)
Outcome addIdBeforeMapLcl(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::MapLcl);
  if (!mc) return fail("not a call of mapLcl");
  if (isCopy(mc->input)) return fail("the input is already copied");
  if (s.insidePattern(PatternKind::MapLcl))
    return fail(
        "the mapLcl is inside another mapLcl (the outermost one's input is what the work-group shares)");
  return Outcome::ok(m::call(mc->fun, {m::call(ir::PatternNode::make(PatternKind::Id, {}), {mc->input})}));
}

// mapWrg(f) $ x => mapWrg(fun(y => f(id(y)))) $ x
Outcome addIdForMapWrgParam(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::MapWrg);
  if (!mc) return fail("not a call of mapWrg");
  auto* l = ir::asLambda(mc->f);
  if (!l || l->params().size() != 1)
    return fail("the function of the mapWrg is not a lambda of one parameter");
  if (containsPattern(mc->f, {PatternKind::MapWrg}))
    return fail("the function contains another mapWrg (the copy belongs to the innermost one's element)");
  if (containsPattern(mc->f, {PatternKind::Id})) return fail("the function already copies data");
  Fun f = m::lambda1("y", [&](Expr y) {
    return m::call(mc->f, {m::call(ir::PatternNode::make(PatternKind::Id, {}), {y})});
  });
  return Outcome::ok(m::callMap(PatternKind::MapWrg, f, mc->input, mc->dim()));
}

// reduceSeq(f, z) $ x => mapSeq(copy) $ reduceSeq(f, z) $ x
Outcome addIdAfterReduce(const Site& s, const ParamValues&) {
  auto r = m::reduceCall(s.expr());
  if (!r || (r->kind() != PatternKind::ReduceSeq && r->kind() != PatternKind::ReduceSeqUnroll))
    return fail("not a call of reduceSeq (the copy is a sequential loop over its result)");
  ParentCall pc = parentCall(s);
  if (pc.call) {
    auto* p = ir::asPattern(pc.call->fun());
    if (p && (p->pattern() == PatternKind::Id || (m::isSequentialMap(p->pattern()) && ir::asPattern(p->f()) &&
                                                  ir::asPattern(p->f())->pattern() == PatternKind::Id)))
      return fail("the result is already copied");
  }
  Type t = typeAt(s, s.expr());
  if (!t) return unknownType(s);
  return Outcome::ok(m::callMap(PatternKind::MapSeq, deepCopy(t.elem(), PatternKind::MapSeq), s.expr()));
}

}  // namespace

void registerCopyRules(RuleRegistry& reg) {
  reg.add(makeRule("add-id", Family::Copy, "Copy an array (the copy can then be placed in another memory).",
                   "x", "id $ x", {}, addId, "addId, addIdRed"));
  reg.add(makeRule("implement-id", Family::Copy, "Implement a copy as a map of copies of the elements.",
                   "id $ x", "map(id) $ x", {PatternKind::Id}, implementId, "implementOneLevelOfId"));
  reg.add(makeRule("implement-id-deep", Family::Copy,
                   "Implement a copy down to scalars: a map per array level, a tuple of copies for a tuple "
                   "(Lift implementIdAsDeepCopy), so that each level can be lowered.",
                   "id $ x", "map(map(id)) $ x", {PatternKind::Id}, implementIdDeep,
                   "implementIdAsDeepCopy"));
  reg.add(
      makeRule("add-id-for-current-value-in-reduce", Family::Copy,
               "Copy the element a sequential reduction reads in each iteration (then placed in private or "
               "local memory; Lift addIdForCurrentValueInReduce).",
               "reduceSeq((acc, x) => f(acc, x), z)", "reduceSeq((acc, x) => (y => f(acc, y)) $ id(x), z)",
               {PatternKind::ReduceSeq, PatternKind::ReduceSeqUnroll}, addIdForCurrentValueInReduce,
               "addIdForCurrentValueInReduce"));
  reg.add(makeRule(
      "add-id-before-map-lcl", Family::Copy,
      "Copy the input of the work-group's outermost local map (then placed in local memory; Lift "
      "addIdBeforeMapLcl).",
      "mapLcl(f) $ x", "mapLcl(f) $ id(x)", {PatternKind::MapLcl}, addIdBeforeMapLcl, "addIdBeforeMapLcl"));
  reg.add(
      makeRule("add-id-for-map-wrg-param", Family::Copy,
               "Copy the element of the innermost work-group map (a work-group's share of the input; Lift "
               "addIdForMapWrgParam).",
               "mapWrg(x => f(x))", "mapWrg(y => f(id(y)))", {PatternKind::MapWrg}, addIdForMapWrgParam,
               "addIdForMapWrgParam"));
  reg.add(
      makeRule("add-id-after-reduce", Family::Copy,
               "Copy the result of a sequential reduction with a sequential loop (then written to another "
               "memory; Lift addIdAfterReduce).",
               "reduceSeq(f, z) $ x", "mapSeq(id) $ reduceSeq(f, z) $ x",
               {PatternKind::ReduceSeq, PatternKind::ReduceSeqUnroll}, addIdAfterReduce, "addIdAfterReduce"));
}

}  // namespace lift::rewrite
