// IR nodes: construction, downcasts, structural equality and hashing up to renaming of
// parameters, traversal, and rebuilding (mutation, substitution, beta reduction).
#include "core/ir/IR.h"

#include <fmt/format.h>

#include <atomic>
#include <unordered_set>

namespace lift::ir {

NodeId freshNodeId() {
  static std::atomic<NodeId> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// ----- construction ----------------------------------------------------------------------

std::shared_ptr<const LiteralNode> LiteralNode::make(std::string text, Type type) {
  LIFT_ASSERT(type, "a literal needs a type");
  return std::make_shared<const LiteralNode>(std::move(text), type);
}

Param ParamNode::make(std::string name, Type declaredType) {
  return std::make_shared<const ParamNode>(std::move(name), declaredType);
}

std::shared_ptr<const CallNode> CallNode::make(Fun f, std::vector<Expr> args) {
  LIFT_ASSERT(f, "a call needs a function");
  for (auto& a : args) LIFT_ASSERT(a, "null argument");
  return std::make_shared<const CallNode>(std::move(f), std::move(args));
}

Lambda LambdaNode::make(std::vector<Param> params, Expr body) {
  LIFT_ASSERT(body, "a lambda needs a body");
  for (auto& p : params) LIFT_ASSERT(p, "null lambda parameter");
  return std::make_shared<const LambdaNode>(std::move(params), std::move(body));
}

std::shared_ptr<const PatternNode> PatternNode::make(PatternKind k, Params p) {
  for (auto& f : p.funs) LIFT_ASSERT(f, "null nested function");
  for (auto& s : p.sizes) LIFT_ASSERT(s, "null size parameter");
  return std::make_shared<const PatternNode>(k, std::move(p));
}

std::shared_ptr<const UserFunNode> UserFunNode::make(std::shared_ptr<const UserFunDef> def) {
  LIFT_ASSERT(def, "null user function definition");
  return std::make_shared<const UserFunNode>(std::move(def));
}

// ----- downcasts -------------------------------------------------------------------------

const LiteralNode* asLiteral(const Expr& e) {
  return e && e->kind() == ExprNode::Kind::Literal ? static_cast<const LiteralNode*>(e.get()) : nullptr;
}
const ParamNode* asParam(const Expr& e) {
  return e && e->kind() == ExprNode::Kind::Param ? static_cast<const ParamNode*>(e.get()) : nullptr;
}
const CallNode* asCall(const Expr& e) {
  return e && e->kind() == ExprNode::Kind::Call ? static_cast<const CallNode*>(e.get()) : nullptr;
}
const LambdaNode* asLambda(const Fun& f) {
  return f && f->kind() == FunNode::Kind::Lambda ? static_cast<const LambdaNode*>(f.get()) : nullptr;
}
const PatternNode* asPattern(const Fun& f) {
  return f && f->kind() == FunNode::Kind::Pattern ? static_cast<const PatternNode*>(f.get()) : nullptr;
}
const UserFunNode* asUserFun(const Fun& f) {
  return f && f->kind() == FunNode::Kind::UserFun ? static_cast<const UserFunNode*>(f.get()) : nullptr;
}

const PatternNode* calledPattern(const Expr& e, std::optional<PatternKind> k) {
  auto* call = asCall(e);
  if (!call) return nullptr;
  auto* p = asPattern(call->fun());
  if (!p || (k && p->pattern() != *k)) return nullptr;
  return p;
}

// ----- programs --------------------------------------------------------------------------

SourceLoc Program::locationOf(NodeId id) const {
  if (locations) {
    auto it = locations->find(id);
    if (it != locations->end()) return it->second;
  }
  return SourceLoc{file, 0, 0};
}

Diagnostic Program::diagnosticAt(NodeId id, std::string message) const {
  SourceLoc loc = locationOf(id);
  if (source && loc.known()) return makeDiagnostic(loc.file, *source, loc.line, loc.col, std::move(message));
  Diagnostic d;
  d.loc = std::move(loc);
  d.message = std::move(message);
  return d;
}

const SizeDecl* Program::findSize(const std::string& n) const {
  for (auto& s : sizes)
    if (s.name == n) return &s;
  return nullptr;
}

// ----- structure -------------------------------------------------------------------------

namespace {

// Where a parameter is bound, relative to the root of a comparison: the how-many-th lambda
// entered on the way down (de Bruijn level) and the position in its parameter list.
struct Binding {
  int level;
  int index;
};
using Bindings = std::unordered_map<const ParamNode*, Binding>;

size_t mix(size_t h, size_t v) {
  // boost::hash_combine with a 64-bit constant.
  return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 12) + (h >> 4));
}

bool sameUserFun(const UserFunDef& a, const UserFunDef& b) {
  if (&a == &b) return true;
  if (a.name != b.name || a.returnType != b.returnType || a.bodyText != b.bodyText) return false;
  if (a.params.size() != b.params.size()) return false;
  for (size_t i = 0; i < a.params.size(); ++i)
    if (a.params[i].second != b.params[i].second) return false;
  return true;
}

class AlphaEq {
 public:
  bool expr(const Expr& a, const Expr& b) {
    if (a == b && freeOf(a)) return true;
    if (!a || !b || a->kind() != b->kind()) return false;
    switch (a->kind()) {
      case ExprNode::Kind::Literal: {
        auto *la = asLiteral(a), *lb = asLiteral(b);
        return la->text() == lb->text() && la->type() == lb->type();
      }
      case ExprNode::Kind::Param: {
        auto *pa = asParam(a), *pb = asParam(b);
        auto ia = left_.find(pa), ib = right_.find(pb);
        bool boundA = ia != left_.end(), boundB = ib != right_.end();
        if (boundA != boundB) return false;
        if (!boundA) return pa == pb;
        return ia->second.level == ib->second.level && ia->second.index == ib->second.index;
      }
      case ExprNode::Kind::Call: {
        auto *ca = asCall(a), *cb = asCall(b);
        if (ca->args().size() != cb->args().size() || !fun(ca->fun(), cb->fun())) return false;
        for (size_t i = 0; i < ca->args().size(); ++i)
          if (!expr(ca->args()[i], cb->args()[i])) return false;
        return true;
      }
    }
    return false;
  }

  bool fun(const Fun& a, const Fun& b) {
    if (a == b && freeOf(a)) return true;
    if (!a || !b || a->kind() != b->kind()) return false;
    switch (a->kind()) {
      case FunNode::Kind::Lambda: {
        auto *la = asLambda(a), *lb = asLambda(b);
        if (la->params().size() != lb->params().size()) return false;
        for (size_t i = 0; i < la->params().size(); ++i) {
          if (la->params()[i]->declaredType() != lb->params()[i]->declaredType()) return false;
          left_[la->params()[i].get()] = {level_, static_cast<int>(i)};
          right_[lb->params()[i].get()] = {level_, static_cast<int>(i)};
        }
        ++level_;
        bool eq = expr(la->body(), lb->body());
        --level_;
        for (size_t i = 0; i < la->params().size(); ++i) {
          left_.erase(la->params()[i].get());
          right_.erase(lb->params()[i].get());
        }
        return eq;
      }
      case FunNode::Kind::Pattern: {
        auto *pa = asPattern(a), *pb = asPattern(b);
        auto &x = pa->params(), &y = pb->params();
        if (pa->pattern() != pb->pattern() || x.index != y.index || x.sizes != y.sizes ||
            !(x.indexFun == y.indexFun) || x.padMode != y.padMode || x.padValue != y.padValue ||
            x.concat != y.concat || x.funs.size() != y.funs.size())
          return false;
        for (size_t i = 0; i < x.funs.size(); ++i)
          if (!fun(x.funs[i], y.funs[i])) return false;
        return true;
      }
      case FunNode::Kind::UserFun:
        return sameUserFun(asUserFun(a)->def(), asUserFun(b)->def());
    }
    return false;
  }

 private:
  // The same node on both sides is equal to itself unless parameters bound on the way down are
  // mapped differently on the two sides; a shortcut only when nothing is bound yet.
  template <class N>
  bool freeOf(const N&) const {
    return left_.empty() && right_.empty();
  }

  Bindings left_, right_;
  int level_ = 0;
};

class Hasher {
 public:
  size_t expr(const Expr& e) {
    switch (e->kind()) {
      case ExprNode::Kind::Literal: {
        auto* l = asLiteral(e);
        return mix(mix(1, std::hash<std::string>()(l->text())), std::hash<Type>()(l->type()));
      }
      case ExprNode::Kind::Param: {
        auto it = bound_.find(asParam(e));
        if (it == bound_.end()) return mix(2, std::hash<const Node*>()(e.get()));
        return mix(mix(3, static_cast<size_t>(it->second.level)), static_cast<size_t>(it->second.index));
      }
      case ExprNode::Kind::Call: {
        auto* c = asCall(e);
        size_t h = mix(4, fun(c->fun()));
        for (auto& a : c->args()) h = mix(h, expr(a));
        return h;
      }
    }
    return 0;
  }

  size_t fun(const Fun& f) {
    switch (f->kind()) {
      case FunNode::Kind::Lambda: {
        auto* l = asLambda(f);
        size_t h = mix(5, l->params().size());
        for (size_t i = 0; i < l->params().size(); ++i) {
          h = mix(h, std::hash<Type>()(l->params()[i]->declaredType()));
          bound_[l->params()[i].get()] = {level_, static_cast<int>(i)};
        }
        ++level_;
        h = mix(h, expr(l->body()));
        --level_;
        for (auto& p : l->params()) bound_.erase(p.get());
        return h;
      }
      case FunNode::Kind::Pattern: {
        auto* p = asPattern(f);
        auto& ps = p->params();
        size_t h = mix(6, static_cast<size_t>(p->pattern()));
        h = mix(h, static_cast<size_t>(ps.index));
        for (auto& s : ps.sizes) h = mix(h, s.hash());
        h = mix(h, static_cast<size_t>(ps.indexFun.kind));
        if (ps.indexFun.a) h = mix(h, ps.indexFun.a.hash());
        if (ps.indexFun.b) h = mix(h, ps.indexFun.b.hash());
        h = mix(h, static_cast<size_t>(ps.padMode));
        if (!ps.padValue.empty()) h = mix(h, std::hash<std::string>()(ps.padValue));
        for (bool c : ps.concat) h = mix(h, c ? 2 : 1);
        for (auto& g : ps.funs) h = mix(h, fun(g));
        return h;
      }
      case FunNode::Kind::UserFun:
        return mix(7, std::hash<std::string>()(asUserFun(f)->def().name));
    }
    return 0;
  }

 private:
  Bindings bound_;
  int level_ = 0;
};

}  // namespace

bool alphaEqual(const Fun& a, const Fun& b) { return AlphaEq().fun(a, b); }
bool alphaEqual(const Expr& a, const Expr& b) { return AlphaEq().expr(a, b); }

size_t structuralHash(const Fun& f) { return Hasher().fun(f); }
size_t structuralHash(const Expr& e) { return Hasher().expr(e); }

size_t structuralHash(const Program& p) {
  size_t h = p.main ? structuralHash(Fun(p.main)) : 0;
  for (auto& s : p.sizes) h = mix(h, std::hash<std::string>()(s.name));
  for (auto& u : p.userFuns) h = mix(h, std::hash<std::string>()(u->name));
  return h;
}

size_t nodeCount(const Fun& root) {
  std::unordered_set<const Node*> seen;
  std::vector<NodeRef> work{root};
  while (!work.empty()) {
    NodeRef n = std::move(work.back());
    work.pop_back();
    if (!seen.insert(n.get()).second) continue;
    for (auto& c : children(n)) work.push_back(c.node);
  }
  return seen.size();
}

// ----- traversal -------------------------------------------------------------------------

std::vector<PathStep> children(const NodeRef& n) {
  std::vector<PathStep> out;
  if (n.isExpr()) {
    if (auto* c = asCall(n.expr())) {
      out.push_back({c->fun(), Edge::CallFun, 0});
      for (size_t i = 0; i < c->args().size(); ++i)
        out.push_back({c->args()[i], Edge::CallArg, static_cast<int>(i)});
    }
    return out;
  }
  Fun f = n.fun();
  if (auto* l = asLambda(f)) {
    for (size_t i = 0; i < l->params().size(); ++i)
      out.push_back({Expr(l->params()[i]), Edge::LambdaParam, static_cast<int>(i)});
    out.push_back({l->body(), Edge::LambdaBody, 0});
  } else if (auto* p = asPattern(f)) {
    for (size_t i = 0; i < p->params().funs.size(); ++i)
      out.push_back({p->params().funs[i], Edge::PatternFun, static_cast<int>(i)});
  }
  return out;
}

namespace {

void walk(NodePath& path, const std::function<bool(const NodePath&)>& visit) {
  if (!visit(path)) return;
  std::vector<PathStep> kids = children(path.back().node);
  for (auto& k : kids) {
    path.push_back(std::move(k));
    walk(path, visit);
    path.pop_back();
  }
}

}  // namespace

void visitPreOrder(const Fun& root, const std::function<bool(const NodePath&)>& visit) {
  NodePath path{{root, Edge::Root, 0}};
  walk(path, visit);
}

void visitPreOrder(const Expr& root, const std::function<bool(const NodePath&)>& visit) {
  NodePath path{{root, Edge::Root, 0}};
  walk(path, visit);
}

namespace {

template <class Root>
std::vector<Param> collectFree(const Root& root) {
  std::unordered_set<const ParamNode*> bound, seen;
  std::vector<Param> out;
  visitPreOrder(root, [&](const NodePath& path) {
    const PathStep& s = path.back();
    if (s.edge == Edge::LambdaParam) {
      bound.insert(asParam(s.node.expr()));
      return false;
    }
    if (Expr e = s.node.expr(); auto* p = asParam(e)) {
      if (!bound.count(p) && seen.insert(p).second)
        out.push_back(std::static_pointer_cast<const ParamNode>(e));
    }
    return true;
  });
  return out;
}

template <class Root>
bool mentionsParam(const Root& root, const ParamNode* p) {
  bool found = false;
  visitPreOrder(root, [&](const NodePath& path) {
    if (found) return false;
    const PathStep& s = path.back();
    if (s.edge != Edge::LambdaParam && s.node.get() == p) found = true;
    return !found;
  });
  return found;
}

}  // namespace

bool occursIn(const ParamNode* p, const Expr& e) { return mentionsParam(e, p); }
bool occursIn(const ParamNode* p, const Fun& f) { return mentionsParam(f, p); }
std::vector<Param> freeParams(const Fun& f) { return collectFree(f); }
std::vector<Param> freeParams(const Expr& e) { return collectFree(e); }

bool containsPattern(const Fun& f, std::initializer_list<PatternKind> kinds, int dim) {
  if (auto* l = asLambda(f)) return containsPattern(l->body(), kinds, dim);
  if (auto* p = asPattern(f)) {
    for (auto k : kinds)
      if (p->pattern() == k && (dim < 0 || p->index() == dim)) return true;
    for (auto& g : p->params().funs)
      if (containsPattern(g, kinds, dim)) return true;
  }
  return false;
}

bool containsPattern(const Expr& e, std::initializer_list<PatternKind> kinds, int dim) {
  auto* c = asCall(e);
  if (!c) return false;
  if (containsPattern(c->fun(), kinds, dim)) return true;
  for (auto& a : c->args())
    if (containsPattern(a, kinds, dim)) return true;
  return false;
}

// ----- rebuilding ------------------------------------------------------------------------

Expr Mutator::mutateChildren(const Expr& e) {
  auto* c = asCall(e);
  if (!c) return e;
  Fun f = mutate(c->fun());
  bool changed = f != c->fun();
  std::vector<Expr> args;
  args.reserve(c->args().size());
  for (auto& a : c->args()) {
    args.push_back(mutate(a));
    changed = changed || args.back() != a;
  }
  return changed ? CallNode::make(std::move(f), std::move(args)) : e;
}

Fun Mutator::mutateChildren(const Fun& f) {
  if (auto* l = asLambda(f)) {
    Expr body = mutate(l->body());
    return body == l->body() ? f : LambdaNode::make(l->params(), std::move(body));
  }
  if (auto* p = asPattern(f)) {
    PatternNode::Params ps = p->params();
    bool changed = false;
    for (auto& g : ps.funs) {
      Fun h = mutate(g);
      changed = changed || h != g;
      g = std::move(h);
    }
    return changed ? PatternNode::make(p->pattern(), std::move(ps)) : f;
  }
  return f;
}

namespace {

class Substituter : public Mutator {
 public:
  explicit Substituter(const std::unordered_map<const ParamNode*, Expr>& r) : repl_(r) {}
  using Mutator::mutate;
  Expr mutate(const Expr& e) override {
    if (auto* p = asParam(e)) {
      auto it = repl_.find(p);
      return it == repl_.end() ? e : it->second;
    }
    return Mutator::mutate(e);
  }

 private:
  const std::unordered_map<const ParamNode*, Expr>& repl_;
};

}  // namespace

Expr substitute(const Expr& e, const std::unordered_map<const ParamNode*, Expr>& replacement) {
  return Substituter(replacement).mutate(e);
}

Fun substitute(const Fun& f, const std::unordered_map<const ParamNode*, Expr>& replacement) {
  return Substituter(replacement).mutate(f);
}

Expr betaReduce(const Expr& call) {
  auto* c = asCall(call);
  auto* l = c ? asLambda(c->fun()) : nullptr;
  if (!l || l->params().size() != c->args().size()) return nullptr;
  std::unordered_map<const ParamNode*, Expr> repl;
  for (size_t i = 0; i < c->args().size(); ++i) repl[l->params()[i].get()] = c->args()[i];
  return substitute(l->body(), repl);
}

}  // namespace lift::ir
