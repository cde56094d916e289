// User-function bodies: parsing and checking, evaluation with C/OpenCL semantics, errors located
// in the .lift file, and printing as OpenCL C.
#include <QtTest/QtTest>

#include <cmath>
#include <limits>

#include "core/cfun/CFun.h"
#include "core/cfun/CFunAst.h"
#include "core/cfun/CFunEval.h"
#include "core/cfun/CFunPrinter.h"

using namespace lift;
using namespace lift::cfun;

namespace {

using Params = std::vector<std::pair<std::string, Type>>;

std::shared_ptr<const Body> parse(const std::string& text, const Params& params, Type ret, int line = 1,
                                  int col = 1) {
  return parseBody(text, params, ret, "test.lift", line, col);
}

Scalar f32(float v) {
  Scalar s{};
  s.f = v;
  return s;
}
Scalar f64(double v) {
  Scalar s{};
  s.d = v;
  return s;
}
Scalar i32(int32_t v) {
  Scalar s{};
  s.i = v;
  return s;
}

std::vector<Scalar> run(const Body& b, std::vector<Scalar> args, EvalLimits limits = {}) {
  std::vector<Scalar> out(slotCount(b.returnType));
  evaluate(b, args, out, limits);
  return out;
}

float runF(const std::string& text, const Params& params, std::vector<Scalar> args) {
  auto b = parse(text, params, Type::float_());
  return run(*b, std::move(args))[0].f;
}

int32_t runI(const std::string& text, const Params& params, std::vector<Scalar> args) {
  auto b = parse(text, params, Type::int_());
  return run(*b, std::move(args))[0].i;
}

// The diagnostic of a body that must not parse.
Diagnostic parseError(const std::string& text, const Params& params, Type ret, int line = 1, int col = 1) {
  try {
    parse(text, params, ret, line, col);
  } catch (const LiftError& e) {
    return e.diagnostic();
  }
  return Diagnostic{Diagnostic::Severity::Error, {}, "<no error>", ""};
}

const Type F = Type::float_();
const Type I = Type::int_();
const Type F4 = Type::vector(ScalarKind::Float, 4);

}  // namespace

class TestCFun : public QObject {
  Q_OBJECT
 private slots:
  // ----- evaluation -----

  void addsFloats() {
    QCOMPARE(runF("return acc + x;", {{"acc", F}, {"x", F}}, {f32(1.5f), f32(2.25f)}), 3.75f);
  }

  void computesInSinglePrecision() {
    // In double, 1 + 1e-8 is not 1; in float it is.
    QCOMPARE(runF("return x + 1e-8f;", {{"x", F}}, {f32(1.0f)}), 1.0f);
    // A double literal makes C compute in double, then convert back to float on return.
    QCOMPARE(runF("return (x + 1e-8) - x;", {{"x", F}}, {f32(1.0f)}), static_cast<float>((1.0 + 1e-8) - 1.0));
    QCOMPARE(runF("float t = 16777216.0f; return t + x - t;", {{"x", F}}, {f32(1.0f)}), 0.0f);
  }

  void intArithmeticHasCSemantics() {
    QCOMPARE(runI("return a / b;", {{"a", I}, {"b", I}}, {i32(-7), i32(2)}), -3);
    QCOMPARE(runI("return a % b;", {{"a", I}, {"b", I}}, {i32(-7), i32(2)}), -1);
    QCOMPARE(runI("return a * 65536 * 65536 + 3;", {{"a", I}}, {i32(1)}), 3);  // wraps
    QCOMPARE(runI("return (a << 33) | (a >> 1);", {{"a", I}}, {i32(6)}),
             12 | 3);  // shift counts masked to 5 bits
    QCOMPARE(runI("return ~a ^ 5 & 3;", {{"a", I}}, {i32(0)}), ~0 ^ (5 & 3));
    QCOMPARE(runI("return 0x1F + 7 / 2 * 2;", {}, {}), 31 + 6);
  }

  void conversions() {
    QCOMPARE(runI("return (int)x;", {{"x", F}}, {f32(-2.75f)}), -2);
    QCOMPARE(runF("int i = 7; return (float)i / 2;", {}, {}), 3.5f);
    QCOMPARE(runF("int i = 7; return i / 2;", {}, {}), 3.0f);  // int division, then conversion
    QCOMPARE(runI("float x = 3.9f; int i = x; return i;", {}, {}), 3);
    QCOMPARE(runI("bool b = 2; return b + true;", {}, {}), 2);
  }

  void controlFlow() {
    const char* body = R"(
      float s = 0.0f;
      for (int i = 0; i < n; i++) {
        if (i % 2 == 0) continue;
        if (i > 7) break;
        s += (float)i;
      }
      int j = 0;
      while (j < 3) j += 1;
      return j > 2 && !(s < 0.0f) ? s : -1.0f;)";
    QCOMPARE(runF(body, {{"n", I}}, {i32(100)}), 1.0f + 3 + 5 + 7);
    QCOMPARE(
        runF("if (x > 0.0f) return x; else if (x < -1.0f) return -x; return 0.0f;", {{"x", F}}, {f32(-3)}),
        3.0f);
    QCOMPARE(runF("if (x > 0.0f) { return x; } else { return 2.0f * x; }", {{"x", F}}, {f32(-3)}), -6.0f);
    QCOMPARE(runI("int a = 1, b = 2; a *= 5; b -= a; b <<= 2; return b;", {}, {}), -12);
    QCOMPARE(runI("int k = 0; for (int i = 0, j = 10; i < j; ++i) k++; return k;", {}, {}), 10);
  }

  void shortCircuits() {
    // The right operand would divide by zero.
    QCOMPARE(runI("return b != 0 && a / b > 1;", {{"a", I}, {"b", I}}, {i32(5), i32(0)}), 0);
    QCOMPARE(runI("return b == 0 || a / b > 1;", {{"a", I}, {"b", I}}, {i32(5), i32(0)}), 1);
  }

  void builtins() {
    QCOMPARE(runF("return sqrt(x);", {{"x", F}}, {f32(2)}), std::sqrt(2.0f));
    QCOMPARE(runF("return fmin(x, 1.0f) + fmax(x, 3.0f);", {{"x", F}}, {f32(2)}), 4.0f);
    QCOMPARE(runF("return clamp(x, -1.0f, 1.0f);", {{"x", F}}, {f32(5)}), 1.0f);
    QCOMPARE(runF("return mad(x, 2.0f, 1.0f) + fma(x, x, 0.5f);", {{"x", F}}, {f32(3)}), 7.0f + 9.5f);
    QCOMPARE(runF("return pow(x, 2.0f) + exp(0.0f) + log(1.0f) + fabs(-x);", {{"x", F}}, {f32(3)}),
             9.0f + 1 + 0 + 3);
    QCOMPARE(runF("return floor(x) + ceil(x) + round(-x);", {{"x", F}}, {f32(2.5f)}), 2.0f + 3.0f - 3.0f);
    QCOMPARE(runF("return erf(x);", {{"x", F}}, {f32(0.5f)}), std::erf(0.5f));
    QCOMPARE(runI("return min(a, 3) + max(a, 3) + abs(-a) + clamp(a, 0, 1);", {{"a", I}}, {i32(-4)}),
             -4 + 3 + 4 + 0);
    QCOMPARE(runF("return rsqrt(x) * native_sqrt(x);", {{"x", F}}, {f32(4)}), 1.0f);
    QCOMPARE(runF("return pown(x, 3) + sin(0.0f) + cos(0.0f);", {{"x", F}}, {f32(2)}), 9.0f);
  }

  void vectors() {
    Params p{{"a", F4}, {"b", F4}};
    auto vec = [](float x, float y, float z, float w) {
      return std::vector<Scalar>{f32(x), f32(y), f32(z), f32(w)};
    };
    std::vector<Scalar> args = vec(1, 2, 3, 4);
    auto bv = vec(10, 20, 30, 40);
    args.insert(args.end(), bv.begin(), bv.end());
    auto b = parse("return a * b + 1.0f;", p, F4);
    auto r = run(*b, args);
    QCOMPARE(r[0].f, 11.0f);
    QCOMPARE(r[3].f, 161.0f);
    QCOMPARE(run(*parse("return a.x + a.w * b.s1 + a.yz.y;", p, F), args)[0].f, 1.0f + 4 * 20 + 3);
    QCOMPARE(run(*parse("return dot(a, b) + length((float2)(3.0f, 4.0f));", p, F), args)[0].f, 300.0f + 5.0f);
    auto sw = run(*parse("float4 v = a; v.xy = v.yx; v.w = 9.0f; return v;", p, F4), args);
    QCOMPARE(sw[0].f, 2.0f);
    QCOMPARE(sw[1].f, 1.0f);
    QCOMPARE(sw[3].f, 9.0f);
    auto cons = run(*parse("return (float4)(a.xy, b.z, 0.5f);", p, F4), args);
    QCOMPARE(cons[2].f, 30.0f);
    QCOMPARE(cons[3].f, 0.5f);
    auto splat = run(*parse("float4 v = 2.0f; return v + (float4)(1.0f) + (float4)3.0f;", {}, F4), {});
    QCOMPARE(splat[1].f, 6.0f);
    auto hi = run(*parse("return a.hi + a.lo + a.odd;", p, Type::vector(ScalarKind::Float, 2)), args);
    QCOMPARE(hi[0].f, 3.0f + 1.0f + 2.0f);
    auto cmp = run(*parse("return a < (float4)(2.0f);", p, Type::vector(ScalarKind::Int, 4)), args);
    QCOMPARE(cmp[0].i, -1);  // OpenCL: true is -1 in vector comparisons
    QCOMPARE(cmp[1].i, 0);
    auto conv = run(*parse("return convert_int4(a * 1.5f);", p, Type::vector(ScalarKind::Int, 4)), args);
    QCOMPARE(conv[3].i, 6);
  }

  void tuples() {
    Type pair = Type::tuple({F, I});
    Params p{{"t", pair}};
    std::vector<Scalar> args{f32(2.5f), i32(3)};
    QCOMPARE(run(*parse("return t._0 * t._1;", p, F), args)[0].f, 7.5f);
    auto r = run(*parse("return (Tuple2_float_int){t._0 + 1.0f, t._1 * 2};", p, pair), args);
    QCOMPARE(r[0].f, 3.5f);
    QCOMPARE(r[1].i, 6);
    // `Tuple` names the signature's tuple type, as in Lift's user functions.
    auto r2 = run(*parse("Tuple u = {t._0, 7}; u._0 -= 1.0f; return u;", p, pair), args);
    QCOMPARE(r2[0].f, 1.5f);
    QCOMPARE(r2[1].i, 7);
    Type nested = Type::tuple({F, Type::tuple({I, F})});
    auto r3 =
        run(*parse("return t._1._1 + (float)t._1._0 + t._0;", {{"t", nested}}, F), {f32(1), i32(2), f32(4)});
    QCOMPARE(r3[0].f, 7.0f);
  }

  void multiplyAndSum() {
    // The seeds' multAndSumUp, and a loop-heavy body.
    QCOMPARE(runF("return acc + l * r;", {{"acc", F}, {"l", F}, {"r", F}}, {f32(1), f32(2), f32(3)}), 7.0f);
    const char* poly = R"(
      float r = 0.0f;
      float p = 1.0f;
      for (int k = 0; k < 4; k++) { r += p; p *= x; }
      return r;)";
    QCOMPARE(runF(poly, {{"x", F}}, {f32(2)}), 15.0f);
  }

  void doublesStayDouble() {
    auto b = parse("return x * 0.1;", {{"x", Type::double_()}}, Type::double_());
    QCOMPARE(run(*b, {f64(3.0)})[0].d, 3.0 * 0.1);
  }

  // ----- runtime errors -----

  void integerDivisionByZeroIsLocated() {
    auto b = parse("int q = a + 1;\n  return q / b;", {{"a", I}, {"b", I}}, I, 7, 40);
    try {
      run(*b, {i32(1), i32(0)});
      QFAIL("no error");
    } catch (const LiftError& e) {
      QCOMPARE(QString::fromStdString(e.diagnostic().message), QString("integer division by zero"));
      QCOMPARE(e.diagnostic().loc.line, 8);
      QCOMPARE(e.diagnostic().loc.col, 12);
      QCOMPARE(QString::fromStdString(e.diagnostic().loc.file), QString("test.lift"));
    }
    QVERIFY_THROWS_EXCEPTION(LiftError, runI("return a % 0;", {{"a", I}}, {i32(1)}));
    QVERIFY_THROWS_EXCEPTION(LiftError,
                             runI("return a / -1;", {{"a", I}}, {i32(std::numeric_limits<int32_t>::min())}));
  }

  void endlessLoopsStop() {
    auto b = parse("int i = 0; while (i >= 0) { i = i * 1; } return i;", {}, I);
    EvalLimits limits;
    limits.maxSteps = 10000;
    try {
      run(*b, {}, limits);
      QFAIL("no error");
    } catch (const LiftError& e) {
      QVERIFY(e.diagnostic().message.find("did not finish within 10000 steps") != std::string::npos);
    }
  }

  // ----- parse errors -----

  void syntaxErrorsAreLocated() {
    // The body starts at line 3, column 30 of the file; the error is on its second line.
    auto d = parseError("float t = x * x;\n    return t x;", {{"x", F}}, F, 3, 30);
    QCOMPARE(d.loc.line, 4);
    QCOMPARE(d.loc.col, 14);
    QVERIFY(d.message.find("expected ';'") != std::string::npos);
    QVERIFY(d.sourceLine.find("return t x;") != std::string::npos);
    // On the first line the column is offset by where the body starts.
    auto d1 = parseError("return x +;", {{"x", F}}, F, 2, 20);
    QCOMPARE(d1.loc.line, 2);
    QCOMPARE(d1.loc.col, 30);
    QVERIFY(d1.message.find("expected an expression") != std::string::npos);
  }

  // A tuple type name with an absurd component count is an unknown type, not a crash.
  void hugeTupleNamesAreErrors() {
    auto d = parseError("Tuple99999999999999999999_float_int t; return x;", {{"x", F}}, F);
    QVERIFY2(d.message != "<no error>", d.message.c_str());
    auto d2 = parseError("return (Tuple4000_float_int){x, 1}._0;", {{"x", F}}, F);
    QVERIFY2(d2.message != "<no error>", d2.message.c_str());
    // A field index past any integer is "no field", not an escaped std::stoul error.
    auto d3 = parseError("return t._99999999999999999999999;", {{"t", Type::tuple({F, I})}}, F);
    QVERIFY2(d3.message.find("has no field '_99999999999999999999999'") != std::string::npos,
             d3.message.c_str());
  }

  void unknownNamesSuggest() {
    auto d = parseError("return acc + xx;", {{"acc", F}, {"x", F}}, F);
    QCOMPARE(QString::fromStdString(d.message), QString("unknown name 'xx' (did you mean 'x'?)"));
    QCOMPARE(d.loc.col, 14);
    auto f = parseError("return sqr(x);", {{"x", F}}, F);
    QVERIFY(f.message.find("unknown function 'sqr' (did you mean 'sqrt'?)") != std::string::npos);
  }

  void typeErrors() {
    QVERIFY(parseError("return (float4)(x);", {{"x", F}}, F).message.find("cannot convert float4 to float") !=
            std::string::npos);
    QVERIFY(parseError("return x % 2.0f;", {{"x", F}}, F).message.find("use fmod") != std::string::npos);
    QVERIFY(parseError("return a + b;", {{"a", F4}, {"b", Type::vector(ScalarKind::Float, 2)}}, F4)
                .message.find("invalid operands to '+'") != std::string::npos);
    QVERIFY(parseError("return a.q;", {{"a", F4}}, F).message.find("no component 'q'") != std::string::npos);
    QVERIFY(parseError("return t._2;", {{"t", Type::tuple({F, F})}}, F).message.find("no field '_2'") !=
            std::string::npos);
    QVERIFY(parseError("const float c = 1.0f; c = x; return c;", {{"x", F}}, F)
                .message.find("cannot assign to const variable 'c'") != std::string::npos);
    QVERIFY(parseError("if (x > 0.0f) return x;", {{"x", F}}, F).message.find("without returning") !=
            std::string::npos);
    QVERIFY(parseError("float x = 1.0f; return x;", {{"x", F}}, F)
                .message.find("already declared as a parameter") != std::string::npos);
    QVERIFY(parseError("return (float4)(x, x);", {{"x", F}}, F4).message.find("needs 4 components") !=
            std::string::npos);
    QVERIFY(parseError("uint u = 1; return x;", {{"x", F}}, F).message.find("not supported") !=
            std::string::npos);
    QVERIFY(parseError("return 3000000000;", {}, I).message.find("does not fit") != std::string::npos);
    QVERIFY(parseError("break; return 1;", {}, I).message.find("outside of a loop") != std::string::npos);
    QVERIFY(parseError("float y = y + 1.0f; return y;", {}, F).message.find("its own initialiser") !=
            std::string::npos);
    QVERIFY(parseError("return fmin(x);", {{"x", F}}, F).message.find("takes 2 arguments") !=
            std::string::npos);
    QVERIFY(parseError("return 1.0f; /* open", {}, F).message.find("unterminated comment") !=
            std::string::npos);
  }

  void builtinsAcceptWhatOpenCLAccepts() {
    // sqrt(2) is ambiguous in OpenCL C; abs is for integers only.
    QVERIFY(parseError("return sqrt(2);", {}, F).message.find("needs a floating-point argument") !=
            std::string::npos);
    QVERIFY(parseError("return pown(2, 3);", {}, F).message.find("needs a floating-point argument") !=
            std::string::npos);
    QVERIFY(parseError("return abs(x);", {{"x", F}}, F).message.find("use fabs") != std::string::npos);
    // Mixed arguments pick the floating-point version, as OpenCL's overload resolution does.
    QCOMPARE(runF("return pow(x, 2) + fmax(x, 1);", {{"x", F}}, {f32(3)}), 12.0f);
    QCOMPARE(runF("return sqrt((float)4);", {}, {}), 2.0f);
  }

  void deepNestingIsAnErrorNotACrash() {
    std::string deep = "return " + std::string(100000, '(') + "x" + std::string(100000, ')') + ";";
    QVERIFY(parseError(deep, {{"x", F}}, F).message.find("nested too deeply") != std::string::npos);
    std::string negations = "return ";
    for (int i = 0; i < 50000; ++i) negations += "- ";  // "--" would be a decrement
    negations += "x;";
    QVERIFY(parseError(negations, {{"x", F}}, F).message.find("nested too deeply") != std::string::npos);
    std::string blocks = std::string(50000, '{') + "return x;" + std::string(50000, '}');
    QVERIFY(parseError(blocks, {{"x", F}}, F).message.find("nested too deeply") != std::string::npos);
    // Operator chains nest without parentheses: a 50,000-term sum crashed the code generator
    // and a 100,000-fold conditional the parser.
    std::string sum = "return x";
    for (int i = 0; i < 50000; ++i) sum += " + x";
    QVERIFY(parseError(sum + ";", {{"x", F}}, F).message.find("expression is too long") != std::string::npos);
    std::string conditional = "return ";
    for (int i = 0; i < 100000; ++i) conditional += "x > 1.0f ? x : ";
    QVERIFY(parseError(conditional + "x;", {{"x", F}}, F).message.find("expression is too long") !=
            std::string::npos);
    std::string longSum = "return x";
    for (int i = 0; i < 2000; ++i) longSum += " + x";
    QCOMPARE(runF(longSum + ";", {{"x", F}}, {f32(1)}), 2001.0f);
    // Moderate nesting is fine.
    QCOMPARE(runF("return " + std::string(50, '(') + "x" + std::string(50, ')') + ";", {{"x", F}}, {f32(2)}),
             2.0f);
  }

  void signatureErrors() {
    Type arr = Type::array(F, arith::cst(4));
    QVERIFY(parseError("return 0.0f;", {{"a", arr}}, F).message.find("array type") != std::string::npos);
  }

  // ----- printing -----

  void printsOneLineFunctions() {
    auto b = parse("return acc + x;", {{"acc", F}, {"x", F}}, F);
    QCOMPARE(QString::fromStdString(printFunction("add", *b)),
             QString("float add(float acc, float x) { return acc + x; }"));
    auto m = parse(" return   acc+l*r ; ", {{"acc", F}, {"l", F}, {"r", F}}, F);
    QCOMPARE(QString::fromStdString(printFunction("multAndSumUp", *m)),
             QString("float multAndSumUp(float acc, float l, float r) { return acc + l * r; }"));
  }

  // With fusedMultiplyAdd, a floating-point a + b * c (either order) becomes fma(b, c, a); other
  // sums, integer ones and sums of a converted product stay as written.
  void printsFusedMultiplyAdd() {
    PrintOptions fma;
    fma.fusedMultiplyAdd = true;
    auto m = parse("return acc + l * r;", {{"acc", F}, {"l", F}, {"r", F}}, F);
    QCOMPARE(QString::fromStdString(printFunction("madd", *m, fma)),
             QString("float madd(float acc, float l, float r) { return fma(l, r, acc); }"));
    auto swapped =
        parse("float t = (x - 1.0f) * y + z; return t * t + (t + 1.0f);", {{"x", F}, {"y", F}, {"z", F}}, F);
    QCOMPARE(QString::fromStdString(printStatements(*swapped, 0, fma)),
             QString("float t = fma(x - 1.0f, y, z);\nreturn fma(t, t, t + 1.0f);"));
    auto ints = parse("return a + b * c;", {{"a", I}, {"b", I}, {"c", I}}, I);
    QCOMPARE(QString::fromStdString(printStatements(*ints, 0, fma)), QString("return a + b * c;"));
    auto converted = parse("return a + b * c;", {{"a", F}, {"b", I}, {"c", I}}, F);
    QCOMPARE(QString::fromStdString(printStatements(*converted, 0, fma)), QString("return a + b * c;"));
    auto sub = parse("return a - b * c;", {{"a", F}, {"b", F}, {"c", F}}, F);
    QCOMPARE(QString::fromStdString(printStatements(*sub, 0, fma)), QString("return a - b * c;"));
    auto vec = parse("return a + b * c;", {{"a", F4}, {"b", F4}, {"c", F4}}, F4);
    QCOMPARE(QString::fromStdString(printStatements(*vec, 0, fma)), QString("return fma(b, c, a);"));
  }

  void printsMinimalParentheses() {
    Params p{{"a", F}, {"b", F}, {"c", F}};
    auto expr = [&](const std::string& e) {
      auto b = parse("return " + e + ";", p, F);
      return QString::fromStdString(printExpr(*b, *b->block->body[0]->exprs[0]));
    };
    QCOMPARE(expr("(a + b) * c"), QString("(a + b) * c"));
    QCOMPARE(expr("a + (b * c)"), QString("a + b * c"));
    QCOMPARE(expr("a - (b - c)"), QString("a - (b - c)"));
    QCOMPARE(expr("(a - b) - c"), QString("a - b - c"));
    QCOMPARE(expr("-(-a)"), QString("-(-a)"));
    QCOMPARE(expr("a > b ? (a < c ? a : c) : b"), QString("a > b ? a < c ? a : c : b"));
    QCOMPARE(expr("(float)(int)a"), QString("(float)(int)a"));
    QCOMPARE(expr("fmax(a, b * 2)"), QString("fmax(a, b * 2)"));
  }

  void printsStatementsAndRoundTrips() {
    const char* text = R"(
      float s = 0.0f; int n = 3, m;
      for (int i = 0; i < n; i++) { if (i == 1) continue; else s += x; }
      while (s > 100.0f) s /= 2.0f;
      float4 v = (float4)(s, 1.0f, 2.0f, 3.0f);
      v.xy = v.yx;
      Tuple2_float_int t = {v.x, n};
      return t._0 + (float)t._1 + (float)m;)";
    Params p{{"x", F}};
    auto b = parse(text, p, F);
    std::string printed = printFunction("f", *b);
    QCOMPARE(QString::fromStdString(printed), QString(R"(float f(float x) {
  float s = 0.0f;
  int n = 3, m;
  for (int i = 0; i < n; i++) {
    if (i == 1)
      continue;
    else
      s += x;
  }
  while (s > 100.0f)
    s /= 2.0f;
  float4 v = (float4)(s, 1.0f, 2.0f, 3.0f);
  v.xy = v.yx;
  Tuple2_float_int t = (Tuple2_float_int){v.x, n};
  return t._0 + (float)t._1 + (float)m;
})"));
    // Printing is a fixed point, and the printed body computes the same.
    auto again = parse(printStatements(*b, 0), p, F);
    QCOMPARE(QString::fromStdString(printFunction("f", *again)), QString::fromStdString(printed));
    QCOMPARE(run(*again, {f32(2)})[0].f, run(*b, {f32(2)})[0].f);
  }

  void printsElseIfChains() {
    auto b = parse("if (x > 1.0f) { return 1.0f; } else if (x > 0.0f) { return 0.5f; } else { return 0.0f; }",
                   {{"x", F}}, F);
    QCOMPARE(QString::fromStdString(printStatements(*b, 0)), QString(R"(if (x > 1.0f) {
  return 1.0f;
} else if (x > 0.0f) {
  return 0.5f;
} else {
  return 0.0f;
})"));
  }

  void printsTupleStructs() {
    Type t = Type::tuple({F, Type::tuple({I, F4})});
    QCOMPARE(QString::fromStdString(tupleStructName(t)), QString("Tuple2_float_Tuple2_int_float4"));
    QCOMPARE(QString::fromStdString(tupleStructDefinition(Type::tuple({F, I}))),
             QString("typedef struct { float _0; int _1; } Tuple2_float_int;"));
    auto b = parse("return t._0;", {{"t", t}}, F);
    auto used = tupleTypesUsed(*b);
    QCOMPARE(used.size(), size_t(2));
    QCOMPARE(used[0], Type::tuple({I, F4}));  // components first
    QCOMPARE(used[1], t);
  }
};

QTEST_APPLESS_MAIN(TestCFun)
#include "tst_cfun.moc"
