// ArithExpr simplification: one table row (expression, variable ranges, expected result) per
// rule of every operator, cases from the literature, rules that must NOT fire (unsound under
// truncation), canonical forms, the analyses the rules ask, and concurrent construction.
#include <QtTest/QtTest>

#include <random>
#include <thread>

#include "core/arith/ArithExpr.h"
#include "core/support/Diagnostic.h"

using namespace lift;
using namespace lift::arith;

// Expressions compare by identity; on failure both are printed.
#define COMPARE_EXPR(actual, expected)                                                            \
  do {                                                                                            \
    Expr a_ = (actual), e_ = (expected);                                                          \
    QVERIFY2(a_ == e_, qPrintable(QString::fromStdString(toString(a_) + " != " + toString(e_)))); \
  } while (0)

namespace {

// "i=0:N;j=0:16;x=0:" -> variables with those ranges (in order; a range may use earlier ones).
std::map<std::string, Expr> rangesOf(const QString& spec) {
  std::map<std::string, Expr> vars;
  for (const QString& r : spec.split(';', Qt::SkipEmptyParts)) {
    auto eq = r.indexOf('='), colon = r.indexOf(':');
    std::string name = r.left(eq).trimmed().toStdString();
    Expr lo = parse(r.mid(eq + 1, colon - eq - 1).toStdString(), vars);
    QString hiText = r.mid(colon + 1).trimmed();
    Expr hi = hiText.isEmpty() ? Expr() : parse(hiText.toStdString(), vars);
    vars[name] = var(name, lo, hi);
  }
  return vars;
}

// Compares raw and simplified at random points of the ranges (sizes in [1, 100]).
void checkSound(Expr raw, Expr simple, const std::map<std::string, Expr>& vars) {
  std::mt19937 rng(7);
  std::vector<Expr> order;
  for (auto& [n, v] : vars) order.push_back(v);
  // a variable's range may mention another variable: define those first
  std::sort(order.begin(), order.end(), [](Expr a, Expr b) { return a.size() < b.size(); });
  std::vector<Expr> sizes;
  for (Expr v : variables(raw))
    if (!vars.count(varName(v))) sizes.push_back(v);
  for (Expr v : order) {
    for (Expr s : variables(varLo(v))) sizes.push_back(s);
    if (varHi(v))
      for (Expr s : variables(varHi(v))) sizes.push_back(s);
  }
  for (int p = 0; p < 300; ++p) {
    Env env;
    for (Expr s : sizes)
      if (!vars.count(varName(s))) env[varName(s)] = std::uniform_int_distribution<int64_t>(1, 100)(rng);
    bool ok = true;
    for (int pass = 0; pass < 3; ++pass) {
      for (Expr v : order) {
        try {
          int64_t lo = evaluate(varLo(v), env);
          int64_t hi = varHi(v) ? evaluate(varHi(v), env) : lo + 1000;
          if (hi <= lo) {
            ok = false;
            continue;
          }
          env[varName(v)] = std::uniform_int_distribution<int64_t>(lo, hi - 1)(rng);
        } catch (const LiftError&) {
          env[varName(v)] = 0;  // depends on a variable not set yet: the next pass sets it
        }
      }
    }
    if (!ok) continue;
    int64_t want;
    try {
      want = evaluate(raw, env);
    } catch (const LiftError&) {
      continue;
    }
    QCOMPARE(evaluate(simple, env), want);
  }
}

}  // namespace

class TestArithSimplify : public QObject {
  Q_OBJECT
 private slots:
  void rules_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("ranges");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, const char* e, const char* r, const char* x) {
      QTest::newRow(name) << QString(e) << QString(r) << QString(x);
    };
    // ----- sums -----
    row("add-flatten", "(a + b) + (c + d)", "", "a + b + c + d");
    row("add-constant-fold", "1 + x + 2", "", "x + 3");
    row("add-like-terms", "2*x + 3*x", "", "5*x");
    row("add-cancel", "x + y - x", "", "y");
    row("add-negative-terms-print-as-minus", "a + -1*b + -3*c - 2", "", "a - b - 3*c - 2");
    row("sum-div-mod-recombine", "(x/16)*16 + x%16", "", "x");
    row("sum-div-mod-recombine-symbolic", "(x/N)*N + x%N", "", "x");
    row("sum-div-mod-recombine-scaled", "2*((x/4)*4) + 2*(x%4) + y", "", "2*x + y");
    row("sum-div-mod-recombine-sum", "((i + j)/8)*8 + (i + j)%8", "", "i + j");
    row("sum-div-mod-recombine-nested", "(x%32)/4*4 + x%4", "", "x%32");
    row("sum-div-mod-recombine-offset", "16*((4*a + j + 64)/16) + (4*a + j)%16", "a=0:16;j=0:4",
        "4*a + j + 64");
    row("sum-div-mod-recombine-offset-symbolic", "N*((x + 2*N)/N) + x%N", "x=0:", "2*N + x");
    row("sum-div-mod-recombine-offset-may-be-negative", "16*((x + 64)/16) + x%16", "x=-20:16",
        "16*((x + 64)/16) + x%16");
    row("sum-div-mod-recombine-reorder-stride", "32*(x/32) + 4*(x%32/4) + x%4", "x=0:", "x");
    row("sum-sub-div-to-mod", "x - (x/16)*16", "", "x%16");
    row("sum-sub-div-to-mod-symbolic", "N - (N/16)*16 + 1", "", "N%16 + 1");
    row("sum-mod-div-mod-recombine", "16*((x/16)%4) + x%16", "", "x%64");
    row("sum-mod-div-mod-recombine-symbolic", "((i/N)%M)*N + i%N", "", "i%(M*N)");
    row("sum-sub-mod-to-div", "x - x%4", "", "4*(x/4)");
    row("sum-sub-mod-to-div-symbolic", "i + j - (i + j)%N + 1", "", "N*((i + j)/N) + 1");
    row("sum-distribute", "(i + 1)*N - i*N", "", "N");
    // ----- products -----
    row("mul-constant-fold", "2*3*x", "", "6*x");
    row("mul-zero", "0*x", "", "0");
    row("mul-one", "1*x", "", "x");
    row("mul-sorted-factors", "N*i", "i=0:N", "i*N");
    row("mul-distribute-constant", "2*(x + 1)", "", "2*x + 2");
    row("mul-distribute-constant-negation", "-(a - b)", "", "b - a");
    row("mul-keep-product-of-sum", "2*(a + b)", "", "2*(a + b)");
    // ----- division -----
    row("div-constant-fold", "7/2", "", "3");
    row("div-constant-fold-negative", "-7/2", "", "-3");
    row("div-constant-fold-negative-divisor", "7/(-2)", "", "-3");
    row("div-by-one", "x/1", "", "x");
    row("div-by-minus-one", "x/(-1)", "", "-x");
    row("div-zero-numerator", "0/x", "", "0");
    row("div-self", "N/N", "", "1");
    row("div-in-range-constant", "l/16", "l=0:16", "0");
    row("div-in-range-constant-negative", "k/16", "k=-15:16", "0");
    row("div-common-factor", "(4*a + 8*b)/4", "", "a + 2*b");
    row("div-common-factor-symbolic-divisor", "(4*i + 2)/(2*N)", "", "(2*i + 1)/N");
    row("div-common-factor-symbolic", "(N*i)/(N*M)", "i=0:", "i/M");
    row("div-common-factor-of-mod", "(x%8 + x%8)/8", "x=0:", "x%8/4");
    row("div-of-div", "x/4/4", "x=0:", "x/16");
    row("div-of-div-negative-numerator", "x/4/4", "x=-100:", "x/16");
    row("div-of-div-symbolic", "x/N/M", "", "x/(M*N)");
    row("div-split-sum", "(16*wg + l)/16", "wg=0:N/16;l=0:16", "wg");
    row("div-split-sum-symbolic", "(i*N + j)/N", "j=0:N", "i");
    row("div-split-sum-nonpositive", "(-16*wg - l)/16", "wg=0:N;l=0:16", "-wg");
    row("div-split-sum-remainder", "(32*wg + l)/16", "wg=0:N;l=0:8", "2*wg");
    row("div-split-sum-keep-offset", "(i*N + N - 1)/N", "i=0:M", "i");
    row("div-split-sum-constant", "(32*M - 1)/32", "", "M - 1");
    row("div-split-sum-constant-negative", "(-32*M + 1)/32", "", "1 - M");
    row("div-split-sum-by-sum", "(i*(N + 1) + j)/(N + 1)", "j=0:N+1", "i");
    row("div-split-sum-by-sum-padded", "((i + 1)*(N + 2) + j + 1)/(N + 2)", "i=0:M;j=0:N", "i + 1");
    row("div-negated-numerator", "(-x)/4 + x/4", "", "0");
    row("div-negated-numerator-sum", "(-a - 2*b)/N", "", "-((a + 2*b)/N)");
    row("div-in-range", "j/N", "j=0:N", "0");
    row("div-in-range-symbolic-difference", "(N - 1 - j)/N", "j=0:N", "0");
    row("div-constant-bounds", "(l + 17)/16", "l=0:15", "1");
    row("div-negative-divisor", "x/(-N)", "", "-(x/N)");
    // ----- modulo -----
    row("mod-constant-fold", "7%3", "", "1");
    row("mod-constant-fold-negative", "-7%3", "", "-1");
    row("mod-constant-fold-negative-divisor", "7%(-3)", "", "1");
    row("mod-by-one", "x%1", "", "0");
    row("mod-zero-numerator", "0%x", "", "0");
    row("mod-negative-divisor", "x%(-4)", "", "x%4");
    row("mod-negative-divisor-symbolic", "x%(-N)", "", "x%N");
    row("mod-in-range-constant", "l%16", "l=0:16", "l");
    row("mod-in-range-constant-negative", "k%16", "k=-15:16", "k");
    row("mod-multiple", "(x*N)%N", "", "0");
    row("mod-multiple-constant", "(4*x + 8)%2", "", "0");
    row("mod-of-mod", "(x%8)%4", "x=0:", "x%4");
    row("mod-of-mod-negative", "(x%8)%4", "x=-50:", "x%4");
    row("mod-of-mod-smaller-inner", "(x%4)%8", "", "x%4");
    row("mod-split-sum", "(16*wg + l)%16", "wg=0:N/16;l=0:16", "l");
    row("mod-split-sum-symbolic", "(i*N + j)%N", "j=0:N", "j");
    row("mod-split-sum-odd", "(2*x + 1)%2", "x=0:", "1");
    row("mod-split-sum-keep-offset", "(i*N + N - 1)%N", "i=0:M", "N - 1");
    row("mod-split-sum-constant", "(32*M - 1)%32", "", "31");
    row("mod-split-sum-by-sum-padded", "((i + 1)*(N + 2) + j + 1)%(N + 2)", "i=0:M;j=0:N", "j + 1");
    row("mod-negated-numerator", "(-x)%4 + x%4", "", "0");
    row("mod-in-range", "j%N", "j=0:N", "j");
    row("mod-split-sum-unbounded-remainder", "(i*N + j)%N", "j=0:", "j%N");
    row("mod-common-factor", "(x*N)%(2*N)", "", "N*(x%2)");
    row("mod-constant-bounds", "(l + 17)%16", "l=0:15", "l + 1");
    // ----- min and max -----
    row("minmax-constant-fold", "min(3, 5) + max(3, 5)", "", "8");
    row("minmax-same", "max(x, x)", "", "x");
    row("minmax-decided", "min(i, N)", "i=0:N", "i");
    row("minmax-decided-max", "max(i, N)", "i=0:N", "N");
    row("minmax-decided-offset", "max(0, i - 1)", "i=1:N", "i - 1");
    row("minmax-decided-tiled", "min(16*wg + l, N)", "wg=0:N/16;l=0:16", "16*wg + l");
    row("minmax-decided-quotient", "min(x/32, M)", "x=0:32*M", "x/32");
    row("minmax-absorb", "min(a, min(a, b))", "", "min(a, b)");
    row("minmax-absorb-opposite", "min(a, max(a, b))", "", "a");
    row("minmax-common-terms", "min(x + 1, y + 1)", "", "min(x, y) + 1");
    row("minmax-common-factor", "min(2*x, 2*y)", "", "2*min(x, y)");
    // ----- powers -----
    row("pow-constant-fold", "pow(2, 10)", "", "1024");
    row("pow-exponent-zero", "pow(x, 0)", "", "1");
    row("pow-exponent-one", "pow(x, 1)", "", "x");
    row("pow-base-one", "pow(1, x)", "", "1");
    row("pow-base-zero", "pow(0, N)", "", "0");
    row("pow-of-pow", "pow(pow(x, 2), 3)", "", "pow(x, 6)");
    // ----- floor, ceiling, absolute value, if-then-else, lookup (Lift's arithexpr forms) -----
    row("floor-of-integer", "floor(i + 2*j)", "", "i + 2*j");
    row("floor-constant-fold", "floor(-7/2) + ceil(-7/2)*10", "", "-34");
    row("floor-by-one", "floor(x/1) + ceil(y/(-1))", "", "x - y");
    row("floor-exact", "floor(4*N*i/(2*N))", "", "2*i");
    row("floor-integral-parts", "floor((4*i + j + 9)/4)", "j=-8:8", "i + floor((j + 1)/4) + 2");
    row("floor-integral-parts-symbolic", "ceil((i*N + j - 1)/N)", "", "i + ceil((j - 1)/N)");
    row("floor-decided", "floor((j - 16)/16)", "j=0:16", "-1");
    row("ceil-decided", "ceil(j/16)", "j=1:17", "1");
    row("floor-truncating", "floor(i/4)", "i=0:N", "i/4");
    row("ceil-truncating", "ceil(i/4)", "i=-N:1", "i/4");
    row("floor-negative-divisor", "floor(-x/(-4))", "x=-8:8", "floor(x/4)");
    row("keep-floor-when-rewriting-grows", "floor((i - 5)/4)", "i=0:N", "floor((i - 5)/4)");
    row("keep-floor-unknown-sign", "floor(x/4)", "x=-8:8", "floor(x/4)");
    row("abs-non-negative", "abs(i + 1)", "i=0:N", "i + 1");
    row("abs-non-positive", "abs(-2*i)", "i=0:N", "2*i");
    row("abs-constant-fold", "abs(-5) + abs(5)", "", "10");
    row("abs-of-abs", "abs(abs(x))", "x=-4:4", "abs(x)");
    row("abs-constant-factor", "abs(-4*x)", "x=-4:4", "4*abs(x)");
    row("abs-bounds", "min(abs(x), 5)", "x=-4:4", "abs(x)");
    row("ite-same-branches", "i < j ? 2*x : x + x", "", "2*x");
    row("ite-decided-then", "i < N ? i : 0", "i=0:N", "i");
    row("ite-decided-else", "i >= 16 ? 1 : 2", "i=0:16", "2");
    row("ite-decided-equal", "i == N ? 0 : j", "i=0:N", "j");
    row("ite-decided-not-equal", "i != N ? 0 : j", "i=0:N", "0");
    row("ite-greater-swaps", "i > j ? i : j", "", "j < i ? i : j");
    row("ite-abs", "x < 0 ? -x : x", "x=-4:4", "abs(x)");
    row("ite-in-sum", "1 + (i < j ? 4 : 8)", "", "(i < j ? 4 : 8) + 1");
    row("ite-bounds", "(i < j ? 4 : 8)/16", "", "0");
    row("keep-ite-undecided", "i < 8 ? i : 8 - i", "i=0:16", "i < 8 ? i : 8 - i");
    row("lookup-constant-index", "lookup({3, 1, 4}, 2)", "", "4");
    row("lookup-uniform", "lookup({3, 1, 4, 4, 4}, i + 2)", "i=0:3", "4");
    row("lookup-bounds", "lookup({3, 1, 4}, i)%5", "", "lookup({3, 1, 4}, i)");
    row("keep-lookup", "lookup({3, 1, 4}, i)", "i=0:3", "lookup({3, 1, 4}, i)");
    // ----- from the literature and typical tiled indices -----
    row("cgo17-fig6-transpose",
        "((((wg_id*M+l_id)/M)+(((wg_id*M+l_id) % M)*N))/N)*N+(((wg_id*M+l_id)/M)+(((wg_id*M+l_id) % M)*N)) % "
        "N",
        "wg_id=0:N;l_id=0:M", "l_id*N + wg_id");
    row("cgo17-fig6-line2", "((wg_id + l_id*N)/N)*N + (wg_id + l_id*N)%N", "wg_id=0:N;l_id=0:M",
        "l_id*N + wg_id");
    row("split-join-16", "((wg_id*16 + l_id) / 16) * 16 + (wg_id*16 + l_id) % 16", "wg_id=0:N/16;l_id=0:16",
        "16*wg_id + l_id");
    row("matmul-tile-row", "((wg1*16 + l1)*K + t*16 + l0)/K", "wg1=0:M/16;l1=0:16;t=0:K/16;l0=0:16",
        "16*wg1 + l1");
    row("matmul-tile-col", "((wg1*16 + l1)*K + t*16 + l0)%K", "wg1=0:M/16;l1=0:16;t=0:K/16;l0=0:16",
        "16*t + l0");
    row("vectorised", "((wg*64 + l*4 + v)/4)%16", "wg=0:N/64;l=0:16;v=0:4", "l");
    row("stencil-row", "((i + 1)*N + j)/N - 1", "i=0:M;j=0:N", "i");
    // ----- unsound rewrites that must not happen -----
    row("keep-div-possibly-negative", "(i - 1)/16", "i=0:N", "(i - 1)/16");
    row("keep-split-mixed-signs", "(16*wg + l - 1)/16", "wg=0:N;l=0:16", "(16*wg + l - 1)/16");
    row("keep-mod-possibly-negative", "(16*wg + l - 1)%16", "wg=0:N;l=0:16", "(16*wg + l - 1)%16");
    row("keep-mod-possibly-negative-remainder", "(i*N + j)%N", "j=-5:", "(N*i + j)%N");
    row("keep-div-possibly-negative-remainder", "(i*N + j)/N", "j=-5:N", "(N*i + j)/N");
    row("keep-min-unknown", "min(i, N - 1)", "i=0:M", "min(i, N - 1)");
    row("keep-divisor-not-known-divisible", "(N/16)*16", "", "16*(N/16)");
  }

  void rules() {
    QFETCH(QString, expr);
    QFETCH(QString, ranges);
    QFETCH(QString, expected);
    auto vars = rangesOf(ranges);
    Expr raw = parse(expr.toStdString(), vars, "<test>", /*raw=*/true);
    Expr simple = simplify(raw);
    QCOMPARE(QString::fromStdString(toString(simple)), expected);
    QVERIFY(simple.size() <= raw.size());
    COMPARE_EXPR(parse(expr.toStdString(), vars), simple);  // parse simplifies the same way
    COMPARE_EXPR(parse(toString(simple), vars), simple);    // the output reads back
    COMPARE_EXPR(simplify(simple), simple);                 // a fixpoint
    checkSound(raw, simple, vars);
  }

  // Issue 19: a rewrite must not form an intermediate that overflows 64 bits where the source's
  // do not, when the ranges show it. Each row: the source, the ranges, a point where the source
  // evaluates (and, mostly, the canonical form would overflow), and the simplified text.
  void overflowNoMoreThanTheSource_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("ranges");
    QTest::addColumn<QString>("point");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, const char* e, const char* r, const char* p, const char* x) {
      QTest::newRow(name) << QString(e) << QString(r) << QString(p) << QString(x);
    };
    // 100*y*(4/N)*(x%(2*y)) forms 100*y = 10^19 before the zero remainder
    row("issue-19-product", "((4/N)*100)*(y*(x%(2*y)))", "x=-1000000:1000001;y=1:100000000000000001",
        "N=1;x=0;y=100000000000000000", "100*(4/N)*(y*(x%(2*y)))");
    // the values: nothing overflows at them, but the ranges (the whole product up to
    // 4*10^20) do not show that 100*y*(4/N)*(x%(2*y)) cannot, so the order stays
    row("issue-19-values", "((4/N)*100)*(y*(x%(2*y)))", "x=-1000000:1000001;y=1:1000000000001",
        "N=5;x=-1000000;y=1000000000000", "100*(4/N)*(y*(x%(2*y)))");
    // x*y is 2^80 when z = 0
    row("product-zero-factor", "x*(y*z)", "x=0:1099511627777;y=0:1099511627777;z=0:3",
        "x=1099511627776;y=1099511627776;z=0", "x*(y*z)");
    // a + b is 2^63
    row("sum-reorder", "(a + c) + b",
        "a=0:4611686018427387905;b=0:4611686018427387905;c=-4611686018427387904:1",
        "a=4611686018427387904;b=4611686018427387904;c=-4611686018427387904", "a + c + b");
    // the constant moves last: x + y is 2^63
    row("sum-constant-last", "(x - 4611686018427387904) + y",
        "x=0:4611686018427387905;y=0:4611686018427387905", "x=4611686018427387904;y=4611686018427387904",
        "x - 4611686018427387904 + y");
    // 4*a is past 2^63 where a - b is 0
    row("mul-distribute-constant", "4*(a - b)", "a=0:4611686018427387904;b=0:4611686018427387904",
        "a=4611686018427387903;b=4611686018427387903", "4*(a - b)");
    // the products may pass 2^63 and stay as written, so the sum is not multiplied out
    row("sum-distribute", "(i + 1)*(j - k) - i*(j - k)",
        "i=0:4611686018427387904;j=0:4611686018427387904;k=0:4611686018427387904",
        "i=4611686018427387903;j=5;k=5", "(i + 1)*(j - k) - i*(j - k)");
    // within the ranges nothing overflows: the rewrites stay
    row("small-ranges-reorder", "x*(y*z)", "x=0:1048577;y=0:1048577;z=0:3", "x=1048576;y=1048576;z=0",
        "x*y*z");
    row("small-ranges-distribute", "4*(a - b)", "a=0:1048576;b=0:1048576", "a=5;b=5", "4*a - 4*b");
    // an unbounded variable keeps the assumption, but no rewrite forms a product whose bound
    // the ranges show to exceed 2^63 (a*b) where the source formed none
    row("unbounded-no-known-overflow", "(a*N)*b", "a=0:1099511627777;b=0:1099511627777",
        "a=1099511627776;b=0;N=1", "a*N*b");
  }

  void overflowNoMoreThanTheSource() {
    QFETCH(QString, expr);
    QFETCH(QString, ranges);
    QFETCH(QString, point);
    QFETCH(QString, expected);
    auto vars = rangesOf(ranges);
    Expr raw = parse(expr.toStdString(), vars, "<test>", /*raw=*/true);
    Expr simple = simplify(raw);
    Env env;
    for (const QString& kv : point.split(';'))
      env[kv.section('=', 0, 0).toStdString()] = kv.section('=', 1).toLongLong();
    int64_t want = evaluate(raw, env);
    int64_t got = 0;
    try {
      got = evaluate(simple, env);
    } catch (const LiftError& e) {
      QFAIL(qPrintable(QString::fromStdString(toString(simple) + ": " + e.what())));
    }
    QCOMPARE(got, want);
    QCOMPARE(QString::fromStdString(toString(simple)), expected);
    COMPARE_EXPR(simplify(simple), simple);
  }

  void rawConstructorsOnlyFoldConstants() {
    Expr x = sizeVar("x");
    COMPARE_EXPR(rawAdd(cst(1), cst(2)), cst(3));
    COMPARE_EXPR(rawMul(cst(4), cst(5)), cst(20));
    COMPARE_EXPR(rawDiv(cst(-7), cst(2)), cst(-3));
    COMPARE_EXPR(rawMod(cst(-7), cst(2)), cst(-1));
    Expr xx = rawAdd(x, x);
    QVERIFY(xx.kind() == Kind::Sum);
    QCOMPARE(QString::fromStdString(toString(xx)), QString("x + x"));
    QCOMPARE(QString::fromStdString(toString(rawDiv(rawMul(x, cst(16)), cst(16)))), QString("x*16/16"));
    COMPARE_EXPR(simplify(rawDiv(rawMul(x, cst(16)), cst(16))), x);
    COMPARE_EXPR(simplify(xx), 2 * x);
  }

  void canonicalFormsAreUnique() {
    Expr a = sizeVar("a"), b = sizeVar("b"), i = var("i", cst(0), a);
    COMPARE_EXPR(a + b, b + a);
    COMPARE_EXPR(a * b, b * a);
    COMPARE_EXPR((a + 2) + 3, a + 5);
    COMPARE_EXPR(a + b + i, i + (b + a));
    COMPARE_EXPR(min(a, b), min(b, a));
    COMPARE_EXPR(var("i", cst(0), a), i);                  // uniqued by (name, lo, hi)
    QVERIFY(var("i", cst(0), b) != i);                     // another range: another variable
    COMPARE_EXPR(sizeVar("a"), var("a", cst(1), Expr()));  // a size variable is >= 1, unbounded
    COMPARE_EXPR(a - a, cst(0));
    QCOMPARE(varName(i), std::string("i"));
    COMPARE_EXPR(varLo(i), cst(0));
    COMPARE_EXPR(varHi(i), a);
    QCOMPARE(variables(i * a + b).size(), size_t(3));
    QVERIFY(canonicalLess(i, a));  // variables with a range sort before size variables
  }

  void analyses() {
    Expr N = sizeVar("N"), M = sizeVar("M");
    Expr i = var("i", cst(0), M);
    Expr wg = var("wg", cst(0), N / 16), l = var("l", cst(0), cst(16));
    QVERIFY(provablyLess(i, M));
    QVERIFY(provablyLess(16 * wg + l, N));  // 16*(N/16) <= N without N divisible by 16
    QVERIFY(provablyLessEqual(16 * wg + l + 1, N));
    QVERIFY(!provablyLess(16 * wg + l + 1, N));  // equality when 16 divides N
    QVERIFY(!provablyLess(i, N));
    QVERIFY(provablyNonNegative(i - 0));
    QVERIFY(!provablyNonNegative(i - 1));
    QVERIFY(provablyPositive(N));
    QVERIFY(provablyDivisible(4 * N * i, 2 * N));
    QVERIFY(provablyDivisible(N * M, M));
    QVERIFY(!provablyDivisible(N, cst(16)));
    QCOMPARE(constantDivisor(4 * i + 8), int64_t(4));
    QCOMPARE(constantDivisor(cst(0)), int64_t(0));
    QCOMPARE(constantDivisor(i), int64_t(1));
    ConstBounds cb = constantBounds(l % 8 + 2);
    QCOMPARE(cb.lo, std::optional<int64_t>(2));
    QCOMPARE(cb.hi, std::optional<int64_t>(9));
    Bounds b = bounds(16 * wg + l);
    COMPARE_EXPR(b.lo, cst(0));
    QCOMPARE(QString::fromStdString(toString(b.hi)), QString("16*(N/16) - 1"));
    QVERIFY(!bounds(N).hi || bounds(N).hi == N);
    QCOMPARE(constantBounds(N).lo, std::optional<int64_t>(1));
    QVERIFY(!constantBounds(N).hi);
  }

  void evaluateAndSubstitute() {
    Expr N = sizeVar("N"), x = var("x", cst(-10), N);
    QCOMPARE(evaluate(rawDiv(x, cst(4)), {{"x", -7}, {"N", 3}}), int64_t(-1));
    QCOMPARE(evaluate(rawMod(x, cst(4)), {{"x", -7}, {"N", 3}}), int64_t(-3));
    QCOMPARE(evaluate(pow(N, cst(3)), {{"N", 3}}), int64_t(27));
    QVERIFY_THROWS_EXCEPTION(LiftError, evaluate(rawDiv(cst(1), x), {{"x", 0}}));
    QVERIFY_THROWS_EXCEPTION(LiftError, evaluate(x + N, {{"x", 1}}));
    QVERIFY_THROWS_EXCEPTION(LiftError, div(x, cst(0)));
    QVERIFY_THROWS_EXCEPTION(LiftError, mod(x, N - N));
    Expr l = var("l", cst(0), cst(16)), wg = var("wg", cst(0), N);
    COMPARE_EXPR(substitute((16 * x + l) / 16, {{x, wg}}), wg);
    COMPARE_EXPR(substitute(x + N, {{N, cst(4)}}), x + 4);
  }

  void threadsShareOneTable() {
    std::vector<std::vector<Expr>> results(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([t, &results] {
        for (int k = 0; k < 300; ++k) {
          Expr n = sizeVar("N" + std::to_string(k % 37));
          Expr i = var("i", cst(0), n / 16), l = var("l", cst(0), cst(16));
          Expr e = parse("((i*16 + l)/16)*16 + (i*16 + l)%16 + " + std::to_string(k % 11),
                         {{"i", i}, {"l", l}, {"N", n}});
          results[t].push_back(e);
        }
      });
    }
    for (auto& th : threads) th.join();
    for (int t = 1; t < 4; ++t) QVERIFY(results[t] == results[0]);
    QCOMPARE(QString::fromStdString(toString(results[0][0])), QString("16*i + l"));
  }
};

QTEST_APPLESS_MAIN(TestArithSimplify)
#include "tst_arith_simplify.moc"
