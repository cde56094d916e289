// Vectorisation rules (004 section 5.3, 002 "Vectorization"): a map of a scalar user function
// becomes a map of its vectorised form over vectors of n elements, also over zipped arrays;
// a reduction with a commutative operator first reduces vectors lane-wise; a map of a user
// function written to an address space keeps the address space (Lift vectorizeToAddressSpace); a
// partial reduction whose results a reduction consumes reduces vectors lane-wise (Lift
// partialReduceVectorize).
//
//   vectorize-lanes(n)   map(f) $ X  =>  unlanes o map(f') $ lanes(X)
//       Computes n neighbouring iterations of a map at once, one in each lane of OpenCL vectors
//       of width n (SIMD across iterations; 004 section 5.3 vectorises within an iteration).
//       Every value that depends on the map's element becomes a vector: the user functions it
//       flows into get vector versions (scalar arguments that do not depend on it broadcast),
//       and the initial values of the reductions it flows into become vectors. X's elements
//       may be scalars (X is read as vectors) or arrays of scalars, e.g. the columns of a
//       matrix (transpose(B) is read as transpose(map(asVector(n)) $ B): rows of vectors).
//       The results are put back in order with asScalar, split and transpose (unlanes).
//       For matrix multiplication after register blocking this gives the kernel a CPU's
//       vector units want: each work-item owns k rows x n columns of C in k vector
//       accumulators, each step one vector load of a row of B and k broadcasts of A.
#include "core/cfun/CFun.h"
#include "core/ir/Vectorizable.h"
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

Fun asVectorFun(int64_t n) {
  ir::PatternNode::Params ps;
  ps.sizes = {arith::cst(n)};
  return ir::PatternNode::make(PatternKind::AsVector, std::move(ps));
}
Fun asScalarFun() { return ir::PatternNode::make(PatternKind::AsScalar, {}); }

Expr asVector(int64_t n, Expr x) { return m::call(asVectorFun(n), {std::move(x)}); }
Expr asScalar(Expr x) { return m::call(asScalarFun(), {std::move(x)}); }

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

// map(toGlobal(f)) $ x  =>  asScalar $ map(toGlobal(vectorize(n, f))) $ asVector(n, x), also toLocal
// and toPrivate.
Outcome vectorizeToAddressSpace(const Site& s, const ParamValues& pv) {
  auto mc = m::mapCall(s.expr());
  if (!mc) return fail("not a call of a map");
  const ir::PatternNode* space = nullptr;
  for (PatternKind k : {PatternKind::ToGlobal, PatternKind::ToLocal, PatternKind::ToPrivate})
    if (!space) space = functionAsPattern(mc->f, k);
  if (!space)
    return fail("the function of the {} is not toGlobal, toLocal or toPrivate of a user function",
                patName(mc->kind()));
  const ir::UserFunNode* u = scalarUserFun(space->f(), 1);
  if (!u) return fail("the {} does not hold a user function of one argument", patName(space->pattern()));
  if (std::string p = scalarSignatureProblem(u->def()); !p.empty()) return Outcome::fail(p);
  Type t = typeAt(s, mc->input);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isScalar()) return fail("the input is not an array of scalars");
  int64_t n = pv.integer("n");
  if (!arith::provablyDivisible(t.length(), arith::cst(n)))
    return fail("the vector width {} does not provably divide the length {}", n, str(t.length()));
  Fun vf = m::withFun(*space, vectorizeFun(n, ir::UserFunNode::make(u->defPtr())));
  return Outcome::ok(asScalar(m::callMap(mc->kind(), vf, asVector(n, mc->input), mc->dim())));
}

// reduce(f, z) o partRed(f, z, m) $ x  =>  reduce(f, z) o asScalar o partRed(vectorize(n, f), (floatn)z, m)
// o asVector(n) $ x: each partial result reduces m elements n apart (the results change, their
// reduction does not).
Outcome partialReduceVectorize(const Site& s, const ParamValues& pv) {
  auto r = m::reduceCall(s.expr(), PatternKind::PartRed);
  if (!r) return fail("not a call of partRed");
  auto* u = ir::asUserFun(r->f);
  if (!u) return fail("the operator is not a user function");
  if (std::string p = scalarSignatureProblem(u->def()); !p.empty()) return Outcome::fail(p);
  if (std::string p = partialReductionProblem(r->f, r->init, true); !p.empty()) return Outcome::fail(p);
  ParentCall pc = parentCall(s);
  auto consumer = pc.call ? m::reduceCall(s.ancestors.back().expr()) : std::nullopt;
  if (!consumer || pc.argIndex != 1 || !m::isReduction(consumer->kind()))
    return fail(
        "the partial results must be consumed directly by a reduction (they change with the vectors)");
  OperatorInfo a = analyseOperator(r->f), b = analyseOperator(consumer->f);
  if (a.op != b.op || a.liftDepth != b.liftDepth)
    return fail("the consuming reduction does not use the same operator");
  auto* lit = ir::asLiteral(r->init);
  if (!lit) return fail("the initial value is not a constant");
  Type t = typeAt(s, r->input);
  if (!t) return unknownType(s);
  if (!t.isArray() || !t.elem().isScalar()) return fail("the input is not an array of scalars");
  int64_t n = pv.integer("n");
  arith::Expr vm = arith::mul(arith::cst(n), r->pattern->size());
  if (!arith::provablyDivisible(t.length(), vm))
    return fail("the vector width times the part size, {}, does not provably divide the length {}", str(vm),
                str(t.length()));
  Expr vinit = ir::LiteralNode::make(lit->text(), Type::vector(t.elem().scalarKind(), static_cast<int>(n)));
  Fun vf = vectorizeFun(n, ir::UserFunNode::make(u->defPtr()));
  return Outcome::ok(asScalar(
      m::callReduce(PatternKind::PartRed, vf, vinit, asVector(n, r->input), r->pattern->params().sizes)));
}

Rule withWidth(Rule r) {
  r.params = {{"n", ParamKind::Width, "vector width", "4", {}}};
  r.candidates = [](const Site&) {
    return std::vector<ParamValues>{{{"n", "4"}}, {{"n", "2"}}, {{"n", "8"}}, {{"n", "16"}}};
  };
  return r;
}

// ----- lanes: which parts of a value depend on the vectorised map's element ----------------

// Arrays are transparent: a lane describes the scalars of a value. A leaf is one scalar (or
// all scalars of an array of scalars); a tuple has one lane per component.
struct Lane {
  bool vary = false;
  std::vector<Lane> comps;  // non-empty for tuples
  static Lane leaf(bool v) { return Lane{v, {}}; }
  bool any() const {
    if (comps.empty()) return vary;
    for (auto& c : comps)
      if (c.any()) return true;
    return false;
  }
  bool all() const {
    if (comps.empty()) return vary;
    for (auto& c : comps)
      if (!c.all()) return false;
    return true;
  }
  friend bool operator==(const Lane&, const Lane&) = default;
};

Lane merge(const Lane& a, const Lane& b) {
  if (a.comps.empty() && b.comps.empty()) return Lane::leaf(a.vary || b.vary);
  if (a.comps.empty()) return a.vary ? Lane::leaf(true) : b;
  if (b.comps.empty()) return b.vary ? Lane::leaf(true) : a;
  Lane r;
  for (size_t i = 0; i < std::max(a.comps.size(), b.comps.size()); ++i)
    r.comps.push_back(
        merge(i < a.comps.size() ? a.comps[i] : Lane{}, i < b.comps.size() ? b.comps[i] : Lane{}));
  return r;
}

// Component i of a tuple lane (a leaf lane describes all components alike).
Lane component(const Lane& l, size_t i) {
  if (l.comps.empty()) return l;
  return i < l.comps.size() ? l.comps[i] : Lane{};
}

Type vectorOf(Type t, int n) { return t.isScalar() ? Type::vector(t.scalarKind(), n) : t; }

// The user function with the parameters marked in `vec` as vectors of width n (and a vector
// result). Null when the function is not lane-wise.
std::shared_ptr<const ir::UserFunDef> vectorUserFun(const ir::UserFunDef& d, const std::vector<bool>& vec,
                                                    int n, std::string& why) {
  if (!ir::canVectorize(d)) {
    why = fmt::format("user function '{}' is not one lane-wise arithmetic expression", d.name);
    return nullptr;
  }
  std::string sig;
  for (bool v : vec) sig += v ? 'v' : 's';
  std::string name = fmt::format("{}_{}{}", d.name, sig, n);
  std::string key = name + "|" + d.bodyText + "|" + d.returnType.toString();
  for (auto& [pn, pt] : d.params) key += "|" + pt.toString();
  auto def = cachedUserFun(key, [&]() -> std::shared_ptr<ir::UserFunDef> {
    auto u = std::make_shared<ir::UserFunDef>();
    u->name = name;
    for (size_t i = 0; i < d.params.size(); ++i)
      u->params.emplace_back(d.params[i].first,
                             vec[i] ? vectorOf(d.params[i].second, n) : d.params[i].second);
    u->returnType = vectorOf(d.returnType, n);
    u->bodyText = d.bodyText;
    u->loc = d.loc;
    try {
      u->body = cfun::parseBody(u->bodyText, u->params, u->returnType, d.loc.file, d.loc.line, d.loc.col);
    } catch (const LiftError& e) {
      return nullptr;
    }
    return u;
  });
  if (!def) why = fmt::format("user function '{}' has no vector version", d.name);
  return def;
}

// A type with its scalars made vectors of width n (for the initial values of reductions).
Type laneType(Type t, int n) {
  if (!t) return t;
  switch (t.kind()) {
    case Type::Kind::Scalar:
      return Type::vector(t.scalarKind(), n);
    case Type::Kind::Array:
      return Type::array(laneType(t.elem(), n), t.length());
    default:
      return t;
  }
}

// Rebuilds an expression whose element-dependent values become vectors.
class LaneVectorizer {
 public:
  LaneVectorizer(const Site& s, int n) : site_(s), n_(n) {}
  std::string why;

  // The rebuilt expression and its lane; null on failure (why says why).
  std::pair<Expr, Lane> expr(const Expr& e) {
    if (!why.empty()) return {nullptr, {}};
    if (auto* p = ir::asParam(e)) {
      auto it = env_.find(p);
      return {e, it == env_.end() ? Lane{} : it->second};
    }
    if (ir::asLiteral(e)) return {e, Lane{}};
    auto* c = ir::asCall(e);
    if (!c) return fail("unknown expression");
    std::vector<Expr> args;
    std::vector<Lane> lanes;
    for (auto& a : c->args()) {
      auto [na, la] = expr(a);
      if (!na) return {nullptr, {}};
      args.push_back(na);
      lanes.push_back(la);
    }
    const Fun& f = c->fun();
    if (auto* u = ir::asUserFun(f)) {
      std::vector<bool> vec;
      bool anyVec = false;
      std::vector<Lane> argLanes = lanes;
      // One tuple for several parameters: the components are the arguments.
      if (lanes.size() == 1 && u->def().params.size() > 1 && lanes[0].comps.size() == u->def().params.size())
        argLanes = lanes[0].comps;
      for (auto& l : argLanes) {
        if (!l.comps.empty())
          return fail(fmt::format("a tuple flows into user function '{}'", u->def().name));
        vec.push_back(l.vary);
        anyVec = anyVec || l.vary;
      }
      if (!anyVec) return {m::call(f, args), Lane{}};
      auto def = vectorUserFun(u->def(), vec, n_, why);
      if (!def) return {nullptr, {}};
      return {m::call(ir::UserFunNode::make(def), args), Lane::leaf(true)};
    }
    if (auto* l = ir::asLambda(f)) {
      if (l->params().size() != args.size()) return fail("a lambda applied to the wrong number of arguments");
      for (size_t i = 0; i < args.size(); ++i) env_[l->params()[i].get()] = lanes[i];
      auto [body, lane] = expr(l->body());
      if (!body) return {nullptr, {}};
      return {m::call(ir::LambdaNode::make(l->params(), body), args), lane};
    }
    auto* p = ir::asPattern(f);
    if (!p) return fail("unknown function");
    PatternKind k = p->pattern();
    switch (k) {
      case PatternKind::Map:
      case PatternKind::MapSeq: {
        auto [g, lane] = fun1(p->f(), lanes.back());
        if (!g) return {nullptr, {}};
        return {m::call(m::withFun(*p, g), args), lane};
      }
      case PatternKind::Reduce:
      case PatternKind::ReduceSeq: {
        // The accumulator varies when its initial value or what the operator makes of an
        // element does: iterate to the fixed point.
        Lane acc = lanes[0];
        Fun g;
        for (int round = 0; round < 4; ++round) {
          auto [ng, out] = fun2(p->f(), acc, lanes[1]);
          if (!ng) return {nullptr, {}};
          g = ng;
          Lane next = merge(acc, out);
          if (next == acc) break;
          acc = next;
        }
        Expr init = args[0];
        if (acc.any() && !lanes[0].any()) {
          auto* lit = ir::asLiteral(init);
          if (!lit) return fail("the initial value of a reduction that becomes a vector is not a constant");
          if (!acc.comps.empty()) return fail("a reduction of tuples");
          init = ir::LiteralNode::make(lit->text(), laneType(lit->type(), n_));
        }
        return {m::call(m::withFun(*p, g), {init, args[1]}), acc};
      }
      case PatternKind::Zip:
      case PatternKind::Tuple: {
        Lane t;
        t.comps = lanes;
        return {m::call(f, args), t};
      }
      case PatternKind::Get:
        return {m::call(f, args), component(lanes[0], static_cast<size_t>(p->index()))};
      case PatternKind::Split:
      case PatternKind::Join:
      case PatternKind::Transpose:
      case PatternKind::Gather:
      case PatternKind::Scatter:
      case PatternKind::Slide:
      case PatternKind::Id:
        return {m::call(f, args), lanes[0]};
      case PatternKind::ToPrivate:
      case PatternKind::ToLocal:
      case PatternKind::ToGlobal: {
        auto [g, lane] = fun1(p->f(), lanes.back());
        if (!g) return {nullptr, {}};
        return {m::call(m::withFun(*p, g), args), lane};
      }
      default:
        if (std::any_of(lanes.begin(), lanes.end(), [](const Lane& l) { return l.any(); }))
          return fail(fmt::format("{} of a value that becomes a vector", patName(k)));
        return {m::call(f, args), Lane{}};
    }
  }

  void bind(const ir::ParamNode* p, Lane l) { env_[p] = std::move(l); }

 private:
  std::pair<Expr, Lane> fail(const std::string& w) {
    if (why.empty()) why = w;
    return {nullptr, {}};
  }

  // A function of one argument (map's f) applied to a value of lane `in`.
  std::pair<Fun, Lane> fun1(const Fun& f, const Lane& in) {
    if (auto* l = ir::asLambda(f)) {
      if (l->params().size() != 1) {
        // fun((a, b) => ...) applied to tuples.
        for (size_t i = 0; i < l->params().size(); ++i) env_[l->params()[i].get()] = component(in, i);
      } else {
        env_[l->params()[0].get()] = in;
      }
      auto [body, lane] = expr(l->body());
      if (!body) return {nullptr, {}};
      return {ir::LambdaNode::make(l->params(), body), lane};
    }
    // A user function or a pattern: apply it to a parameter.
    ir::Param x = ir::ParamNode::make("lane_x");
    env_[x.get()] = in;
    auto [body, lane] = expr(m::call(f, {x}));
    if (!body) return {nullptr, {}};
    auto* c = ir::asCall(body);
    if (c && c->args().size() == 1 && c->args()[0] == x) return {c->fun(), lane};
    return {ir::LambdaNode::make({x}, body), lane};
  }

  // A function of two arguments (a reduction's operator).
  std::pair<Fun, Lane> fun2(const Fun& f, const Lane& a, const Lane& b) {
    if (auto* l = ir::asLambda(f); l && l->params().size() == 2) {
      env_[l->params()[0].get()] = a;
      env_[l->params()[1].get()] = b;
      auto [body, lane] = expr(l->body());
      if (!body) return {nullptr, {}};
      return {ir::LambdaNode::make(l->params(), body), lane};
    }
    ir::Param x = ir::ParamNode::make("lane_a"), y = ir::ParamNode::make("lane_b");
    env_[x.get()] = a;
    env_[y.get()] = b;
    auto [body, lane] = expr(m::call(f, {x, y}));
    if (!body) return {nullptr, {}};
    auto* c = ir::asCall(body);
    if (c && c->args().size() == 2 && c->args()[0] == x && c->args()[1] == y) return {c->fun(), lane};
    return {ir::LambdaNode::make({x, y}, body), lane};
  }

  const Site& site_;
  int n_;
  std::unordered_map<const ir::ParamNode*, Lane> env_;
};

Fun transposeFun() { return ir::PatternNode::make(PatternKind::Transpose, {}); }

// The function taking one vectorised result of type `t` (scalars made vectors of n) to the n
// results it holds: [T]n (lanes out, outermost).
Fun lanesOut(Type t, int64_t n, std::string& why) {
  if (!t.isArray()) {
    why = "the map's function returns a scalar inside a tuple";
    return nullptr;
  }
  Type e = t.elem();
  if (e.isScalar()) {
    // [s]m as [sn]m -> asScalar -> [s]m*n -> split(n) -> [[s]n]m -> transpose -> [[s]m]n
    return m::compose(transposeFun(), m::compose(m::splitFun(arith::cst(n)), asScalarFun()));
  }
  if (e.isArray()) {
    Fun inner = lanesOut(e, n, why);
    if (!inner) return nullptr;
    return m::compose(transposeFun(), m::mapOfKind(PatternKind::Map, inner));
  }
  why = fmt::format("the map's function returns {}, not arrays of scalars", typeStr(t));
  return nullptr;
}

Outcome vectorizeLanes(const Site& s, const ParamValues& pv) {
  auto mc = m::mapCall(s.expr(), PatternKind::Map);
  if (!mc) return fail("not a call of map");
  int64_t n = pv.integer("n");
  Type in = typeAt(s, mc->input);
  Type out = typeAt(s, s.expr());
  if (!in || !out) return unknownType(s);
  if (!in.isArray()) return fail("the input is not an array");
  Type elem = in.elem();
  bool columns = elem.isArray() && elem.elem().isScalar();
  if (!elem.isScalar() && !columns)
    return fail("the elements are {}, not scalars or arrays of scalars", typeStr(elem));
  if (!arith::provablyDivisible(in.length(), arith::cst(n)))
    return fail("the vector width {} does not provably divide the length {}", n, str(in.length()));
  Type res = out.elem();
  if (!res.isScalar() && !(res.isArray()))
    return fail("the map's function returns {}, not scalars or arrays", typeStr(res));

  // The function on vectors.
  LaneVectorizer v(s, static_cast<int>(n));
  Fun fv;
  Lane lane;
  if (auto* l = ir::asLambda(mc->f); l && l->params().size() == 1) {
    v.bind(l->params()[0].get(), Lane::leaf(true));
    auto [body, lb] = v.expr(l->body());
    if (!body) return Outcome::fail(v.why);
    fv = ir::LambdaNode::make(l->params(), body);
    lane = lb;
  } else {
    ir::Param x = ir::ParamNode::make("x");
    v.bind(x.get(), Lane::leaf(true));
    auto [body, lb] = v.expr(m::call(mc->f, {x}));
    if (!body) return Outcome::fail(v.why);
    fv = ir::LambdaNode::make({x}, body);
    lane = lb;
  }
  if (!lane.all())
    return fail("part of the map's result does not depend on the element (it would not be a vector)");
  // The vectorised function must accept the vectors it will be given (a scalar captured from
  // outside the map, passed where the vectorised user function wants a vector, does not).
  {
    Type velem = elem.isScalar() ? Type::vector(elem.scalarKind(), static_cast<int>(n))
                                 : Type::array(Type::vector(elem.elem().scalarKind(), static_cast<int>(n)),
                                               elem.length());
    ir::TypeCheckOptions opts;
    opts.checkParallelNesting = false;
    // Parameters captured from outside the map become extra arguments, typed where they are bound.
    std::vector<ir::Param> params = ir::asLambda(fv)->params();
    std::vector<Type> argTypes{velem};
    for (const ir::Param& free : ir::freeParams(fv)) {
      Type t = typeAt(s, free);
      if (!t) return unknownType(s);
      params.push_back(free);
      argTypes.push_back(t);
    }
    try {
      ir::typeCheck(ir::LambdaNode::make(params, ir::asLambda(fv)->body()), argTypes, opts);
    } catch (const LiftError& e) {
      return fail("the vectorised function does not type-check: {}", e.diagnostic().message);
    }
  }

  // The input read as vectors.
  Expr vin;
  if (elem.isScalar()) {
    vin = asVector(n, mc->input);
  } else if (auto* t = m::callOf(mc->input, PatternKind::Transpose)) {
    (void)t;
    vin = m::callTranspose(m::callMap(PatternKind::Map, asVectorFun(n), m::arg(mc->input, 0)));
  } else {
    vin = m::callTranspose(m::callMap(PatternKind::Map, asVectorFun(n), m::callTranspose(mc->input)));
  }
  Expr mapped = m::callMap(PatternKind::Map, fv, vin);
  if (res.isScalar()) return Outcome::ok(m::call(asScalarFun(), {mapped}));
  std::string why;
  Fun back = lanesOut(res, n, why);
  if (!back) return Outcome::fail(why);
  return Outcome::ok(m::callJoin(m::callMap(PatternKind::Map, back, mapped)));
}

}  // namespace

void registerVectorisationRules(RuleRegistry& reg) {
  using K = PatternKind;
  std::vector<K> maps = {K::Map, K::MapSeq, K::MapGlb, K::MapWrg, K::MapLcl};
  reg.add(
      withWidth(makeRule("vectorize-map", Family::Vectorisation,
                         "Apply a scalar user function to vectors of n elements at a time.", "map(f)",
                         "asScalar o map(vectorize(n, f)) o asVector(n)", maps, vectorizeMap, "vectorize")));
  reg.add(withWidth(makeRule("vectorize-map-zip", Family::Vectorisation,
                             "Vectorise a map over zipped scalar arrays (004 section 5.3).",
                             "zip(a, b) >> map(f)",
                             "zip(asVector(n, a), asVector(n, b)) >> map(vectorize(n, f)) >> asScalar", maps,
                             vectorizeMapZip, "vectorizeMapZip")));
  reg.add(withWidth(
      makeRule("vectorize-reduce", Family::Vectorisation,
               "Reduce vectors lane-wise, then the lanes (needs a commutative operator; 004 section 5.3).",
               "reduce(f, z)", "reduce(f, z) o asScalar o reduce(vectorize(n, f), (floatn)z) o asVector(n)",
               {K::Reduce, K::ReduceSeq}, vectorizeReduce, "vectorizeReduce")));
  reg.add(withWidth(makeRule(
      "vectorize-to-address-space", Family::Vectorisation,
      "Vectorise a map of a user function that writes to an address space, keeping the address space.",
      "map(toGlobal(f))", "asScalar o map(toGlobal(vectorize(n, f))) o asVector(n)", maps,
      vectorizeToAddressSpace, "vectorizeToAddressSpace")));
  reg.add(withWidth(makeRule(
      "partial-reduce-vectorize", Family::Vectorisation,
      "Compute the partial results a reduction consumes lane-wise on vectors (needs a commutative operator).",
      "reduce(f, z) o partRed(f, z, m)",
      "reduce(f, z) o asScalar o partRed(vectorize(n, f), (floatn)z, m) o asVector(n)", {K::PartRed},
      partialReduceVectorize, "partialReduceVectorize")));
  Rule lanes =
      makeRule("vectorize-lanes", Family::Vectorisation,
               "Compute n neighbouring iterations of a map at once, in the lanes of vectors (SIMD across "
               "iterations); arrays of columns are read as rows of vectors.",
               "map(f) $ X", "unlanes o map(f on vectors) $ lanes(n, X)", {PatternKind::Map}, vectorizeLanes);
  lanes.params = {{"n", ParamKind::Width, "vector width", "4", {}}};
  lanes.candidates = [](const Site&) {
    return std::vector<ParamValues>{{{"n", "4"}}, {{"n", "8"}}, {{"n", "16"}}, {{"n", "2"}}};
  };
  reg.add(std::move(lanes));
}

}  // namespace lift::rewrite
