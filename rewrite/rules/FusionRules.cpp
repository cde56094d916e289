// Fusion rules: two patterns become one and the intermediate array disappears (map fusion,
// fusion through zip, reduce-map fusion as in the 003 slides' step 7 and 000 Figure 5.7g), and
// the fusion of user functions:
//
//   userfun-fusion       f(.., g(..), ..)  =>  fg(.., .., ..)
//       A user function applied to the result of another becomes one user function whose
//       body is the composition (both bodies single expressions): `acc + x * y` in one
//       expression lets the OpenCL compiler contract it into a fused multiply-add.
//   userfun-fusion-lanes the same where userfun-fusion does not apply: lane-wise,
//       vectorize(n, f)(.., vectorize(n, g)(..), ..) => vectorize(n, fg)(.., .., ..), and with g's
//       arguments as one tuple (a zip's element): f(acc, g(p)) => fg(acc, get(0, p), get(1, p)).
//       Phase 1 of the explorer does not apply it (AlgorithmicOptions::excluded); the CPU's row-block
//       start does (explore/RowBlockStarts.h).
//
// and fusion in zips and tuples (Lift tupleMap, fuseZipTuple, mapFusionInZip, reduceFusionInZip):
// maps or reductions side by side become one over the zip of their inputs.
#include <map>
#include <regex>
#include <set>
#include <variant>

#include "core/cfun/CFun.h"
#include "core/ir/Vectorizable.h"
#include "rewrite/rules/RuleSupport.h"

namespace lift::rewrite {

namespace {

using namespace support;
using ir::PatternKind;

constexpr PatternKind kMaps[] = {PatternKind::Map,    PatternKind::MapSeq, PatternKind::MapSeqUnroll,
                                 PatternKind::MapGlb, PatternKind::MapWrg, PatternKind::MapLcl};

std::vector<PatternKind> mapKinds() { return {std::begin(kMaps), std::end(kMaps)}; }

Outcome mapFusion(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr());
  if (!outer) return fail("not a call of a map");
  auto inner = m::mapCall(outer->input);
  if (!inner) return fail("the input of the {} is not computed by a map", patName(outer->kind()));
  if (inner->kind() != outer->kind() || inner->dim() != outer->dim())
    return fail("the maps are of different kinds ({} of {}); only maps of the same kind fuse",
                patName(outer->kind()), patName(inner->kind()));
  return Outcome::ok(m::callMap(outer->kind(), m::compose(outer->f, inner->f), inner->input, outer->dim()));
}

Outcome mapFusionZip(const Site& s, const ParamValues&) {
  auto outer = m::mapCall(s.expr());
  if (!outer) return fail("not a call of a map");
  if (!m::callOf(outer->input, PatternKind::Zip))
    return fail("the input of the {} is not a zip", patName(outer->kind()));
  auto* zip = ir::asCall(outer->input);
  std::vector<std::optional<m::MapCall>> inners;
  bool any = false;
  for (auto& a : zip->args()) {
    auto mc = m::mapCall(a);
    if (mc && (mc->kind() != outer->kind() || mc->dim() != outer->dim())) mc.reset();
    any = any || mc.has_value();
    inners.push_back(mc);
  }
  if (!any) return fail("none of the zipped arrays is computed by a {}", patName(outer->kind()));
  std::vector<Expr> newArgs;
  for (size_t i = 0; i < inners.size(); ++i) newArgs.push_back(inners[i] ? inners[i]->input : zip->args()[i]);
  Fun f = m::lambda1("p", [&](Expr p) {
    std::vector<Expr> comps;
    for (size_t i = 0; i < inners.size(); ++i) {
      Expr g = m::callGet(static_cast<int>(i), p);
      comps.push_back(inners[i] ? m::apply(inners[i]->f, {g}) : g);
    }
    return applyToTuple(outer->f, std::move(comps));
  });
  return Outcome::ok(m::callMap(outer->kind(), f, m::callZip(std::move(newArgs)), outer->dim()));
}

Outcome reduceMapFusion(const Site& s, PatternKind reduceKind, std::initializer_list<PatternKind> mapKinds) {
  auto r = m::reduceCall(s.expr(), reduceKind);
  if (!r) return fail("not a call of {}", patName(reduceKind));
  auto mc = m::mapCall(r->input);
  bool kindOk = false;
  for (auto k : mapKinds) kindOk = kindOk || (mc && mc->kind() == k);
  if (!kindOk) {
    std::string kinds;
    for (auto k : mapKinds) kinds += (kinds.empty() ? "" : " or ") + patName(k);
    return fail("the input of the {} is not computed by {}", patName(reduceKind), kinds);
  }
  Fun f = m::lambda2("acc", "x", [&](Expr acc, Expr x) {
    return m::apply(r->f, {acc, m::apply(mc->f, {x})});
  });
  return Outcome::ok(m::callReduce(reduceKind, f, r->init, mc->input));
}

// ----- fusion in zips and tuples ----------------------------------------------------------------------

// The inputs of maps side by side (all calls of map, over arrays of one length), or why not.
std::variant<std::vector<m::MapCall>, Outcome> sideBySideMaps(const Site& s, const ir::CallNode& c,
                                                              const char* what) {
  std::vector<m::MapCall> maps;
  arith::Expr len;
  for (size_t i = 0; i < c.args().size(); ++i) {
    auto mc = m::mapCall(c.args()[i], PatternKind::Map);
    if (!mc) return fail("component {} of the {} is not computed by map", i, what);
    arith::Expr l = lengthAt(s, mc->input);
    if (!l) return unknownType(s);
    if (len && l != len)
      return fail("the mapped arrays have different lengths ({} and {})", str(len), str(l));
    len = l;
    maps.push_back(*mc);
  }
  return maps;
}

// map(x => tuple(f(x._0), g(x._1), ...)) $ zip(a, b, ...) for the maps map(f) $ a, map(g) $ b, ...
Expr mapOfTuples(const std::vector<m::MapCall>& maps) {
  std::vector<Expr> inputs;
  for (auto& mc : maps) inputs.push_back(mc.input);
  Fun f = m::lambda1("x", [&](Expr x) {
    std::vector<Expr> parts;
    for (size_t i = 0; i < maps.size(); ++i)
      parts.push_back(m::apply(maps[i].f, {m::callGet(static_cast<int>(i), x)}));
    return m::callTuple(std::move(parts));
  });
  return m::callMap(PatternKind::Map, f, m::callZip(std::move(inputs)));
}

Outcome tupleMap(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Tuple)) return fail("not a call of tuple");
  auto v = sideBySideMaps(s, *ir::asCall(s.expr()), "tuple");
  if (auto* o = std::get_if<Outcome>(&v)) return *o;
  return Outcome::ok(m::call(ir::unzip(), {mapOfTuples(std::get<std::vector<m::MapCall>>(v))}));
}

Outcome mapFusionInZip(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Zip)) return fail("not a call of zip");
  auto v = sideBySideMaps(s, *ir::asCall(s.expr()), "zip");
  if (auto* o = std::get_if<Outcome>(&v)) return *o;
  return Outcome::ok(mapOfTuples(std::get<std::vector<m::MapCall>>(v)));
}

Outcome reduceFusionInZip(const Site& s, const ParamValues&) {
  if (!m::callOf(s.expr(), PatternKind::Zip)) return fail("not a call of zip");
  const auto& args = ir::asCall(s.expr())->args();
  std::vector<m::ReduceCall> reds;
  arith::Expr len;
  for (size_t i = 0; i < args.size(); ++i) {
    auto r = m::reduceCall(args[i]);
    if (!r || (r->kind() != PatternKind::Reduce && r->kind() != PatternKind::ReduceSeq))
      return fail("component {} of the zip is not computed by reduce or reduceSeq", i);
    if (!reds.empty() && r->kind() != reds[0].kind())
      return fail("the reductions are of different kinds ({} and {})", patName(reds[0].kind()),
                  patName(r->kind()));
    arith::Expr l = lengthAt(s, r->input);
    if (!l) return unknownType(s);
    if (len && l != len)
      return fail("the reduced arrays have different lengths ({} and {})", str(len), str(l));
    len = l;
    reds.push_back(*r);
  }
  std::vector<Expr> inits, inputs;
  for (auto& r : reds) {
    inits.push_back(r.init);
    inputs.push_back(r.input);
  }
  Fun f = m::lambda2("acc", "x", [&](Expr acc, Expr x) {
    std::vector<Expr> parts;
    for (size_t i = 0; i < reds.size(); ++i) {
      int k = static_cast<int>(i);
      parts.push_back(m::apply(reds[i].f, {m::callGet(k, acc), m::callGet(k, x)}));
    }
    return m::callTuple(std::move(parts));
  });
  return Outcome::ok(
      m::callReduce(reds[0].kind(), f, m::callTuple(std::move(inits)), m::callZip(std::move(inputs))));
}

Outcome fuseZipTuple(const Site& s, const ParamValues&) {
  auto* c = ir::asCall(s.expr());
  auto* l = c ? ir::asLambda(c->fun()) : nullptr;
  if (!l || l->params().size() != 1 || c->args().size() != 1)
    return fail("not a call of a lambda of one parameter");
  if (!m::callOf(c->args()[0], PatternKind::Tuple)) return fail("the argument of the lambda is not a tuple");
  const auto& comps = ir::asCall(c->args()[0])->args();
  const ir::ParamNode* p = l->params()[0].get();
  int n = static_cast<int>(comps.size());
  // The zip of all the tuple's components, each once: zip(t._i, t._j, ...).
  const ir::CallNode* zip = nullptr;
  ir::visitPreOrder(l->body(), [&](const ir::NodePath& path) {
    const ir::NodeRef& node = path.back().node;
    if (zip || !node.isExpr() || !m::callOf(node.expr(), PatternKind::Zip)) return !zip;
    auto* z = ir::asCall(node.expr());
    std::vector<int> seen(static_cast<size_t>(n), 0);
    for (auto& a : z->args()) {
      auto* g = m::callOf(a, PatternKind::Get);
      if (!g || ir::asParam(m::arg(a, 0)) != p || g->index() >= n || seen[static_cast<size_t>(g->index())]++)
        return true;
    }
    if (static_cast<int>(z->args().size()) == n) zip = z;
    return !zip;
  });
  if (!zip)
    return fail("the lambda's body zips no tuple of all {} components of '{}', each once", n, p->name());
  if (m::uses(l->body(), p) != n) return fail("'{}' is used outside the zip of its components", p->name());
  Expr body = replaceComponents(l->body(), p, [&](int i) { return comps[static_cast<size_t>(i)]; });
  return Outcome::ok(body);
}

// ----- userfun-fusion ------------------------------------------------------------------------

// The expression of a body `return EXPR;`, or "".
std::string singleReturn(const ir::UserFunDef& d) {
  static const std::regex ret(R"(^\s*return\s+([^;]*);\s*$)");
  std::smatch m;
  if (!std::regex_match(d.bodyText, m, ret)) return "";
  return m[1];
}

std::string renameIdents(const std::string& text, const std::map<std::string, std::string>& names) {
  static const std::regex ident(R"([A-Za-z_][A-Za-z0-9_]*)");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), ident); it != std::sregex_iterator(); ++it) {
    size_t pos = static_cast<size_t>(it->position());
    // Skip vector components (v.x) and numeric suffixes (1.0f).
    bool member =
        pos > 0 && (text[pos - 1] == '.' || std::isdigit(static_cast<unsigned char>(text[pos - 1])));
    out += text.substr(last, pos - last);
    auto f = names.find(it->str());
    out += (!member && f != names.end()) ? f->second : it->str();
    last = pos + it->str().size();
  }
  return out + text.substr(last);
}

// The user function a call applies, itself or lane-wise (vectorize(n, f): *width = n; else 0).
const ir::UserFunNode* calledUserFun(const ir::CallNode& c, int64_t* width) {
  *width = 0;
  if (auto* u = ir::asUserFun(c.fun())) return u;
  auto* p = ir::asPattern(c.fun());
  if (!p || p->pattern() != PatternKind::Vectorize || p->params().sizes.empty() ||
      !p->params().sizes[0].isCst())
    return nullptr;
  auto* u = ir::asUserFun(p->f());
  if (u) *width = p->params().sizes[0].value();
  return u;
}

// userfun-fusion (lanes false): f and g called directly, g's arguments its own. userfun-fusion-lanes
// (lanes true): what userfun-fusion refuses, f and g lane-wise (vectorize(n, ..)) or g's arguments
// the components of one tuple.
Outcome fuseUserFuns(const Site& s, bool lanes) {
  auto* c = ir::asCall(s.expr());
  int64_t width = 0;
  auto* f = c ? calledUserFun(*c, &width) : nullptr;
  if (!f || (!lanes && width > 0)) return fail("not a call of a user function");
  std::string fe = singleReturn(f->def());
  if (fe.empty()) return fail("the body of '{}' is not one return statement", f->def().name);
  if (c->args().size() != f->def().params.size())
    return fail("'{}' takes its arguments as a tuple", f->def().name);
  for (size_t i = 0; i < c->args().size(); ++i) {
    auto* ic = ir::asCall(c->args()[i]);
    int64_t gWidth = 0;
    auto* g = ic ? calledUserFun(*ic, &gWidth) : nullptr;
    if (!g || gWidth != width) continue;
    // g's arguments, or the components of the one tuple it takes them as (a zip's element, as
    // after reduce-map-fusion: add(acc, mult(p)) => add_mult(acc, get(0, p), get(1, p))).
    std::vector<Expr> gArgs(ic->args().begin(), ic->args().end());
    bool tupleArgs = gArgs.size() == 1 && g->def().params.size() > 1;
    if (lanes != (tupleArgs || width > 0)) continue;
    if (tupleArgs) {
      Type t = s.typeOf(gArgs[0]);
      if (!m::isTrivial(gArgs[0]) || !t || !t.isTuple() || t.tupleElems().size() != g->def().params.size())
        continue;
      Expr tuple = gArgs[0];
      gArgs.clear();
      for (size_t j = 0; j < g->def().params.size(); ++j)
        gArgs.push_back(m::callGet(static_cast<int>(j), tuple));
    }
    if (gArgs.size() != g->def().params.size()) continue;
    std::string ge = singleReturn(g->def());
    if (ge.empty()) continue;
    const ir::UserFunDef& fd = f->def();
    const ir::UserFunDef& gd = g->def();
    // Parameters: f's before i, g's (renamed apart), f's after i.
    std::map<std::string, std::string> gNames;
    std::vector<std::pair<std::string, Type>> params;
    std::vector<Expr> args;
    std::set<std::string> taken;
    for (auto& [pn, pt] : fd.params) taken.insert(pn);
    for (size_t j = 0; j < i; ++j) {
      params.push_back(fd.params[j]);
      args.push_back(c->args()[j]);
    }
    for (size_t j = 0; j < gd.params.size(); ++j) {
      std::string name = gd.params[j].first;
      while (taken.count(name)) name += "_";
      taken.insert(name);
      gNames[gd.params[j].first] = name;
      params.emplace_back(name, gd.params[j].second);
      args.push_back(gArgs[j]);
    }
    for (size_t j = i + 1; j < fd.params.size(); ++j) {
      params.push_back(fd.params[j]);
      args.push_back(c->args()[j]);
    }
    std::string inner = "(" + renameIdents(ge, gNames) + ")";
    std::string body = " return " + renameIdents(fe, {{fd.params[i].first, inner}}) + "; ";
    std::string name = fd.name + "_" + gd.name;
    std::string key = name + "|" + body + "|" + fd.returnType.toString();
    for (auto& [pn, pt] : params) key += "|" + pn + ":" + pt.toString();
    auto def = cachedUserFun(key, [&]() -> std::shared_ptr<ir::UserFunDef> {
      auto u = std::make_shared<ir::UserFunDef>();
      u->name = name;
      u->params = params;
      u->returnType = fd.returnType;
      u->bodyText = body;
      u->loc = fd.loc;
      try {
        u->body =
            cfun::parseBody(u->bodyText, u->params, u->returnType, fd.loc.file, fd.loc.line, fd.loc.col);
      } catch (const LiftError&) {
        return nullptr;
      }
      return u;
    });
    if (!def) continue;
    Fun fused = ir::UserFunNode::make(def);
    if (width > 0) {
      if (!ir::canVectorize(*def)) continue;
      ir::PatternNode::Params ps;
      ps.funs = {fused};
      ps.sizes = {arith::cst(width)};
      fused = ir::PatternNode::make(PatternKind::Vectorize, std::move(ps));
    }
    return Outcome::ok(m::call(fused, args));
  }
  if (lanes)
    return fail(
        "no argument of '{}' is a lane-wise call of the same width, or a call with its arguments as one "
        "tuple, of "
        "a user function with a one-expression body",
        f->def().name);
  return fail("no argument of '{}' is a call of a user function with a one-expression body", f->def().name);
}

Outcome userFunFusion(const Site& s, const ParamValues&) { return fuseUserFuns(s, false); }
Outcome userFunFusionLanes(const Site& s, const ParamValues&) { return fuseUserFuns(s, true); }

}  // namespace

void registerFusionRules(RuleRegistry& reg) {
  reg.add(makeRule("map-fusion", Family::Fusion,
                   "Fuse two maps of the same kind into one map of the composition.", "map(f) o map(g)",
                   "map(f o g)", mapKinds(), mapFusion, "mapFusion"));
  reg.add(makeRule("map-fusion-zip", Family::Fusion,
                   "Fuse maps computing zipped arrays into the map over the zip (fusion through zip).",
                   "map(f) $ zip(map(g) $ a, b)", "map(p => f(g(p._0), p._1)) $ zip(a, b)", mapKinds(),
                   mapFusionZip, "mapFusionWithZip"));
  reg.add(makeRule(
      "reduce-map-fusion", Family::Fusion,
      "Fuse a map into the reduction that consumes it (the reduction becomes sequential in meaning).",
      "reduce(f, z) o map(g)", "reduce((acc, x) => f(acc, g(x)), z)", {PatternKind::Reduce},
      [](const Site& s, const ParamValues&) {
        return reduceMapFusion(s, PatternKind::Reduce, {PatternKind::Map});
      },
      "reduceMapFusion"));
  reg.add(makeRule(
      "reduce-seq-map-fusion", Family::Fusion,
      "Fuse a sequential map into the sequential reduction that consumes it (no intermediate array).",
      "reduceSeq(f, z) o mapSeq(g)", "reduceSeq((acc, x) => f(acc, g(x)), z)", {PatternKind::ReduceSeq},
      [](const Site& s, const ParamValues&) {
        return reduceMapFusion(s, PatternKind::ReduceSeq, {PatternKind::MapSeq, PatternKind::Map});
      },
      "reduceSeqMapSeqFusion"));
  reg.add(
      makeRule("userfun-fusion", Family::Fusion,
               "Fuse a user function with one whose result it takes into one user function (one expression, "
               "so that a * b + c can become a fused multiply-add).",
               "f(x, g(y, z))", "fg(x, y, z)", {}, userFunFusion));
  reg.add(makeRule(
      "userfun-fusion-lanes", Family::Fusion,
      "userfun-fusion of lane-wise functions (vectorize(n, f) of vectorize(n, g)) or of a g that takes "
      "its arguments as one tuple (add(acc, mult(p)) after reduce-map-fusion).",
      "vectorize(n, f)(x, vectorize(n, g)(p))", "vectorize(n, fg)(x, p._0, p._1)", {}, userFunFusionLanes));
  reg.add(makeRule("tuple-map", Family::Fusion,
                   "Compute a tuple of maps over arrays of one length as one map over their zip, unzipped.",
                   "tuple(map(f) $ a, map(g) $ b)", "unzip o map(x => tuple(f(x._0), g(x._1))) $ zip(a, b)",
                   {PatternKind::Tuple}, tupleMap, "tupleMap"));
  reg.add(
      makeRule("map-fusion-in-zip", Family::Fusion,
               "Compute the zip of maps over arrays of one length as one map over the zip of their inputs.",
               "zip(map(f) $ a, map(g) $ b)", "map(x => tuple(f(x._0), g(x._1))) $ zip(a, b)",
               {PatternKind::Zip}, mapFusionInZip, "mapFusionInZip"));
  reg.add(makeRule("reduce-fusion-in-zip", Family::Fusion,
                   "Compute the zip of reductions of arrays of one length as one reduction of tuples.",
                   "zip(reduce(f, z1) $ a, reduce(g, z2) $ b)",
                   "reduce((acc, x) => tuple(f(acc._0, x._0), g(acc._1, x._1)), tuple(z1, z2)) $ zip(a, b)",
                   {PatternKind::Zip}, reduceFusionInZip, "reduceFusionInZip"));
  reg.add(makeRule("fuse-zip-tuple", Family::Fusion,
                   "Zip the components of a tuple directly where a lambda only zips them.",
                   "(fun(t => F[zip(t._0, t._1)])) $ tuple(a, b)", "F[zip(a, b)]", {}, fuseZipTuple,
                   "fuseZipTuple"));
}

}  // namespace lift::rewrite
