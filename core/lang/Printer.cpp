// Canonical printing of the IR as .lift text.
//
// Call chains print as compositions, `f o g $ x`, and the lambdas the parser makes for
// compositions and reductions used as values print back as `f o g` and `reduce(f, z)`; every
// other lambda prints explicitly. A lambda whose body does not fit on a line opens a block:
//
//   map(fun(rowA =>
//     reduce(add, 0.0f) o map(mult) $ zip(rowA, colB)
//   )) $ A
//
// Parameter names are kept, with a suffix where two bindings in scope would share a name.
#include "core/lang/Printer.h"

#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "core/ir/Build.h"
#include "core/lang/Parser.h"

namespace lift::lang {

using ir::Expr;
using ir::Fun;
using ir::PatternKind;

namespace {

// A lambda body longer than this opens a block.
constexpr size_t kInlineBody = 40;

std::string spaces(int n) { return std::string(static_cast<size_t>(std::max(n, 0)), ' '); }

std::string size(arith::Expr e) { return arith::toString(e); }

class Printer {
 public:
  void reserve(const std::string& name) { reserved_.insert(name); }

  std::string expr(const Expr& e, int indent) {
    if (auto* l = ir::asLiteral(e)) return literal(*l);
    if (auto* p = ir::asParam(e)) return nameOf(p);
    auto* c = ir::asCall(e);
    LIFT_ASSERT(c, "unknown expression kind");

    // A chain of one-argument calls (and reductions with their initial value) prints as a
    // composition applied with '$'.
    std::vector<const ir::CallNode*> links;
    Expr arg = e;
    while (auto* link = ir::asCall(arg)) {
      if (!isLink(*link)) break;
      links.push_back(link);
      arg = link->args().back();
    }
    if (links.empty()) return call(*c, indent);

    std::string argText;
    // The innermost call of a plain function on a name or literal reads best as f(x).
    const ir::CallNode* last = links.back();
    if ((ir::asParam(arg) || ir::asLiteral(arg)) && isBareFunction(last->fun())) {
      links.pop_back();
      argText = call(*last, indent);
      if (links.empty()) return argText;
    } else {
      argText = expr(arg, indent);
    }
    std::string out;
    for (size_t i = 0; i < links.size(); ++i) out += (i ? " o " : "") + linkText(*links[i], indent);
    return out + " $ " + argText;
  }

  std::string fun(const Fun& f, int indent, bool called = false) {
    if (auto* u = ir::asUserFun(f)) return u->def().name;
    if (auto* p = ir::asPattern(f)) return pattern(*p, indent);
    auto* l = ir::asLambda(f);
    LIFT_ASSERT(l, "unknown function kind");
    if (!called) {
      if (auto sugar = lambdaSugar(*l, indent)) return *sugar;
    }
    return lambda(*l, indent);
  }

  // Binds the names of params (suffixing duplicates) for the duration of a scope.
  void bind(const std::vector<ir::Param>& params) {
    for (auto& p : params) {
      std::string name = p->name();
      if (name.empty() || isReservedName(name)) name = "p";
      std::string candidate = name;
      for (int k = 1; bound_.count(candidate) || reserved_.count(candidate); ++k) candidate = fmt::format("{}_{}", name, k);
      names_[p.get()] = candidate;
      bound_.insert(candidate);
    }
  }
  void unbind(const std::vector<ir::Param>& params) {
    for (auto& p : params) bound_.erase(names_[p.get()]);
  }
  std::string nameOf(const ir::ParamNode* p) const {
    auto it = names_.find(p);
    return it == names_.end() ? p->name() : it->second;
  }

 private:
  static std::string literal(const ir::LiteralNode& l) {
    Type t = l.type();
    if (t.isScalar()) return l.text();
    if (t.isVector()) return fmt::format("({}){}", t.toString(), l.text());
    Type inner = t.innermost();
    if ((inner.isScalar() || inner.isVector()) && l.text() == ir::zeroText(inner.scalarKind()))
      return fmt::format("zeros({})", t.toString());
    return fmt::format("fill({}, {})", t.toString(), l.text());
  }

  static bool isLink(const ir::CallNode& c) {
    if (c.args().size() == 1) return true;
    auto* p = ir::asPattern(c.fun());
    return p && ir::isReduceLike(p->pattern()) && c.args().size() == 2;
  }

  // Functions written as a plain name (or get(i)) that may take their argument as f(x).
  static bool isBareFunction(const Fun& f) {
    if (ir::asUserFun(f)) return true;
    auto* p = ir::asPattern(f);
    if (!p) return false;
    switch (p->pattern()) {
      case PatternKind::Join:
      case PatternKind::Transpose:
      case PatternKind::Unzip:
      case PatternKind::Id:
      case PatternKind::AsScalar:
      case PatternKind::Get:
        return true;
      default:
        return false;
    }
  }

  std::string linkText(const ir::CallNode& c, int indent) {
    auto* p = ir::asPattern(c.fun());
    if (p && ir::isReduceLike(p->pattern()) && c.args().size() == 2) return reduction(*p, c.args()[0], indent);
    return fun(c.fun(), indent, /*called=*/true);
  }

  std::string args(const std::vector<Expr>& as, int indent) {
    std::string out;
    for (size_t i = 0; i < as.size(); ++i) out += (i ? ", " : "") + expr(as[i], indent);
    return out;
  }

  // A call that is not part of a chain: f(a, b), zip(a, b), get(0, t), fun(...)(a, b).
  std::string call(const ir::CallNode& c, int indent) {
    if (auto* p = ir::asPattern(c.fun())) {
      switch (p->pattern()) {
        case PatternKind::Zip:
        case PatternKind::Tuple:
          return fmt::format("{}({})", ir::patternName(p->pattern()), args(c.args(), indent));
        case PatternKind::Get:
          return fmt::format("get({}, {})", p->index(), args(c.args(), indent));
        default:
          break;
      }
    }
    return fmt::format("{}({})", fun(c.fun(), indent, /*called=*/true), args(c.args(), indent));
  }

  std::string reduction(const ir::PatternNode& p, const Expr& init, int indent) {
    std::string f = p.params().funs.empty() ? "?" : fun(p.f(), indent);
    std::string name(ir::patternName(p.pattern()));
    if (p.pattern() == PatternKind::PartRed && !p.params().sizes.empty())
      return fmt::format("{}({}, {}, {})", name, f, expr(init, indent), size(p.size()));
    return fmt::format("{}({}, {})", name, f, expr(init, indent));
  }

  // The lambdas the parser builds for `f o g` and `reduce(f, z)` used as values print back as such.
  std::optional<std::string> lambdaSugar(const ir::LambdaNode& l, int indent) {
    if (l.params().size() != 1 || l.params()[0]->declaredType()) return std::nullopt;
    const ir::ParamNode* x = l.params()[0].get();
    std::vector<const ir::CallNode*> links;
    Expr cur = l.body();
    while (auto* c = ir::asCall(cur)) {
      if (!isLink(*c)) return std::nullopt;
      // The parameter may only flow in as the data argument of the innermost call.
      if (ir::occursIn(x, c->fun())) return std::nullopt;
      for (size_t i = 0; i + 1 < c->args().size(); ++i)
        if (ir::occursIn(x, c->args()[i])) return std::nullopt;
      links.push_back(c);
      cur = c->args().back();
    }
    if (cur.get() != x || links.empty()) return std::nullopt;
    // fun(x => f $ x) with a single plain call stays a lambda: map(f) is different IR.
    if (links.size() == 1 && links[0]->args().size() == 1) return std::nullopt;
    std::string out;
    for (size_t i = 0; i < links.size(); ++i) out += (i ? " o " : "") + linkText(*links[i], indent);
    return out;
  }

  std::string lambda(const ir::LambdaNode& l, int indent) {
    bind(l.params());
    std::string params;
    bool typed = false;
    for (size_t i = 0; i < l.params().size(); ++i) {
      const auto& p = l.params()[i];
      params += (i ? ", " : "") + nameOf(p.get());
      if (p->declaredType()) {
        params += ": " + p->declaredType().toString();
        typed = true;
      }
    }
    if (l.params().size() != 1 || typed) params = "(" + params + ")";
    std::string body = expr(l.body(), indent + 2);
    unbind(l.params());
    if (body.find('\n') == std::string::npos && body.size() <= kInlineBody)
      return fmt::format("fun({} => {})", params, body);
    return fmt::format("fun({} =>\n{}{}\n{})", params, spaces(indent + 2), body, spaces(indent));
  }

  std::string pattern(const ir::PatternNode& p, int indent) {
    const auto& ps = p.params();
    std::string name(ir::patternName(p.pattern()));
    auto nested = [&] { return ps.funs.empty() ? std::string("?") : fun(p.f(), indent); };
    switch (p.pattern()) {
      case PatternKind::MapGlb:
      case PatternKind::MapWrg:
      case PatternKind::MapLcl:
        return fmt::format("{}{}({})", name, ps.index, nested());
      case PatternKind::Map:
      case PatternKind::MapSeq:
      case PatternKind::MapSeqUnroll:
      case PatternKind::MapVec:
      case PatternKind::ToGlobal:
      case PatternKind::ToLocal:
      case PatternKind::ToPrivate:
        return fmt::format("{}({})", name, nested());
      case PatternKind::Reduce:
      case PatternKind::ReduceSeq:
      case PatternKind::ReduceSeqUnroll:
      case PatternKind::PartRed:
        // A reduction is printed with its initial value where it is called (see reduction()).
        return fmt::format("{}({})", name, nested());
      case PatternKind::Split:
      case PatternKind::AsVector:
      case PatternKind::ReorderStride:
        return fmt::format("{}({})", name, size(p.size()));
      case PatternKind::Slide:
        return fmt::format("slide({}, {})", size(p.size(0)), size(p.size(1)));
      case PatternKind::Pad: {
        static const char* modes[] = {"clamp", "mirror", "wrap"};
        std::string mode = ps.padMode == ir::PadMode::Constant ? ps.padValue : modes[static_cast<int>(ps.padMode)];
        return fmt::format("pad({}, {}, {})", size(p.size(0)), size(p.size(1)), mode);
      }
      case PatternKind::Iterate:
      case PatternKind::Vectorize:
        return fmt::format("{}({}, {})", name, size(p.size()), nested());
      case PatternKind::Get:
        return fmt::format("get({})", ps.index);
      case PatternKind::Gather:
      case PatternKind::Scatter: {
        const ir::IndexFun& f = ps.indexFun;
        switch (f.kind) {
          case ir::IndexFun::Kind::Identity: return name + "(id)";
          case ir::IndexFun::Kind::Reverse: return name + "(reverse)";
          case ir::IndexFun::Kind::ReorderStride: return fmt::format("{}(reorderStride({}))", name, size(f.a));
          case ir::IndexFun::Kind::Transpose:
            return fmt::format("{}(transpose({}, {}))", name, size(f.a), size(f.b));
        }
        return name;
      }
      default:
        return name;  // join, transpose, unzip, id, asScalar, dot, zip, tuple
    }
  }

  std::unordered_map<const ir::ParamNode*, std::string> names_;
  std::unordered_set<std::string> bound_;
  std::unordered_set<std::string> reserved_;
};

}  // namespace

std::string printProgram(const ir::Program& p) {
  Printer pr;
  for (auto& s : p.sizes) pr.reserve(s.name);
  for (auto& u : p.userFuns) pr.reserve(u->name);
  std::string out;
  if (!p.sizes.empty()) {
    out += "size ";
    for (size_t i = 0; i < p.sizes.size(); ++i) {
      out += (i ? ", " : "") + p.sizes[i].name;
      if (p.sizes[i].defaultValue) out += fmt::format(" = {}", *p.sizes[i].defaultValue);
    }
    out += ";\n\n";
  }
  for (auto& u : p.userFuns) {
    out += "userfun " + u->name + "(";
    for (size_t i = 0; i < u->params.size(); ++i)
      out += (i ? ", " : "") + u->params[i].second.toString() + " " + u->params[i].first;
    out += ") -> " + u->returnType.toString() + " {" + u->bodyText + "}\n";
  }
  if (!p.userFuns.empty()) out += "\n";
  LIFT_ASSERT(p.main, "program without a main function");
  pr.bind(p.main->params());
  out += "fun " + (p.name.empty() ? std::string("program") : p.name) + "(";
  for (size_t i = 0; i < p.main->params().size(); ++i) {
    const auto& in = p.main->params()[i];
    out += (i ? ", " : "") + pr.nameOf(in.get()) + ": " + in->declaredType().toString();
  }
  out += ") =\n  " + pr.expr(p.main->body(), 2) + "\n";
  return out;
}

std::string printExpr(const ir::Expr& e, int indent) { return Printer().expr(e, indent); }

std::string printFun(const ir::Fun& f, int indent) { return Printer().fun(f, indent); }

}  // namespace lift::lang
