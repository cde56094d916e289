// Canonical printing of the IR as .lift text.
//
// Call chains print as compositions, `f o g $ x`, and the lambdas the parser makes for
// compositions and reductions used as values print back as `f o g` and `reduce(f, z)`; every
// other lambda prints explicitly. Layout: whatever fits in kWidth columns stays on one line;
// otherwise a lambda with a long body opens a block, a long composition breaks after `o`
// (filling lines), a long nested function moves into a block, and long argument lists put
// one argument per line:
//
//   mapGlb1(fun(rowA =>
//     mapGlb0(fun(colB =>
//       reduceSeq(add, 0.0f) o map(mult) $ zip(rowA, colB)
//     )) $ transpose(B)
//   )) $ A
//
// The prelude's compositions print by name (slide2D, pad2D), and so does the nest of two plain
// maps that allPairs(f)(X, Y) stands for (the same nest as above with map for mapGlb prints as
// allPairs(reduce(add, 0.0f), mult)(A, transpose(B))).
//
// Every decision depends only on the IR and the names, so printing is idempotent. Parameter
// names are kept, with a suffix where two bindings in scope would share a name.
#include "core/lang/Printer.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/Build.h"
#include "core/ir/Prelude.h"
#include "core/lang/Parser.h"

namespace lift::lang {

using ir::Expr;
using ir::Fun;
using ir::PatternKind;

namespace {

constexpr int kWidth = 100;
// A lambda whose body is longer than this opens a block even where it would fit.
constexpr size_t kInlineBody = 40;

std::string spaces(int n) { return std::string(static_cast<size_t>(std::max(n, 0)), ' '); }

std::string size(arith::Expr e) { return arith::toString(e); }

// The column after `text` when it starts at column `col`.
int endColumn(const std::string& text, int col) {
  size_t nl = text.rfind('\n');
  return nl == std::string::npos ? col + static_cast<int>(text.size())
                                 : static_cast<int>(text.size() - nl - 1);
}

bool fits(const std::string& flat, int col) {
  return flat.find('\n') == std::string::npos && col + static_cast<int>(flat.size()) <= kWidth;
}

// Reductions and scans take an initial value before their array: reduce(f, z) $ xs; so do
// reduceWhileSeq and the searches (their default value), issue 17 (lift17p).
bool takesInitialValue(PatternKind k) {
  return ir::isReduceLike(k) || ir::isScanLike(k) || k == PatternKind::ReduceWhileSeq ||
         k == PatternKind::BSearch || k == PatternKind::LSearch;
}

bool isLink(const ir::CallNode& c) {
  auto* p = ir::asPattern(c.fun());
  if (p && ir::isArrayGenerator(p->pattern())) return false;  // issue 16: arrayFromValue(v, n)
  if (c.args().size() == 1) return true;
  return p && takesInitialValue(p->pattern()) && c.args().size() == 2;
}

// Functions written as a plain name (or get(i)) that may take their argument as f(x).
bool isBareFunction(const Fun& f) {
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
    case PatternKind::Head:
    case PatternKind::Tail:
    case PatternKind::TransposeW:
      return true;
    default:
      return false;
  }
}

// get(i) applied to one argument; false for null.
bool isGetCall(const ir::CallNode* c) {
  auto* p = c ? ir::asPattern(c->fun()) : nullptr;
  return p && p->pattern() == PatternKind::Get && c->args().size() == 1;
}

std::string literal(const ir::LiteralNode& l) {
  Type t = l.type();
  if (t.isScalar()) return l.text();
  if (t.isVector()) return fmt::format("({}){}", t.toString(), l.text());
  Type inner = t.innermost();
  if ((inner.isScalar() || inner.isVector()) && l.text() == ir::zeroText(inner.scalarKind()))
    return fmt::format("zeros({})", t.toString());
  return fmt::format("fill({}, {})", t.toString(), l.text());
}

class Printer {
 public:
  explicit Printer(const PrintOptions& options = {}) : options_(options) {}
  void reserve(const std::string& name) { reserved_.insert(name); }

  // `e` starting at column `col`; continuation lines are indented by `indent`.
  std::string expr(const Expr& e, int indent, int col) {
    if (!flat_) return layoutExpr(e, indent, col);
    // Flat texts are asked for at every level of the layout: compute each once.
    auto it = flatMemo_.find({e.get(), false});
    if (it != flatMemo_.end()) return it->second;
    std::string t = layoutExpr(e, 0, 0);
    flatMemo_.emplace(FlatKey(e.get(), false), t);
    return t;
  }

  std::string layoutExpr(const Expr& e, int indent, int col) {
    if (auto* l = ir::asLiteral(e)) return literal(*l);
    if (auto* p = ir::asParam(e)) return nameOf(p);
    if (!flat_) {
      std::string f = flat([&] { return expr(e, 0, 0); });
      if (fits(f, col)) return f;
    }
    auto* c = ir::asCall(e);
    LIFT_ASSERT(c, "unknown expression kind");
    if (auto m = allPairsOf(*c)) return allPairs(*m, indent, col);
    // get(i, get(j, x)): the element of an element (a stencil's neighbourhood) reads as a call.
    if (isGetCall(c) && isGetCall(ir::asCall(c->args()[0]))) return call(*c, indent, col);

    // A chain of one-argument calls (and reductions with their initial value) prints as a
    // composition applied with '$'.
    std::vector<const ir::CallNode*> links;
    Expr arg = e;
    while (auto* link = ir::asCall(arg)) {
      if (!isLink(*link) || allPairsOf(*link)) break;  // allPairs(f)(X, Y) takes two
      links.push_back(link);
      arg = link->args().back();
    }
    if (links.empty()) return call(*c, indent, col);
    // The innermost call of a plain function on a name or literal reads best as f(x).
    const ir::CallNode* innermost = nullptr;
    if ((ir::asParam(arg) || ir::asLiteral(arg)) && isBareFunction(links.back()->fun())) {
      innermost = links.back();
      links.pop_back();
      if (links.empty()) return call(*innermost, indent, col);
    }
    // Room for what follows the last link on its line: " $ " and the argument (or its head).
    std::string argFlat = flat([&] { return innermost ? call(*innermost, 0, 0) : expr(arg, 0, 0); });
    size_t argHead = argFlat.size() <= 40 ? argFlat.size() : argFlat.find('(') + 1;
    std::string out = chain(links, indent, col, 3 + static_cast<int>(std::min(argHead, argFlat.size())));
    out += " $ ";
    int c2 = endColumn(out, col);
    return out + (innermost ? call(*innermost, indent, c2) : expr(arg, indent, c2));
  }

  std::string fun(const Fun& f, int indent, int col, bool called = false) {
    if (!flat_) return layoutFun(f, indent, col, called);
    auto it = flatMemo_.find({f.get(), called});
    if (it != flatMemo_.end()) return it->second;
    std::string t = layoutFun(f, 0, 0, called);
    flatMemo_.emplace(FlatKey(f.get(), called), t);
    return t;
  }

  std::string layoutFun(const Fun& f, int indent, int col, bool called) {
    if (auto* u = ir::asUserFun(f)) return u->def().name;
    if (auto* p = ir::asPattern(f)) return pattern(*p, indent, col);
    auto* l = ir::asLambda(f);
    LIFT_ASSERT(l, "unknown function kind");
    if (!called) {
      if (auto links = sugarLinks(*l)) return chain(*links, indent, col, 0);
      if (auto* builtin = appliedBuiltin(*l)) return std::string(ir::patternName(builtin->pattern()));
    }
    return lambda(*l, indent, col);
  }

  // The fma or dot of a lambda that the parser made for it used as a value (`map(fma)`):
  // fun((a, b, c) => fma(a, b, c)), its parameters passed on in order.
  const ir::PatternNode* appliedBuiltin(const ir::LambdaNode& l) {
    auto* c = ir::asCall(l.body());
    const ir::PatternNode* p = c ? ir::asPattern(c->fun()) : nullptr;
    if (!p || (p->pattern() != PatternKind::Fma && p->pattern() != PatternKind::Dot)) return nullptr;
    if (c->args().size() != l.params().size()) return nullptr;
    for (size_t i = 0; i < l.params().size(); ++i)
      if (l.params()[i]->declaredType() || c->args()[i].get() != l.params()[i].get()) return nullptr;
    return p;
  }

  // Binds the names of params (suffixing duplicates) for the duration of a scope.
  void bind(const std::vector<ir::Param>& params) {
    for (auto& p : params) {
      std::string name = p->name();
      if (name.empty() || isReservedName(name)) name = "p";
      std::string candidate = name;
      for (int k = 1; bound_.count(candidate) || reserved_.count(candidate); ++k)
        candidate = fmt::format("{}_{}", name, k);
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
  // The single-line text produced by `print` (every layout decision taken as "fits").
  template <class F>
  std::string flat(F print) {
    bool was = flat_;
    flat_ = true;
    std::string s = print();
    flat_ = was;
    return s;
  }

  // L1 o L2 o ... : as many links per line as fit, breaking after `o`; `tail` columns must stay
  // free after the last link.
  std::string chain(const std::vector<const ir::CallNode*>& calls, int indent, int col, int tail) {
    // The calls of a prelude function (slide2D, pad2D) print as one link, by its name.
    std::vector<const ir::CallNode*> links;
    for (size_t i = 0; i < calls.size(); ++i) {
      links.push_back(calls[i]);
      auto m = ir::matchPrelude(*calls[i]);
      if (m && i + m->calls.size() <= calls.size()) {
        prelude_[calls[i]] = m->text;
        i += m->calls.size() - 1;
      } else {
        prelude_.erase(calls[i]);
      }
    }
    std::string out;
    int c = col;
    for (size_t i = 0; i < links.size(); ++i) {
      if (i > 0) {
        out += " o";
        c += 2;
        // Keep room for the " o" or " $" that follows the link. A link that does not fit but
        // opens a block (mapWrg0( ... )) starts on this line.
        int after = i + 1 < links.size() ? 3 : tail + 1;
        std::string t;
        bool sameLine = flat_ || fits(flat([&] { return linkText(*links[i], 0, 0); }), c + after);
        if (!sameLine) {
          t = linkText(*links[i], indent, c + 1);
          size_t nl = t.find('\n');
          sameLine = nl != std::string::npos && c + 1 + static_cast<int>(nl) <= kWidth;
          if (!sameLine) t.clear();
        }
        if (!sameLine) {
          out += "\n" + spaces(indent);
          c = indent;
        } else {
          out += " ";
          c += 1;
        }
        if (t.empty()) t = linkText(*links[i], indent, c);
        out += t;
        c = endColumn(t, c);
        continue;
      }
      std::string t = linkText(*links[i], indent, c);
      out += t;
      c = endColumn(t, c);
    }
    return out;
  }

  // Layouts of a link are tried at two columns at most; the memo keeps nested tries linear.
  std::string linkText(const ir::CallNode& c, int indent, int col) {
    if (flat_) return linkTextUncached(c, indent, col);
    auto key = std::make_tuple(&c, indent, col);
    auto it = linkMemo_.find(key);
    if (it != linkMemo_.end()) return it->second;
    std::string t = linkTextUncached(c, indent, col);
    linkMemo_.emplace(key, t);
    return t;
  }

  std::string linkTextUncached(const ir::CallNode& c, int indent, int col) {
    if (auto it = prelude_.find(&c); it != prelude_.end()) return it->second;
    auto* p = ir::asPattern(c.fun());
    if (p && takesInitialValue(p->pattern()) && c.args().size() == 2)
      return reduction(*p, c.args()[0], indent, col);
    return fun(c.fun(), indent, col, /*called=*/true);
  }

  // `head(` items `)`: on one line if it fits, else one item per line.
  template <class Item>
  std::string list(const std::string& head, size_t n, Item item, int indent, int col) {
    std::string out = head + "(";
    std::string one = flat([&] {
      std::string s;
      for (size_t i = 0; i < n; ++i) s += (i ? ", " : "") + item(i, 0, 0);
      return s;
    });
    if (flat_ || fits(one + ")", endColumn(out, col))) return out + one + ")";
    for (size_t i = 0; i < n; ++i)
      out += "\n" + spaces(indent + 2) + item(i, indent + 2, indent + 2) + (i + 1 < n ? "," : "");
    return out + "\n" + spaces(indent) + ")";
  }

  // A call that is not part of a chain: f(a, b), zip(a, b), get(0, t), fun(...)(a, b).
  std::string call(const ir::CallNode& c, int indent, int col) {
    auto arg = [&](size_t i, int ind, int cl) { return expr(c.args()[i], ind, cl); };
    if (auto* p = ir::asPattern(c.fun())) {
      switch (p->pattern()) {
        case PatternKind::Zip:
        case PatternKind::Tuple:
          return list(std::string(ir::patternName(p->pattern())), c.args().size(), arg, indent, col);
        // ----- issue 16: the array generators -----
        case PatternKind::ArrayFromValue:
          return list(
              "arrayFromValue", 2,
              [&](size_t i, int ind, int cl) { return i == 0 ? arg(0, ind, cl) : size(p->size(0)); }, indent,
              col);
        case PatternKind::ArrayFromGenerator:
          return fmt::format("arrayFromGenerator({}, {} => {})", size(p->size(0)), size(p->size(1)),
                             size(p->size(2)));
        case PatternKind::ArrayFromUserFun:
        case PatternKind::Array2DFromUserFun:
        case PatternKind::Array3DFromUserFun:
          return list(
              std::string(ir::patternName(p->pattern())), 1 + p->params().sizes.size(),
              [&](size_t i, int ind, int cl) { return i == 0 ? fun(p->f(), ind, cl) : size(p->size(i - 1)); },
              indent, col);
        // ----- end issue 16 -----
        case PatternKind::Get:
          return list(
              "get", c.args().size() + 1,
              [&](size_t i, int ind, int cl) {
                return i == 0 ? std::to_string(p->index()) : arg(i - 1, ind, cl);
              },
              indent, col);
        default:
          break;
      }
    }
    std::string head = fun(c.fun(), indent, col, /*called=*/true);
    return list(head, c.args().size(), arg, indent, col);
  }

  std::string reduction(const ir::PatternNode& p, const Expr& init, int indent, int col) {
    std::string name(ir::patternName(p.pattern()));
    bool part = p.pattern() == PatternKind::PartRed && !p.params().sizes.empty();
    // reduceWhileSeq(f, p, init): its predicate before the initial value (lift17p).
    size_t funs = p.pattern() == PatternKind::ReduceWhileSeq ? p.params().funs.size() : 1;
    return list(
        name, funs + (part ? 2 : 1),
        [&](size_t i, int ind, int cl) {
          if (i == 0) return p.params().funs.empty() ? std::string("?") : fun(p.f(), ind, cl);
          if (i < funs) return fun(p.params().funs[i], ind, cl);
          if (i == funs) return expr(init, ind, cl);
          return size(p.size());
        },
        indent, col);
  }

  // `open` f `)` for a pattern with a nested function: open is "map(" or "iterate(6, ".
  std::string withFun(const std::string& open, const Fun& f, int indent, int col) {
    std::string one = flat([&] { return fun(f, 0, 0); });
    int c = col + static_cast<int>(open.size());
    if (flat_ || fits(one + ")", c)) return open + one + ")";
    // A lambda lays itself out (it opens its own block), and so does a composition whose first
    // line opens a lambda block (in the flat text, a lambda that must break is followed by a
    // line break); anything else that does not fit moves into a block.
    size_t nl = one.find('\n');
    bool opensLambda = nl != std::string::npos && nl >= 3 && one.compare(nl - 3, 3, "=> ") == 0 &&
                       c + static_cast<int>(nl) <= kWidth;
    if (opensLambda || (ir::asLambda(f) && !sugarLinks(*ir::asLambda(f))))
      return open + fun(f, indent, c) + ")";
    std::string trimmed = open.substr(0, open.find_last_not_of(' ') + 1);
    return trimmed + "\n" + spaces(indent + 2) + fun(f, indent + 2, indent + 2) + "\n" + spaces(indent) + ")";
  }

  // The links of a lambda that the parser made for `f o g` or `reduce(f, z)` used as a value.
  std::optional<std::vector<const ir::CallNode*>> sugarLinks(const ir::LambdaNode& l) {
    if (l.params().size() != 1 || l.params()[0]->declaredType()) return std::nullopt;
    const ir::ParamNode* x = l.params()[0].get();
    std::vector<const ir::CallNode*> links;
    Expr cur = l.body();
    while (auto* c = ir::asCall(cur)) {
      if (!isLink(*c) || allPairsOf(*c)) return std::nullopt;
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
    return links;
  }

  std::string lambda(const ir::LambdaNode& l, int indent, int col) {
    return lambda(l.params(), l.body(), indent, col);
  }

  std::string lambda(const std::vector<ir::Param>& ps, const Expr& lambdaBody, int indent, int col) {
    bind(ps);
    std::string params;
    bool typed = false;
    for (size_t i = 0; i < ps.size(); ++i) {
      const auto& p = ps[i];
      params += (i ? ", " : "") + nameOf(p.get());
      if (p->declaredType()) {
        params += ": " + p->declaredType().toString();
        typed = true;
      }
    }
    if (ps.size() != 1 || typed) params = "(" + params + ")";
    std::string head = "fun(" + params + " => ";
    std::string body = flat([&] { return expr(lambdaBody, 0, 0); });
    std::string out;
    if (flat_) {
      // A long body must open a block: the line break makes every enclosing layout break too.
      out = head + (body.size() > kInlineBody ? "\n" : "") + body + ")";
    } else if (body.size() <= kInlineBody && fits(body + ")", col + static_cast<int>(head.size()))) {
      out = head + body + ")";
    } else {
      out = "fun(" + params + " =>\n" + spaces(indent + 2) + expr(lambdaBody, indent + 2, indent + 2) + "\n" +
            spaces(indent) + ")";
    }
    unbind(ps);
    return out;
  }

  // The nest of two maps that allPairs(f)(X, Y) expands to, by that name: the zip-reduce form
  // allPairs(r, z), a user function of the two rows allPairs(u), else the lambda of the two rows.
  std::string allPairs(const ir::AllPairsMatch& m, int indent, int col) {
    constexpr int kOpen = 9;  // "allPairs("
    std::string head;
    if (m.reduction) {
      head = reduction(*ir::asPattern(m.reduction->fun()), m.reduction->args()[0], indent, col + kOpen) +
             ", " + m.zipFun->def().name;
    } else if (const ir::UserFunNode* u = rowUserFun(m)) {
      head = u->def().name;
    } else {
      head = lambda({m.a(), m.b()}, m.body(), indent, col + kOpen);
    }
    const Expr* arrays[] = {&m.x(), &m.y()};
    return list(
        "allPairs(" + head + ")", 2, [&](size_t i, int ind, int cl) { return expr(*arrays[i], ind, cl); },
        indent, col);
  }

  // u where the rows' function is u(a, b), u a user function, a and b untyped.
  static const ir::UserFunNode* rowUserFun(const ir::AllPairsMatch& m) {
    auto* c = ir::asCall(m.body());
    auto* u = c ? ir::asUserFun(c->fun()) : nullptr;
    if (!u || c->args().size() != 2 || c->args()[0].get() != m.a().get() ||
        c->args()[1].get() != m.b().get() || m.a()->declaredType() || m.b()->declaredType())
      return nullptr;
    return u;
  }

  std::string pattern(const ir::PatternNode& p, int indent, int col) {
    const auto& ps = p.params();
    std::string name(ir::patternName(p.pattern()));
    auto nested = [&](const std::string& head) {
      return ps.funs.empty() ? head + "(?)" : withFun(head + "(", p.f(), indent, col);
    };
    switch (p.pattern()) {
      case PatternKind::MapGlb:
      case PatternKind::MapWrg:
      case PatternKind::MapLcl:
      case PatternKind::MapAtomWrg:
      case PatternKind::MapAtomLcl:
        return nested(name + std::to_string(ps.index));
      case PatternKind::Map:
      case PatternKind::MapWarp:
      case PatternKind::MapLane:
      case PatternKind::MapSeq:
      case PatternKind::MapSeqUnroll:
      case PatternKind::MapVec:
      case PatternKind::ToGlobal:
      case PatternKind::ToLocal:
      case PatternKind::ToPrivate:
      case PatternKind::Let:
      case PatternKind::Reduce:  // a bare reduction; with its initial value see reduction()
      case PatternKind::ReduceSeq:
      case PatternKind::ReduceSeqUnroll:
      case PatternKind::PartRed:
      case PatternKind::Scan:
      case PatternKind::ScanSeq:
      case PatternKind::BSearch:  // issue 17 (lift17p): bare, without the default value
      case PatternKind::LSearch:
      case PatternKind::FilterSeq:
      case PatternKind::InsertionSort:
        return nested(name);
      case PatternKind::ReduceWhileSeq:  // issue 17 (lift17p): bare, without the initial value
        return list(
            name, ps.funs.size(), [&](size_t i, int ind, int cl) { return fun(ps.funs[i], ind, cl); }, indent,
            col);
      case PatternKind::Iterate:
      case PatternKind::Vectorize:
        return ps.funs.empty() ? name
                               : withFun(fmt::format("{}({}, ", name, size(p.size())), p.f(), indent, col);
      case PatternKind::MapSeqSlide:  // issue 16
        return ps.funs.empty() ? name
                               : withFun(fmt::format("{}({}, {}, ", name, size(p.size(0)), size(p.size(1))),
                                         p.f(), indent, col);
      case PatternKind::Split:
      case PatternKind::AsVector:
      case PatternKind::ReorderStride:
        return fmt::format("{}({})", name, size(p.size()));
      case PatternKind::Slide:
        return fmt::format("slide({}, {})", size(p.size(0)), size(p.size(1)));
      case PatternKind::Pad: {
        static const char* modes[] = {"clamp", "mirror", "wrap"};
        std::string mode =
            ps.padMode == ir::PadMode::Constant ? ps.padValue : modes[static_cast<int>(ps.padMode)];
        return fmt::format("pad({}, {}, {})", size(p.size(0)), size(p.size(1)), mode);
      }
      case PatternKind::MdHom:
        return list(
            name, 2,
            [&](size_t i, int ind, int cl) {
              if (i == 0) return fun(p.f(), ind, cl);
              std::string ops;
              size_t op = 1;
              for (size_t k = 0; k < ps.concat.size(); ++k)
                ops += (k ? ", " : "") + (ps.concat[k] ? std::string("++") : fun(ps.funs.at(op++), ind, cl));
              return "(" + ops + ")";
            },
            indent, col);
      case PatternKind::Get:
        return fmt::format("get({})", ps.index);
      case PatternKind::Gather:
      case PatternKind::Scatter: {
        const ir::IndexFun& f = ps.indexFun;
        switch (f.kind) {
          case ir::IndexFun::Kind::Identity:
            return name + "(id)";
          case ir::IndexFun::Kind::Reverse:
            return name + "(reverse)";
          case ir::IndexFun::Kind::ReorderStride:
            return fmt::format("{}(reorderStride({}))", name, size(f.a));
          case ir::IndexFun::Kind::Transpose:
            return fmt::format("{}(transpose({}, {}))", name, size(f.a), size(f.b));
          case ir::IndexFun::Kind::Shift:
            return fmt::format("{}(shift({}))", name, size(f.a));
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
  // The allPairs nest at `c`, unless the options print it as a nest.
  std::optional<ir::AllPairsMatch> allPairsOf(const ir::CallNode& c) const {
    if (!options_.allPairsByName) return std::nullopt;
    return ir::matchAllPairs(c);
  }

  PrintOptions options_;
  bool flat_ = false;
  std::map<std::tuple<const ir::CallNode*, int, int>, std::string> linkMemo_;
  using FlatKey = std::pair<const ir::Node*, bool>;  // the node, and whether a function is called
  std::map<FlatKey, std::string> flatMemo_;
  // The prelude function's text of the outermost of its calls, as the last chain found it.
  std::unordered_map<const ir::CallNode*, std::string> prelude_;
};

}  // namespace

std::string printProgram(const ir::Program& p, const PrintOptions& options) {
  Printer pr(options);
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
  out += ") =\n  " + pr.expr(p.main->body(), 2, 2) + "\n";
  return out;
}

std::string printExpr(const ir::Expr& e, int indent) { return Printer().expr(e, indent, indent); }

std::string printFun(const ir::Fun& f, int indent) { return Printer().fun(f, indent, indent); }

}  // namespace lift::lang
