// mapSeqSlide (issue 16, Lift's MapSeqSlide): the interpreter gives it the meaning of
// map(f) o slide(size, step); its type, its located errors, its round trip through the printer
// and its graph label; the rule map-seq-slide's reasons; and the kernel it generates keeps the
// window in registers (window_0, ...) and reads each input element once per row. The kernels of
// tests/data/codegen/map_seq_slide.lift run against the interpreter in tst_codegen_run.
#include <QtTest/QtTest>

#include <fmt/format.h>

#include "TypeErrorCheck.h"
#include "codegen/Compiler.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/ir/Build.h"
#include "core/ir/ProgramGraph.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "rewrite/Engine.h"

using namespace lift;
using namespace lift::interp;

namespace {

const std::string kPrelude =
    "size N, M;\n"
    "userfun add(float a, float b) -> float { return a + b; }\n";
constexpr int kPreludeLines = 2;

ir::Program parse(const std::string& fun) { return lang::parseProgram(kPrelude + fun, "t.lift"); }

QString run(const std::string& fun, const std::vector<Value>& inputs) {
  ir::Program p = parse(fun);
  return QString::fromStdString(interpret(p, inputs, inferSizes(p, inputs)).toString(64));
}

Value floats(int n) {
  std::vector<Scalar> data;
  for (int i = 0; i < n; ++i) data.push_back(Scalar{.f = float(i * i % 7)});
  return Value::flatArray(ScalarKind::Float, 1, {n}, std::move(data));
}

QString typeOf(const std::string& fun) {
  return QString::fromStdString(ir::typeCheck(parse(fun)).signature());
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

class TestMapSeqSlide : public QObject {
  Q_OBJECT
 private slots:
  void meansMapOverSlide() {
    const char* sum = "fun(w => reduceSeq(add, 0.0f) $ w)";
    for (auto [size, step] : {std::pair{3, 1}, {4, 2}, {2, 3}, {5, 5}, {1, 1}})
      for (int n : {5, 8, 13}) {
        if (n < size) continue;
        std::string a = fmt::format("fun f(x: [float]N) = mapSeqSlide({}, {}, {}) $ x", size, step, sum);
        std::string b = fmt::format("fun f(x: [float]N) = mapSeq({}) o slide({}, {}) $ x", sum, size, step);
        QCOMPARE(run(a, {floats(n)}), run(b, {floats(n)}));
      }
    QCOMPARE(run("fun f(x: [float]N) = mapSeqSlide(2, 1, fun(w => w)) $ x", {floats(3)}),
             QString("[[0, 1], [1, 4]]"));
  }

  void types() {
    QCOMPARE(typeOf("fun f(x: [float]N) = mapSeqSlide(3, 1, fun(w => reduceSeq(add, 0.0f) $ w)) $ x"),
             QString("([float]N) -> [[float]1](N - 2)"));
    QCOMPARE(typeOf("fun f(x: [[float]M]N) = mapSeqSlide(3, 2, fun(w => w)) $ x"),
             QString("([[float]M]N) -> [[[float]M]3]((N - 1)/2)"));
  }

  void typeErrorsAreLocated() {
    std::string fun = "fun f(x: [float]2) = mapSeqSlide(3, 1, fun(w => w)) $ x";
    test::expectTypeErrorAt(parse(fun), fun, kPreludeLines + 1, int(fun.find("mapSeqSlide")) + 1,
                            {"the window is longer than the array"});
    fun = "fun f(x: float) = mapSeqSlide(3, 1, fun(w => w)) $ x";
    test::expectTypeErrorAt(parse(fun), fun, kPreludeLines + 1, int(fun.find("mapSeqSlide")) + 1,
                            {"expects an array"});
    fun = "fun f(x: [float]N) = mapSeqSlide(3, 0, fun(w => w)) $ x";
    test::expectTypeErrorAt(parse(fun), fun, kPreludeLines + 1, int(fun.find("mapSeqSlide")) + 1,
                            {"the step must be positive"});
  }

  void printsBackAsWritten() {
    ir::Program p = parse("fun f(x: [float]N) = mapSeqSlide(3, 1, fun(w => reduceSeq(add, 0.0f) $ w)) $ x");
    std::string printed = lang::printProgram(p);
    QVERIFY2(printed.find("mapSeqSlide(3, 1, ") != std::string::npos, printed.c_str());
    ir::Program q = lang::parseProgram(printed, "printed.lift");
    QVERIFY(ir::alphaEqual(ir::Fun(p.main), ir::Fun(q.main)));
  }

  void graphLabel() {
    QCOMPARE(QString::fromStdString(
                 ir::patternLabel(*ir::asPattern(ir::mapSeqSlide(arith::cst(3), arith::cst(1), ir::id())))),
             QString("mapSeqSlide 3,1"));
  }

  void ruleSaysWhyNot() {
    using namespace rewrite;
    ir::Program p = parse("fun f(x: [float]N) = map(fun(w => reduceSeq(add, 0.0f) $ w)) o slide(M, 1) $ x");
    for (auto& r : rulesAt(TypedProgram::check(p), Location::body()))
      if (r.rule->name == "map-seq-slide") {
        QVERIFY(!r.applies);
        QVERIFY2(r.reason.find("must be constants") != std::string::npos, r.reason.c_str());
        return;
      }
    QFAIL("map-seq-slide not offered at the map");
  }

  // Each element of a row is read once: the window's first two elements before the loop, one
  // per iteration; the window is scalarized into registers.
  void kernelKeepsTheWindowInRegisters() {
    ir::Program p = parse(
        "fun f(x: [[float]16]N) = mapGlb0(fun(row => join o mapSeqSlide(3, 1, fun(w => toGlobal(mapSeq(id)) "
        "o "
        "reduceSeq(add, 0.0f) $ w)) $ row)) $ x");
    std::string k = codegen::compileKernel(p).source;
    QVERIFY2(QString::fromStdString(k).contains(QRegularExpression("window[0-9]*_2 = x\\[")), k.c_str());
    QVERIFY2(count(k, "x[") == 3, k.c_str());
    QVERIFY2(count(k, "for (") <= 2, k.c_str());  // at most the rows (mapGlb0) and the windows
  }
};

QTEST_APPLESS_MAIN(TestMapSeqSlide)
#include "tst_map_seq_slide.moc"
