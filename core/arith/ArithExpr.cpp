// ArithExpr node storage: the thread-safe uniquing table, node accessors, the canonical order,
// the raw (unsimplified) constructors, and the rebuilding operations simplify and substitute.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {

namespace detail {

thread_local int DepthGuard::depth = 0;
thread_local unsigned DepthGuard::trips = 0;

std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r) || r == INT64_MIN) return std::nullopt;
  return r;
}
std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r) || r == INT64_MIN) return std::nullopt;
  return r;
}
std::optional<int64_t> checkedPow(int64_t base, int64_t exp) {
  int64_t r = 1;
  for (int64_t i = 0; i < exp; ++i) {
    auto m = checkedMul(r, base);
    if (!m) return std::nullopt;
    r = *m;
    if (r == 0 || r == 1) return r;  // 0^k and 1^k: no need to loop on
    if (r == -1) return (exp - i - 1) % 2 == 0 ? -1 : 1;
  }
  return r;
}
int64_t gcd64(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  while (y) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return x > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(x);
}

namespace {

inline uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

uint64_t stableString(const std::string& s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

size_t keyHash(Kind k, int64_t value, const std::string* name, std::span<const Expr> ops) {
  uint64_t h = mix(static_cast<uint64_t>(k) * 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(value));
  if (name) h = mix(h ^ std::hash<std::string>()(*name));
  for (Expr e : ops) h = mix(h + reinterpret_cast<uintptr_t>(e.node()));
  return h;
}

// One shard of the uniquing table: an open-addressing hash set (slots keep the full hash, so a
// probe touches a node only when the hash matches) and a bump allocator, behind a mutex. Nodes
// live as long as the program (they are shared by every thread and never freed).
struct Slot {
  size_t hash;
  Node* node;
};

struct Shard {
  std::mutex m;
  std::vector<Slot> slots = std::vector<Slot>(256, Slot{0, nullptr});
  size_t count = 0;
  char* cur = nullptr;
  size_t left = 0;

  void* allocate(size_t bytes) {
    bytes = (bytes + 15) & ~size_t(15);
    if (bytes > 16384) return ::operator new(bytes);
    if (bytes > left) {
      cur = static_cast<char*>(::operator new(65536));
      left = 65536;
    }
    void* p = cur;
    cur += bytes;
    left -= bytes;
    return p;
  }

  void grow() {
    std::vector<Slot> ns(slots.size() * 2, Slot{0, nullptr});
    size_t mask = ns.size() - 1;
    for (const Slot& s : slots) {
      if (!s.node) continue;
      size_t i = s.hash & mask;
      while (ns[i].node) i = (i + 1) & mask;
      ns[i] = s;
    }
    slots.swap(ns);
  }
};

constexpr size_t kShards = 64;
Shard* shards() {
  static Shard* s = new Shard[kShards];  // never destroyed: nodes outlive static destructors
  return s;
}

bool sameKey(const Node* n, Kind k, int64_t value, const std::string* name, std::span<const Expr> ops) {
  if (n->kind != k || n->value != value || n->nOps != ops.size()) return false;
  if (name && *n->name != *name) return false;
  for (size_t i = 0; i < ops.size(); ++i)
    if (n->ops[i] != ops[i]) return false;
  return true;
}

bool isSumOrProd(Kind k) { return k == Kind::Sum || k == Kind::Prod; }

void initNode(Node* n) {
  // size, depth, structural hash, flags
  uint64_t st = mix(static_cast<uint64_t>(n->kind) + 0x51ed2705ULL) ^ static_cast<uint64_t>(n->value);
  if (n->kind == Kind::Var) {
    st = mix(st ^ stableString(*n->name));
    Expr lo = n->ops[0], hi = n->ops[1];
    st = mix(st ^ (lo ? lo->stable : 0x1234));
    st = mix(st ^ (hi ? hi->stable : 0x4321));
    n->hasRangeVar = static_cast<bool>(hi);
    n->dependentRange = (lo && lo->hasRangeVar) || (hi && hi->hasRangeVar);
    n->size = 1;
    n->depth = 1;
  } else {
    size_t size = 1;
    uint32_t depth = 0;
    bool rv = false;
    for (uint32_t i = 0; i < n->nOps; ++i) {
      const Node* c = n->ops[i].node();
      size = std::min<size_t>(size + c->size, SIZE_MAX / 2);
      depth = std::max(depth, c->depth);
      rv = rv || c->hasRangeVar;
      n->dependentRange = n->dependentRange || c->dependentRange;
      st = mix(st + c->stable * (i + 1));
    }
    n->size = size;
    n->depth = depth + 1;
    n->hasRangeVar = rv;
  }
  n->stable = mix(st);
  if (isSumOrProd(n->kind)) {
    // Canonical shape: flat, at most one constant (first in a product, last or first in a sum),
    // factors sorted.
    bool ok = n->nOps >= 2;
    for (uint32_t i = 0; i < n->nOps && ok; ++i) {
      Expr c = n->ops[i];
      if (c.kind() == n->kind) ok = false;
      if (c.isCst()) {
        bool pos = n->kind == Kind::Prod ? i == 0 : (i + 1 == n->nOps || i == 0);
        if (!pos || c->value == 0 || (n->kind == Kind::Prod && c->value == 1)) ok = false;
      }
    }
    if (ok && n->kind == Kind::Prod) {
      uint32_t s = n->ops[0].isCst() ? 1 : 0;
      for (uint32_t i = s + 1; i < n->nOps && ok; ++i)
        if (canonicalLess(n->ops[i], n->ops[i - 1])) ok = false;
    }
    n->canonShape = ok;
  }
  n->cb = computeConstBounds(*n);
  computeOverflowFacts(*n);
  n->cdiv = computeConstDivisor(*n);
}

}  // namespace

Expr intern(Kind k, int64_t value, const std::string* name, std::span<const Expr> ops) {
  size_t h = keyHash(k, value, name, ops);
  Shard& s = shards()[(h >> 52) % kShards];
  std::lock_guard<std::mutex> lock(s.m);
  size_t mask = s.slots.size() - 1;
  size_t i = h & mask;
  for (; s.slots[i].node; i = (i + 1) & mask)
    if (s.slots[i].hash == h && sameKey(s.slots[i].node, k, value, name, ops)) return Expr(s.slots[i].node);
  void* mem = s.allocate(sizeof(Node) + ops.size() * sizeof(Expr));
  Node* n = new (mem) Node();
  Expr* stored = reinterpret_cast<Expr*>(static_cast<char*>(mem) + sizeof(Node));
  for (size_t j = 0; j < ops.size(); ++j) new (stored + j) Expr(ops[j]);
  n->kind = k;
  n->value = value;
  n->name = name ? new std::string(*name) : nullptr;
  n->nOps = static_cast<uint32_t>(ops.size());
  n->ops = stored;
  n->hash = h;
  initNode(n);
  s.slots[i] = Slot{h, n};
  if (++s.count * 3 > s.slots.size() * 2) s.grow();
  return Expr(n);
}

// ----- terms -----
Term decompose(Expr t) {
  Term r;
  r.whole = t;
  const Node* n = t.node();
  if (n->kind == Kind::Prod && n->canonShape) {
    if (n->ops[0].isCst()) {
      r.coef = n->ops[0]->value;
      r.f = n->ops + 1;
      r.nf = n->nOps - 1;
    } else {
      r.f = n->ops;
      r.nf = n->nOps;
    }
  } else {
    r.single = t;
    r.nf = 1;
  }
  return r;
}

bool sameFactors(std::span<const Expr> a, std::span<const Expr> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

Expr termExpr(int64_t coef, std::span<const Expr> factors) {
  if (coef == 0) return cst(0);
  if (factors.empty()) return cst(coef);
  if (coef == 1 && factors.size() == 1) return factors[0];
  if (factors.size() == 1 && factors[0].kind() == Kind::Sum) return mul(cst(coef), factors[0]);
  std::vector<Expr> ops;
  ops.reserve(factors.size() + 1);
  if (coef != 1) ops.push_back(cst(coef));
  ops.insert(ops.end(), factors.begin(), factors.end());
  return intern(Kind::Prod, ops);
}

namespace {
int kindRank(Kind k) {
  switch (k) {
    case Kind::Cst:
      return 0;
    case Kind::Var:
      return 1;
    case Kind::Pow:
      return 2;
    case Kind::Div:
      return 3;
    case Kind::Mod:
      return 4;
    case Kind::Min:
      return 5;
    case Kind::Max:
      return 6;
    case Kind::Prod:
      return 7;
    case Kind::Sum:
      return 8;
    case Kind::Floor:
      return 9;
    case Kind::Ceil:
      return 10;
    case Kind::Abs:
      return 11;
    case Kind::Ite:
      return 12;
    case Kind::Lookup:
      return 13;
  }
  return 14;
}

bool nullableLess(Expr a, Expr b) {
  if (!a || !b) return !a && b;
  return canonicalLess(a, b);
}

struct TermKey {
  bool isConst;
  bool negative;
  bool bounded;
  uint64_t magnitude;
  size_t nFactors;
};

uint64_t absU(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

TermKey termKey(Expr e, const Term& t) {
  TermKey k{};
  k.isConst = e.isCst();
  if (k.isConst) return k;
  k.negative = t.coef < 0;
  k.bounded = e->cb.lo && e->cb.hi;
  if (k.bounded) k.magnitude = std::max(absU(*e->cb.lo), absU(*e->cb.hi));
  k.nFactors = t.nf;
  return k;
}
}  // namespace

bool sumTermLess(Expr a, Expr b) {
  if (a == b) return false;
  Term ta, tb;
  if (!a.isCst()) ta = decompose(a);
  if (!b.isCst()) tb = decompose(b);
  TermKey ka = termKey(a, ta), kb = termKey(b, tb);
  if (ka.isConst != kb.isConst) return kb.isConst;
  if (ka.isConst) return a->value < b->value;
  if (ka.negative != kb.negative) return kb.negative;
  if (ka.bounded != kb.bounded) return kb.bounded;
  if (ka.magnitude != kb.magnitude) return ka.magnitude > kb.magnitude;
  if (ka.nFactors != kb.nFactors) return ka.nFactors > kb.nFactors;
  auto fa = ta.factors(), fb = tb.factors();
  for (size_t i = 0; i < fa.size() && i < fb.size(); ++i)
    if (fa[i] != fb[i]) return canonicalLess(fa[i], fb[i]);
  if (fa.size() != fb.size()) return fa.size() < fb.size();
  return ta.coef < tb.coef;
}

}  // namespace detail

using namespace detail;

// ----- Expr accessors -----
Kind Expr::kind() const { return n_->kind; }
bool Expr::isCst() const { return n_ && n_->kind == Kind::Cst; }
int64_t Expr::value() const {
  LIFT_ASSERT(isCst(), "value() of a non-constant");
  return n_->value;
}
std::span<const Expr> Expr::operands() const {
  if (n_->kind == Kind::Var) return {};
  return {n_->ops, n_->nOps};
}
size_t Expr::hash() const { return std::hash<const void*>()(n_); }
size_t Expr::size() const { return n_ ? n_->size : 0; }

bool canonicalLess(Expr a, Expr b) {
  if (a == b) return false;
  const Node* x = a.node();
  const Node* y = b.node();
  int rx = kindRank(x->kind), ry = kindRank(y->kind);
  if (rx != ry) return rx < ry;
  switch (x->kind) {
    case Kind::Cst:
      return x->value < y->value;
    case Kind::Var: {
      bool xr = static_cast<bool>(x->ops[1]), yr = static_cast<bool>(y->ops[1]);
      if (xr != yr) return xr;  // variables with a range before size variables: i*N
      if (*x->name != *y->name) return *x->name < *y->name;
      if (x->ops[0] != y->ops[0]) return nullableLess(x->ops[0], y->ops[0]);
      return nullableLess(x->ops[1], y->ops[1]);
    }
    default:
      break;
  }
  if (x->stable != y->stable) return x->stable < y->stable;
  if (x->nOps != y->nOps) return x->nOps < y->nOps;
  for (uint32_t i = 0; i < x->nOps; ++i)
    if (x->ops[i] != y->ops[i]) return canonicalLess(x->ops[i], y->ops[i]);
  return false;
}

// ----- leaves -----
namespace {
// Small constants are looked up so often (coefficients, -1 of every negation) that they get
// a fixed table in front of the uniquing table.
constexpr int64_t kSmallCst = 1024;
const Node* const* smallConstants() {
  static const Node* const* table = [] {
    auto* t = new const Node*[2 * kSmallCst + 1];
    for (int64_t v = -kSmallCst; v <= kSmallCst; ++v)
      t[v + kSmallCst] = intern(Kind::Cst, v, nullptr, {}).node();
    return t;
  }();
  return table;
}
}  // namespace

Expr cst(int64_t v) {
  if (v >= -kSmallCst && v <= kSmallCst) return Expr(smallConstants()[v + kSmallCst]);
  return intern(Kind::Cst, v, nullptr, {});
}

Expr var(const std::string& name, Expr lo, Expr hi) {
  Expr o[2] = {lo, hi};
  return intern(Kind::Var, 0, &name, o);
}

Expr sizeVar(const std::string& name) { return var(name, cst(1), Expr()); }

const std::string& varName(Expr v) {
  LIFT_ASSERT(v && v.kind() == Kind::Var, "varName of a non-variable");
  return *v->name;
}
Expr varLo(Expr v) {
  LIFT_ASSERT(v && v.kind() == Kind::Var, "varLo of a non-variable");
  return v->ops[0];
}
Expr varHi(Expr v) {
  LIFT_ASSERT(v && v.kind() == Kind::Var, "varHi of a non-variable");
  return v->ops[1];
}

std::vector<Expr> variables(Expr e) {
  std::vector<Expr> out;
  std::vector<Expr> stack{e};
  std::unordered_map<const Node*, bool> seen;
  while (!stack.empty()) {
    Expr x = stack.back();
    stack.pop_back();
    if (!x || !seen.emplace(x.node(), true).second) continue;
    if (x.kind() == Kind::Var) {
      out.push_back(x);
      continue;
    }
    for (Expr c : x.operands()) stack.push_back(c);
  }
  std::sort(out.begin(), out.end(), canonicalLess);
  return out;
}

// ----- raw constructors: constant folding only -----
Expr rawAdd(Expr a, Expr b) {
  if (a.isCst() && b.isCst())
    if (auto r = checkedAdd(a->value, b->value)) return cst(*r);
  return intern2(Kind::Sum, a, b);
}
Expr rawMul(Expr a, Expr b) {
  if (a.isCst() && b.isCst())
    if (auto r = checkedMul(a->value, b->value)) return cst(*r);
  return intern2(Kind::Prod, a, b);
}
Expr rawDiv(Expr a, Expr b) {
  if (isCst(b, 0)) throw LiftError("division by zero");
  if (a.isCst() && b.isCst() && !(a->value == INT64_MIN && b->value == -1)) return cst(a->value / b->value);
  return intern2(Kind::Div, a, b);
}
Expr rawMod(Expr a, Expr b) {
  if (isCst(b, 0)) throw LiftError("modulo by zero");
  if (a.isCst() && b.isCst() && !(a->value == INT64_MIN && b->value == -1)) return cst(a->value % b->value);
  return intern2(Kind::Mod, a, b);
}

// ----- rebuilding -----
namespace {
struct Rebuilder {
  const std::map<Expr, Expr, std::less<>>* repl = nullptr;
  // Shared sub-trees are rebuilt once. Index expressions are small: a linear table first.
  struct Entry {
    const Node* key;
    const Node* value;
  };
  SmallVec<Entry, 16> small;
  std::unordered_map<const Node*, Expr> memo;

  bool find(const Node* n, Expr& out) {
    if (memo.empty()) {
      for (const Entry& en : small)
        if (en.key == n) {
          out = Expr(en.value);
          return true;
        }
      return false;
    }
    auto it = memo.find(n);
    if (it == memo.end()) return false;
    out = it->second;
    return true;
  }
  void remember(const Node* n, Expr r) {
    if (memo.empty() && small.size() < 64) {
      small.push_back(Entry{n, r.node()});
      return;
    }
    if (memo.empty())
      for (const Entry& en : small) memo.emplace(en.key, Expr(en.value));
    memo.emplace(n, r);
  }

  Expr run(Expr e) {
    if (e.kind() == Kind::Cst) return e;
    if (e.kind() == Kind::Var) {
      if (repl) {
        auto it = repl->find(e);
        if (it != repl->end()) return it->second;
      }
      return e;
    }
    bool shared = e->size > 3;
    Expr found;
    if (shared && find(e.node(), found)) return found;
    Expr r;
    switch (e.kind()) {
      case Kind::Sum: {
        Exprs ops;
        for (Expr c : e->all()) ops.push_back(run(c));
        r = addMany(ops);
        break;
      }
      case Kind::Prod: {
        Exprs ops;
        for (Expr c : e->all()) ops.push_back(run(c));
        r = mulMany(ops);
        break;
      }
      case Kind::Div:
        r = div(run(e->ops[0]), run(e->ops[1]));
        break;
      case Kind::Mod:
        r = mod(run(e->ops[0]), run(e->ops[1]));
        break;
      case Kind::Pow:
        r = pow(run(e->ops[0]), run(e->ops[1]));
        break;
      case Kind::Min:
        r = min(run(e->ops[0]), run(e->ops[1]));
        break;
      case Kind::Max:
        r = max(run(e->ops[0]), run(e->ops[1]));
        break;
      case Kind::Floor:
        r = floorDiv(run(e->ops[0]), run(e->ops[1]));
        break;
      case Kind::Ceil:
        r = ceilDiv(run(e->ops[0]), run(e->ops[1]));
        break;
      case Kind::Abs:
        r = abs(run(e->ops[0]));
        break;
      case Kind::Ite:
        r = ifThenElse(run(e->ops[0]), static_cast<Cmp>(e->value), run(e->ops[1]), run(e->ops[2]),
                       run(e->ops[3]));
        break;
      case Kind::Lookup:
        r = lookup(lookupTable(e), run(e->ops[0]));
        break;
      default:
        r = e;
    }
    if (shared) remember(e.node(), r);
    return r;
  }
};
}  // namespace

Expr simplify(Expr e) {
  LIFT_ASSERT(e, "simplify of a null expression");
  Rebuilder rb;
  return rb.run(e);
}

Expr replaceSubexpressions(Expr e, const std::unordered_map<Expr, Expr>& replacement) {
  LIFT_ASSERT(e, "replaceSubexpressions in a null expression");
  auto it = replacement.find(e);
  if (it != replacement.end()) return it->second;
  if (e.kind() == Kind::Cst || e.kind() == Kind::Var) return e;
  Exprs ops;
  bool changed = false;
  for (Expr o : e->all()) {
    ops.push_back(replaceSubexpressions(o, replacement));
    changed = changed || ops.back() != o;
  }
  if (!changed) return e;
  return intern(e.kind(), e->value, nullptr, ops);
}

Expr substitute(Expr e, const std::map<Expr, Expr, std::less<>>& replacement) {
  LIFT_ASSERT(e, "substitute in a null expression");
  Rebuilder rb;
  rb.repl = &replacement;
  return rb.run(e);
}

}  // namespace lift::arith
