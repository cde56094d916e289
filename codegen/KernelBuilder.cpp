// The code generator (KernelBuilder.h): destination-passing generation of every pattern.
#include "codegen/KernelBuilder.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "codegen/ControlFlow.h"
#include "codegen/LoweringCheck.h"
#include "codegen/Typing.h"
#include "codegen/Unrolling.h"
#include "codegen/Vectorization.h"
#include "codegen/ViewConsumer.h"
#include "core/ir/CFunAst.h"
#include "core/ir/TypeCheck.h"

namespace lift::codegen {

namespace {

using K = ir::PatternKind;
using arith::cst;

std::string str(arith::Expr e) { return arith::toString(e); }

// An argument of a function application: an expression not evaluated yet, or a view.
struct Arg {
  ir::Expr expr;
  View view;
};
Arg viewArg(View v) {
  Arg a;
  a.view = std::move(v);
  return a;
}
std::vector<Arg> exprArgs(const std::vector<ir::Expr>& es) {
  std::vector<Arg> out;
  for (auto& e : es) out.push_back(Arg{e, nullptr});
  return out;
}

// A pattern node as a function value, for the functions that take one. The node is owned by
// the program, which outlives code generation, so the handle does not own it.
ir::Fun asFun(const ir::PatternNode& p) { return ir::Fun(std::shared_ptr<const ir::FunNode>(), &p); }

int countUses(const ir::Expr& e, const ir::ParamNode* p);
int countUses(const ir::Fun& f, const ir::ParamNode* p) {
  switch (f->kind()) {
    case ir::FunNode::Kind::Lambda:
      return countUses(ir::asLambda(f)->body(), p);
    case ir::FunNode::Kind::Pattern: {
      int n = 0;
      for (auto& g : ir::asPattern(f)->params().funs) n += countUses(g, p);
      return n;
    }
    case ir::FunNode::Kind::UserFun:
      return 0;
  }
  return 0;
}
int countUses(const ir::Expr& e, const ir::ParamNode* p) {
  if (e.get() == p) return 1;
  auto* c = ir::asCall(e);
  if (!c) return 0;
  int n = countUses(c->fun(), p);
  for (auto& a : c->args()) n += countUses(a, p);
  return n;
}
// Whether p is used in e outside of any function (evaluated where e is evaluated).
bool directUse(const ir::Expr& e, const ir::ParamNode* p) {
  if (e.get() == p) return true;
  auto* c = ir::asCall(e);
  if (!c) return false;
  if (auto* l = ir::asLambda(c->fun()))
    if (directUse(l->body(), p)) return true;
  for (auto& a : c->args())
    if (directUse(a, p)) return true;
  return false;
}

bool hasDivMod(arith::Expr e) {
  if (e.kind() == arith::Kind::Div || e.kind() == arith::Kind::Mod) return true;
  for (auto o : e.operands())
    if (hasDivMod(o)) return true;
  return false;
}

bool mentionsVar(arith::Expr e, const std::string& name) {
  for (auto v : arith::variables(e))
    if (arith::varName(v) == name) return true;
  return false;
}

}  // namespace

namespace {

class Builder {
 public:
  Builder(const ir::Program& p, const CompileOptions& o, const NDRange& nd, const BarrierPlan& b,
          KernelModel& m)
      : prog_(p), opts_(o), nd_(nd), barriers_(b), model_(m), mem_(m.memories) {}

  void run();

 private:
  // ----- errors -------------------------------------------------------------------------
  [[noreturn]] void fail(ir::NodeId at, const std::string& msg) const {
    throw LiftError(prog_.diagnosticAt(at, msg));
  }

  // ----- statements ---------------------------------------------------------------------
  c::Stmt& emit(c::Stmt::Kind k, ir::NodeId node) {
    auto s = std::make_unique<c::Stmt>();
    s->kind = k;
    s->node = node;
    out_->push_back(std::move(s));
    return *out_->back();
  }
  void comment(const std::string& text, ir::NodeId node) {
    if (!quiet_) emit(c::Stmt::Kind::Comment, node).text = text;
  }
  int quiet_ = 0;  // inside the second and later copies of an unrolled loop
  template <class F>
  void into(c::Block& b, F&& f) {
    c::Block* saved = out_;
    out_ = &b;
    f();
    out_ = saved;
  }
  void splice(c::Block& from) {
    for (auto& s : from) out_->push_back(std::move(s));
    from.clear();
  }

  // ----- scope --------------------------------------------------------------------------
  struct LoopCtx {
    K kind;
    int dim;
    arith::Expr var, length;
    LoopForm form;
  };
  Level level() const {
    bool wrg = false;
    for (auto& l : parallel_) {
      if (l.kind == K::MapLcl || l.kind == K::MapGlb) return Level::Thread;
      wrg = wrg || l.kind == K::MapWrg;
    }
    if (wrg) return Level::WorkGroup;
    return sequentialKernel_ ? Level::Thread : Level::Kernel;
  }
  bool inWorkGroup() const {
    for (auto& l : parallel_)
      if (l.kind == K::MapWrg) return true;
    return false;
  }

  // ----- types --------------------------------------------------------------------------
  Type paramType(const ir::ParamNode* p) {
    auto it = env_.find(p);
    if (it == env_.end()) return {};
    if (it->second.view) return it->second.view->type;
    return typeOfExpr(it->second.lazy);
  }
  Type typeOfExpr(const ir::Expr& e) {
    return typeOf(e, [this](const ir::ParamNode* p) { return paramType(p); });
  }
  Type typeOfArg(const Arg& a) { return a.view ? a.view->type : typeOfExpr(a.expr); }
  Type typeOfApplication(const ir::Fun& f, std::vector<Arg>& args) {
    std::vector<Type> ts;
    for (auto& a : args) ts.push_back(typeOfArg(a));
    return typeOfApply(f, ts, [this](const ir::ParamNode* p) { return paramType(p); });
  }

  // ----- parameters ---------------------------------------------------------------------
  struct Binding {
    View view;
    ir::Expr lazy;  // evaluated at its single use
  };
  using Saved = std::vector<std::pair<const ir::ParamNode*, std::optional<Binding>>>;

  Saved bind(const ir::LambdaNode& l, std::vector<Arg>& args, ir::NodeId site) {
    std::vector<Type> types;
    for (auto& a : args) types.push_back(typeOfArg(a));
    auto sources = ir::bindArguments(types, l.params().size());
    if (!sources) fail(site, "lambda applied to arguments that do not match its parameters");
    Saved saved;
    std::vector<Binding> bound;
    for (size_t i = 0; i < sources->size(); ++i) {
      auto [arg, comp] = (*sources)[i];
      const ir::ParamNode* p = l.params()[i].get();
      Binding b;
      Arg& a = args[arg];
      if (comp < 0 && !a.view && a.expr && !isViewExpr(a.expr) && countUses(l.body(), p) == 1 &&
          directUse(l.body(), p)) {
        b.lazy = a.expr;
      } else {
        View v = readArg(a);
        b.view = comp < 0 ? v : view::get(v, comp);
      }
      bound.push_back(b);
    }
    for (size_t i = 0; i < bound.size(); ++i) {
      const ir::ParamNode* p = l.params()[i].get();
      auto it = env_.find(p);
      saved.push_back({p, it == env_.end() ? std::nullopt : std::optional<Binding>(it->second)});
      env_[p] = bound[i];
    }
    return saved;
  }
  void unbind(const Saved& saved) {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      if (it->second)
        env_[it->first] = *it->second;
      else
        env_.erase(it->first);
    }
  }

  View readArg(Arg& a) {
    if (!a.view) a.view = read(a.expr);
    return a.view;
  }
  void produceArg(Arg& a, const View& dest, ir::NodeId site) {
    if (a.view)
      copyValue(a.view, dest, site);
    else
      produce(a.expr, dest);
  }

  // ----- memory -------------------------------------------------------------------------
  View allocTemp(Type t, AddressSpace space, ir::NodeId site, bool isExplicit, const char* prefix = nullptr,
                 const std::vector<int>& lclDims = {}) {
    Type largest = substituteLengths(t, bounds_);
    // Per-work-item private memory: the dimensions l_id selects are not stored.
    int64_t slices = 1;
    if (space == AddressSpace::Private && !lclDims.empty())
      slices = checkSplitOverWorkItems(largest, lclDims, site);
    if (space == AddressSpace::Private) {
      arith::Expr n = largest.scalarCount();
      if (!n.isCst()) {
        if (isExplicit)
          fail(site,
               fmt::format("toPrivate: a value of type {} has no constant size; private memory needs a size "
                           "known when the kernel is generated",
                           t.toString()));
        space = AddressSpace::Global;
      }
    }
    if (space == AddressSpace::Private) {
      int64_t bytes = largest.byteSize().isCst() ? largest.byteSize().value() / slices : 0;
      if (bytes > kMaxPrivateBytes)
        fail(site,
             fmt::format("a private array of {} bytes ({}) is more than a work-item can hold ({} bytes at "
                         "most); store it in local or global memory",
                         bytes, largest.toString(), kMaxPrivateBytes));
    }
    if (space == AddressSpace::Local && !inWorkGroup())
      fail(site, "local memory outside a work-group: toLocal must be nested inside a mapWrg");
    std::vector<MemoryAllocator::Replication> reps;
    for (auto& l : parallel_) {
      bool rep = space == AddressSpace::Global || (space == AddressSpace::Local && l.kind == K::MapLcl);
      if (rep) reps.push_back({l.length, l.var});
    }
    std::string base = prefix                           ? prefix
                       : space == AddressSpace::Private ? "prv"
                       : space == AddressSpace::Local   ? "tmp"
                                                        : "gtmp";
    View v = mem_.allocate(t, space, Memory::Role::Temporary, mem_.freshName(base), site, reps, bounds_);
    if (slices > 1 || (space == AddressSpace::Private && !lclDims.empty())) {
      std::vector<const Memory*> ms;
      view::memoriesOf(v, ms);
      for (auto& m : mem_.memories()) {
        if (std::find(ms.begin(), ms.end(), m.get()) == ms.end()) continue;
        m->lclDims = lclDims;
        m->count = arith::simplify(m->count / cst(slices));
      }
      model_.perWorkItemPrivate = true;
    }
    return v;
  }
  // A private value of type t made at work-group level, split over the work-items by the mapLcl
  // dimensions lclDims (Memory::lclDims): each selected dimension must be covered by the
  // work-items of its mapLcl one element each. Returns how many slices there are.
  // Why a value of type t cannot be split by lclDims (empty: it can).
  std::string unsplittable(Type t, const std::vector<int>& lclDims) const {
    Type a = t;
    for (size_t d = 0; d < lclDims.size() && a.isArray(); ++d, a = a.elem()) {
      if (lclDims[d] < 0) continue;
      arith::Expr n = a.length(), threads = nd_.threads(K::MapLcl, lclDims[d]);
      if (!n.isCst() || !threads || !threads.isCst() || n.value() > threads.value())
        return fmt::format(
            "mapLcl{} would split it over the work-items, but its {} elements in that dimension "
            "are more than the {} work-items of the work-group in dimension {}, so a work-item "
            "would hold several slices",
            lclDims[d], arith::toString(n),
            threads ? arith::toString(threads) : std::string("(unknown number of)"), lclDims[d]);
    }
    return {};
  }
  std::unordered_map<const Memory*, std::string> unsplit_;  // private values left whole, and why
  int64_t checkSplitOverWorkItems(Type t, const std::vector<int>& lclDims, ir::NodeId site) const {
    int64_t slices = 1;
    Type a = t;
    for (size_t d = 0; d < lclDims.size() && a.isArray(); ++d, a = a.elem()) {
      if (lclDims[d] < 0) continue;
      arith::Expr n = a.length(), threads = nd_.threads(K::MapLcl, lclDims[d]);
      if (!n.isCst() || !threads || !threads.isCst() || n.value() > threads.value())
        fail(site, fmt::format(
                       "toPrivate at work-group level: mapLcl{} splits this value of type {} over the "
                       "work-items, but its {} elements in that dimension are more than the {} "
                       "work-items of the work-group in dimension {}, so a work-item would hold "
                       "several slices; use at most as many elements as work-items, or local memory",
                       lclDims[d], t.toString(), arith::toString(n),
                       threads ? arith::toString(threads) : std::string("(unknown number of)"), lclDims[d]));
      slices *= n.value();
    }
    return slices;
  }
  // Whether every memory of v is per-work-item private (Memory::lclDims).
  static bool perWorkItem(const View& v) {
    std::vector<const Memory*> ms;
    view::memoriesOf(v, ms);
    for (auto* m : ms)
      if (m->lclDims.empty()) return false;
    return !ms.empty();
  }
  std::vector<int> lclDimsOf(const ir::Fun& f, const std::vector<Arg>* args);
  // The lclDims of a per-work-item view's memory for the dimensions of v's type (its innermost
  // ones; v indexes the memory's outer dimensions).
  static std::vector<int> lclDimsOfView(const View& v) {
    std::vector<const Memory*> ms;
    view::memoriesOf(v, ms);
    if (ms.empty()) return {};
    size_t depth = 0;
    for (Type a = v->type; a.isArray(); a = a.elem()) ++depth;
    std::vector<int> full = ms.front()->lclDims;  // may omit trailing -1s
    full.resize(std::max(memDepth(v), full.size()), -1);
    if (full.size() < depth) return {};
    return std::vector<int>(full.end() - static_cast<std::ptrdiff_t>(depth), full.end());
  }
  static size_t memDepth(const View& v) {
    const ViewNode* n = v.get();
    while (n->kind != ViewNode::Kind::Mem && n->parent()) n = n->parent().get();
    size_t depth = 0;
    for (Type a = n->type; a.isArray(); a = a.elem()) ++depth;
    return depth;
  }
  // Copies src into a per-work-item private dest: the dimensions l_id selects are not looped
  // over, each work-item copies its own slice (as mapLcl would).
  void copySplit(const View& src, const View& dest, const std::vector<int>& dims, size_t d, ir::NodeId node) {
    bool more = false;
    for (size_t k = d; k < dims.size(); ++k) more = more || dims[k] >= 0;
    if (!more || !dest->type.isArray()) {
      copyValue(src, dest, node);
      return;
    }
    arith::Expr n = dest->type.length();
    auto body = [&](arith::Expr i) {
      copySplit(view::access(src, i), view::access(dest, i), dims, d + 1, node);
    };
    if (dims[d] >= 0)
      parallelLoop(K::MapLcl, dims[d], n, node, body);
    else
      seqLoop(n, sequentialLoopForm(n, opts_.cfgSimplification, false), node, body);
  }
  std::vector<int> lclDimsOfAcc(const ir::Expr& body, const ir::ParamNode* acc);
  // Loop variables in lengths (iterate's size) and their largest values.
  MemoryAllocator::Bounds bounds_;

  static bool allPrivate(const View& v) {
    std::vector<const Memory*> ms;
    view::memoriesOf(v, ms);
    for (auto* m : ms)
      if (m->space != AddressSpace::Private) return false;
    return !ms.empty();
  }
  // Whether a loop reads or writes a private array or the lanes of a private vector, which
  // stay in registers only with constant indices.
  static bool touchesPrivateArray(const View& a, const View& b) {
    std::vector<const Memory*> ms;
    view::memoriesOf(a, ms);
    if (b) view::memoriesOf(b, ms);
    for (auto* m : ms)
      if (m->space == AddressSpace::Private &&
          (!(m->count.isCst() && m->count.value() == 1) || m->elemType.isVector()))
        return true;
    return false;
  }
  void noteWrite(const c::ExprP& lhs) {
    if (lhs && lhs->kind == c::Expr::Kind::Access) writeLog_.push_back(lhs->access->mem);
  }
  struct Written {
    bool local = false, global = false;
  };
  // Local and global memory written since log position `since`, except the memories of `except`.
  Written written(size_t since, const View* except = nullptr) const {
    std::vector<const Memory*> skip;
    if (except) view::memoriesOf(*except, skip);
    Written w;
    for (size_t i = since; i < writeLog_.size(); ++i) {
      const Memory* m = writeLog_[i];
      if (std::find(skip.begin(), skip.end(), m) != skip.end()) continue;
      w.local = w.local || m->space == AddressSpace::Local;
      w.global = w.global || m->space == AddressSpace::Global;
    }
    return w;
  }
  std::vector<const Memory*> writeLog_;

  // ----- writing values -----------------------------------------------------------------
  static bool sameAccess(const c::ExprP& a, const c::ExprP& b) {
    if (!a || !b || a->kind != c::Expr::Kind::Access || b->kind != c::Expr::Kind::Access) return false;
    const c::Access &x = *a->access, &y = *b->access;
    return x.mem == y.mem && x.form == y.form && x.lane == y.lane && x.width == y.width &&
           x.simplified == y.simplified;
  }

  void assign(const View& dest, c::ExprP value, Type t, ir::NodeId node) {
    if (t.isTuple()) {
      ResolvedAccess r = consume(dest, 1, arith::Expr());
      LIFT_ASSERT(r.kind == ResolvedAccess::Kind::Composite, "a tuple destination in one memory");
      if (value->kind != c::Expr::Kind::TupleCons) {
        std::string name = mem_.freshName("tup");
        auto& d = emit(c::Stmt::Kind::Decl, node);
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
        noteWrite(w.lhs);
        auto& s = emit(c::Stmt::Kind::Assign, node);
        s.lhs = w.lhs;
        s.rhs = value;
        return;
      }
      case WriteTarget::Kind::Store: {
        noteWrite(w.lhs);
        auto& s = emit(c::Stmt::Kind::Store, node);
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
          auto& d = emit(c::Stmt::Kind::Decl, node);
          d.text = t.openclName();
          d.name = name;
          d.rhs = value;
          for (size_t k = 0; k < w.lanes.size(); ++k)
            lanes.push_back(c::member(c::text(name), laneName(int(k))));
        }
        for (size_t k = 0; k < w.lanes.size(); ++k) {
          noteWrite(w.lanes[k]);
          auto& s = emit(c::Stmt::Kind::Assign, node);
          s.lhs = w.lanes[k];
          s.rhs = lanes[k];
        }
        return;
      }
    }
  }

  void copyValue(const View& src, const View& dest, ir::NodeId node) {
    Type t = dest->type;
    if (t.isArray()) {
      arith::Expr n = t.length();
      bool unroll = shouldUnroll(K::MapSeq, n, touchesPrivateArray(src, dest), opts_.unrolling);
      LoopForm form = unroll ? LoopForm::Unrolled : sequentialLoopForm(n, opts_.cfgSimplification, false);
      seqLoop(n, form, node,
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

  // ----- loops --------------------------------------------------------------------------
  std::string seqName() const {
    static const char* names[] = {"i", "j", "k"};
    return seqDepth_ < 3 ? names[seqDepth_] : fmt::format("i{}", seqDepth_);
  }

  void seqLoop(arith::Expr n, LoopForm form, ir::NodeId node, const std::function<void(arith::Expr)>& body) {
    switch (form) {
      case LoopForm::Single:
        body(cst(0));
        return;
      case LoopForm::Unrolled:
        for (int64_t k = 0; k < n.value(); ++k) {
          if (k == 1) ++quiet_;
          body(cst(k));
        }
        if (n.value() > 1) --quiet_;
        return;
      default:
        break;
    }
    std::string name = seqName();
    arith::Expr var = arith::var(name, cst(0), n);
    auto& s = emit(c::Stmt::Kind::For, node);
    s.text = name;
    s.init = "0";
    s.cond = fmt::format("{} < {}", name, str(n));
    s.step = fmt::format("{} += 1", name);
    ++seqDepth_;
    into(s.body, [&] { body(var); });
    --seqDepth_;
  }

  LoopForm parallelLoop(K kind, int dim, arith::Expr n, ir::NodeId node,
                        const std::function<void(arith::Expr)>& body) {
    std::string suffix = dim == 0 ? "" : fmt::format("_{}", dim);
    std::string name, idFn, sizeFn;
    switch (kind) {
      case K::MapGlb:
        name = "gl_id", idFn = "get_global_id", sizeFn = "get_global_size";
        break;
      case K::MapWrg:
        name = "wg_id", idFn = "get_group_id", sizeFn = "get_num_groups";
        break;
      default:
        name = "l_id", idFn = "get_local_id", sizeFn = "get_local_size";
        break;
    }
    name += suffix;
    LoopForm form = parallelLoopForm(n, nd_.threads(kind, dim), opts_.cfgSimplification);
    // A map over one element: its index is 0 (the work-item still checks it is the first).
    arith::Expr var = n == cst(1) ? cst(0) : arith::var(name, cst(0), n);
    std::string id = fmt::format("{}({})", idFn, dim);
    c::Stmt* s = nullptr;
    switch (form) {
      case LoopForm::Single:
        s = &emit(c::Stmt::Kind::Scope, node);
        break;
      case LoopForm::Guard:
        s = &emit(c::Stmt::Kind::If, node);
        s->cond = fmt::format("{} < {}", id, str(n));
        break;
      default:
        s = &emit(c::Stmt::Kind::For, node);
        s->text = name;
        s->init = id;
        s->cond = fmt::format("{} < {}", name, str(n));
        // The stride in int: with `+= get_num_groups(0)` (size_t) PoCL 3.1 miscompiles some loops
        // that contain barriers (the induction variable goes through 64 bits and back).
        s->step = fmt::format("{} += (int){}({})", name, sizeFn, dim);
        break;
    }
    if (form != LoopForm::Loop && !var.isCst()) {
      auto d = std::make_unique<c::Stmt>();
      d->kind = c::Stmt::Kind::Decl;
      d->node = node;
      d->text = "int";
      d->name = name;
      d->rhs = c::text(id);
      s->body.push_back(std::move(d));
    }
    parallel_.push_back({kind, dim, var, n, form});
    into(s->body, [&] { body(var); });
    parallel_.pop_back();
    return form;
  }

  // Work-items of a work-group run sequential loops in lock-step only if told to: an iteration
  // that wrote local or global memory ends with a barrier before the next one overwrites what
  // others may still read.
  void endIterationBarrier(size_t since, ir::NodeId node, const View* except = nullptr) {
    if (level() != Level::WorkGroup) return;
    Written w = written(since, except);
    if (!w.local && !w.global) return;
    if (!out_->empty() && out_->back()->kind == c::Stmt::Kind::Barrier) return;
    barrier(w.local, w.global, node);
  }
  void barrier(bool local, bool global, ir::NodeId node) {
    std::string flags = local && global ? "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"
                        : local         ? "CLK_LOCAL_MEM_FENCE"
                                        : "CLK_GLOBAL_MEM_FENCE";
    emit(c::Stmt::Kind::Barrier, node).text = flags;
  }

  // ----- expressions --------------------------------------------------------------------
  View read(const ir::Expr& e);
  void produce(const ir::Expr& e, const View& dest);
  View readApply(const ir::Fun& f, std::vector<Arg>& args, ir::NodeId site, const ir::Expr* call);
  void produceApply(const ir::Fun& f, std::vector<Arg>& args, const View& dest, ir::NodeId site);
  View readProducer(const ir::Fun& f, std::vector<Arg>& args, ir::NodeId site, const ir::Expr* call);
  View readPattern(const ir::PatternNode& p, std::vector<Arg>& args, ir::NodeId site, const ir::Expr* call);
  void producePattern(const ir::PatternNode& p, std::vector<Arg>& args, const View& dest, ir::NodeId site);
  std::optional<View> destOfArg(const ir::Fun& f, const View& dest, Type argType);
  std::optional<View> destThrough(const ir::Expr& e, const View& dest, const ir::ParamNode* p, Type pType);
  c::ExprP userFunValue(const ir::UserFunNode& u, std::vector<Arg>& args, ir::NodeId site);
  c::ExprP inlineValue(const ir::Expr& e, Type t);
  static bool inlinable(const ir::Expr& e) {
    auto* c = e ? ir::asCall(e) : nullptr;
    return c && (ir::asUserFun(c->fun()) || ir::calledPattern(e, K::Dot));
  }
  std::string userFunName(const ir::UserFunDef& d);
  std::string freshFunName(const ir::UserFunDef& d) {
    std::string name = d.name;
    while (isReservedOpenCLName(name) || usedNames_.count(name)) name += "_";
    usedNames_.insert(name);
    return name;
  }
  std::unordered_map<const ir::UserFunDef*, std::string> funNames_;
  void useTuple(Type t);

  void map(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site);
  void mapVec(const ir::PatternNode& p, Arg& v, const View& dest, ir::NodeId site);
  void vectorize(const ir::PatternNode& p, std::vector<Arg>& args, const View& dest, ir::NodeId site);
  void reduce(const ir::PatternNode& p, Arg& init, Arg& arr, const View& dest, ir::NodeId site);
  View iterate(const ir::PatternNode& p, Arg& x, const View* dest, ir::NodeId site);
  bool inPlaceSafe(const c::Block& iteration, int tag);
  std::optional<std::string> pointerTo(const View& v);

  const ir::Program& prog_;
  const CompileOptions& opts_;
  const NDRange& nd_;
  const BarrierPlan& barriers_;
  KernelModel& model_;
  MemoryAllocator& mem_;
  AddressSpaceInference spaces_;

  std::unordered_map<const ir::ParamNode*, Binding> env_;
  std::vector<LoopCtx> parallel_;
  std::unordered_map<const ir::FunNode*, bool> singleWorkGroupLoop_;
  c::Block* out_ = nullptr;
  int seqDepth_ = 0;
  int iterDepth_ = 0;
  int tags_ = 0;
  int mapVars_ = 0;
  bool sequentialKernel_ = false;
  std::unordered_set<std::string> usedNames_;
};

// ===== per-work-item private values =============================================================

// The mapLcl dimensions selecting the outer dimensions of the value of f applied at work-group
// level: mapLcl1(mapLcl0(...)) gives {1, 0}; a reduction's result has its length-1 dimension
// first, then those of its initial value or, failing that, of its function's mapLcl over the
// accumulator. -1 where no mapLcl selects a dimension.
std::vector<int> Builder::lclDimsOf(const ir::Fun& fun, const std::vector<Arg>* args) {
  ir::Fun f = fun;
  while (auto* w = ir::asPattern(f)) {
    if (!ir::isAddressSpace(w->pattern())) break;
    f = w->f();
  }
  if (auto* l = ir::asLambda(f)) {
    // fun(x => g $ x) (also a partially applied reduceSeq(f, init)): the dimensions of g.
    auto* c = ir::asCall(l->body());
    if (!c || c->args().empty() || c->args().back().get() != l->params().back().get()) return {};
    std::vector<Arg> inner = exprArgs(c->args());
    return lclDimsOf(c->fun(), &inner);
  }
  const ir::PatternNode* p = ir::asPattern(f);
  if (!p) return {};
  if (p->pattern() == K::MapLcl) {
    std::vector<int> d = lclDimsOf(p->f(), nullptr);
    d.insert(d.begin(), p->index());
    return d;
  }
  if (ir::isReduceLike(p->pattern())) {
    std::vector<int> d;
    if (args && !args->empty() && (*args)[0].expr)
      if (auto* c = ir::asCall((*args)[0].expr)) {
        std::vector<Arg> inner = exprArgs(c->args());
        d = lclDimsOf(c->fun(), &inner);
      }
    if (std::none_of(d.begin(), d.end(), [](int x) { return x >= 0; })) {
      d.clear();
      if (auto* l = ir::asLambda(p->f()); l && !l->params().empty())
        d = lclDimsOfAcc(l->body(), l->params()[0].get());
    }
    d.insert(d.begin(), -1);
    return d;
  }
  return {};
}

// The mapLcl dimensions of a reduction's function body over its accumulator `acc`: a mapLcl
// applied to acc (or to a zip with acc first), through lambdas applied to other values and
// data-layout patterns applied to the result (a guess: every access is checked).
std::vector<int> Builder::lclDimsOfAcc(const ir::Expr& body, const ir::ParamNode* acc) {
  auto* c = ir::asCall(body);
  if (!c) return {};
  if (auto* l = ir::asLambda(c->fun())) return lclDimsOfAcc(l->body(), acc);
  const ir::PatternNode* p = unwrapAddressSpace(c->fun());
  // join o mapLcl0(...) $ ...: the accesses say whether the layout keeps the slices (ViewConsumer).
  if (p && ir::isDataLayout(p->pattern()) && c->args().size() == 1) return lclDimsOfAcc(c->args()[0], acc);
  if (!p || p->pattern() != K::MapLcl || c->args().size() != 1) return {};
  const ir::Expr& a = c->args()[0];
  bool direct = a.get() == acc;
  if (!direct) {
    auto* z = ir::asCall(a);
    const ir::PatternNode* zp = z ? unwrapAddressSpace(z->fun()) : nullptr;
    if (!zp || zp->pattern() != K::Zip || z->args().empty() || z->args()[0].get() != acc) return {};
  }
  std::vector<int> d;
  if (auto* l = ir::asLambda(p->f()); l && !l->params().empty())
    d = lclDimsOfAcc(l->body(), l->params()[0].get());
  d.insert(d.begin(), p->index());
  return d;
}

// ===== reading =================================================================================

View Builder::read(const ir::Expr& e) {
  switch (e->kind()) {
    case ir::ExprNode::Kind::Literal: {
      auto* l = ir::asLiteral(e);
      if (l->type().isTuple()) fail(e->id(), "tuple-valued literals are not supported by the code generator");
      return view::literal(l->text(), l->type());
    }
    case ir::ExprNode::Kind::Param: {
      auto* p = ir::asParam(e);
      auto it = env_.find(p);
      LIFT_ASSERT(it != env_.end(), "codegen: unbound parameter " + p->name());
      if (!it->second.view) {
        ir::Expr lazy = it->second.lazy;
        View v = read(lazy);
        env_[p].view = v;
        return v;
      }
      return it->second.view;
    }
    case ir::ExprNode::Kind::Call: {
      auto* c = ir::asCall(e);
      std::vector<Arg> args = exprArgs(c->args());
      return readApply(c->fun(), args, e->id(), &e);
    }
  }
  return nullptr;
}

View Builder::readApply(const ir::Fun& f, std::vector<Arg>& args, ir::NodeId site, const ir::Expr* call) {
  switch (f->kind()) {
    case ir::FunNode::Kind::Lambda: {
      auto* l = ir::asLambda(f);
      Saved saved = bind(*l, args, site);
      View v = read(l->body());
      unbind(saved);
      return v;
    }
    case ir::FunNode::Kind::UserFun:
      return readProducer(f, args, site, call);
    case ir::FunNode::Kind::Pattern:
      return readPattern(*ir::asPattern(f), args, site, call);
  }
  return nullptr;
}

// A value that code computes, read from a temporary it is first produced into.
View Builder::readProducer(const ir::Fun& f, std::vector<Arg>& args, ir::NodeId site, const ir::Expr* call) {
  Type t = typeOfApplication(f, args);
  std::optional<AddressSpace> s = call ? spaces_.explicitSpace(*call) : spaces_.explicitSpaceOf(f);
  AddressSpace space = s ? *s : AddressSpaceInference::defaultSpace(level(), substituteLengths(t, bounds_));
  if (!s && level() == Level::Kernel && !sequentialKernel_) space = AddressSpace::Global;
  const ir::PatternNode* pat = unwrapAddressSpace(f);
  bool reduction = pat && ir::isReduceLike(pat->pattern());
  if (!pat) {
    // toPrivate(reduceSeq(f, z)): a lambda applying the partially applied reduction.
    ir::Fun g = f;
    while (auto* w = ir::asPattern(g)) {
      if (!ir::isAddressSpace(w->pattern())) break;
      g = w->f();
    }
    auto* l = ir::asLambda(g);
    auto* c = l ? ir::asCall(l->body()) : nullptr;
    const ir::PatternNode* inner = c ? unwrapAddressSpace(c->fun()) : nullptr;
    reduction = inner && ir::isReduceLike(inner->pattern());
  }
  // A private value a work-group's mapLcl makes: each work-item holds its own slice.
  std::vector<int> lclDims;
  if (space == AddressSpace::Private && level() == Level::WorkGroup) {
    lclDims = lclDimsOf(f, &args);
    if (std::none_of(lclDims.begin(), lclDims.end(), [](int d) { return d >= 0; })) lclDims.clear();
  }
  // Not splittable: stored whole, as before (a mapLcl writing it is then rejected unless its
  // consumer is element-wise, see map()).
  std::string why = lclDims.empty() ? std::string() : unsplittable(substituteLengths(t, bounds_), lclDims);
  if (!why.empty()) lclDims.clear();
  View tmp = allocTemp(t, space, site, s.has_value(),
                       reduction && space == AddressSpace::Private ? "acc" : nullptr, lclDims);
  if (!why.empty()) {
    std::vector<const Memory*> ms;
    view::memoriesOf(tmp, ms);
    for (auto* m : ms) unsplit_[m] = why;
  }
  produceApply(f, args, tmp, site);
  return tmp;
}

View Builder::readPattern(const ir::PatternNode& p, std::vector<Arg>& args, ir::NodeId site,
                          const ir::Expr* call) {
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
    case K::Get:
      return view::get(arg(0), ps.index);
    case K::Unzip:
      return view::retype(arg(0), typeOfApplication(asFun(p), args));
    case K::Map:
    case K::MapSeq:
    case K::MapSeqUnroll:
    case K::MapGlb:
    case K::MapWrg:
    case K::MapLcl:
      if (isViewFunction(p.f())) {
        View av = arg(0);
        arith::Expr n = av->type.length();
        arith::Expr var = arith::var(fmt::format("map#{}", ++mapVars_), cst(0), n);
        std::vector<Arg> inner{viewArg(view::access(av, var))};
        View body = readApply(p.f(), inner, site, nullptr);
        return view::map(body, var, Type::array(body->type, n));
      }
      break;
    case K::Iterate:
      return iterate(p, args.at(0), nullptr, site);
    default:
      break;
  }
  ir::Fun self = asFun(p);
  return readProducer(self, args, site, call);
}

// ===== producing ===============================================================================

void Builder::produce(const ir::Expr& e, const View& dest) {
  switch (e->kind()) {
    case ir::ExprNode::Kind::Literal:
      copyValue(read(e), dest, e->id());
      return;
    case ir::ExprNode::Kind::Param: {
      auto* p = ir::asParam(e);
      auto it = env_.find(p);
      LIFT_ASSERT(it != env_.end(), "codegen: unbound parameter " + p->name());
      if (!it->second.view) {
        ir::Expr lazy = it->second.lazy;
        produce(lazy, dest);
        env_[p].view = dest;
        return;
      }
      copyValue(it->second.view, dest, e->id());
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

void Builder::produceApply(const ir::Fun& f, std::vector<Arg>& args, const View& dest, ir::NodeId site) {
  switch (f->kind()) {
    case ir::FunNode::Kind::Lambda: {
      auto* l = ir::asLambda(f);
      Saved saved = bind(*l, args, site);
      produce(l->body(), dest);
      unbind(saved);
      return;
    }
    case ir::FunNode::Kind::UserFun: {
      auto* u = ir::asUserFun(f);
      c::ExprP v = userFunValue(*u, args, site);
      assign(dest, v, u->def().returnType, site);
      return;
    }
    case ir::FunNode::Kind::Pattern:
      producePattern(*ir::asPattern(f), args, dest, site);
      return;
  }
}

void Builder::producePattern(const ir::PatternNode& p, std::vector<Arg>& args, const View& dest,
                             ir::NodeId site) {
  ir::Fun self = asFun(p);
  switch (p.pattern()) {
    case K::Map:
    case K::MapSeq:
    case K::MapSeqUnroll:
    case K::MapGlb:
    case K::MapWrg:
    case K::MapLcl:
      if (isViewFunction(p.f())) break;  // a rearrangement: through its inverse below
      map(p, args.at(0), dest, site);
      return;
    case K::MapVec:
      mapVec(p, args.at(0), dest, site);
      return;
    case K::Vectorize:
      vectorize(p, args, dest, site);
      return;
    case K::ReduceSeq:
    case K::ReduceSeqUnroll:
      reduce(p, args.at(0), args.at(1), dest, site);
      return;
    case K::Reduce:
    case K::PartRed:
      fail(site, fmt::format("high-level pattern {} must be lowered before code generation",
                             ir::patternName(p.pattern())));
    case K::Iterate:
      iterate(p, args.at(0), &dest, site);
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
    case K::Dot: {
      Type t = typeOfArg(args.at(0));
      c::ExprP a = readValue(readArg(args.at(0)), t, site), b = readValue(readArg(args.at(1)), t, site);
      if (t.scalarKind() == ScalarKind::Double) model_.usesDouble = true;
      assign(dest, c::call("dot", {a, b}), Type::scalar(t.scalarKind()), site);
      return;
    }
    case K::Zip: {
      std::vector<Type> arrays;
      for (size_t i = 0; i < args.size(); ++i) arrays.push_back(typeOfArg(args[i]));
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
    if (auto d = destOfArg(self, dest, typeOfArg(args[0]))) {
      produceArg(args[0], *d, site);
      return;
    }
  }
  copyValue(readPattern(p, args, site, nullptr), dest, site);
}

std::optional<View> Builder::destOfArg(const ir::Fun& f, const View& dest, Type argType) {
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

std::optional<View> Builder::destThrough(const ir::Expr& e, const View& dest, const ir::ParamNode* p,
                                         Type pType) {
  if (e.get() == p) return dest;
  auto* c = ir::asCall(e);
  if (!c || c->args().size() != 1) return std::nullopt;
  Type argT = typeOf(c->args()[0], [&](const ir::ParamNode* q) { return q == p ? pType : paramType(q); });
  auto d = destOfArg(c->fun(), dest, argT);
  if (!d) return std::nullopt;
  return destThrough(c->args()[0], *d, p, pType);
}

// ===== user functions ==========================================================================

std::string Builder::userFunName(const ir::UserFunDef& d) {
  auto it = model_.userFunNames.find(&d);
  if (it != model_.userFunNames.end()) return it->second;
  auto known = funNames_.find(&d);
  std::string name = known != funNames_.end() ? known->second : freshFunName(d);
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

void Builder::useTuple(Type t) {
  if (std::find(model_.tupleTypes.begin(), model_.tupleTypes.end(), t) == model_.tupleTypes.end()) {
    for (Type e : t.tupleElems())
      if (e.isTuple()) useTuple(e);
    model_.tupleTypes.push_back(t);
  }
}

c::ExprP Builder::inlineValue(const ir::Expr& e, Type t) {
  auto* c = ir::asCall(e);
  if (c) {
    if (auto* u = ir::asUserFun(c->fun())) {
      std::vector<Arg> args = exprArgs(c->args());
      return userFunValue(*u, args, e->id());
    }
    if (auto* p = ir::asPattern(c->fun()); p && p->pattern() == K::Dot) {
      std::vector<Arg> args = exprArgs(c->args());
      Type vt = typeOfArg(args[0]);
      return c::call("dot",
                     {readValue(readArg(args[0]), vt, e->id()), readValue(readArg(args[1]), vt, e->id())});
    }
  }
  View v = read(e);
  if (t.isTuple()) useTuple(t);
  return readValue(v, t, e->id());
}

c::ExprP Builder::userFunValue(const ir::UserFunNode& u, std::vector<Arg>& args, ir::NodeId site) {
  const ir::UserFunDef& d = u.def();
  std::vector<Type> types;
  for (auto& a : args) types.push_back(typeOfArg(a));
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
      auto it = env_.find(ir::asParam(e));
      if (it != env_.end() && !it->second.view && inlinable(it->second.lazy)) {
        ir::Expr lazy = it->second.lazy;
        c::ExprP v = inlineValue(lazy, pt);
        env_[ir::asParam(e)].view = view::value(v, pt);
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

// ===== maps ====================================================================================

void Builder::map(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site) {
  View av = readArg(arr);
  arith::Expr n = av->type.length();
  K kind = p.pattern();
  bool parallel = kind == K::MapGlb || kind == K::MapWrg || kind == K::MapLcl;
  auto body = [&](arith::Expr i) {
    std::vector<Arg> a{viewArg(view::access(av, i))};
    produceApply(p.f(), a, view::access(dest, i), site);
  };
  if (!parallel) {
    comment(std::string(ir::patternName(kind)), site);
    bool unroll = shouldUnroll(kind, n, touchesPrivateArray(av, dest), opts_.unrolling);
    LoopForm form = unroll ? LoopForm::Unrolled : sequentialLoopForm(n, opts_.cfgSimplification, false);
    if (level() == Level::WorkGroup && form != LoopForm::Single) {
      seqLoop(n, form, site, [&](arith::Expr i) {
        size_t before = writeLog_.size();
        body(i);
        endIterationBarrier(before, site, &dest);
      });
    } else {
      seqLoop(n, form, site, body);
    }
    return;
  }
  comment(fmt::format("{}{}", ir::patternName(kind), p.index()), site);
  size_t before = writeLog_.size();
  parallelLoop(kind, p.index(), n, site, [&](arith::Expr i) {
    if (kind == K::MapWrg) singleWorkGroupLoop_[&p] = parallel_.back().form == LoopForm::Single;
    size_t inner = writeLog_.size();
    body(i);
    // More than one work-group iteration may run: the next must not overwrite local memory
    // that other work-items still read.
    if (kind == K::MapWrg && parallel_.back().form != LoopForm::Single)
      endIterationBarrier(inner, site, &dest);
  });
  if (kind == K::MapWrg && level() == Level::Kernel) {
    // A result kept in a temporary is consumed element-wise by the next mapWrg (LoweringCheck):
    // the work-items of a work-group wait for each other's parts of it.
    std::vector<const Memory*> ms;
    view::memoriesOf(dest, ms);
    bool temporary = false;
    for (auto* m : ms) temporary = temporary || m->role == Memory::Role::Temporary;
    Written w = written(before);
    const c::Stmt* last = out_->empty() ? nullptr : out_->back().get();
    while (last && last->kind == c::Stmt::Kind::Scope && !last->body.empty()) last = last->body.back().get();
    bool fenced = last && last->kind == c::Stmt::Kind::Barrier;  // the work-group's last mapLcl did it
    if (temporary && (w.local || w.global) && !fenced) barrier(w.local, w.global, site);
  }
  if (kind == K::MapLcl) {
    const BarrierPlan::Facts* facts = barriers_.facts(&p);
    if (level() == Level::WorkGroup && allPrivate(dest) && !perWorkItem(dest) &&
        !(facts && (facts->elementwiseConsumer || facts->nestedInLocal))) {
      std::vector<const Memory*> ms;
      view::memoriesOf(dest, ms);
      for (auto* m : ms)
        if (auto it = unsplit_.find(m); it != unsplit_.end())
          fail(site,
               fmt::format("mapLcl{} stores its result in private memory at work-group level: {}; store "
                           "it in local memory (toLocal)",
                           p.index(), it->second));
      fail(site,
           fmt::format("mapLcl{} stores its result in private memory at work-group level, where it would be "
                       "split over the work-items, but the value is not made by mapLcl at work-group level "
                       "(toPrivate(mapLcl1(mapLcl0(...))), or a reduceSeq whose initial value or function "
                       "is such a mapLcl), so no work-item knows which slice it holds; store it in local "
                       "memory (toLocal)",
                       p.index()));
    }
    Written w = written(before);
    bool local = w.local, global = w.global;
    bool needed = barriers_.needed(&p, opts_.barrierElimination, [&](const ir::FunNode* w) {
      auto it = singleWorkGroupLoop_.find(w);
      return it != singleWorkGroupLoop_.end() && it->second;
    });
    if (needed && (local || global)) {
      for (auto& l : parallel_)
        if (l.kind == K::MapLcl && l.form != LoopForm::Single)
          fail(site, fmt::format("mapLcl{}: its result is shared inside an enclosing mapLcl{} that not every "
                                 "work-item runs exactly once, so the barrier it needs cannot be placed",
                                 p.index(), l.dim));
      barrier(local, global, site);
    }
  }
}

void Builder::mapVec(const ir::PatternNode& p, Arg& v, const View& dest, ir::NodeId site) {
  View vv = readArg(v);
  int w = vv->type.vectorWidth();
  comment("mapVec", site);
  for (int k = 0; k < w; ++k) {
    std::vector<Arg> a{viewArg(view::access(view::lanes(vv), cst(k)))};
    produceApply(p.f(), a, view::access(view::lanes(dest), cst(k)), site);
  }
}

void Builder::vectorize(const ir::PatternNode& p, std::vector<Arg>& args, const View& dest, ir::NodeId site) {
  int w = static_cast<int>(p.params().sizes.at(0).value());
  if (auto* u = ir::asUserFun(p.f()); u && canVectorize(u->def())) {
    const ir::UserFunDef& d = u->def();
    std::string name;
    for (auto& v : model_.vectorized)
      if (v.def == &d && v.width == w) name = v.name;
    if (name.empty()) {
      name = fmt::format("{}_v{}", userFunName(d), w);
      while (usedNames_.count(name) || mem_.taken(name)) name += "_";
      usedNames_.insert(name);
      model_.vectorized.push_back({&d, w, name});
    }
    std::vector<Type> types;
    for (auto& a : args) types.push_back(typeOfArg(a));
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

// ===== reductions ==============================================================================

// Whether a reduction's iteration may update the accumulator in place: no read of the old
// accumulator (tagged `tag`) can see a value this iteration already wrote.
bool Builder::inPlaceSafe(const c::Block& iteration, int tag) {
  struct Site {
    const c::Access* a;
    size_t stmt;
    std::vector<std::string> loops;
  };
  std::vector<Site> reads, writes;
  size_t counter = 0;
  std::vector<std::string> loops;
  std::function<void(const c::Block&)> walk = [&](const c::Block& b) {
    for (auto& s : b) {
      size_t idx = counter++;
      auto visit = [&](const c::ExprP& e, bool lhs) {
        if (!e) return;
        c::forEachExpr(*e, [&](const c::Expr& x) {
          if (x.kind != c::Expr::Kind::Access) return;
          const c::Access* a = x.access.get();
          if (lhs && a->write && (s->kind == c::Stmt::Kind::Assign || s->kind == c::Stmt::Kind::Store))
            writes.push_back({a, idx, loops});
          else if (!a->write && std::find(a->tags.begin(), a->tags.end(), tag) != a->tags.end())
            reads.push_back({a, idx, loops});
        });
      };
      visit(s->rhs, false);
      visit(s->lhs, true);
      if (s->kind == c::Stmt::Kind::For) {
        loops.push_back(s->text);
        walk(s->body);
        loops.pop_back();
      } else {
        walk(s->body);
      }
    }
  };
  walk(iteration);
  for (auto& r : reads) {
    for (auto& w : writes) {
      if (w.a->mem != r.a->mem) continue;
      size_t common = 0;
      while (common < r.loops.size() && common < w.loops.size() && r.loops[common] == w.loops[common])
        ++common;
      bool sameForm = w.a->form == r.a->form && w.a->lane == r.a->lane && w.a->width == r.a->width;
      arith::Expr diff = arith::simplify(w.a->simplified - r.a->simplified);
      bool different = sameForm && diff.isCst() && diff.value() != 0;
      if (w.stmt < r.stmt && !different) return false;
      if (common > 0) {
        bool same = sameForm && w.a->simplified == r.a->simplified && !hasDivMod(r.a->simplified);
        for (size_t l = 0; l < common && same; ++l) same = mentionsVar(r.a->simplified, r.loops[l]);
        if (!same) return false;
      }
    }
  }
  return true;
}

void Builder::reduce(const ir::PatternNode& p, Arg& init, Arg& arr, const View& dest, ir::NodeId site) {
  View av = readArg(arr);
  arith::Expr n = av->type.length();
  Type accT = dest->type.elem();
  View destElem = view::access(dest, cst(0));
  View acc = destElem;
  bool copyBack = false;
  arith::Expr scalars = substituteLengths(accT, bounds_).scalarCount();
  // A small accumulator of one work-item's own reduction lives in registers. At work-group
  // level a function with a mapLcl spreads the accumulator over the work-items, so it stays
  // shared; a function without one is run by every work-item redundantly, and each must update
  // its own copy (updating a shared one at once would add each element several times).
  bool redundant = level() == Level::WorkGroup && !ir::containsPattern(p.f(), {ir::PatternKind::MapLcl});
  if ((level() == Level::Thread || redundant) && !allPrivate(destElem) && scalars.isCst() &&
      scalars.value() <= kMaxDefaultPrivateScalars) {
    acc = allocTemp(accT, AddressSpace::Private, site, false, "acc");
    copyBack = true;
  }
  if (redundant && !allPrivate(acc))
    fail(site,
         "a reduction at work-group level whose function has no mapLcl is computed by every work-item; its "
         "accumulator is too large for private memory: spread the function over the work-items (mapLcl)");
  if (level() == Level::Kernel && !allPrivate(acc))
    fail(site,
         "a reduction at kernel level (outside mapGlb/mapWrg) with a large accumulator would be updated by "
         "every work-item at once; move it inside a parallel map");
  comment(std::string(ir::patternName(p.pattern())), site);
  size_t beforeInit = writeLog_.size();
  bool initSplit = false;
  if (level() == Level::WorkGroup && perWorkItem(acc)) {
    // An accumulator split over the work-items whose initial value is not made by mapLcl
    // (zeros): each work-item initialises its own slice.
    std::vector<int> initDims;
    if (init.expr)
      if (auto* c = ir::asCall(init.expr)) {
        std::vector<Arg> inner = exprArgs(c->args());
        initDims = lclDimsOf(c->fun(), &inner);
      }
    if (std::none_of(initDims.begin(), initDims.end(), [](int d) { return d >= 0; })) {
      copySplit(readArg(init), acc, lclDimsOfView(acc), 0, site);
      initSplit = true;
    }
  }
  if (!initSplit) produceArg(init, acc, site);
  // Every work-item of a work-group initialises a shared accumulator; all must be done before
  // any updates its elements.
  endIterationBarrier(beforeInit, site);
  bool unroll = shouldUnroll(p.pattern(), n, touchesPrivateArray(av, acc), opts_.unrolling);
  LoopForm form = unroll ? LoopForm::Unrolled : sequentialLoopForm(n, opts_.cfgSimplification, false);
  int tag = ++tags_;

  auto generate = [&](const View* next, bool& safe) {
    c::Block code;
    into(code, [&] {
      seqLoop(n, form, site, [&](arith::Expr i) {
        c::Block iteration;
        size_t before = writeLog_.size();
        into(iteration, [&] {
          std::vector<Arg> a{viewArg(view::tag(acc, tag)), viewArg(view::access(av, i))};
          produceApply(p.f(), a, next ? *next : acc, site);
          if (next) copyValue(*next, acc, site);
          endIterationBarrier(before, site);
        });
        if (!next && !inPlaceSafe(iteration, tag)) safe = false;
        splice(iteration);
      });
    });
    return code;
  };
  size_t mark = mem_.mark();
  size_t savedWrites = writeLog_.size();
  bool safe = true;
  c::Block code = generate(nullptr, safe);
  if (!safe) {
    // Double buffering: the function writes a second accumulator, copied back per iteration.
    mem_.rollback(mark);
    writeLog_.resize(savedWrites);
    std::vector<const Memory*> ms;
    view::memoriesOf(acc, ms);
    AddressSpace space = allPrivate(acc) ? AddressSpace::Private : ms.front()->space;
    std::vector<int> lclDims;
    if (perWorkItem(acc)) lclDims = lclDimsOfView(acc);  // split over the work-items like the first
    View next = allocTemp(accT, space, site, false, "acc", lclDims);
    code = generate(&next, safe);
  }
  splice(code);
  if (copyBack) copyValue(acc, destElem, site);
}

// ===== iterate =================================================================================

// A pointer to the first element of a view whose elements are contiguous in one memory.
std::optional<std::string> Builder::pointerTo(const View& v) {
  const ViewNode* n = v.get();
  while (n->kind == ViewNode::Kind::Access || n->kind == ViewNode::Kind::Split ||
         n->kind == ViewNode::Kind::Join || n->kind == ViewNode::Kind::Retype)
    n = n->parent().get();
  if (n->kind != ViewNode::Kind::Mem) return std::nullopt;
  View first = v;
  while (first->type.isArray()) first = view::access(first, cst(0));
  ResolvedAccess r = consume(first, first->type.isVector() ? first->type.vectorWidth() : 1, arith::Expr());
  if (r.kind != ResolvedAccess::Kind::Memory || r.folded || !(r.sub.isCst() && r.sub.value() == 0))
    return std::nullopt;
  arith::Expr off = arith::simplify(r.elemIndex);
  if (off.isCst() && off.value() == 0) return r.mem->name;
  return fmt::format("{} + {}", r.mem->name, str(off));
}

View Builder::iterate(const ir::PatternNode& p, Arg& x, const View* dest, ir::NodeId site) {
  arith::Expr n = p.params().sizes.at(0);
  const ir::Fun& f = p.f();
  View xv = readArg(x);
  auto applyOnce = [&](const View& in, const View* d) -> View {
    std::vector<Arg> a{viewArg(in)};
    if (d) {
      produceApply(f, a, *d, site);
      return *d;
    }
    std::optional<AddressSpace> s = spaces_.explicitSpaceOf(f);
    Type t = typeOfApplication(f, a);
    View tmp =
        allocTemp(t, s ? *s : AddressSpaceInference::defaultSpace(level(), substituteLengths(t, bounds_)),
                  site, s.has_value());
    produceApply(f, a, tmp, site);
    return tmp;
  };
  if (n.isCst() && n.value() == 0) {
    if (dest) copyValue(xv, *dest, site);
    return dest ? *dest : xv;
  }
  comment(fmt::format("iterate {}", str(n)), site);
  if (n.isCst() && n.value() == 1) return applyOnce(xv, dest);

  // The types flowing between iterations.
  auto typeAfter = [&](Type t) {
    return typeOfApply(f, {t}, [this](const ir::ParamNode* q) { return paramType(q); });
  };
  std::vector<Type> ts{xv->type};
  bool loopable = xv->type.isArray();
  if (n.isCst()) {
    for (int64_t k = 0; k < n.value(); ++k) {
      ts.push_back(typeAfter(ts.back()));
      loopable = loopable && ts.back().isArray() && ts.back().elem() == xv->type.elem();
    }
  } else {
    ts.push_back(typeAfter(ts.back()));
    std::vector<Arg> whole{viewArg(xv)};
    ts.push_back(typeOfApplication(asFun(p), whole));
  }
  if (!loopable) {
    // Iterations of different shapes: one after the other, each into its own temporary.
    View cur = xv;
    for (int64_t k = 0; k < n.value(); ++k) cur = applyOnce(cur, k + 1 == n.value() ? dest : nullptr);
    return cur;
  }
  Type elem = xv->type.elem();
  if (level() == Level::Kernel)
    fail(site,
         "iterate at kernel level (outside mapGlb/mapWrg) would be run by every work-item on shared "
         "buffers; move it inside a parallel map");

  // Lengths: of the input of each iteration, and the largest output.
  std::vector<arith::Expr> lens;
  for (auto& t : ts) lens.push_back(t.length());
  arith::Expr maxOut = lens[1];
  for (size_t k = 2; k < lens.size(); ++k) maxOut = arith::max(maxOut, lens[k]);
  std::optional<AddressSpace> s = spaces_.explicitSpaceOf(f);
  Type bufT = Type::array(elem, maxOut);
  AddressSpace space = s ? *s : AddressSpaceInference::defaultSpace(level(), bufT);
  View a = allocTemp(bufT, space, site, s.has_value());
  View b = allocTemp(bufT, space, site, s.has_value());
  std::string pa = *pointerTo(a), pb = *pointerTo(b);
  auto takeAddress = [&](const View& v) {
    std::vector<const Memory*> ms;
    view::memoriesOf(v, ms);
    for (auto& m : mem_.memories())
      if (std::find(ms.begin(), ms.end(), m.get()) != ms.end()) m->addressTaken = true;
  };
  takeAddress(a);
  takeAddress(b);

  std::string suffix = iterDepth_ == 0 ? "" : fmt::format("_{}", iterDepth_);
  std::vector<const Memory*> am;
  view::memoriesOf(a, am);
  const Memory* ma = am.front();
  Memory* src =
      mem_.allocateMemory("src" + suffix, space, Memory::Role::Pointer, ma->elemType, ma->count, site);
  Memory* dst =
      mem_.allocateMemory("dst" + suffix, space, Memory::Role::Pointer, ma->elemType, ma->count, site);
  std::string ptrType = fmt::format("{}{}{}*", space == AddressSpace::Private ? "" : qualifier(space),
                                    space == AddressSpace::Private ? "" : " ", ma->elemType.openclName());

  // The input, as a pointer when it is one contiguous array in the buffers' address space.
  std::optional<std::string> px;
  {
    std::vector<const Memory*> xm;
    view::memoriesOf(xv, xm);
    if (xm.size() == 1 && xm[0]->space == space && xm[0]->elemType == ma->elemType) px = pointerTo(xv);
    if (px) takeAddress(xv);
  }
  int64_t count = n.isCst() ? n.value() : -1;
  bool peelLast = dest && n.isCst();
  bool varying = false;
  for (auto& l : lens) varying = varying || l != lens[0];

  auto decl = [&](Memory* m, const std::string& init, bool isConst) {
    auto& d = emit(c::Stmt::Kind::Decl, site);
    d.text = (isConst ? "const " : "") + ptrType;
    d.name = m->name;
    d.rhs = c::text(init);
  };
  decl(src, px ? *px : pa, true);
  decl(dst, pa, false);
  auto swap = [&] {
    emit(c::Stmt::Kind::Line, site).text = fmt::format("{} = {};", src->name, dst->name);
    emit(c::Stmt::Kind::Line, site).text =
        fmt::format("{} = ({} == {}) ? {} : {};", dst->name, dst->name, pa, pb, pa);
  };
  int start = 0;
  ++iterDepth_;
  if (!px) {
    // Peel the first iteration: it reads the input where it is.
    size_t before = writeLog_.size();
    std::vector<Arg> in{viewArg(xv)};
    produceApply(f, in, view::mem(dst, ts[1]), site);
    endIterationBarrier(before, site);
    swap();
    start = 1;
  }
  arith::Expr sizeVar;
  std::string sizeName = "size" + suffix;
  size_t firstLoop = static_cast<size_t>(start);
  size_t lastLoop = peelLast ? static_cast<size_t>(count - 1) : (n.isCst() ? static_cast<size_t>(count) : 0);
  if (varying) {
    arith::Expr lo = lens[firstLoop], hi = lens[firstLoop];
    size_t upto = n.isCst() ? lastLoop : lens.size() - 1;
    for (size_t k = firstLoop; k < upto; ++k) {
      lo = arith::min(lo, lens[k]);
      hi = arith::max(hi, lens[k]);
    }
    if (!n.isCst()) {
      lo = arith::min(lo, lens.back());
      hi = arith::max(hi, lens.back());
    }
    sizeVar = arith::var(sizeName, lo, hi + 1);
    bounds_[sizeVar] = hi;
    auto& d = emit(c::Stmt::Kind::Decl, site);
    d.text = "int";
    d.name = sizeName;
    d.rhs = c::text(str(lens[firstLoop]));
  }
  Type inT = Type::array(elem, varying ? sizeVar : lens[0]);
  Type outT = typeAfter(inT);
  arith::Expr end = n.isCst() ? cst(static_cast<int64_t>(lastLoop)) : n;
  std::string iterName = "iter" + suffix;
  if (!(n.isCst() && static_cast<int64_t>(lastLoop) <= start)) {
    auto& loop = emit(c::Stmt::Kind::For, site);
    loop.text = iterName;
    loop.init = std::to_string(start);
    loop.cond = fmt::format("{} < {}", iterName, str(end));
    loop.step = fmt::format("{} += 1", iterName);
    into(loop.body, [&] {
      size_t before = writeLog_.size();
      std::vector<Arg> in{viewArg(view::mem(src, inT))};
      produceApply(f, in, view::mem(dst, outT), site);
      endIterationBarrier(before, site);
      swap();
      if (varying)
        emit(c::Stmt::Kind::Line, site).text = fmt::format("{} = {};", sizeName, str(outT.length()));
    });
  }
  --iterDepth_;
  if (sizeVar) bounds_.erase(sizeVar);
  if (peelLast) {
    std::vector<Arg> in{viewArg(view::mem(src, ts[count - 1]))};
    produceApply(f, in, *dest, site);
    return *dest;
  }
  View result = view::mem(src, ts.back());
  if (dest) {
    copyValue(result, *dest, site);
    return *dest;
  }
  return result;
}

// ===== the kernel ==============================================================================

void Builder::run() {
  out_ = &model_.body;
  // Names: user functions keep theirs unless OpenCL reserves them; buffers avoid both and the
  // generator's loop variables.
  for (const char* n : {"wg_id", "l_id", "gl_id", "i", "j", "k", "size", "iter", "src", "dst", "out", "lane"})
    usedNames_.insert(n);
  for (int d = 1; d < 3; ++d)
    for (const char* n : {"wg_id", "l_id", "gl_id", "size", "iter", "src", "dst"})
      usedNames_.insert(fmt::format("{}_{}", n, d));
  for (auto& uf : prog_.userFuns) funNames_[uf.get()] = freshFunName(*uf);
  for (auto& n : usedNames_) mem_.reserve(n);

  sequentialKernel_ = !nd_.usesWorkGroups;
  if (sequentialKernel_) {
    bool glb = false;
    ir::visitPreOrder(prog_.main, [&](const ir::NodePath& path) {
      auto* pat = path.back().node.isExpr() ? nullptr : ir::asPattern(path.back().node.fun);
      if (pat && pat->pattern() == K::MapGlb) glb = true;
      return !glb;
    });
    sequentialKernel_ = !glb;
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
      env_[p.get()] = Binding{v, nullptr};
    } else if (t.isScalar() && t.scalarKind() != ScalarKind::Bool) {
      mem_.reserve(name);
      model_.scalars.push_back({name, t, static_cast<int>(i)});
      if (t.scalarKind() == ScalarKind::Double) model_.usesDouble = true;
      env_[p.get()] = Binding{view::value(c::text(name), t), nullptr};
    } else {
      fail(p->id(), fmt::format("kernel input '{}' of type {} is not supported: inputs must be arrays or "
                                "float, double or int scalars",
                                p->name(), t.toString()));
    }
  }
  // The output.
  Type result = typeOfExpr(prog_.main->body());
  {
    Type inner = result;
    while (inner.isArray()) inner = inner.elem();
    if (inner.isScalar() && inner.scalarKind() == ScalarKind::Bool)
      fail(prog_.main->body()->id(), "a kernel cannot return bool values (OpenCL forbids bool buffers)");
  }
  View out =
      mem_.allocate(result, AddressSpace::Global, Memory::Role::Output, "out", prog_.main->body()->id());
  produce(prog_.main->body(), out);

  if (opts_.unrolling) {
    std::vector<Memory*> ms;
    for (auto& m : mem_.memories()) ms.push_back(m.get());
    scalarizePrivateArrays(model_.body, ms);
  }
}

}  // namespace

KernelModel buildKernel(const ir::Program& p, const CompileOptions& options, const NDRange& ndrange,
                        const BarrierPlan& barriers) {
  KernelModel m;
  m.ndrange = ndrange;
  Builder b(p, options, ndrange, barriers, m);
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
