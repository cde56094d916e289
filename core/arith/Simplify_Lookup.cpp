// Smart constructor for an entry of a constant table (Lift's Lookup) and its rule table: a
// constant index selects its entry, and an index whose range meets only equal entries is that
// entry. An index outside the table is left to evaluation to report.
#include <algorithm>

#include "core/arith/Node.h"
#include "core/support/Diagnostic.h"

namespace lift::arith {
using namespace detail;

namespace {

using LookupRule = Rule<Expr (*)(Expr, std::span<const Expr>)>;

Expr constantIndex(Expr index, std::span<const Expr> table) {
  if (!index.isCst() || index->value < 0 || index->value >= static_cast<int64_t>(table.size())) return Expr();
  return table[static_cast<size_t>(index->value)];
}

// The entries the index's range reaches (within the table) are all equal.
Expr uniform(Expr index, std::span<const Expr> table) {
  ConstBounds b = constantBounds(index);
  int64_t last = static_cast<int64_t>(table.size()) - 1;
  int64_t lo = b.lo ? std::max<int64_t>(*b.lo, 0) : 0, hi = b.hi ? std::min(*b.hi, last) : last;
  if (lo > hi) return Expr();  // never inside the table: left for evaluation to report
  for (int64_t i = lo + 1; i <= hi; ++i)
    if (table[static_cast<size_t>(i)] != table[static_cast<size_t>(lo)]) return Expr();
  return table[static_cast<size_t>(lo)];
}

const LookupRule kLookupRules[] = {
    {"lookup-constant-index", constantIndex},
    {"lookup-uniform", uniform},
};

Expr node(const std::vector<int64_t>& table, Expr index, bool simplifyIt) {
  LIFT_ASSERT(index, "lookup with a null index");
  if (table.empty()) throw LiftError("lookup in an empty table");
  Exprs ops{index};
  for (int64_t v : table) ops.push_back(cst(v));
  std::span<const Expr> entries(ops.data() + 1, table.size());
  if (simplifyIt) {
    DepthGuard guard;
    if (!guard.tooDeep())
      for (const LookupRule& rule : kLookupRules)
        if (Expr r = rule.apply(index, entries)) return r;  // a constant: never larger
  } else if (Expr r = constantIndex(index, entries)) {
    return r;
  }
  return intern(Kind::Lookup, ops);
}

}  // namespace

Expr lookup(const std::vector<int64_t>& table, Expr index) { return node(table, index, true); }
Expr rawLookup(const std::vector<int64_t>& table, Expr index) { return node(table, index, false); }

std::vector<int64_t> lookupTable(Expr e) {
  LIFT_ASSERT(e && e.kind() == Kind::Lookup, "lookupTable of a non-lookup");
  std::vector<int64_t> t;
  for (Expr c : e.operands().subspan(1)) t.push_back(c->value);
  return t;
}

Expr lookupIndex(Expr e) {
  LIFT_ASSERT(e && e.kind() == Kind::Lookup, "lookupIndex of a non-lookup");
  return e.operands()[0];
}

}  // namespace lift::arith
