// ArithExpr simplification throughput on index expressions of the shapes that views produce for
// tiled matrix multiplication, transposition, vectorisation and stencils (about 20 nodes each).
// Figures go to docs/PERFORMANCE.md ("ArithExpr simplification").
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/arith/ArithExpr.h"

using namespace lift::arith;

namespace {

// Each entry: the raw index and the ranges of its variables ("name=LO:HI", HI may be empty);
// every other identifier is a size variable.
struct Entry {
  const char* text;
  std::vector<const char*> ranges;
};

const std::vector<Entry>& corpus() {
  static const std::vector<Entry> c = {
      // matmul, tiled: A[row][k] through split/join views
      {"((wg1*16 + l1)*K + t*16 + l0)/K*K + ((wg1*16 + l1)*K + t*16 + l0)%K",
       {"wg1=0:M/16", "l1=0:16", "t=0:K/16", "l0=0:16"}},
      // matmul, tiled: B[k][col], transposed access
      {"((t*16 + l1)*N + wg0*16 + l0)%N + ((t*16 + l1)*N + wg0*16 + l0)/N*N",
       {"wg0=0:N/16", "l0=0:16", "t=0:K/16", "l1=0:16"}},
      // split(16) then join: quotient and remainder recombined
      {"((wg_id*16 + l_id)/16)*16 + (wg_id*16 + l_id)%16", {"wg_id=0:N/16", "l_id=0:16"}},
      // transposition (CGO'17 Figure 6, line 2)
      {"((wg_id + l_id*N)/N)*N + (wg_id + l_id*N)%N + ((wg_id + l_id*N)/N)", {"wg_id=0:N", "l_id=0:M"}},
      // vectorised loads: asVector(4) after split(64)
      {"((wg*64 + l*4 + v)/4)*4 + (wg*64 + l*4 + v)%4 - (wg*64 + l*4)/64", {"wg=0:N/64", "l=0:16", "v=0:4"}},
      // 1D stencil, slide(3,1) over a padded array
      {"((wg*32 + l + k)/(N + 2))*(N + 2) + (wg*32 + l + k)%(N + 2) + 1 - 1*1",
       {"wg=0:N/32", "l=0:32", "k=0:3"}},
      // 2D stencil: row and column of a flattened neighbour
      {"((i*N + j)/N + di)*N + (i*N + j)%N + dj - (i*N)/N*N", {"i=0:M", "j=0:N", "di=0:3", "dj=0:3"}},
      // reorderStride and nested splits
      {"(((x/4)/8)*32 + (x%32)/4*4 + x%4)%(4*N) + min(x/32, M)", {"x=0:32*M"}},
  };
  return c;
}

Expr build(const Entry& e, const std::string& suffix) {
  std::map<std::string, Expr> vars;
  for (const char* r : e.ranges) {
    std::string s = r;
    auto eq = s.find('='), colon = s.find(':');
    std::string name = s.substr(0, eq), lo = s.substr(eq + 1, colon - eq - 1), hi = s.substr(colon + 1);
    // fresh names for the loop variables make every node new (a cold table and cold caches)
    vars[name] = var(name + suffix, parse(lo, vars), hi.empty() ? Expr() : parse(hi, vars));
  }
  return parse(e.text, vars, "<bench>", /*raw=*/true);
}

double averageSize(const std::vector<Expr>& es) {
  double n = 0;
  for (Expr e : es) n += static_cast<double>(e.size());
  return n / static_cast<double>(es.size());
}

// Simplifying the same raw indices again: nodes and their memoised analyses exist, as when a
// compiler regenerates a kernel after a rewrite elsewhere in the program.
void BM_SimplifyWarm(benchmark::State& state) {
  std::vector<Expr> raw;
  for (auto& e : corpus()) raw.push_back(build(e, ""));
  for (Expr e : raw) simplify(e);
  for (auto _ : state)
    for (Expr e : raw) benchmark::DoNotOptimize(simplify(e));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(raw.size()));
  state.counters["raw_nodes"] = averageSize(raw);
}
BENCHMARK(BM_SimplifyWarm);

// Building and simplifying indices over fresh variables, as code generation does for a new
// kernel: every node of the raw tree and of the result, and every bound and divisibility fact,
// is new. The raw tree is built by the raw constructors inside the timed loop.
Expr rebuildRaw(Expr e, const std::map<Expr, Expr, std::less<>>& fresh) {
  if (e.isCst()) return e;
  if (e.kind() == Kind::Var) {
    auto it = fresh.find(e);
    return it == fresh.end() ? e : it->second;
  }
  auto ops = e.operands();
  Expr a = rebuildRaw(ops[0], fresh);
  for (size_t i = 1; i < ops.size(); ++i) {
    Expr b = rebuildRaw(ops[i], fresh);
    switch (e.kind()) {
      case Kind::Sum:
        a = rawAdd(a, b);
        break;
      case Kind::Prod:
        a = rawMul(a, b);
        break;
      case Kind::Div:
        a = rawDiv(a, b);
        break;
      case Kind::Mod:
        a = rawMod(a, b);
        break;
      case Kind::Min:
        a = min(a, b);
        break;
      case Kind::Max:
        a = max(a, b);
        break;
      default:
        a = pow(a, b);
        break;
    }
  }
  return a;
}

void BM_BuildAndSimplifyCold(benchmark::State& state) {
  std::vector<Expr> templates;
  for (auto& e : corpus()) templates.push_back(build(e, ""));
  std::vector<std::vector<Expr>> loopVars;
  for (Expr t : templates) {
    std::vector<Expr> vs;
    for (Expr v : variables(t))
      if (varHi(v)) vs.push_back(v);
    loopVars.push_back(vs);
  }
  int64_t round = 0;
  for (auto _ : state) {
    ++round;
    for (size_t i = 0; i < templates.size(); ++i) {
      std::map<Expr, Expr, std::less<>> fresh;
      for (Expr v : loopVars[i]) fresh[v] = var(varName(v) + "_" + std::to_string(round), varLo(v), varHi(v));
      benchmark::DoNotOptimize(simplify(rebuildRaw(templates[i], fresh)));
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(templates.size()));
  state.counters["raw_nodes"] = averageSize(templates);
}
BENCHMARK(BM_BuildAndSimplifyCold)->Iterations(300);
BENCHMARK(BM_BuildAndSimplifyCold)->Iterations(3000);

}  // namespace

BENCHMARK_MAIN();
