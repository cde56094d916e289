// Divisibility analysis: the largest known constant divisor of a node (computed when the node is
// created), structural divisibility by symbolic factors (4*N*i is divisible by 2*N), and exact
// quotients used by the division and modulo rules.
#include <algorithm>

#include "core/arith/Node.h"

namespace lift::arith {
using namespace detail;

namespace detail {

int64_t computeConstDivisor(const Node& n) {
  auto cd = [&](uint32_t i) { return n.ops[i]->cdiv; };
  switch (n.kind) {
    case Kind::Cst:
      if (n.value == INT64_MIN) return 1;
      return n.value < 0 ? -n.value : n.value;
    case Kind::Var:
      return 1;
    case Kind::Sum: {
      int64_t g = 0;
      for (uint32_t i = 0; i < n.nOps; ++i) g = gcd64(g, cd(i));
      return g;
    }
    case Kind::Prod: {
      int64_t p = 1;
      for (uint32_t i = 0; i < n.nOps; ++i) {
        if (cd(i) == 0) return 0;
        if (auto r = checkedMul(p, cd(i))) p = *r;
      }
      return p;
    }
    case Kind::Div: {
      int64_t x = cd(0);
      Expr d = n.ops[1];
      if (x == 0) return 0;
      if (d.isCst() && d->value != 0 && d->value != INT64_MIN) {
        int64_t c = d->value < 0 ? -d->value : d->value;
        if (x % c == 0) return x / c;
      }
      return 1;
    }
    case Kind::Mod:
    case Kind::Min:
    case Kind::Max:
      return std::max<int64_t>(gcd64(cd(0), cd(1)), 1);
    case Kind::Pow: {
      Expr e = n.ops[1];
      if (e.isCst() && e->value >= 1) {
        if (auto p = checkedPow(cd(0), e->value)) return *p;
        return cd(0);
      }
      if (e->cb.lo && *e->cb.lo >= 1) return cd(0);
      return 1;
    }
    case Kind::Floor:
    case Kind::Ceil:
      return 1;
    case Kind::Abs:
      return cd(0);
    case Kind::Ite:
      return std::max<int64_t>(gcd64(cd(2), cd(3)), 1);
    case Kind::Lookup: {
      int64_t g = 0;
      for (uint32_t i = 1; i < n.nOps; ++i) g = gcd64(g, cd(i));
      return std::max<int64_t>(g, 1);
    }
  }
  return 1;
}

namespace {

void coefAndFactors(Expr y, int64_t& k, std::vector<Expr>& f) {
  f.clear();
  if (y.isCst()) {
    k = y->value;
    return;
  }
  Term t = decompose(y);
  k = t.coef;
  auto fs = t.factors();
  f.assign(fs.begin(), fs.end());
}

// Removes every factor of `sub` from `from` (as a multiset); false if one is missing.
bool removeFactors(std::vector<Expr>& from, const std::vector<Expr>& sub) {
  for (Expr s : sub) {
    auto it = std::find(from.begin(), from.end(), s);
    if (it == from.end()) return false;
    from.erase(it);
  }
  return true;
}

Expr exactDivConst(Expr a, int64_t c);

// coef * factors divided by the positive constant c.
Expr exactDivTerm(int64_t coef, std::vector<Expr> fs, int64_t c) {
  int64_t g = gcd64(coef, c);
  int64_t k = coef / g, need = c / g;
  if (need != 1) {
    bool done = false;
    for (auto& f : fs) {
      if (f->cdiv % need != 0) continue;
      if (Expr q = exactDivConst(f, need)) {
        f = q;
        done = true;
        break;
      }
    }
    if (!done) return Expr();
  }
  fs.push_back(cst(k));
  return mulMany(std::move(fs));
}

Expr exactDivConst(Expr a, int64_t c) {
  if (c == 1) return a;
  if (c < 0) {
    if (c == INT64_MIN) return Expr();
    Expr q = exactDivConst(a, -c);
    return q ? neg(q) : Expr();
  }
  if (a->cdiv % c != 0) return Expr();  // cdiv is the best we know: nothing to find
  switch (a.kind()) {
    case Kind::Cst:
      return cst(a->value / c);
    case Kind::Sum: {
      std::vector<Expr> qs;
      qs.reserve(a->nOps);
      for (Expr t : a.operands()) {
        Expr q = exactDivConst(t, c);
        if (!q) return Expr();
        qs.push_back(q);
      }
      return addMany(std::move(qs));
    }
    case Kind::Prod: {
      if (!a->canonShape) return Expr();
      int64_t k;
      std::vector<Expr> fs;
      coefAndFactors(a, k, fs);
      return exactDivTerm(k, std::move(fs), c);
    }
    default:
      return Expr();
  }
}

}  // namespace

Expr exactDiv(Expr a, Expr b) {
  if (b.isCst()) return b->value == 0 ? Expr() : exactDivConst(a, b->value);
  if (a == b) return cst(1);
  if (isCst(a, 0)) return a;
  if (a.isCst()) return Expr();
  if (a.kind() == Kind::Sum) {
    std::vector<Expr> qs;
    qs.reserve(a->nOps);
    for (Expr t : a.operands()) {
      Expr q = exactDiv(t, b);
      if (!q) return Expr();
      qs.push_back(q);
    }
    return addMany(std::move(qs));
  }
  int64_t kb, ka;
  std::vector<Expr> fb, fa;
  coefAndFactors(b, kb, fb);
  coefAndFactors(a, ka, fa);
  if (kb == 0) return Expr();
  std::vector<Expr> rest = fa;
  if (removeFactors(rest, fb)) {
    if (kb == 1) {
      rest.push_back(cst(ka));
      return mulMany(std::move(rest));
    }
    if (kb < 0) {
      if (kb == INT64_MIN) return Expr();
      Expr q = exactDivTerm(ka, rest, -kb);
      return q ? neg(q) : Expr();
    }
    return exactDivTerm(ka, rest, kb);
  }
  // One factor of a (a sum, say) may be divisible by all of b.
  for (size_t i = 0; i < fa.size(); ++i) {
    if (fa[i].kind() != Kind::Sum) continue;
    if (Expr q = exactDiv(fa[i], b)) {
      std::vector<Expr> fs = fa;
      fs[i] = q;
      fs.push_back(cst(ka));
      return mulMany(std::move(fs));
    }
  }
  return Expr();
}

}  // namespace detail

int64_t constantDivisor(Expr e) {
  LIFT_ASSERT(e, "constantDivisor of a null expression");
  return e->cdiv;
}

namespace {

bool divisible(Expr a, Expr b, int depth) {
  if (depth > 8) return false;
  if (b.isCst()) {
    if (b->value == 0) return isCst(a, 0);
    if (b->value == INT64_MIN) return isCst(a, 0);
    int64_t c = b->value < 0 ? -b->value : b->value;
    return a->cdiv % c == 0;
  }
  if (a == b || isCst(a, 0)) return true;
  if (a.isCst()) return false;
  if (a.kind() == Kind::Sum) {
    for (Expr t : a.operands())
      if (!divisible(t, b, depth + 1)) return false;
    return true;
  }
  int64_t kb, ka;
  std::vector<Expr> fb, fa;
  coefAndFactors(b, kb, fb);
  coefAndFactors(a, ka, fa);
  std::vector<Expr> rest = fa;
  if (removeFactors(rest, fb)) {
    if (kb == 1 || kb == -1) return true;
    int64_t k = ka;
    for (Expr r : rest) k = checkedMul(k, r->cdiv).value_or(k);
    return kb != INT64_MIN && k % kb == 0;
  }
  if (fb.size() == 1 && (kb == 1 || kb == -1)) {
    for (Expr f : fa)
      if (f.kind() == Kind::Sum && divisible(f, b, depth + 1)) return true;
  }
  return false;
}

}  // namespace

bool provablyDivisible(Expr a, Expr b) {
  LIFT_ASSERT(a && b, "provablyDivisible of a null expression");
  return divisible(a, b, 0);
}

}  // namespace lift::arith
