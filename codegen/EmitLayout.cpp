// The emitters of the vector and data-layout patterns (KernelGenerator.h). Read, a data-layout
// pattern wraps the view of its argument; produced into a destination, it pushes the
// destination through its inverse (join(dest) for a split). mapVec and vectorize apply a
// function lane by lane, or its vector version (Vectorization.h).
#include <fmt/format.h>

#include "codegen/KernelGenerator.h"
#include "codegen/LoweringCheck.h"
#include "codegen/Vectorization.h"
#include "codegen/ViewConsumer.h"
#include "core/ir/TypeCheck.h"

namespace lift::codegen {

using K = ir::PatternKind;
using arith::cst;

// The view of a data-layout pattern (or a map of one) applied to args; nothing for a pattern
// that computes.
std::optional<View> KernelGenerator::readLayout(const ir::Fun& pattern, std::vector<Arg>& args,
                                                ir::NodeId site) {
  const ir::PatternNode& p = *ir::asPattern(pattern);
  const auto& ps = p.params();
  auto arg = [&](size_t i) { return readArg(args.at(i)); };
  switch (p.pattern()) {
    case K::Split:
      return view::split(arg(0), ps.sizes.at(0));
    case K::Join:
      return view::join(arg(0));
    case K::Transpose:
      return view::transpose(arg(0));
    case K::Gather:
      return view::reindex(arg(0), ps.indexFun, false);
    case K::Scatter:
      return view::reindex(arg(0), ps.indexFun, true);
    case K::ReorderStride: {
      ir::IndexFun f;
      f.kind = ir::IndexFun::Kind::ReorderStride;
      f.a = ps.sizes.at(0);
      return view::reindex(arg(0), f, false);
    }
    case K::Slide:
      return view::slide(arg(0), ps.sizes.at(0), ps.sizes.at(1));
    case K::Pad:
      return view::pad(arg(0), ps.sizes.at(0), ps.sizes.at(1), ps.padMode, ps.padValue);
    case K::AsVector:
      return view::asVector(arg(0), static_cast<int>(ps.sizes.at(0).value()));
    case K::AsScalar:
      return view::asScalar(arg(0));
    case K::Zip: {
      std::vector<View> vs;
      for (size_t i = 0; i < args.size(); ++i) vs.push_back(arg(i));
      return view::zip(std::move(vs));
    }
    case K::Tuple: {
      std::vector<View> vs;
      for (size_t i = 0; i < args.size(); ++i) vs.push_back(arg(i));
      return view::tuple(std::move(vs));
    }
    case K::Head:  // [T]N as [[T]1]N, its first chunk
      return view::access(view::split(arg(0), cst(1)), cst(0));
    case K::Tail: {  // the second of the two windows of length N - 1
      View v = arg(0);
      return view::access(view::slide(v, v->type.length() - 1, cst(1)), cst(1));
    }
    case K::Get: {
      View v = arg(0);
      if (v->type.isArray()) return view::access(v, cst(ps.index));
      return view::get(v, ps.index);
    }
    case K::Unzip:
      return view::retype(arg(0), env_.typeOfApplication(pattern, args));
    case K::Map:
    case K::MapSeq:
    case K::MapSeqUnroll:
    case K::MapGlb:
    case K::MapWrg:
    case K::MapLcl:
    case K::MapWarp:
    case K::MapLane:
    case K::MapAtomWrg:
    case K::MapAtomLcl:
      if (isViewFunction(p.f())) {
        View av = arg(0);
        arith::Expr n = av->type.length();
        arith::Expr var = arith::var(fmt::format("map#{}", ++mapVars_), cst(0), n);
        std::vector<Arg> inner{viewArg(view::access(av, var))};
        View body = readApply(p.f(), inner, site, nullptr);
        return view::map(body, var, Type::array(body->type, n));
      }
      break;
    default:
      break;
  }
  return std::nullopt;
}

std::optional<View> KernelGenerator::destOfArg(const ir::Fun& f, const View& dest, Type argType) {
  if (auto* l = ir::asLambda(f)) {
    if (l->params().size() != 1) return std::nullopt;
    return destThrough(l->body(), dest, l->params()[0].get(), argType);
  }
  auto* p = ir::asPattern(f);
  if (!p) return std::nullopt;
  const auto& ps = p->params();
  switch (p->pattern()) {
    case K::Split:
      return view::join(dest);
    case K::Join:
      return view::split(dest, argType.elem().length());
    case K::Transpose:
    case K::TransposeW:
      return view::transpose(dest);
    case K::Gather:
      return view::reindex(dest, ps.indexFun, true);
    case K::Scatter:
      return view::reindex(dest, ps.indexFun, false);
    case K::ReorderStride: {
      ir::IndexFun g;
      g.kind = ir::IndexFun::Kind::ReorderStride;
      g.a = ps.sizes.at(0);
      return view::reindex(dest, g, true);
    }
    case K::AsVector:
      return view::asScalar(dest);
    case K::AsScalar:
      return view::asVector(dest, argType.elem().vectorWidth());
    case K::Unzip:
      return view::retype(dest, argType);
    case K::Id:
      return dest;
    case K::Map:
    case K::MapSeq:
    case K::MapSeqUnroll: {
      if (!isViewFunction(p->f())) return std::nullopt;
      arith::Expr n = argType.length();
      arith::Expr var = arith::var(fmt::format("map#{}", ++mapVars_), cst(0), n);
      auto inner = destOfArg(p->f(), view::access(dest, var), argType.elem());
      if (!inner) return std::nullopt;
      return view::map(*inner, var, argType);
    }
    default:
      return std::nullopt;
  }
}

std::optional<View> KernelGenerator::destThrough(const ir::Expr& e, const View& dest, const ir::ParamNode* p,
                                                 Type pType) {
  if (e.get() == p) return dest;
  auto* c = ir::asCall(e);
  if (!c || c->args().size() != 1) return std::nullopt;
  Type argT = env_.typeWith(c->args()[0], p, pType);
  auto d = destOfArg(c->fun(), dest, argT);
  if (!d) return std::nullopt;
  return destThrough(c->args()[0], *d, p, pType);
}

void KernelGenerator::mapVec(const ir::PatternNode& p, Arg& v, const View& dest, ir::NodeId site) {
  View vv = readArg(v);
  int w = vv->type.vectorWidth();
  ctx_.comment("mapVec", site);
  for (int k = 0; k < w; ++k) {
    std::vector<Arg> a{viewArg(view::access(view::lanes(vv), cst(k)))};
    produceApply(p.f(), a, view::access(view::lanes(dest), cst(k)), site);
  }
}

void KernelGenerator::vectorize(const ir::PatternNode& p, std::vector<Arg>& args, const View& dest,
                                ir::NodeId site) {
  int w = static_cast<int>(p.params().sizes.at(0).value());
  if (auto* u = ir::asUserFun(p.f()); u && canVectorize(u->def())) {
    const ir::UserFunDef& d = u->def();
    std::string name;
    for (auto& v : model_.vectorized)
      if (v.def == &d && v.width == w) name = v.name;
    if (name.empty()) {
      name = fmt::format("{}_v{}", userFunName(d), w);
      while (ctx_.nameTaken(name) || mem_.taken(name)) name += "_";
      ctx_.takeName(name);
      model_.vectorized.push_back({&d, w, name});
    }
    std::vector<Type> types;
    for (auto& a : args) types.push_back(env_.typeOfArg(a));
    auto sources = ir::bindArguments(types, d.params.size());
    if (!sources) fail(site, fmt::format("vectorize: '{}' applied to arguments that do not match", d.name));
    Type vt = Type::vector(d.returnType.scalarKind(), w);
    std::vector<c::ExprP> ops;
    for (auto [arg, comp] : *sources) {
      View v = readArg(args[arg]);
      if (comp >= 0) v = view::get(v, comp);
      ops.push_back(readValue(v, vt, site));
    }
    assign(dest, c::call(name, std::move(ops)), vt, site);
    return;
  }
  std::vector<View> vs;
  for (auto& a : args) vs.push_back(readArg(a));
  std::function<View(const View&, int)> laneOf = [&](const View& v, int k) -> View {
    if (v->type.isTuple()) {
      std::vector<View> parts;
      for (size_t c = 0; c < v->type.tupleElems().size(); ++c)
        parts.push_back(laneOf(view::get(v, int(c)), k));
      return view::tuple(std::move(parts));
    }
    return view::access(view::lanes(v), cst(k));
  };
  for (int k = 0; k < w; ++k) {
    std::vector<Arg> a;
    for (auto& v : vs) a.push_back(viewArg(laneOf(v, k)));
    produceApply(p.f(), a, view::access(view::lanes(dest), cst(k)), site);
  }
}

}  // namespace lift::codegen
