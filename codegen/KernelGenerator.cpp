// The code generator's walk (KernelGenerator.h): reading and producing expressions, values
// written to destinations, user functions, and the kernel's inputs and output.
#include "codegen/KernelGenerator.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/LoweringCheck.h"
#include "codegen/OpenCLNames.h"
#include "codegen/ProgramIndex.h"
#include "codegen/Unrolling.h"
#include "codegen/ViewConsumer.h"
#include "core/cfun/CFunAst.h"
#include "core/ir/TypeCheck.h"

namespace lift::codegen {

using K = ir::PatternKind;
using arith::cst;

namespace {

bool sameAccess(const c::ExprP& a, const c::ExprP& b) {
  if (!a || !b || a->kind != c::Expr::Kind::Access || b->kind != c::Expr::Kind::Access) return false;
  const c::Access &x = *a->access, &y = *b->access;
  return x.mem == y.mem && x.form == y.form && x.lane == y.lane && x.width == y.width &&
         x.simplified == y.simplified;
}

bool inlinable(const ir::Expr& e) {
  auto* c = e ? ir::asCall(e) : nullptr;
  return c && (ir::asUserFun(c->fun()) || ir::calledPattern(e, K::Dot) || ir::calledPattern(e, K::Fma));
}

}  // namespace

KernelGenerator::KernelGenerator(const ir::Program& p, const CompileOptions& o, const NDRange& nd,
                                 const BarrierPlan& b, KernelModel& m)
    : prog_(p),
      opts_(o),
      barriers_(b),
      model_(m),
      mem_(m.memories),
      ctx_(nd, o),
      env_(p),
      storage_(p, ctx_, m),
      sync_(ctx_) {}

void KernelGenerator::fail(ir::NodeId at, const std::string& msg) const {
  throw LiftError(prog_.diagnosticAt(at, msg));
}

// ===== the walk ================================================================================

View KernelGenerator::readArg(Arg& a) {
  if (!a.view) a.view = read(a.expr);
  return a.view;
}

void KernelGenerator::produceArg(Arg& a, const View& dest, ir::NodeId site) {
  if (a.view)
    copyValue(a.view, dest, site);
  else
    produce(a.expr, dest);
}

Bindings::Saved KernelGenerator::bind(const ir::LambdaNode& l, std::vector<Arg>& args, ir::NodeId site) {
  return env_.bind(l, args, site, [this](Arg& a) { return readArg(a); });
}

View KernelGenerator::read(const ir::Expr& e) {
  switch (e->kind()) {
    case ir::ExprNode::Kind::Literal: {
      auto* l = ir::asLiteral(e);
      if (l->type().isTuple()) fail(e->id(), "tuple-valued literals are not supported by the code generator");
      return view::literal(l->text(), l->type());
    }
    case ir::ExprNode::Kind::Param: {
      auto* p = ir::asParam(e);
      if (!env_.at(p).view) {
        ir::Expr lazy = env_.at(p).lazy;
        View v = read(lazy);
        env_.at(p).view = v;
        return v;
      }
      return env_.at(p).view;
    }
    case ir::ExprNode::Kind::Call: {
      auto* c = ir::asCall(e);
      std::vector<Arg> args = exprArgs(c->args());
      return readApply(c->fun(), args, e->id(), &e);
    }
  }
  return nullptr;
}

View KernelGenerator::readApply(const ir::Fun& f, std::vector<Arg>& args, ir::NodeId site,
                                const ir::Expr* call) {
  switch (f->kind()) {
    case ir::FunNode::Kind::Lambda: {
      auto* l = ir::asLambda(f);
      Bindings::Saved saved = bind(*l, args, site);
      View v = read(l->body());
      env_.unbind(saved);
      return v;
    }
    case ir::FunNode::Kind::UserFun:
      return readProducer(f, args, site, call);
    case ir::FunNode::Kind::Pattern:
      return readPattern(f, args, site, call);
  }
  return nullptr;
}

// A value that code computes, read from a temporary it is first produced into.
View KernelGenerator::readProducer(const ir::Fun& f, std::vector<Arg>& args, ir::NodeId site,
                                   const ir::Expr* call) {
  Type t = env_.typeOfApplication(f, args);
  const ir::Expr* firstArg = args.empty() || !args[0].expr ? nullptr : &args[0].expr;
  View tmp = storage_.forResult(f, call, firstArg, t, site);
  produceApply(f, args, tmp, site);
  return tmp;
}

View KernelGenerator::readPattern(const ir::Fun& pattern, std::vector<Arg>& args, ir::NodeId site,
                                  const ir::Expr* call) {
  if (std::optional<View> v = readLayout(pattern, args, site)) return *v;
  const ir::PatternNode& p = *ir::asPattern(pattern);
  if (p.pattern() == K::Iterate) return iterate(pattern, args.at(0), nullptr, site);
  if (p.pattern() == K::At) return access(args, site);
  if (ir::isArrayGenerator(p.pattern())) return generatedArray(p, args, site);  // issue 16
  if (p.pattern() == K::Let) {
    // The argument is computed once (a temporary when code computes it), then f reads it.
    std::vector<Arg> bound{viewArg(readArg(args.at(0)))};
    return readApply(p.f(), bound, site, nullptr);
  }
  return readProducer(pattern, args, site, call);
}

// ===== producing ===============================================================================

void KernelGenerator::produce(const ir::Expr& e, const View& dest) {
  switch (e->kind()) {
    case ir::ExprNode::Kind::Literal:
      copyValue(read(e), dest, e->id());
      return;
    case ir::ExprNode::Kind::Param: {
      auto* p = ir::asParam(e);
      if (!env_.at(p).view) {
        ir::Expr lazy = env_.at(p).lazy;
        produce(lazy, dest);
        env_.at(p).view = dest;
        return;
      }
      copyValue(env_.at(p).view, dest, e->id());
      return;
    }
    case ir::ExprNode::Kind::Call: {
      auto* c = ir::asCall(e);
      std::vector<Arg> args = exprArgs(c->args());
      produceApply(c->fun(), args, dest, e->id());
      return;
    }
  }
}

void KernelGenerator::produceApply(const ir::Fun& f, std::vector<Arg>& args, const View& dest,
                                   ir::NodeId site) {
  switch (f->kind()) {
    case ir::FunNode::Kind::Lambda: {
      auto* l = ir::asLambda(f);
      Bindings::Saved saved = bind(*l, args, site);
      produce(l->body(), dest);
      env_.unbind(saved);
      return;
    }
    case ir::FunNode::Kind::UserFun: {
      auto* u = ir::asUserFun(f);
      c::ExprP v = userFunValue(*u, args, site);
      assign(dest, v, u->def().returnType, site);
      return;
    }
    case ir::FunNode::Kind::Pattern:
      producePattern(f, args, dest, site);
      return;
  }
}

void KernelGenerator::producePattern(const ir::Fun& pattern, std::vector<Arg>& args, const View& dest,
                                     ir::NodeId site) {
  const ir::PatternNode& p = *ir::asPattern(pattern);
  switch (p.pattern()) {
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
      if (isViewFunction(p.f())) break;  // a rearrangement: through its inverse below
      map(p, args.at(0), dest, site);
      return;
    case K::MapVec:
      mapVec(p, args.at(0), dest, site);
      return;
    case K::MapSeqSlide:  // issue 16
      mapSeqSlide(p, args.at(0), dest, site);
      return;
    case K::Vectorize:
      vectorize(p, args, dest, site);
      return;
    case K::ReduceSeq:
    case K::ReduceSeqUnroll:
      reduce(p, args.at(0), args.at(1), dest, site);
      return;
    case K::ScanSeq:
      scan(p, args.at(0), args.at(1), dest, site);
      return;
    // issue 17 (lift17p)
    case K::ReduceWhileSeq:
      reduce(p, args.at(0), args.at(1), dest, site);
      return;
    case K::BSearch:
    case K::LSearch:
      search(p, args.at(0), args.at(1), dest, site);
      return;
    case K::FilterSeq:
      filterSeq(p, args.at(0), dest, site);
      return;
    case K::InsertionSort:
      insertionSort(p, args.at(0), dest, site);
      return;
    case K::Reduce:
    case K::PartRed:
    case K::Scan:
      fail(site, fmt::format("high-level pattern {} must be lowered before code generation",
                             ir::patternName(p.pattern())));
    case K::Iterate:
      iterate(pattern, args.at(0), &dest, site);
      return;
    case K::ToGlobal:
    case K::ToLocal:
    case K::ToPrivate:
      // The value is written where its consumer wants it; the wrapper decides only for
      // values that need storage of their own (see AddressSpaceInference.h).
      produceApply(p.f(), args, dest, site);
      return;
    case K::Id:
      produceArg(args.at(0), dest, site);
      return;
    case K::Let: {
      std::vector<Arg> bound{viewArg(readArg(args.at(0)))};
      produceApply(p.f(), bound, dest, site);
      return;
    }
    case K::CheckedAt:
      checkedAccess(args, dest, site);
      return;
    case K::Filter:
      filter(args, dest, site);
      return;
    case K::Fma:
      assign(dest, fmaValue(args, site), env_.typeOfArg(args.at(0)), site);
      return;
    case K::Dot: {
      Type t = env_.typeOfArg(args.at(0));
      c::ExprP a = readValue(readArg(args.at(0)), t, site), b = readValue(readArg(args.at(1)), t, site);
      if (t.scalarKind() == ScalarKind::Double) model_.usesDouble = true;
      assign(dest, c::call("dot", {a, b}), Type::scalar(t.scalarKind()), site);
      return;
    }
    case K::Zip: {
      std::vector<Type> arrays;
      for (size_t i = 0; i < args.size(); ++i) arrays.push_back(env_.typeOfArg(args[i]));
      View d = view::retype(dest, Type::tuple(arrays));
      for (size_t i = 0; i < args.size(); ++i) produceArg(args[i], view::get(d, int(i)), site);
      return;
    }
    case K::Tuple:
      for (size_t i = 0; i < args.size(); ++i) produceArg(args[i], view::get(dest, int(i)), site);
      return;
    default:
      break;
  }
  // Data-layout patterns (and maps of them): push the destination through the inverse.
  if (args.size() == 1) {
    if (auto d = destOfArg(pattern, dest, env_.typeOfArg(args[0]))) {
      produceArg(args[0], *d, site);
      return;
    }
  }
  copyValue(readPattern(pattern, args, site, nullptr), dest, site);
}

// ===== values written to destinations =========================================================

void KernelGenerator::assign(const View& dest, c::ExprP value, Type t, ir::NodeId node) {
  if (t.isTuple()) {
    ResolvedAccess r = consume(dest, 1, arith::Expr());
    LIFT_ASSERT(r.kind == ResolvedAccess::Kind::Composite, "a tuple destination in one memory");
    if (value->kind != c::Expr::Kind::TupleCons) {
      std::string name = mem_.freshName("tup");
      auto& d = ctx_.emit(c::Stmt::Kind::Decl, node);
      d.text = cfun::tupleStructName(t);
      d.name = name;
      d.rhs = value;
      useTuple(t);
      value = nullptr;
      std::vector<c::ExprP> fields;
      for (size_t k = 0; k < t.tupleElems().size(); ++k)
        fields.push_back(c::member(c::text(name), fmt::format("._{}", k)));
      value = c::tupleCons(cfun::tupleStructName(t), std::move(fields));
    }
    for (size_t k = 0; k < t.tupleElems().size(); ++k)
      assign(view::get(dest, static_cast<int>(k)), value->ops[k], t.tupleElems()[k], node);
    return;
  }
  WriteTarget w = writeTarget(dest, t, node);
  switch (w.kind) {
    case WriteTarget::Kind::Assign: {
      if (sameAccess(w.lhs, value)) return;
      sync_.noteWrite(w.lhs);
      auto& s = ctx_.emit(c::Stmt::Kind::Assign, node);
      s.lhs = w.lhs;
      s.rhs = value;
      return;
    }
    case WriteTarget::Kind::Store: {
      sync_.noteWrite(w.lhs);
      auto& s = ctx_.emit(c::Stmt::Kind::Store, node);
      s.lhs = w.lhs;
      s.rhs = value;
      return;
    }
    case WriteTarget::Kind::PerLane: {
      std::vector<c::ExprP> lanes;
      if (value->kind == c::Expr::Kind::VectorCons && value->ops.size() == w.lanes.size()) {
        lanes = value->ops;
      } else {
        std::string name = mem_.freshName("vec");
        auto& d = ctx_.emit(c::Stmt::Kind::Decl, node);
        d.text = t.openclName();
        d.name = name;
        d.rhs = value;
        for (size_t k = 0; k < w.lanes.size(); ++k)
          lanes.push_back(c::member(c::text(name), laneName(int(k))));
      }
      for (size_t k = 0; k < w.lanes.size(); ++k) {
        sync_.noteWrite(w.lanes[k]);
        auto& s = ctx_.emit(c::Stmt::Kind::Assign, node);
        s.lhs = w.lanes[k];
        s.rhs = lanes[k];
      }
      return;
    }
  }
}

void KernelGenerator::copyValue(const View& src, const View& dest, ir::NodeId node) {
  Type t = dest->type;
  if (t.isArray()) {
    arith::Expr n = t.length();
    bool unroll =
        shouldUnroll(K::MapSeq, n, TemporaryStorage::touchesPrivateArray(src, dest), opts_.unrolling);
    LoopForm form = ctx_.sequentialForm(n, unroll);
    ctx_.seqLoop(n, form, node,
                 [&](arith::Expr i) { copyValue(view::access(src, i), view::access(dest, i), node); });
    return;
  }
  if (t.isTuple()) {
    bool flat = true;
    for (Type e : t.tupleElems()) flat = flat && !e.isArray();
    if (!flat) {
      for (size_t k = 0; k < t.tupleElems().size(); ++k)
        copyValue(view::get(src, int(k)), view::get(dest, int(k)), node);
      return;
    }
  }
  assign(dest, readValue(src, t, node), t, node);
}

// ===== user functions ==========================================================================

std::string KernelGenerator::userFunName(const ir::UserFunDef& d) {
  auto it = model_.userFunNames.find(&d);
  if (it != model_.userFunNames.end()) return it->second;
  auto known = funNames_.find(&d);
  std::string name = known != funNames_.end() ? known->second : ctx_.freshFunName(d.name);
  model_.userFunNames[&d] = name;
  model_.userFuns.push_back(&d);
  auto scanDouble = [&](Type t) {
    while (t.isArray()) t = t.elem();
    if ((t.isScalar() || t.isVector()) && t.scalarKind() == ScalarKind::Double) model_.usesDouble = true;
  };
  for (auto& [n, t] : d.params) scanDouble(t);
  scanDouble(d.returnType);
  return name;
}

void KernelGenerator::useTuple(Type t) {
  if (std::find(model_.tupleTypes.begin(), model_.tupleTypes.end(), t) == model_.tupleTypes.end()) {
    for (Type e : t.tupleElems())
      if (e.isTuple()) useTuple(e);
    model_.tupleTypes.push_back(t);
  }
}

c::ExprP KernelGenerator::inlineValue(const ir::Expr& e, Type t) {
  auto* c = ir::asCall(e);
  if (c) {
    if (auto* u = ir::asUserFun(c->fun())) {
      std::vector<Arg> args = exprArgs(c->args());
      return userFunValue(*u, args, e->id());
    }
    if (auto* p = ir::asPattern(c->fun()); p && p->pattern() == K::Fma) {
      std::vector<Arg> args = exprArgs(c->args());
      return fmaValue(args, e->id());
    }
    if (auto* p = ir::asPattern(c->fun()); p && p->pattern() == K::Dot) {
      std::vector<Arg> args = exprArgs(c->args());
      Type vt = env_.typeOfArg(args[0]);
      return c::call("dot",
                     {readValue(readArg(args[0]), vt, e->id()), readValue(readArg(args[1]), vt, e->id())});
    }
  }
  View v = read(e);
  if (t.isTuple()) useTuple(t);
  return readValue(v, t, e->id());
}

c::ExprP KernelGenerator::fmaValue(std::vector<Arg>& args, ir::NodeId site) {
  Type t = env_.typeOfArg(args.at(0));
  if (t.scalarKind() == ScalarKind::Double) model_.usesDouble = true;
  std::vector<c::ExprP> ops;
  for (auto& a : args) ops.push_back(readValue(readArg(a), t, site));
  return c::call("fma", std::move(ops));
}

c::ExprP KernelGenerator::userFunValue(const ir::UserFunNode& u, std::vector<Arg>& args, ir::NodeId site) {
  const ir::UserFunDef& d = u.def();
  std::vector<Type> types;
  for (auto& a : args) types.push_back(env_.typeOfArg(a));
  auto sources = ir::bindArguments(types, d.params.size());
  if (!sources) fail(site, fmt::format("user function '{}' applied to arguments that do not match", d.name));
  std::vector<c::ExprP> ops;
  for (size_t i = 0; i < sources->size(); ++i) {
    auto [arg, comp] = (*sources)[i];
    Type pt = d.params[i].second;
    Arg& a = args[arg];
    ir::Expr e = a.view ? nullptr : a.expr;
    // A parameter bound to a computation not done yet (used once, here): compute it inline.
    if (e && ir::asParam(e)) {
      const Bindings::Binding* b = env_.find(ir::asParam(e));
      if (b && !b->view && inlinable(b->lazy)) {
        ir::Expr lazy = b->lazy;
        c::ExprP v = inlineValue(lazy, pt);
        env_.at(ir::asParam(e)).view = view::value(v, pt);
        ops.push_back(comp < 0 ? v : c::member(v, fmt::format("._{}", comp)));
        continue;
      }
    }
    if (comp < 0 && e && inlinable(e)) {
      ops.push_back(inlineValue(e, pt));
      continue;
    }
    View v = readArg(a);
    if (comp >= 0) v = view::get(v, comp);
    if (pt.isTuple()) useTuple(pt);
    ops.push_back(readValue(v, pt, site));
  }
  return c::call(userFunName(d), std::move(ops));
}

// ===== the kernel ==============================================================================

void KernelGenerator::run() {
  ctx_.start(model_.body);
  // Names: user functions keep theirs unless OpenCL reserves them; buffers avoid both and the
  // generator's loop variables.
  for (const char* n : {"wg_id", "l_id", "gl_id", "i", "j", "k", "size", "iter", "src", "dst", "out", "lane"})
    ctx_.takeName(n);
  for (int d = 1; d < 3; ++d)
    for (const char* n : {"wg_id", "l_id", "gl_id", "size", "iter", "src", "dst"})
      ctx_.takeName(fmt::format("{}_{}", n, d));
  for (auto& uf : prog_.userFuns) funNames_[uf.get()] = ctx_.freshFunName(uf->name);
  for (auto& n : ctx_.takenNames()) mem_.reserve(n);

  // No work-groups and no mapGlb: one work-item runs the kernel.
  if (!ctx_.ndrange().usesWorkGroups) {
    bool glb = false;
    ir::visitPreOrder(prog_.main, [&](const ir::NodePath& path) {
      auto* pat = path.back().node.isExpr() ? nullptr : ir::asPattern(path.back().node.fun());
      if (pat && pat->pattern() == K::MapGlb) glb = true;
      return !glb;
    });
    ctx_.setSequentialKernel(!glb);
  }

  // Inputs.
  const auto& params = prog_.main->params();
  for (size_t i = 0; i < params.size(); ++i) {
    const ir::Param& p = params[i];
    Type t = p->declaredType();
    std::string name = p->name();
    while (isReservedOpenCLName(name) || mem_.taken(name)) name += "_";
    if (t.isArray()) {
      View v = mem_.allocate(t, AddressSpace::Global, Memory::Role::Input, name, p->id());
      for (auto& m : mem_.memories())
        if (m->role == Memory::Role::Input && m->input < 0) m->input = static_cast<int>(i);
      env_.set(p.get(), {v, nullptr});
    } else if (t.isScalar() && t.scalarKind() != ScalarKind::Bool) {
      mem_.reserve(name);
      model_.scalars.push_back({name, t, static_cast<int>(i)});
      if (t.scalarKind() == ScalarKind::Double) model_.usesDouble = true;
      env_.set(p.get(), {view::value(c::text(name), t), nullptr});
    } else {
      fail(p->id(), fmt::format("kernel input '{}' of type {} is not supported: inputs must be arrays or "
                                "float, double or int scalars",
                                p->name(), t.toString()));
    }
  }
  // The output.
  Type result = env_.typeOfExpr(prog_.main->body());
  {
    Type inner = result;
    while (inner.isArray()) inner = inner.elem();
    if (inner.isScalar() && inner.scalarKind() == ScalarKind::Bool)
      fail(prog_.main->body()->id(), "a kernel cannot return bool values (OpenCL forbids bool buffers)");
  }
  View out =
      mem_.allocate(result, AddressSpace::Global, Memory::Role::Output, "out", prog_.main->body()->id());
  produce(prog_.main->body(), out);
}

KernelModel buildKernel(const ir::Program& p, const CompileOptions& options, const NDRange& ndrange,
                        const BarrierPlan& barriers) {
  KernelModel m;
  m.ndrange = ndrange;
  KernelGenerator b(p, options, ndrange, barriers, m);
  try {
    b.run();
  } catch (const SliceError& e) {
    // At the access, naming where the value is made.
    ir::NodeId made = e.mem ? e.mem->node : p.main->id();
    Diagnostic at = p.diagnosticAt(made, "");
    std::string where =
        at.loc.line > 0 ? fmt::format(" (the value made at line {}:{})", at.loc.line, at.loc.col) : "";
    throw LiftError(p.diagnosticAt(e.node ? e.node : made, e.message + where));
  }
  return m;
}

}  // namespace lift::codegen
