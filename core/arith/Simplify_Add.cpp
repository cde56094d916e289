// Smart constructor for sums (add, sub, neg): flattening, constant folding, collection of like
// terms, and the sum rules (quotient/remainder recombination, distribution when it shrinks);
// the terms stay in their order where the ranges show that the rewrite could overflow.
#include <algorithm>

#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace {

using Terms = SmallVec<Term, 12>;

struct Collected {
  int64_t constant = 0;
  Terms terms;
  bool overflow = false;
};

void flatten(Expr e, Exprs& out, Collected& c) {
  const Node* n = e.node();
  switch (n->kind) {
    case Kind::Cst:
      if (auto r = checkedAdd(c.constant, n->value))
        c.constant = *r;
      else
        c.overflow = true;
      return;
    case Kind::Sum:
      for (Expr o : e.operands()) flatten(o, out, c);
      return;
    case Kind::Prod:
      if (!n->canonShape) {
        Expr m = mulMany(n->all());
        if (m->kind != Kind::Prod || m->canonShape) {
          flatten(m, out, c);
          return;
        }
      }
      out.push_back(e);
      return;
    default:
      out.push_back(e);
  }
}

// Groups like terms; the order is the canonical one (not addresses), so that which rule of a
// sum fires first is the same in every run.
bool factorKeyLess(const Term& a, const Term& b) {
  auto fa = a.factors(), fb = b.factors();
  if (fa.size() != fb.size()) return fa.size() < fb.size();
  for (size_t i = 0; i < fa.size(); ++i)
    if (fa[i] != fb[i]) return canonicalLess(fa[i], fb[i]);
  return false;
}

Collected collect(std::span<const Expr> inputs) {
  Collected c;
  Exprs flat;
  for (Expr e : inputs) flatten(e, flat, c);
  Terms terms;
  terms.reserve(flat.size());
  for (Expr e : flat) terms.push_back(decompose(e));
  if (terms.size() > 1) std::sort(terms.begin(), terms.end(), factorKeyLess);
  for (auto& t : terms) {
    if (!c.terms.empty() && sameFactors(c.terms.back().factors(), t.factors())) {
      Term& prev = c.terms.back();
      auto s = checkedAdd(prev.coef, t.coef);
      if (!s) {
        c.overflow = true;
        return c;
      }
      // Keep the factor storage of prev (it points into a node or into prev.single).
      prev.coef = *s;
      prev.whole = Expr();
      continue;
    }
    c.terms.push_back(t);
  }
  Term* out = c.terms.begin();
  for (const Term& t : c.terms)
    if (t.coef != 0) *out++ = t;
  while (c.terms.end() != out) c.terms.pop_back();
  return c;
}

Expr exprOf(const Term& t) { return t.whole ? t.whole : termExpr(t.coef, t.factors()); }

Exprs exprsExcept(const Collected& c, std::span<const size_t> skip) {
  Exprs out;
  out.reserve(c.terms.size() + 2);
  for (size_t i = 0; i < c.terms.size(); ++i)
    if (std::find(skip.begin(), skip.end(), i) == skip.end()) out.push_back(exprOf(c.terms[i]));
  return out;
}

// y as coefficient and non-constant factors (y = ky * Fy).
void splitCoef(Expr y, int64_t& ky, Exprs& fy) {
  fy.clear();
  if (y.isCst()) {
    ky = y->value;
    return;
  }
  Term t = decompose(y);
  ky = t.coef;
  auto f = t.factors();
  fy.insert(fy.end(), f.data(), f.data() + f.size());
}

// The terms of x, scaled by -m, as indices of c's terms (x's constant is returned in xConst);
// false unless every non-constant term of x is there with exactly that coefficient.
bool findScaledTerms(const Collected& c, Expr x, int64_t m, SmallVec<size_t, 8>& used, int64_t& xConst) {
  xConst = 0;
  auto nm = checkedNeg(m);
  if (!nm) return false;
  auto xs = x->kind == Kind::Sum ? x->all() : std::span<const Expr>(&x, 1);
  for (Expr xt : xs) {
    if (isConst(xt)) {
      xConst = xt->value;
      continue;
    }
    Term tx = decompose(xt);
    auto want = checkedMul(*nm, tx.coef);
    if (!want) return false;
    bool found = false;
    for (size_t j = 0; j < c.terms.size() && !found; ++j) {
      if (std::find(used.begin(), used.end(), j) != used.end()) continue;
      if (c.terms[j].coef == *want && sameFactors(c.terms[j].factors(), tx.factors())) {
        used.push_back(j);
        found = true;
      }
    }
    if (!found) return false;
  }
  return true;
}

// Rules on remainders in a sum, each valid for every sign (a, b, y != 0):
// sum-mod-div-mod-recombine: c*a*((x/a)%b) + c*(x%a) -> c*(x%(a*b));
// sum-sub-mod-to-div: m*(x%y) - m*x -> -m*y*(x/y), kept only when not larger.
Expr recombineMod(const Collected& c) {
  Exprs fa, others;
  for (size_t i = 0; i < c.terms.size(); ++i) {
    auto f = c.terms[i].factors();
    for (size_t p = 0; p < f.size(); ++p) {
      if (f[p]->kind != Kind::Mod) continue;
      Expr inner = f[p]->ops[0], b = f[p]->ops[1];
      if (inner->kind == Kind::Div) {
        Expr x = inner->ops[0], a = inner->ops[1];
        int64_t ka;
        splitCoef(a, ka, fa);
        others.clear();
        for (size_t q = 0; q < f.size(); ++q)
          if (q != p) others.push_back(f[q]);
        if (ka != 0 && sameFactors(others, fa) && c.terms[i].coef % ka == 0) {
          int64_t k = c.terms[i].coef / ka;
          for (size_t j = 0; j < c.terms.size(); ++j) {
            auto g = c.terms[j].factors();
            if (j == i || g.size() != 1 || g[0]->kind != Kind::Mod || c.terms[j].coef != k) continue;
            if (g[0]->ops[0] != x || g[0]->ops[1] != a) continue;
            size_t skip[2] = {i, j};
            auto rest = exprsExcept(c, skip);
            rest.push_back(cst(c.constant));
            rest.push_back(mul(cst(k), mod(x, mul(a, b))));
            return addMany(rest);
          }
        }
      }
      if (f.size() != 1) continue;
      // m*(x%y) - m*x
      Expr x = inner, y = b;
      int64_t m = c.terms[i].coef, xConst;
      SmallVec<size_t, 8> used{i};
      if (!findScaledTerms(c, x, m, used, xConst) || used.size() < 2) continue;
      auto mx = checkedMul(m, xConst);
      auto newConst = mx ? checkedAdd(c.constant, *mx) : std::nullopt;
      auto nm = checkedNeg(m);
      if (!newConst || !nm) continue;
      Expr replacement = mul(cst(*nm), mul(y, div(x, y)));
      size_t removed = 0;
      for (size_t u : used) removed += exprOf(c.terms[u])->size;
      if (replacement->size > removed) continue;
      auto rest = exprsExcept(c, used);
      rest.push_back(cst(*newConst));
      rest.push_back(replacement);
      return addMany(rest);
    }
  }
  return Expr();
}

// Rules sum-div-mod-recombine: c*y*(x/y) + c*(x%y) -> c*x (also with x = z%a, y | a, and
// z%y in place of x%y, and with x = z + t*y, z and x non-negative, and z%y in place of x%y)
// and sum-sub-div-to-mod:
// c*y*(x/y) - c*x -> -c*(x%y). Both hold for every x and y != 0 in C. Returns the rewritten
// sum or null when no pair matches.
Expr recombine(const Collected& c) {
  Exprs fy, others;
  for (size_t i = 0; i < c.terms.size(); ++i) {
    auto f = c.terms[i].factors();
    for (size_t p = 0; p < f.size(); ++p) {
      if (f[p].kind() != Kind::Div) continue;
      Expr x = f[p]->ops[0], y = f[p]->ops[1];
      int64_t ky;
      splitCoef(y, ky, fy);
      others.clear();
      for (size_t q = 0; q < f.size(); ++q)
        if (q != p) others.push_back(f[q]);
      if (ky == 0 || !sameFactors(others, fy) || c.terms[i].coef % ky != 0) continue;
      int64_t k = c.terms[i].coef / ky;
      // c*y*(x/y) + c*(x%y)
      for (size_t j = 0; j < c.terms.size(); ++j) {
        auto g = c.terms[j].factors();
        if (j == i || g.size() != 1 || g[0].kind() != Kind::Mod || c.terms[j].coef != k) continue;
        if (g[0]->ops[1] != y) continue;
        // x%y itself, or z%y where x = z%a and y divides a (then x%y = (z%a)%y = z%y), or z%y
        // where x = z + t*y with z, x >= 0 (then x/y = z/y + t: y*((z + 64)/16) + z%16 with
        // y = 16 is z + 64, a view's row offset past a split)
        Expr m = g[0]->ops[0];
        bool matches = m == x ||
                       (x->kind == Kind::Mod && x->ops[0] == m && provablyDivisible(x->ops[1], y)) ||
                       (provablyNonNegative(m) && provablyNonNegative(x) && exactDiv(difference(x, m), y));
        if (!matches) continue;
        size_t skip[2] = {i, j};
        auto rest = exprsExcept(c, skip);
        rest.push_back(cst(c.constant));
        rest.push_back(mul(cst(k), x));
        return addMany(rest);
      }
      // c*y*(x/y) - c*x
      auto nk = checkedNeg(k);
      if (!nk) continue;
      SmallVec<size_t, 8> used{i};
      int64_t xConst = 0;
      bool ok = true;
      auto xs = x.kind() == Kind::Sum ? x.operands() : std::span<const Expr>(&x, 1);
      for (Expr xt : xs) {
        if (xt.isCst()) {
          xConst = xt->value;
          continue;
        }
        Term tx = decompose(xt);
        auto want = checkedMul(*nk, tx.coef);
        if (!want) {
          ok = false;
          break;
        }
        bool found = false;
        for (size_t j = 0; j < c.terms.size() && !found; ++j) {
          if (std::find(used.begin(), used.end(), j) != used.end()) continue;
          if (c.terms[j].coef == *want && sameFactors(c.terms[j].factors(), tx.factors())) {
            used.push_back(j);
            found = true;
          }
        }
        if (!found) {
          ok = false;
          break;
        }
      }
      if (!ok || used.size() < 2) continue;
      auto kx = checkedMul(k, xConst);
      auto newConst = kx ? checkedAdd(c.constant, *kx) : std::nullopt;
      if (!newConst) continue;
      auto rest = exprsExcept(c, used);
      rest.push_back(cst(*newConst));
      rest.push_back(mul(cst(*nk), mod(x, y)));
      return addMany(rest);
    }
  }
  return recombineMod(c);
}

Expr rawFold(std::span<const Expr> inputs) {
  Expr r = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) r = rawAdd(r, inputs[i]);
  return r;
}

Expr build(Exprs exprs, int64_t constant) {
  if (exprs.size() > 1) std::sort(exprs.begin(), exprs.end(), sumTermLess);
  // The constant comes last, except that a positive one leads when every other term is
  // negative: "1 - M", not "-M + 1".
  bool allNegative = !exprs.empty();
  for (Expr e : exprs)
    allNegative = allNegative && e->kind == Kind::Prod && isConst(e->ops[0]) && e->ops[0]->value < 0;
  if (constant > 0 && allNegative)
    exprs.insert(exprs.begin(), cst(constant));
  else if (constant != 0)
    exprs.push_back(cst(constant));
  if (exprs.empty()) return cst(0);
  if (exprs.size() == 1) return exprs[0];
  return intern(Kind::Sum, exprs);
}

// Limits of the rules whose cost grows faster than the sum: multiplying out nests at most
// kMaxSpreadDepth levels deep (a product of k sums would otherwise give 2^k terms) into at most
// kMaxSpread terms, and the pairwise recombination rules look at sums of up to kMaxRecombine
// terms.
constexpr int kMaxSpreadDepth = 4;
constexpr size_t kMaxSpread = 64;
constexpr size_t kMaxRecombine = 256;
thread_local int spreadDepth = 0;

Expr addImpl(std::span<const Expr> inputs) {
  if (inputs.empty()) return cst(0);
  DepthGuard guard;
  if (guard.tooDeep()) return rawFold(inputs);
  Collected c = collect(inputs);
  if (c.overflow) return rawFold(inputs);

  if (c.terms.size() <= kMaxRecombine)
    if (Expr r = recombine(c)) return r;

  Exprs exprs;
  bool respread = false, hasSumFactor = false;
  for (auto& t : c.terms) {
    Expr e = exprOf(t);
    if (!t.whole && e.kind() == Kind::Sum) respread = true;
    exprs.push_back(e);
    for (Expr f : t.factors()) hasSumFactor = hasSumFactor || f.kind() == Kind::Sum;
  }
  if (respread) {  // a merged coefficient distributed over a sum: collect again
    exprs.push_back(cst(c.constant));
    return addImpl(exprs);
  }
  Expr r0 = build(exprs, c.constant);
  if (!hasSumFactor || spreadDepth >= kMaxSpreadDepth) return r0;

  // Rule sum-distribute: multiply out products of sums when that is not larger (it finds
  // cancellations such as N*(i + 1) - N*i = N).
  size_t count = 0;
  for (auto& t : c.terms) {
    size_t parts = 1;
    for (Expr f : t.factors())
      if (f->kind == Kind::Sum) {
        parts = f->nOps;
        break;
      }
    count += parts;
  }
  if (count > kMaxSpread) return r0;
  Exprs spread;
  for (size_t i = 0; i < c.terms.size(); ++i) {
    auto f = c.terms[i].factors();
    size_t s = f.size();
    for (size_t p = 0; p < f.size() && s == f.size(); ++p)
      if (f[p].kind() == Kind::Sum) s = p;
    if (s == f.size()) {
      spread.push_back(exprs[i]);
      continue;
    }
    for (Expr part : f[s].operands()) {
      Exprs fs;
      fs.push_back(cst(c.terms[i].coef));
      for (size_t q = 0; q < f.size(); ++q)
        if (q != s) fs.push_back(f[q]);
      fs.push_back(part);
      spread.push_back(mulMany(fs));
    }
  }
  spread.push_back(cst(c.constant));
  ++spreadDepth;
  Expr r1;
  try {
    r1 = addImpl(spread);
  } catch (...) {
    --spreadDepth;
    throw;
  }
  --spreadDepth;
  return r1->size <= r0->size ? r1 : r0;
}

// The sum when its rewrite is refused for overflow: the inputs added in their order, two at a
// time, as simplify rebuilds a raw chain (so that the result is a fixpoint).
Expr inputOrder(std::span<const Expr> inputs) {
  if (inputs.size() <= 2) return rawFold(inputs);
  Expr r = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) r = addMany({r, inputs[i]});
  return r;
}

}  // namespace

namespace detail {
Expr addMany(std::span<const Expr> terms) {
  Expr r = addImpl(terms);
  return terms.empty() || overflowSafeRewrite(r, Kind::Sum, terms) ? r : inputOrder(terms);
}

Expr difference(Expr b, Expr a) {
  Exprs ts{b};
  auto terms = a->kind == Kind::Sum ? a->all() : std::span<const Expr>(&a, 1);
  for (Expr t : terms) {
    if (isConst(t)) {
      auto v = checkedNeg(t->value);
      if (!v) return sub(b, a);
      ts.push_back(cst(*v));
      continue;
    }
    Term d = decompose(t);
    auto c = checkedNeg(d.coef);
    if (!c) return sub(b, a);
    ts.push_back(termExpr(*c, d.factors()));
  }
  return addMany(ts);
}
}  // namespace detail

Expr add(Expr a, Expr b) {
  LIFT_ASSERT(a && b, "add of a null expression");
  if (a.isCst() && b.isCst())
    if (auto r = checkedAdd(a->value, b->value)) return cst(*r);
  if (isCst(b, 0)) return a->kind == Kind::Sum || a->kind == Kind::Prod ? addMany({a}) : a;
  if (isCst(a, 0)) return b->kind == Kind::Sum || b->kind == Kind::Prod ? addMany({b}) : b;
  return addMany({a, b});
}

Expr neg(Expr a) {
  LIFT_ASSERT(a, "neg of a null expression");
  return mul(cst(-1), a);
}

Expr sub(Expr a, Expr b) {
  LIFT_ASSERT(a && b, "sub of a null expression");
  if (a == b) return cst(0);
  return add(a, neg(b));
}

}  // namespace lift::arith
