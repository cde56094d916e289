// Split-join rules: add a level of nesting to a map (split-join, 003 step 1), remove one
// (join-split), run a whole reduction as one chunk, and move split and join through zip.
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

Outcome splitJoin(const Site& s, const ParamValues& pv, PatternKind kind) {
  auto mc = m::mapCall(s.expr(), kind);
  if (!mc) return fail("not a call of {}", patName(kind));
  arith::Expr len = lengthAt(s, mc->input);
  if (!len) return unknownType(s);
  arith::Expr n = pv.factor("n", *s.program);
  if (!arith::provablyDivisible(len, n))
    return fail("the split factor {} does not provably divide the length {} of the input", str(n), str(len));
  Fun inner = m::lambda1("xs", [&](Expr xs) { return m::callMap(kind, mc->f, xs); });
  return Outcome::ok(m::callJoin(m::callMap(kind, inner, m::callSplit(n, mc->input))));
}

std::vector<ParamValues> splitCandidates(const Site& s, PatternKind kind) {
  auto mc = m::mapCall(s.expr(), kind);
  if (!mc) return {};
  return factorCandidates("n", lengthAt(s, mc->input), 4);
}

// map(map(g)) or map(fun(a => map(g) $ a)) with g not using a: the inner map and g.
std::optional<m::MapCall> innerMapOf(const m::MapCall& mc, std::string& why) {
  if (auto* p = ir::asPattern(mc.f); p && ir::isMapLike(p->pattern()) && p->pattern() != PatternKind::MapVec)
    return m::MapCall{p, mc.f, p->f(), nullptr};
  auto* l = ir::asLambda(mc.f);
  if (!l || l->params().size() != 1) {
    why = fmt::format("the function of the {} is not a map", patName(mc.kind()));
    return std::nullopt;
  }
  auto inner = m::mapCall(l->body());
  if (!inner || inner->input != l->params()[0]) {
    why = fmt::format("the function of the {} is not a map over its parameter", patName(mc.kind()));
    return std::nullopt;
  }
  if (m::mentions(inner->f, l->params()[0].get())) {
    why = "the inner map's function uses the outer map's parameter";
    return std::nullopt;
  }
  return inner;
}

Outcome joinSplit(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  std::string why;
  auto inner = innerMapOf(*mc, why);
  if (!inner) return Outcome::fail(why);
  if (inner->kind() != mc->kind())
    return fail("the maps are of different kinds ({} of {})", patName(mc->kind()), patName(inner->kind()));
  if (ir::isParallelMap(mc->kind()))
    return fail("join-split applies to map and mapSeq, not to {}", patName(mc->kind()));
  Type t = typeAt(s, mc->input);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isArray()) return fail("the input is not a two-dimensional array");
  return Outcome::ok(
      m::callSplit(t.elem().length(), m::callMap(mc->kind(), inner->f, m::callJoin(mc->input))));
}

Outcome reduceSplitJoin(const Site& s, const ParamValues&) {
  auto r = m::reduceCall(s.expr());
  if (!r || (r->kind() != PatternKind::Reduce && r->kind() != PatternKind::ReduceSeq))
    return fail("not a call of reduce or reduceSeq");
  arith::Expr len = lengthAt(s, r->input);
  if (!len) return unknownType(s);
  if (m::callOf(r->input, PatternKind::Split)) return fail("the input is already split");
  if (s.variesPerIteration(len))
    return fail("the length changes from one iteration of the enclosing iterate to the next");
  Fun f = m::reduceAsFun(r->kind(), r->f, r->init);
  return Outcome::ok(m::callJoin(m::callMap(PatternKind::Map, f, m::callSplit(len, r->input))));
}

Outcome splitZip(const Site& s, const ParamValues&) {
  auto* sp = m::callOf(s.expr(), PatternKind::Split);
  if (!sp) return fail("not a call of split");
  const Expr& z = m::arg(s.expr(), 0);
  if (!m::callOf(z, PatternKind::Zip)) return fail("the input of the split is not a zip");
  auto* zc = ir::asCall(z);
  std::vector<Expr> parts;
  for (auto& a : zc->args()) parts.push_back(m::callSplit(sp->size(), a));
  size_t n = parts.size();
  Fun f = m::lambda1("q", [&](Expr q) {
    std::vector<Expr> comps;
    for (size_t i = 0; i < n; ++i) comps.push_back(m::callGet(static_cast<int>(i), q));
    return m::callZip(std::move(comps));
  });
  return Outcome::ok(m::callMap(PatternKind::Map, f, m::callZip(std::move(parts))));
}

// map(fun(q => zip(get 0 q, ..., get n q))) $ zip(split(k) $ a, ...): the split factor and the arrays.
Outcome zipSplit(const Site& s, const ParamValues&) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  auto* l = ir::asLambda(mc->f);
  if (!l || l->params().size() != 1 || !m::callOf(l->body(), PatternKind::Zip))
    return fail("the function of the map is not fun(q => zip(q._0, q._1, ...))");
  auto* inner = ir::asCall(l->body());
  for (size_t i = 0; i < inner->args().size(); ++i) {
    auto* g = m::callOf(inner->args()[i], PatternKind::Get);
    if (!g || g->index() != static_cast<int>(i) || m::arg(inner->args()[i], 0) != l->params()[0])
      return fail("the function of the map is not fun(q => zip(q._0, q._1, ...))");
  }
  if (!m::callOf(mc->input, PatternKind::Zip)) return fail("the input of the map is not a zip");
  auto* outer = ir::asCall(mc->input);
  if (outer->args().size() != inner->args().size()) return fail("the zips have different arities");
  arith::Expr n;
  std::vector<Expr> arrays;
  for (auto& a : outer->args()) {
    auto* sp = m::callOf(a, PatternKind::Split);
    if (!sp) return fail("not every zipped array is split");
    if (n && sp->size() != n) return fail("the zipped arrays are split by different factors");
    n = sp->size();
    arrays.push_back(m::arg(a, 0));
  }
  return Outcome::ok(m::callSplit(n, m::callZip(std::move(arrays))));
}

Outcome zipJoin(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Zip)) return fail("not a call of zip");
  auto* zc = ir::asCall(s.expr());
  std::vector<Expr> arrays;
  Type first;
  for (auto& a : zc->args()) {
    if (!m::callOf(a, PatternKind::Join)) return fail("not every zipped array is a join");
    Expr in = m::arg(a, 0);
    Type t = typeAt(s, in);
    if (!t) return unknownType(s);
    if (!t.isArray() || !t.elem().isArray()) return fail("the type of a joined array is unknown");
    if (first && (t.length() != first.length() || t.elem().length() != first.elem().length()))
      return fail("the joined arrays have different shapes ({} and {})", typeStr(first), typeStr(t));
    if (!first) first = t;
    arrays.push_back(in);
  }
  size_t n = arrays.size();
  Fun f = m::lambda1("q", [&](Expr q) {
    std::vector<Expr> comps;
    for (size_t i = 0; i < n; ++i) comps.push_back(m::callGet(static_cast<int>(i), q));
    return m::callZip(std::move(comps));
  });
  return Outcome::ok(m::callJoin(m::callMap(PatternKind::Map, f, m::callZip(std::move(arrays)))));
}

Rule withSplitParam(Rule r, PatternKind kind) {
  r.params = {{"n", ParamKind::Factor, "split factor (chunk length)", "4", {}}};
  r.candidates = [kind](const Site& s) { return splitCandidates(s, kind); };
  return r;
}

}  // namespace

void registerSplitJoinRules(RuleRegistry& reg) {
  reg.add(withSplitParam(
      makeRule(
          "split-join", Family::SplitJoin,
          "Nest a map: split the input into chunks of n, map over the chunks, join (003 step 1).", "map(f)",
          "join o map(map(f)) o split(n)", {PatternKind::Map},
          [](const Site& s, const ParamValues& pv) { return splitJoin(s, pv, PatternKind::Map); },
          "splitJoin"),
      PatternKind::Map));
  reg.add(withSplitParam(
      makeRule(
          "split-join-seq", Family::SplitJoin, "Nest a sequential map into chunks of n.", "mapSeq(f)",
          "join o mapSeq(mapSeq(f)) o split(n)", {PatternKind::MapSeq},
          [](const Site& s, const ParamValues& pv) { return splitJoin(s, pv, PatternKind::MapSeq); },
          "splitJoinMapSeq"),
      PatternKind::MapSeq));
  reg.add(makeRule("join-split", Family::SplitJoin,
                   "Flatten a nest of two maps into one map over the joined array.", "map(map(f)) $ x",
                   "split(m) o map(f) o join $ x", {PatternKind::Map, PatternKind::MapSeq}, joinSplit,
                   "joinSplit"));
  reg.add(makeRule("reduce-split-join", Family::SplitJoin,
                   "Run a whole reduction as the only chunk of a map (so it can be given to one work-group).",
                   "reduce(f, z) $ x", "join o map(reduce(f, z)) o split(len(x)) $ x",
                   {PatternKind::Reduce, PatternKind::ReduceSeq}, reduceSplitJoin, "splitJoinReduce"));
  reg.add(makeRule("split-zip", Family::SplitJoin, "Split the zipped arrays instead of the zip.",
                   "split(n) $ zip(a, b)", "map(q => zip(q._0, q._1)) $ zip(split(n) $ a, split(n) $ b)",
                   {PatternKind::Split}, splitZip, "splitIntoZip"));
  reg.add(makeRule("zip-split", Family::SplitJoin, "Zip before splitting (inverse of split-zip).",
                   "map(q => zip(q._0, q._1)) $ zip(split(n) $ a, split(n) $ b)", "split(n) $ zip(a, b)",
                   {PatternKind::Map}, zipSplit));
  reg.add(makeRule("zip-join", Family::SplitJoin, "Zip the nested arrays before joining them.",
                   "zip(join $ a, join $ b)", "join o map(q => zip(q._0, q._1)) $ zip(a, b)",
                   {PatternKind::Zip}, zipJoin, "joinFromZip"));
}

}  // namespace lift::rewrite
