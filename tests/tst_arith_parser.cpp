// ArithExpr parser and printer: C precedence and truncating division, errors with the column
// of the problem (syntax, unknown functions, argument counts, literal zero divisors, literal
// overflow, nesting limits), and printing with minimal parentheses that parses back.
#include <QtTest/QtTest>

#include "core/arith/ArithExpr.h"
#include "core/support/Diagnostic.h"

using namespace lift;
using namespace lift::arith;

class TestArithParser : public QObject {
  Q_OBJECT
 private slots:
  void values_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("value");
    QTest::newRow("precedence") << "1 + 2*3" << qint64(7);
    QTest::newRow("left-assoc-minus") << "7 - 2 - 1" << qint64(4);
    QTest::newRow("left-assoc-div") << "8/2/2" << qint64(2);
    QTest::newRow("mul-mod-left-to-right") << "10 % 4 * 2" << qint64(4);
    QTest::newRow("truncating-div") << "-7/2" << qint64(-3);
    QTest::newRow("truncating-mod") << "-7%2" << qint64(-1);
    QTest::newRow("mod-negative-divisor") << "7%-2" << qint64(1);
    QTest::newRow("unary-in-factor") << "2*-3" << qint64(-6);
    QTest::newRow("double-negation") << "- -4" << qint64(4);
    QTest::newRow("unary-plus") << "+4" << qint64(4);
    QTest::newRow("parentheses") << "(1 + 2)*3" << qint64(9);
    QTest::newRow("functions") << "min(3, 4) + max(3, 4)*pow(2, 3)" << qint64(35);
    QTest::newRow("whitespace") << " \t( 1\n+ 2 ) " << qint64(3);
    QTest::newRow("floor-exact") << "floor(-7/2)" << qint64(-4);
    QTest::newRow("ceil-exact") << "ceil(-7/2)" << qint64(-3);
    QTest::newRow("floor-inner-truncating") << "floor((-7/2)/2)" << qint64(-2);
    QTest::newRow("floor-of-integer") << "floor(5) + ceil(-5)" << qint64(0);
    QTest::newRow("abs") << "abs(-7) + abs(2)" << qint64(9);
    QTest::newRow("ite-lowest-precedence") << "1 + 4 < 4 ? 10 : 20" << qint64(20);
    QTest::newRow("ite-right-assoc") << "1 > 2 ? 1 : 2 == 3 ? 2 : 3" << qint64(3);
    QTest::newRow("ite-comparisons") << "(1 <= 1 ? 1 : 0) + (1 != 1 ? 2 : 0) + (2 >= 3 ? 4 : 0)" << qint64(1);
    QTest::newRow("lookup") << "lookup({3, -1, 4}, 1) + lookup({ 7 }, 0)" << qint64(6);
    QTest::newRow("int64-min") << "-9223372036854775808" << qint64(INT64_MIN);
    QTest::newRow("int64-max") << "9223372036854775807" << qint64(INT64_MAX);
  }
  void values() {
    QFETCH(QString, text);
    QFETCH(qint64, value);
    for (bool raw : {false, true}) {
      Expr e = parse(text.toStdString(), {}, "<t>", raw);
      QCOMPARE(evaluate(e, {}), value);
    }
  }

  void errors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("col");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, const char* t, int line, int col, const char* m) {
      QTest::newRow(name) << QString(t) << line << col << QString(m);
    };
    row("empty", "", 1, 1, "expected an expression");
    row("comparison-without-branches", "a < b", 1, 6, "expected '?' after the comparison");
    row("ite-without-else", "a < b ? 1", 1, 10, "expected ':' after the first branch of '?'");
    row("question-without-comparison", "a ? 1 : 2", 1, 3, "expected a comparison before '?'");
    row("floor-two-arguments", "floor(a, b)", 1, 8, "'floor' takes 1 argument");
    row("floor-division-inside-sum", "floor(a + b/c)", 1, 1, "the argument of 'floor' divides inside a sum");
    row("floor-by-zero", "floor(a/0)", 1, 8, "division by zero");
    row("abs-arguments", "abs(a, b)", 1, 1, "'abs' takes 1 argument, got 2");
    row("lookup-without-table", "lookup(i)", 1, 8, "expected '{' to open lookup's table");
    row("lookup-symbolic-entry", "lookup({1, N}, i)", 1, 12, "expected an integer literal in lookup's table");
    row("lookup-without-index", "lookup({1, 2})", 1, 14, "expected ',' after lookup's table");
    row("blank", "   ", 1, 4, "expected an expression");
    row("missing-operand", "x +", 1, 4, "expected an expression");
    row("two-operators", "x + * y", 1, 5, "unexpected '*'");
    row("unclosed-paren", "2*(x + 1", 1, 3, "unclosed '('");
    row("extra-paren", "x + 1)", 1, 6, "unexpected ')'");
    row("empty-parens", "x*()", 1, 4, "expected an expression before ')'");
    row("bad-character", "x $ y", 1, 3, "unexpected '$'");
    row("digit-then-letter", "2x", 1, 2, "unexpected 'x'");
    row("juxtaposition", "x y", 1, 3, "unexpected 'y'");
    row("unknown-function", "foo(1)", 1, 1, "unknown function 'foo'");
    row("unknown-function-later", "2 + bar(x, y)", 1, 5, "unknown function 'bar'");
    row("too-few-arguments", "min(1)", 1, 1, "'min' takes 2 arguments, got 1");
    row("too-many-arguments", "x + max(1, 2, 3)", 1, 5, "'max' takes 2 arguments, got 3");
    row("no-arguments", "pow()", 1, 1, "'pow' takes 2 arguments, got 0");
    row("missing-argument", "min(1,)", 1, 7, "expected an expression before ')'");
    row("unclosed-call", "min(1, 2", 1, 4, "unclosed '('");
    row("division-by-zero", "x / 0", 1, 3, "division by zero");
    row("modulo-by-zero", "x % (0)", 1, 3, "modulo by zero");
    row("division-by-folded-zero", "x/(2 - 2)", 1, 2, "division by zero");
    row("division-by-simplified-zero", "x/(y%1)", 1, 2, "division by zero");
    row("literal-overflow", "99999999999999999999", 1, 1, "does not fit in 64 bits");
    row("literal-overflow-later", "1 + 9223372036854775808", 1, 5, "does not fit in 64 bits");
    row("second-line", "x\n+ $", 2, 3, "unexpected '$'");
    row("non-ascii", "x + \xc3\xa9", 1, 5, "unexpected character");
  }
  void errors() {
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, col);
    QFETCH(QString, message);
    // raw parsing folds constants only, so it does not see that y%1 is zero
    bool alsoRaw = !QString(QTest::currentDataTag()).contains("simplified");
    for (bool raw : {false, true}) {
      if (raw && !alsoRaw) continue;
      try {
        parse(text.toStdString(), {}, "<t>", raw);
        QFAIL("no error");
      } catch (const LiftError& e) {
        const Diagnostic& d = e.diagnostic();
        QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
        QCOMPARE(d.loc.line, line);
        QCOMPARE(d.loc.col, col);
        QCOMPARE(QString::fromStdString(d.loc.file), QString("<t>"));
        QVERIFY(QString::fromStdString(d.sourceLine).endsWith("^"));  // the text and a caret
      }
    }
  }

  void caretUnderColumn() {
    try {
      parse("a + foo(b)", {}, "<expr>");
      QFAIL("no error");
    } catch (const LiftError& e) {
      QCOMPARE(QString::fromStdString(e.diagnostic().format()),
               QString("<expr>:1:5: error: unknown function 'foo' (expected min, max, pow, abs, floor, ceil "
                       "or lookup)\n"
                       "  a + foo(b)\n"
                       "      ^"));
    }
  }

  // Deep or long inputs end with an error or a result, never a crash or a hang.
  void limits() {
    std::string deep = std::string(100000, '(') + "x" + std::string(100000, ')');
    QVERIFY_THROWS_EXCEPTION(LiftError, parse(deep));
    QVERIFY_THROWS_EXCEPTION(LiftError, parse(std::string(100000, '-') + "x"));
    QVERIFY_THROWS_EXCEPTION(LiftError, parse("min(" + std::string(5000, '(') + "1"));
    std::string nested = "x";
    for (int i = 0; i < 150; ++i) nested = "min(" + nested + ", y" + std::to_string(i) + ")";
    QVERIFY(parse(nested).size() > 150);
    std::string chain = "x";
    for (int i = 0; i < 100000; ++i) chain += " + x";
    QCOMPARE(toString(parse(chain)), std::string("100001*x"));
    QVERIFY_THROWS_EXCEPTION(LiftError, parse(chain, {}, "<t>", /*raw=*/true));  // 100000 levels
    std::string sum;
    for (int i = 0; i < 20000; ++i)
      sum += (i ? " + v" : "v") + std::to_string(i) + "*" + std::to_string(i % 7 + 1);
    QCOMPARE(parse(sum).operands().size(), size_t(20000));
  }

  void variables() {
    Expr N = sizeVar("N");
    Expr i = var("i", cst(0), N);
    Expr e = parse("i*N + j", {{"i", i}});
    QVERIFY(e.kind() == Kind::Sum);
    auto vs = arith::variables(e);
    QCOMPARE(vs.size(), size_t(3));
    QVERIFY(vs[0] == i);  // ranged variables first
    QVERIFY(vs[1] == N);  // unknown identifiers are size variables
    QVERIFY(vs[2] == sizeVar("j"));
    QVERIFY(parse("min") == sizeVar("min"));  // a function name without a call is a variable
  }

  void printing_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("raw");
    QTest::addColumn<QString>("printed");
    auto row = [](const char* t, bool raw, const char* p) {
      QTest::newRow(t) << QString(t) << raw << QString(p);
    };
    row("4*a + b", false, "4*a + b");
    row("b + 4*a", false, "4*a + b");
    row("a + -1*b", false, "a - b");
    row("a - 3*b - 1", false, "a - 3*b - 1");
    row("(a + b)/c", false, "(a + b)/c");
    row("(a + b)%c", false, "(a + b)%c");
    row("a*(b/c)", false, "a*(b/c)");
    row("a/(b*c)", false, "a/(b*c)");
    row("-(x/2)", false, "-(x/2)");
    row("(-x)/2", true, "-x/2");
    row("(-x)/2 + 1", false, "1 - x/2");
    row("min(a, b)*2", false, "2*min(a, b)");
    row("pow(a, 2)", false, "pow(a, 2)");
    row("-(a*b)", false, "-a*b");
    row("x - (a + b)", false, "x - (a + b)");
    row("a + (b + c)", true, "a + (b + c)");
    row("(a + b) + c", true, "a + b + c");
    row("x*(-3)", true, "x*(-3)");
    row("x/(-3)", true, "x/(-3)");
    row("a - (b - c)", true, "a - (b - c)");
    row("x*16/16", true, "x*16/16");
    row("x*(16/16)", true, "x*1");
    row("-(-x)", true, "-(-x)");
    row("a + -(2*b)", true, "a + -(2*b)");
    row("a - 2*b", true, "a - 2*b");
    row("0 + a", true, "0 + a");
    row("floor(i/4) + ceil((a + b)/c)", true, "floor(i/4) + ceil((a + b)/c)");
    row("floor((a/2)/3)", true, "floor(a/2/3)");
    row("floor(2*a/(b*c))", true, "floor(2*a/(b*c))");
    row("abs(a - b)*2", false, "2*abs(a - b)");
    row("a < b ? c : d", false, "a < b ? c : d");
    row("a >= b ? c : d", false, "b <= a ? c : d");
    row("1 + (a < b ? c : d)", true, "1 + (a < b ? c : d)");
    row("a < b ? (c < d ? 1 : 2) : (c < d ? 3 : 4)", true, "a < b ? (c < d ? 1 : 2) : c < d ? 3 : 4");
    row("min(a < b ? c : d, e)", true, "min(a < b ? c : d, e)");
    row("lookup({1, -2, 3}, a + 1)", true, "lookup({1, -2, 3}, a + 1)");
  }
  void printing() {
    QFETCH(QString, text);
    QFETCH(bool, raw);
    QFETCH(QString, printed);
    Expr e = parse(text.toStdString(), {}, "<t>", raw);
    QCOMPARE(QString::fromStdString(toString(e)), printed);
    QVERIFY(parse(toString(e), {}, "<t>", raw) == e);
  }

  // toOpenCL spells floor, ceil, abs and lookup in OpenCL C with int semantics; the other forms
  // as toString.
  void printingOpenCL_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("printed");
    auto row = [](const char* t, const char* p) { QTest::newRow(t) << QString(t) << QString(p); };
    row("4*a + b/2", "4*a + b/2");
    row("floor(a/4)", "(a/4 - (a%4 < 0))");
    row("ceil(a/4)", "(a/4 + (a%4 > 0))");
    row("floor(a/(-4))", "(a/(-4) - (a%(-4) > 0))");
    row("floor((a + 1)/b)", "((a + 1)/b - ((a + 1)%b < 0))");
    row("floor((a + 1)/(b - 2))", "((a + 1)/(b - 2) - ((a + 1)%(b - 2) != 0 && (a + 1 < 0) != (b - 2 < 0)))");
    row("ceil(a/(b - 2))", "(a/(b - 2) + (a%(b - 2) != 0 && (a < 0) == (b - 2 < 0)))");
    row("abs(a - b)", "max(a - b, -(a - b))");
    row("a < b ? c : d", "a < b ? c : d");
    row("lookup({3, 1, 4}, i)", "(i == 0 ? 3 : i == 1 ? 1 : 4)");
  }
  void printingOpenCL() {
    QFETCH(QString, text);
    QFETCH(QString, printed);
    Expr e = parse(text.toStdString(), {}, "<t>", true);
    QCOMPARE(QString::fromStdString(toOpenCL(e)), printed);
  }
};

QTEST_APPLESS_MAIN(TestArithParser)
#include "tst_arith_parser.moc"
