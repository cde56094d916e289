// The array generators (issue 16; Lift's ArrayFromValue, ArrayFromGenerator and
// ArrayFrom(2D|3D)UserFunGenerator): the interpreter's arrays computed from their indices, their
// types and located errors, the round trip through the printer, the graph's labels, and the
// kernel that reads a generated element where it is used (no buffer for it). The kernels of
// tests/data/codegen/generators.lift and the Mandelbrot examples run against the interpreter in
// tst_codegen_run; tst_examples checks the Mandelbrot image against a C++ reference.
#include <QtTest/QtTest>

#include <algorithm>

#include "TypeErrorCheck.h"
#include "codegen/Compiler.h"
#include "core/interp/Interpreter.h"
#include "core/interp/Sizes.h"
#include "core/ir/Build.h"
#include "core/ir/ProgramGraph.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

using namespace lift;
using namespace lift::interp;

namespace {

const std::string kPrelude =
    "size N, M;\n"
    "userfun flat(int i, int j, int m, int n) -> int { return i * n + j; }\n"
    "userfun half(int i, int n) -> float { return (float)i / 2.0f; }\n"
    "userfun cube(int i, int j, int k, int l, int m, int n) -> int { return i * 100 + j * 10 + k + l * 0; }\n"
    "userfun bad(float i, int n) -> int { return n; }\n";
constexpr int kPreludeLines = 5;

ir::Program parse(const std::string& fun) { return lang::parseProgram(kPrelude + fun, "t.lift"); }

QString run(const std::string& fun, arith::Env sizes = {}) {
  ir::Program p = parse(fun);
  return QString::fromStdString(interpret(p, {}, sizes).toString(64));
}

QString typeOf(const std::string& fun) {
  return QString::fromStdString(ir::typeCheck(parse(fun)).signature());
}

void expectError(const std::string& fun, const std::string& needle, std::vector<std::string> parts) {
  size_t pos = fun.find(needle);
  QVERIFY2(pos != std::string::npos, "needle not in the program");
  test::expectTypeErrorAt(parse(fun), fun, kPreludeLines + 1, static_cast<int>(pos) + 1, parts);
}

}  // namespace

class TestArrayGenerators : public QObject {
  Q_OBJECT
 private slots:
  void elementsComeFromTheirIndices() {
    QCOMPARE(run("fun f() = arrayFromValue(1.5f, 3)"), QString("[1.5, 1.5, 1.5]"));
    QCOMPARE(run("fun f() = arrayFromGenerator(5, i => i * 3 % 4)"), QString("[0, 3, 2, 1, 0]"));
    QCOMPARE(run("fun f() = arrayFromGenerator(N, i => N - i)", {{"N", 3}}), QString("[3, 2, 1]"));
    QCOMPARE(run("fun f() = arrayFromUserFun(half, 3)"), QString("[0, 0.5, 1]"));
    QCOMPARE(run("fun f() = array2DFromUserFun(flat, 2, 3)"), QString("[[0, 1, 2], [3, 4, 5]]"));
    QCOMPARE(run("fun f() = array3DFromUserFun(cube, 2, 2, 2)"),
             QString("[[[0, 1], [10, 11]], [[100, 101], [110, 111]]]"));
    // Used like any array: zipped, mapped, sized by the program's sizes.
    QCOMPARE(run("fun f() = map(fun(p => get(0, p))) $ zip(arrayFromUserFun(half, M), arrayFromValue(0, M))",
                 {{"M", 2}}),
             QString("[0, 0.5]"));
  }

  void types() {
    QCOMPARE(typeOf("fun f() = arrayFromValue(1.5f, N)"), QString("() -> [float]N"));
    QCOMPARE(typeOf("fun f(x: [float]N) = map(fun(v => arrayFromValue(v, 4))) $ x"),
             QString("([float]N) -> [[float]4]N"));
    QCOMPARE(typeOf("fun f() = arrayFromGenerator(N, i => i + 1)"), QString("() -> [int]N"));
    QCOMPARE(typeOf("fun f() = arrayFromUserFun(half, N)"), QString("() -> [float]N"));
    QCOMPARE(typeOf("fun f() = array2DFromUserFun(flat, M, N)"), QString("() -> [[int]N]M"));
    QCOMPARE(typeOf("fun f() = array3DFromUserFun(cube, 2, M, N)"), QString("() -> [[[int]N]M]2"));
  }

  void typeErrorsAreLocated() {
    expectError("fun f() = arrayFromUserFun(bad, N)", "bad", {"float"});
    expectError("fun f() = array2DFromUserFun(half, N, N)", "half", {"takes 2"});
    expectError("fun f() = arrayFromValue(1.0f, 0)", "arrayFromValue", {"the length must be positive"});
    expectError("fun f() = arrayFromUserFun(fun((i, n) => i), N)", "arrayFromUserFun",
                {"must be a user function of 2 int parameters"});
  }

  void printsBackAsWritten() {
    for (const char* body :
         {"arrayFromValue(1.5f, N)", "arrayFromGenerator(N, i => 3 * i % 4)", "arrayFromUserFun(half, N)",
          "array2DFromUserFun(flat, M, N)", "array3DFromUserFun(cube, 2, M, N)"}) {
      ir::Program p = parse(std::string("fun f() = ") + body);
      std::string printed = lang::printProgram(p);
      auto compact = [](std::string t) {
        t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
        return t;
      };
      QVERIFY2(compact(printed).find(compact(body)) != std::string::npos, printed.c_str());
      ir::Program q = lang::parseProgram(printed, "printed.lift");
      QVERIFY2(ir::alphaEqual(ir::Fun(p.main), ir::Fun(q.main)), printed.c_str());
    }
  }

  void graphLabels() {
    ir::Program p = parse("fun f() = zip(array2DFromUserFun(flat, M, N), arrayFromGenerator(M, i => i + 1))");
    std::string labels;
    for (auto& n : ir::buildProgramGraph(p).nodes) labels += n.label + "; ";
    QVERIFY2(labels.find("array2DFromUserFun M,N(flat)") != std::string::npos, labels.c_str());
    QVERIFY2(labels.find("arrayFromGenerator M: i => i + 1") != std::string::npos, labels.c_str());
  }

  // The generated element is computed where it is read: a call of the user function with the
  // indices and the lengths; the kernel has no buffer for the generated array.
  void kernelComputesTheElementWhereItIsRead() {
    ir::Program p = parse("fun f() = mapGlb1(mapGlb0(id)) $ array2DFromUserFun(flat, M, N)");
    codegen::CompiledKernel k = codegen::compileKernel(p);
    QVERIFY2(k.source.find("flat(") != std::string::npos, k.source.c_str());
    QCOMPARE(k.params.size(), size_t(3));  // the output and the sizes M and N
  }
};

QTEST_APPLESS_MAIN(TestArrayGenerators)
#include "tst_array_generators.moc"
