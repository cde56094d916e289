// `liftc simplify` end to end: simplified output on one line that the same command reads back
// unchanged, and exit status 2 with a located message (expression and caret) on bad input.
#include <QtTest/QtTest>

#include "LiftcProcess.h"
#include "core/arith/ArithExpr.h"
#include "core/support/Diagnostic.h"

namespace {

using Run = lift::test::LiftcRun;

Run liftc(const QStringList& args) {
  return lift::test::runLiftc(QStringList{"simplify"} + args, QDir::currentPath(), 60000);
}

QStringList rangeArgs(const QString& ranges) {
  QStringList a;
  for (const QString& r : ranges.split(';', Qt::SkipEmptyParts)) a << "--range" << r;
  return a;
}

}  // namespace

class TestLiftcSimplify : public QObject {
  Q_OBJECT
 private slots:
  void simplifies_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("ranges");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, const char* e, const char* r, const char* x) {
      QTest::newRow(name) << QString(e) << QString(r) << QString(x);
    };
    row("split-join", "((wg_id*16 + l_id) / 16) * 16 + (wg_id*16 + l_id) % 16", "wg_id=0:N/16;l_id=0:16",
        "16*wg_id + l_id");
    row("mod-symbolic", "(i*N + j) % N", "j=0:N", "j");
    row("div-symbolic", "(i*N + j)/N", "j=0:N", "i");
    row("gcd", "(4*a+8*b)/4", "", "a + 2*b");
    row("nested-div", "x/4/4", "x=0:", "x/16");
    row("min-bounded", "min(i, N)", "i=0:N", "i");
    row("mod-of-mod", "(x%8)%4", "x=0:", "x%4");
    row("odd", "(2*x+1)%2", "x=0:", "1");
    row("transpose", "((wg_id + l_id*N)/N)*N + (wg_id + l_id*N)%N", "wg_id=0:N;l_id=0:M", "l_id*N + wg_id");
    row("negative-terms", "a + -1*b", "", "a - b");
    row("possibly-negative-kept", "(i - 1)/16", "i=0:N", "(i - 1)/16");
    row("range-with-expression-bounds", "(i + 2*N)%N", "i=-N:N", "(i + 2*N)%N");
    row("range-unbounded-negative", "(x + 16)/16", "x=-16:", "(x + 16)/16");
    row("range-using-earlier-variable", "j/i", "i=1:N;j=0:i", "0");
    row("expression-in-several-arguments", "1 + 2", "", "3");
    row("floor-integral-parts", "floor((4*i + j + 9)/4)", "j=-8:8", "i + floor((j + 1)/4) + 2");
    row("ceil-decided", "ceil(j/16)", "j=1:17", "1");
    row("floor-truncating", "floor((i*N + j)/N)", "i=0:M;j=0:N", "i");
    row("abs-non-positive", "abs(i - N)", "i=0:N", "N - i");
    row("abs-kept", "abs(x)", "x=-4:4", "abs(x)");
    row("ite-decided", "i < N ? i : N", "i=0:N", "i");
    row("ite-kept", "i >= 8 ? i - 8 : i", "i=0:16", "8 <= i ? i - 8 : i");
    row("lookup-kept", "lookup({3, 1, 4}, i%3)", "i=0:", "lookup({3, 1, 4}, i%3)");
    row("lookup-uniform", "lookup({3, 1, 4, 4}, i)", "i=2:4", "4");
  }
  void simplifies() {
    QFETCH(QString, expr);
    QFETCH(QString, ranges);
    QFETCH(QString, expected);
    Run r = liftc(QStringList{expr} + rangeArgs(ranges));
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, expected + "\n");
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    Run again = liftc(QStringList{r.out.trimmed()} + rangeArgs(ranges));  // the output reads back
    QCOMPARE(again.code, 0);
    QCOMPARE(again.out, r.out);
  }

  // The new forms through the command: what liftc prints evaluates like its input at every
  // point of the ranges (a grid over two variables, sizes 1 to 9).
  void newFormsAreSimplifiedSoundly_data() {
    QTest::addColumn<QString>("expr");
    QTest::addColumn<QString>("ranges");
    auto row = [](const char* e, const char* r) { QTest::newRow(e) << QString(e) << QString(r); };
    row("floor((4*i + j - 7)/4) + ceil((j - i)/N)", "i=-8:8;j=0:N");
    row("floor((i*N + j)/N) - ceil((i*N - j)/N)", "i=-8:8;j=0:N");
    row("abs(i - j) + abs(j - N) + abs(-3*i)", "i=-8:8;j=0:N");
    row("(i < j ? i : j) + (j >= N ? 1 : 2) + (i == j ? 0 : i != 3 ? 5 : 7)", "i=-8:8;j=0:N");
    row("lookup({3, 1, 4, 1, 5}, (i%5 + 5)%5) + lookup({2, 2, 9}, j%2)", "i=-8:8;j=0:N");
    row("floor(abs(i)/(j + 1)) + max(i < 0 ? -i : i, lookup({1, 2}, j%2))", "i=-8:8;j=0:N");
  }
  void newFormsAreSimplifiedSoundly() {
    QFETCH(QString, expr);
    QFETCH(QString, ranges);
    Run r = liftc(QStringList{expr} + rangeArgs(ranges));
    QCOMPARE(r.code, 0);
    std::map<std::string, lift::arith::Expr> vars;
    for (const QString& spec : ranges.split(';')) {
      auto eq = spec.indexOf('='), colon = spec.indexOf(':');
      std::string name = spec.left(eq).toStdString();
      vars[name] =
          lift::arith::var(name, lift::arith::parse(spec.mid(eq + 1, colon - eq - 1).toStdString(), vars),
                           lift::arith::parse(spec.mid(colon + 1).toStdString(), vars));
    }
    lift::arith::Expr raw = lift::arith::parse(expr.toStdString(), vars, "<raw>", /*raw=*/true);
    lift::arith::Expr printed = lift::arith::parse(r.out.trimmed().toStdString(), vars);
    int points = 0;
    for (int64_t n = 1; n <= 9; ++n)
      for (int64_t i = -8; i < 8; ++i)
        for (int64_t j = 0; j < n; ++j) {
          lift::arith::Env env{{"N", n}, {"i", i}, {"j", j}};
          int64_t want;
          try {
            want = lift::arith::evaluate(raw, env);
          } catch (const lift::LiftError&) {
            continue;
          }
          QCOMPARE(lift::arith::evaluate(printed, env), want);
          ++points;
        }
    QVERIFY(points > 300);
  }

  void severalWordsAreOneExpression() {
    Run r = liftc({"(i*N", "+", "j)/N", "--range", "j=0:N"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QString("i\n"));
  }

  void rejects_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");  // the location and the message
    QTest::addColumn<QString>("caret");    // the source line and the caret under the column
    QTest::newRow("syntax") << QStringList{"x + * y"} << "<expr>:1:5: error: unexpected '*'"
                            << "  x + * y\n      ^";
    QTest::newRow("unknown-function")
        << QStringList{"2*foo(1)"} << "<expr>:1:3: error: unknown function 'foo'"
        << "  2*foo(1)\n    ^";
    QTest::newRow("argument-count") << QStringList{"min(1, 2, 3)"}
                                    << "<expr>:1:1: error: 'min' takes 2 arguments, got 3"
                                    << "^";
    QTest::newRow("division-by-zero") << QStringList{"x / 0"} << "<expr>:1:3: error: division by zero"
                                      << "  x / 0\n    ^";
    QTest::newRow("modulo-by-zero") << QStringList{"x % (1 - 1)"} << "<expr>:1:3: error: modulo by zero"
                                    << "^";
    QTest::newRow("literal-overflow")
        << QStringList{"x + 123456789012345678901"} << "<expr>:1:5: error: integer literal"
        << "^";
    QTest::newRow("unclosed") << QStringList{"(x + 1"} << "<expr>:1:1: error: unclosed '('"
                              << "^";
    QTest::newRow("deep-nesting") << QStringList{QString(5000, '(') + "x" + QString(5000, ')')}
                                  << "error: expression is nested too deeply"
                                  << "^";
    QTest::newRow("empty-range") << QStringList{"i", "--range", "i=5:3"}
                                 << "<range>:1:5: error: empty range for 'i'"
                                 << "  i=5:3\n      ^";
    QTest::newRow("empty-symbolic-range")
        << QStringList{"i", "--range", "i=N+1:N"} << "<range>:1:7: error: empty range for 'i'"
        << "^";
    QTest::newRow("malformed-range") << QStringList{"i", "--range", "i5"} << "malformed --range 'i5'"
                                     << "^";
    QTest::newRow("range-bad-name") << QStringList{"i", "--range", "2i=0:4"} << "'2i' is not a variable name"
                                    << "^";
    QTest::newRow("range-missing-lower")
        << QStringList{"i", "--range", "i=:4"} << "<range>:1:3: error: missing lower bound"
        << "^";
    QTest::newRow("range-syntax") << QStringList{"i", "--range", "i=0:N+*2"}
                                  << "<range>:1:7: error: unexpected '*'"
                                  << "  i=0:N+*2\n        ^";
    QTest::newRow("range-twice") << QStringList{"i", "--range", "i=0:4", "--range", "i=0:8"}
                                 << "--range given twice for 'i'"
                                 << "^";
    QTest::newRow("range-forward-reference") << QStringList{"j", "--range", "j=0:i", "--range", "i=1:N"}
                                             << "'i' is used in the range of 'j' before its own --range"
                                             << "^";
    QTest::newRow("floor-division-inside-sum")
        << QStringList{"floor(a + b/c)"} << "<expr>:1:1: error: the argument of 'floor' divides inside a sum"
        << "^";
    QTest::newRow("ite-without-else")
        << QStringList{"i < 4 ? 1"} << "<expr>:1:10: error: expected ':' after the first branch of '?'"
        << "^";
    QTest::newRow("missing-expression") << QStringList{} << "missing EXPR"
                                        << "";
  }
  void rejects() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QFETCH(QString, caret);
    Run r = liftc(args);
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY2(r.err.contains(caret), qPrintable(r.err));
  }
};

QTEST_GUILESS_MAIN(TestLiftcSimplify)
#include "tst_liftc_simplify.moc"
