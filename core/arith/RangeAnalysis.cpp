// Range analysis: constant bounds by interval arithmetic (computed when a node is created) and
// symbolic bounds (computed on demand, memoised in the node) in which every variable with a
// range is replaced by its bounds while size variables stay symbols. The provably* queries
// that simplification rules use as side conditions are answered here.
#include <algorithm>

#include "core/arith/Node.h"

namespace lift::arith {
using namespace detail;

namespace {

using Opt = std::optional<int64_t>;

// An extended integer for interval corners: -inf, a finite value, or +inf.
struct X {
  int inf = 0;  // -1, 0, +1
  __int128 v = 0;
};
X lowOf(const ConstBounds& b) { return b.lo ? X{0, *b.lo} : X{-1, 0}; }
X highOf(const ConstBounds& b) { return b.hi ? X{0, *b.hi} : X{1, 0}; }
int signOf(const X& x) { return x.inf ? x.inf : (x.v > 0) - (x.v < 0); }
X times(const X& a, const X& b) {
  if (a.inf || b.inf) {
    int s = signOf(a) * signOf(b);
    return s == 0 ? X{0, 0} : X{s, 0};
  }
  // Operands fit in int64, so the product fits in __int128.
  return X{0, a.v * b.v};
}
bool lessX(const X& a, const X& b) {
  if (a.inf != b.inf) return a.inf < b.inf;
  return a.inf == 0 && a.v < b.v;
}
Opt toOpt(const X& x) {
  if (x.inf || x.v <= INT64_MIN || x.v > INT64_MAX) return std::nullopt;
  return static_cast<int64_t>(x.v);
}

X plus(const X& a, const X& b) {
  if (a.inf || b.inf) return X{a.inf ? a.inf : b.inf, 0};  // never -inf + inf: ends of one side
  return X{0, a.v + b.v};
}
bool outside64(const X& x) { return !x.inf && !toOpt(x); }

ConstBounds negBounds(const ConstBounds& a) {
  ConstBounds r;
  if (a.hi) r.lo = checkedNeg(*a.hi);
  if (a.lo) r.hi = checkedNeg(*a.lo);
  return r;
}

// x / d for d >= 1 throughout.
ConstBounds divPositive(const ConstBounds& x, ConstBounds d) {
  ConstBounds r;
  if (d.hi && *d.hi < *d.lo) d.hi = d.lo;  // an empty interval: the expression is undefined
  if (x.lo) {
    if (*x.lo >= 0)
      r.lo = d.hi ? *x.lo / *d.hi : 0;
    else
      r.lo = *x.lo / *d.lo;
  }
  if (x.hi) {
    if (*x.hi >= 0)
      r.hi = *x.hi / *d.lo;
    else
      r.hi = d.hi ? *x.hi / *d.hi : 0;
  }
  return r;
}

Opt absMax(const ConstBounds& b) {
  if (!b.lo || !b.hi) return std::nullopt;
  auto a = checkedNeg(*b.lo);
  if (!a) return std::nullopt;
  return std::max(*a, *b.hi);
}

}  // namespace

namespace detail {

ConstBounds stepBounds(Kind k, const ConstBounds& a, const ConstBounds& b, bool& exceeds) {
  X lo, hi;
  if (k == Kind::Sum) {
    lo = plus(lowOf(a), lowOf(b));
    hi = plus(highOf(a), highOf(b));
  } else {
    X c[4] = {times(lowOf(a), lowOf(b)), times(lowOf(a), highOf(b)), times(highOf(a), lowOf(b)),
              times(highOf(a), highOf(b))};
    lo = hi = c[0];
    for (auto& x : c) {
      if (lessX(x, lo)) lo = x;
      if (lessX(hi, x)) hi = x;
    }
  }
  exceeds = exceeds || outside64(lo) || outside64(hi);
  ConstBounds r;
  if (lo.inf >= 0) r.lo = toOpt(lo);
  if (hi.inf <= 0) r.hi = toOpt(hi);
  return r;
}

ConstBounds computeConstBounds(const Node& n) {
  ConstBounds r;
  switch (n.kind) {
    case Kind::Cst:
      r.lo = r.hi = n.value;
      return r;
    case Kind::Var: {
      Expr lo = n.ops[0], hi = n.ops[1];
      if (lo) r.lo = lo->cb.lo;
      if (hi && hi->cb.hi) r.hi = checkedAdd(*hi->cb.hi, -1);
      return r;
    }
    case Kind::Sum:
    case Kind::Prod: {
      r.lo = r.hi = n.kind == Kind::Sum ? 0 : 1;
      bool exceeds = false;
      for (uint32_t i = 0; i < n.nOps; ++i) r = stepBounds(n.kind, r, n.ops[i]->cb, exceeds);
      return r;
    }
    case Kind::Div: {
      const ConstBounds& x = n.ops[0]->cb;
      const ConstBounds& d = n.ops[1]->cb;
      if (d.lo && *d.lo >= 1) return divPositive(x, d);
      if (d.hi && *d.hi <= -1) return negBounds(divPositive(x, negBounds(d)));
      // |x / d| <= |x| for any d != 0
      if (auto m = absMax(x)) {
        r.lo = -*m;
        r.hi = *m;
      }
      return r;
    }
    case Kind::Mod: {
      const ConstBounds& x = n.ops[0]->cb;
      Opt dm = absMax(n.ops[1]->cb);
      Opt m = dm ? Opt(*dm - 1) : std::nullopt;  // |x % d| <= |d| - 1
      if (x.lo && *x.lo >= 0) {
        r.lo = 0;
        r.hi = x.hi && m ? std::min(*x.hi, *m) : (x.hi ? x.hi : m);
      } else if (x.hi && *x.hi <= 0) {
        r.hi = 0;
        r.lo = x.lo && m ? std::max(*x.lo, -*m) : (x.lo ? x.lo : (m ? Opt(-*m) : std::nullopt));
      } else {
        r.lo = x.lo && m ? std::max(*x.lo, -*m) : (x.lo ? x.lo : (m ? Opt(-*m) : std::nullopt));
        r.hi = x.hi && m ? std::min(*x.hi, *m) : (x.hi ? x.hi : m);
      }
      return r;
    }
    case Kind::Min: {
      const ConstBounds& a = n.ops[0]->cb;
      const ConstBounds& b = n.ops[1]->cb;
      r.lo = a.lo && b.lo ? Opt(std::min(*a.lo, *b.lo)) : std::nullopt;
      r.hi = a.hi && b.hi ? Opt(std::min(*a.hi, *b.hi)) : (a.hi ? a.hi : b.hi);
      return r;
    }
    case Kind::Max: {
      const ConstBounds& a = n.ops[0]->cb;
      const ConstBounds& b = n.ops[1]->cb;
      r.lo = a.lo && b.lo ? Opt(std::max(*a.lo, *b.lo)) : (a.lo ? a.lo : b.lo);
      r.hi = a.hi && b.hi ? Opt(std::max(*a.hi, *b.hi)) : std::nullopt;
      return r;
    }
    case Kind::Pow: {
      const ConstBounds& b = n.ops[0]->cb;
      const ConstBounds& e = n.ops[1]->cb;
      if (!e.lo || *e.lo < 0) {
        if (e.hi && *e.hi < 0) {  // pow with a negative exponent truncates to -1, 0 or 1
          r.lo = -1;
          r.hi = 1;
        }
        return r;
      }
      if (b.lo && *b.lo >= 1) {
        r.lo = checkedPow(*b.lo, *e.lo);
        if (b.hi && e.hi) r.hi = checkedPow(*b.hi, *e.hi);
      } else if (b.lo && *b.lo >= 0) {
        r.lo = 0;
        if (b.hi && e.hi) {
          auto p = checkedPow(*b.hi, *e.hi);
          if (p) r.hi = std::max<int64_t>(*p, 1);
        }
      } else if (auto m = absMax(b); m && e.hi) {
        auto p = checkedPow(*m, *e.hi);
        if (p) {
          r.lo = -std::max<int64_t>(*p, 1);
          r.hi = std::max<int64_t>(*p, 1);
        }
      }
      return r;
    }
    case Kind::Floor:
    case Kind::Ceil:
      return floorCeilBounds(n.kind, n.ops[0]->cb, n.ops[1]->cb);
    case Kind::Abs: {
      const ConstBounds& x = n.ops[0]->cb;
      if (x.lo && *x.lo >= 0) return x;
      if (x.hi && *x.hi <= 0) return negBounds(x);
      r.lo = 0;
      r.hi = absMax(x);
      return r;
    }
    case Kind::Ite: {
      const ConstBounds& a = n.ops[2]->cb;
      const ConstBounds& b = n.ops[3]->cb;
      if (a.lo && b.lo) r.lo = std::min(*a.lo, *b.lo);
      if (a.hi && b.hi) r.hi = std::max(*a.hi, *b.hi);
      return r;
    }
    case Kind::Lookup:
      for (uint32_t i = 1; i < n.nOps; ++i) {
        int64_t v = n.ops[i]->value;
        r.lo = r.lo ? std::min(*r.lo, v) : v;
        r.hi = r.hi ? std::max(*r.hi, v) : v;
      }
      return r;
  }
  return r;
}

}  // namespace detail

namespace {

Node gUnknownNode;  // stands for "no bound" in the per-node cache
const Node* const kUnknown = &gUnknownNode;

bool cbNonNeg(Expr e) { return e->cb.lo && *e->cb.lo >= 0; }
bool cbNonPos(Expr e) { return e->cb.hi && *e->cb.hi <= 0; }
bool cbPos(Expr e) { return e->cb.lo && *e->cb.lo >= 1; }

Bounds symBounds(Expr e);

Bounds compute(Expr e) {
  const Node* n = e.node();
  switch (n->kind) {
    case Kind::Cst:
      return {e, e};
    case Kind::Var: {
      Expr hi = n->ops[1];
      if (!hi) return {e, e};  // a symbol: size variables stay symbolic
      return {n->ops[0], add(hi, cst(-1))};
    }
    case Kind::Sum: {
      std::vector<Expr> lo, hi;
      bool loOk = true, hiOk = true;
      for (Expr o : e.operands()) {
        Bounds b = symBounds(o);
        loOk = loOk && b.lo;
        hiOk = hiOk && b.hi;
        if (loOk) lo.push_back(b.lo);
        if (hiOk) hi.push_back(b.hi);
      }
      return {loOk ? addMany(std::move(lo)) : Expr(), hiOk ? addMany(std::move(hi)) : Expr()};
    }
    case Kind::Prod: {
      // Signs come from the factors' constant bounds; a symbolic bound is used as a magnitude
      // only where its own sign is proven (it may be weaker than the constant bound).
      int sign = 1;
      std::vector<Expr> minMag, maxMag;
      bool maxOk = true;
      for (Expr f : e.operands()) {
        Bounds b = symBounds(f);
        if (cbNonNeg(f)) {
          minMag.push_back(b.lo && cbNonNeg(b.lo) ? b.lo : cst(*f->cb.lo));
          if (b.hi)
            maxMag.push_back(b.hi);
          else
            maxOk = false;
        } else if (cbNonPos(f)) {
          sign = -sign;
          minMag.push_back(b.hi && cbNonPos(b.hi) ? neg(b.hi) : cst(-*f->cb.hi));
          if (b.lo)
            maxMag.push_back(neg(b.lo));
          else
            maxOk = false;
        } else {
          return {};
        }
      }
      Expr mn = mulMany(std::move(minMag));
      Expr mx = maxOk ? mulMany(std::move(maxMag)) : Expr();
      if (sign > 0) return {mn, mx};
      return {mx ? neg(mx) : Expr(), neg(mn)};
    }
    case Kind::Div: {
      Expr x = n->ops[0], d = n->ops[1];
      if (!cbPos(d)) return {};
      Bounds bx = symBounds(x), bd = symBounds(d);
      // the formulas below need 1 <= dlo <= d <= dhi
      if (!bd.lo || !cbPos(bd.lo)) bd.lo = cst(*d->cb.lo);
      if (bd.hi && !cbPos(bd.hi)) bd.hi = Expr();
      Bounds r;
      if (bx.lo) {
        if (cbNonNeg(bx.lo))
          r.lo = bd.hi ? div(bx.lo, bd.hi) : cst(0);
        else if (cbNonPos(bx.lo))
          r.lo = div(bx.lo, bd.lo);
      }
      if (bx.hi) {
        if (cbNonNeg(bx.hi))
          r.hi = div(bx.hi, bd.lo);
        else if (cbNonPos(bx.hi))
          r.hi = bd.hi ? div(bx.hi, bd.hi) : cst(0);
      }
      return r;
    }
    case Kind::Mod: {
      Expr x = n->ops[0], d = n->ops[1];
      if (!cbPos(d)) return {};
      Bounds bx = symBounds(x), bd = symBounds(d);
      Expr m = bd.hi ? add(bd.hi, cst(-1)) : Expr();
      if (cbNonNeg(x)) return {cst(0), m ? m : bx.hi};
      if (cbNonPos(x)) return {m ? neg(m) : bx.lo, cst(0)};
      return {m ? neg(m) : Expr(), m};
    }
    case Kind::Min: {
      Bounds a = symBounds(n->ops[0]), b = symBounds(n->ops[1]);
      return {a.lo && b.lo ? min(a.lo, b.lo) : Expr(), a.hi && b.hi ? min(a.hi, b.hi) : (a.hi ? a.hi : b.hi)};
    }
    case Kind::Max: {
      Bounds a = symBounds(n->ops[0]), b = symBounds(n->ops[1]);
      return {a.lo && b.lo ? max(a.lo, b.lo) : (a.lo ? a.lo : b.lo), a.hi && b.hi ? max(a.hi, b.hi) : Expr()};
    }
    case Kind::Pow: {
      Expr b = n->ops[0], x = n->ops[1];
      if (!cbNonNeg(x)) return {};
      Bounds bb = symBounds(b), bx = symBounds(x);
      if (cbNonNeg(b) && (!bb.lo || !cbNonNeg(bb.lo))) bb.lo = cst(*b->cb.lo);
      if (cbPos(b) && !cbPos(bb.lo)) bb.lo = cst(*b->cb.lo);
      if (x.isCst() && cbNonNeg(b)) return {pow(bb.lo, x), bb.hi ? pow(bb.hi, x) : Expr()};
      if (cbPos(b)) {
        return {bb.lo && bx.lo ? pow(bb.lo, bx.lo) : Expr(), bb.hi && bx.hi ? pow(bb.hi, bx.hi) : Expr()};
      }
      return {};
    }
    case Kind::Floor:
    case Kind::Ceil: {
      // monotone in the numerator for a positive constant divisor
      Expr x = n->ops[0], d = n->ops[1];
      if (!d.isCst() || d->value < 1) return {};
      Bounds bx = symBounds(x);
      auto q = [&](Expr v) { return n->kind == Kind::Floor ? floorDiv(v, d) : ceilDiv(v, d); };
      return {bx.lo ? q(bx.lo) : Expr(), bx.hi ? q(bx.hi) : Expr()};
    }
    case Kind::Abs: {
      Expr x = n->ops[0];
      Bounds bx = symBounds(x);
      if (cbNonNeg(x)) return bx;
      if (cbNonPos(x)) return {bx.hi ? neg(bx.hi) : Expr(), bx.lo ? neg(bx.lo) : Expr()};
      return {cst(0), bx.lo && bx.hi ? max(neg(bx.lo), bx.hi) : Expr()};
    }
    case Kind::Ite: {
      Bounds a = symBounds(n->ops[2]), b = symBounds(n->ops[3]);
      return {a.lo && b.lo ? min(a.lo, b.lo) : Expr(), a.hi && b.hi ? max(a.hi, b.hi) : Expr()};
    }
    case Kind::Lookup:
      return {};  // the constant bounds: the table's least and greatest entries
  }
  return {};
}

Bounds symBounds(Expr e) {
  const Node* n = e.node();
  if (n->symDone.load(std::memory_order_acquire)) {
    const Node* lo = n->symLo.load(std::memory_order_relaxed);
    const Node* hi = n->symHi.load(std::memory_order_relaxed);
    return {Expr(lo == kUnknown ? nullptr : lo), Expr(hi == kUnknown ? nullptr : hi)};
  }
  if (n->kind == Kind::Cst) return {e, e};
  DepthGuard guard;
  if (guard.tooDeep()) return {};
  unsigned trips = DepthGuard::trips;
  Bounds b = compute(e);
  // A constant bound is a bound too.
  if (!b.lo && n->cb.lo) b.lo = cst(*n->cb.lo);
  if (!b.hi && n->cb.hi) b.hi = cst(*n->cb.hi);
  if (trips == DepthGuard::trips) {
    n->symLo.store(b.lo ? b.lo.node() : kUnknown, std::memory_order_relaxed);
    n->symHi.store(b.hi ? b.hi.node() : kUnknown, std::memory_order_relaxed);
    n->symDone.store(true, std::memory_order_release);
  }
  return b;
}

// Monotonicity of e in the variable v: +1 non-decreasing, -1 non-increasing, 0 independent,
// 2 unknown.
int monotonicity(Expr e, Expr v) {
  const Node* n = e.node();
  if (n->kind == Kind::Cst) return 0;
  if (n->kind == Kind::Var) return e == v ? 1 : 0;
  if (!n->hasRangeVar) return 0;  // v has a range, so it does not occur here
  auto combine = [](int a, int b) { return a == 0 ? b : b == 0 ? a : a == b ? a : 2; };
  switch (n->kind) {
    case Kind::Sum: {
      int m = 0;
      for (Expr o : e->all()) {
        m = combine(m, monotonicity(o, v));
        if (m == 2) return 2;
      }
      return m;
    }
    case Kind::Prod: {
      int m = 0, sign = 1;
      for (Expr f : e->all()) {
        int fm = monotonicity(f, v);
        if (fm == 2 || (fm != 0 && m != 0)) return 2;  // v in two factors: not tracked
        if (fm != 0) {
          m = fm;
          continue;
        }
        if (cbNonNeg(f)) continue;
        if (cbNonPos(f)) {
          sign = -sign;
          continue;
        }
        sign = 0;  // a factor of unknown sign: only fine if v does not occur at all
      }
      if (m == 0) return 0;
      return sign == 0 ? 2 : m * sign;
    }
    case Kind::Div: {
      int mx = monotonicity(n->ops[0], v), md = monotonicity(n->ops[1], v);
      if (md != 0) return 2;
      if (mx == 0 || mx == 2) return mx;
      if (cbPos(n->ops[1])) return mx;  // trunc(x/d) grows with x
      if (n->ops[1]->cb.hi && *n->ops[1]->cb.hi <= -1) return -mx;
      return 2;
    }
    case Kind::Min:
    case Kind::Max:
      return combine(monotonicity(n->ops[0], v), monotonicity(n->ops[1], v));
    case Kind::Floor:
    case Kind::Ceil: {
      int mx = monotonicity(n->ops[0], v), md = monotonicity(n->ops[1], v);
      if (md != 0) return 2;
      if (mx == 0 || mx == 2) return mx;
      if (cbPos(n->ops[1])) return mx;  // floor(x/d) grows with x
      if (n->ops[1]->cb.hi && *n->ops[1]->cb.hi <= -1) return -mx;
      return 2;
    }
    default:
      for (Expr o : e->all())
        if (monotonicity(o, v) != 0) return 2;
      return 0;
  }
}

// A bound of e found by substituting range variables one at a time, each by the end of its
// range that makes e smallest (lower) or largest (upper), starting with a variable no other
// range mentions: for j in [0, i), i - j >= i - (i - 1) = 1. Used where ranges depend on each
// other, which the bounds computed term by term cannot correlate.
Expr substitutedBound(Expr e, bool upper) {
  Expr cur = e;
  for (int step = 0; step < 8 && cur->hasRangeVar; ++step) {
    std::vector<Expr> vs;
    for (Expr v : variables(cur))
      if (varHi(v)) vs.push_back(v);
    Expr pick;
    for (Expr v : vs) {
      bool mentioned = false;
      for (Expr w : vs) {
        if (w == v) continue;
        for (Expr b : {varLo(w), varHi(w)}) {
          if (!b || !b->hasRangeVar) continue;
          auto bv = variables(b);
          if (std::find(bv.begin(), bv.end(), v) != bv.end()) mentioned = true;
        }
      }
      if (!mentioned) {
        pick = v;
        break;
      }
    }
    if (!pick) return Expr();
    int m = monotonicity(cur, pick);
    if (m == 2) return Expr();
    bool useHigh = (m > 0) == upper;
    Expr b = useHigh ? add(varHi(pick), cst(-1)) : varLo(pick);
    if (!b) return Expr();
    cur = substitute(cur, {{pick, b}});
  }
  return cur;
}

// Constant bounds, tightened by substituting the bounds of range variables (which keeps the
// correlation between terms that interval arithmetic loses: N - j >= 1 for j in [0, N)).
std::optional<int64_t> iterate(Expr e, bool upper) {
  Opt best = upper ? e->cb.hi : e->cb.lo;
  Expr x = e;
  for (int it = 0; it < 4 && x && !x.isCst(); ++it) {
    Bounds b = symBounds(x);
    Expr next = upper ? b.hi : b.lo;
    if (!next || next == x) break;
    x = next;
    Opt c = upper ? x->cb.hi : x->cb.lo;
    if (c && (!best || (upper ? *c < *best : *c > *best))) best = c;
  }
  return best;
}

std::optional<int64_t> constBound(Expr e, bool upper) {
  Opt best = iterate(e, upper);
  if (e->dependentRange) {
    DepthGuard guard;
    if (!guard.tooDeep())
      if (Expr s = substitutedBound(e, upper)) {
        Opt c = iterate(s, upper);
        if (c && (!best || (upper ? *c < *best : *c > *best))) best = c;
      }
  }
  return best;
}

std::optional<int64_t> constLower(Expr e) { return constBound(e, false); }
std::optional<int64_t> constUpper(Expr e) { return constBound(e, true); }

}  // namespace

namespace detail {
bool provablyNonPositive(Expr e) {
  auto h = constUpper(e);
  return h && *h <= 0;
}
bool provablyNegative(Expr e) {
  auto h = constUpper(e);
  return h && *h <= -1;
}
bool provablyNonZero(Expr e) { return provablyPositive(e) || provablyNegative(e); }
}  // namespace detail

Bounds bounds(Expr e) {
  LIFT_ASSERT(e, "bounds of a null expression");
  return symBounds(e);
}

ConstBounds constantBounds(Expr e) {
  LIFT_ASSERT(e, "constantBounds of a null expression");
  return {constLower(e), constUpper(e)};
}

bool provablyNonNegative(Expr e) {
  if (cbNonNeg(e)) return true;
  auto l = constLower(e);
  return l && *l >= 0;
}

bool provablyPositive(Expr e) {
  if (cbPos(e)) return true;
  auto l = constLower(e);
  return l && *l >= 1;
}

// Against a constant, the bound of the other side decides (and creates no difference node).
bool provablyLess(Expr a, Expr b) {
  if (a == b) return false;
  if (a->cb.hi && b->cb.lo && *a->cb.hi < *b->cb.lo) return true;
  if (b.isCst()) {
    auto h = constUpper(a);
    return h && *h < b->value;
  }
  if (a.isCst()) {
    auto l = constLower(b);
    return l && a->value < *l;
  }
  return provablyPositive(difference(b, a));
}

bool provablyLessEqual(Expr a, Expr b) {
  if (a == b) return true;
  if (a->cb.hi && b->cb.lo && *a->cb.hi <= *b->cb.lo) return true;
  if (b.isCst()) {
    auto h = constUpper(a);
    return h && *h <= b->value;
  }
  if (a.isCst()) {
    auto l = constLower(b);
    return l && a->value <= *l;
  }
  return provablyNonNegative(difference(b, a));
}

}  // namespace lift::arith
