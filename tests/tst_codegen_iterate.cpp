// iterate's code generation over every shape of buffer: private arrays of one element (a
// reduction's accumulator, a one-element copy: declared as arrays of one element because
// iterate's `src`/`dst` point into them) and of several, local and global buffers, iterate inside
// mapGlb, mapWrg/mapLcl and mapSeq, lengths that halve (down to one element), iterate of a
// reduceSeq, nested iterates, counts 1, 2 and 3 and a symbolic count. Each kernel runs on the
// OpenCL CPU device (PoCL) against the interpreter on random inputs at several sizes, with
// default options, every optimisation off, and at fixed sizes. A kernel the OpenCL compiler
// rejects (the scalar accumulator iterate used to point to) is a BuildFailed with the line.
#include <QtTest/QtTest>

#include "InterpreterCheck.h"
#include "codegen/Launch.h"
#include "codegen/ProgramCompiler.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/lang/Parser.h"
#include "core/support/Diagnostic.h"
#include "rewrite/explore/SearchProblem.h"

using namespace lift;

namespace {

const std::string kPrelude =
    "userfun add(float a, float x) -> float { return a + x; }\n"
    "userfun sq(float x) -> float { return x * x; }\n"
    "userfun step(float x) -> float { return 0.5f * x + 1.0f; }\n"
    "userfun fib(float a, float b) -> (float, float) { return (Tuple2_float_float){b, 0.5f * (a + b)}; }\n";

// The programs; {K} is the iterate count (1, 2 and 3 each).
struct Case {
  const char* name;
  const char* text;
};
const Case kCases[] = {
    // The report's program: iterate over the reduction's one-element private accumulator.
    {"private1_reduce",
     "size N, D;\n"
     "fun f(A: [[float]D]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) $ "
     "(iterate({K}, fun(x => mapSeq(sq) $ x)) $ reduceSeq(add, 0.0f) $ a))) $ A"},
    // A one-element private copy; the same read from global memory (the first iteration peeled).
    {"private1_copy",
     "size N;\n"
     "fun f(A: [[float]1]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, mapSeq(step)) o toPrivate(mapSeq(id)) $ a)) $ A"},
    {"private1_from_global",
     "size N;\n"
     "fun f(A: [[float]1]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, toPrivate(mapSeq(step))) $ a)) $ A"},
    // The iterate's result written straight into the output (its last iteration peeled).
    {"private1_last_to_output",
     "size N, D;\n"
     "fun f(A: [[float]D]N) = join o mapGlb0(fun(a => "
     "iterate({K}, toGlobal(mapSeq(step))) o reduceSeq(add, 0.0f) $ a)) $ A"},
    // Private arrays of four elements.
    {"private4",
     "size N;\n"
     "fun f(A: [[float]4]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, mapSeq(step)) o toPrivate(mapSeq(id)) $ a)) $ A"},
    // Lengths that halve: 8, 4, 2, 1 (the last a one-element private array).
    {"private_halving",
     "size N;\n"
     "fun f(A: [[float]8]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, join o mapSeq(reduceSeq(add, 0.0f)) o split(2)) o toPrivate(mapSeq(id)) $ "
     "a)) $ A"},
    // iterate of a reduceSeq: D elements, then one, again and again.
    {"private_iterate_reduce",
     "size N, D;\n"
     "fun f(A: [[float]D]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, reduceSeq(add, 0.0f)) $ a)) $ A"},
    {"private_iterate_reduce_private",
     "size N;\n"
     "fun f(A: [[float]4]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, reduceSeq(add, 0.0f)) o toPrivate(mapSeq(id)) $ a)) $ A"},
    // Nested iterates over a one-element private accumulator.
    {"private1_nested",
     "size N, D;\n"
     "fun f(A: [[float]D]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, iterate(2, mapSeq(step))) o reduceSeq(add, 0.0f) $ a)) $ A"},
    // Inside mapSeq, and inside mapWrg/mapLcl.
    {"private1_in_mapseq",
     "size N, M, D;\n"
     "fun f(A: [[[float]D]M]N) = join o mapGlb0(join o mapSeq(fun(a => "
     "toGlobal(mapSeq(id)) o iterate({K}, mapSeq(step)) o reduceSeq(add, 0.0f) $ a))) $ A"},
    {"private1_in_maplcl",
     "size N, M, D;\n"
     "fun f(A: [[[float]D]M]N) = join o mapWrg0(join o mapLcl0(fun(a => "
     "toGlobal(mapSeq(id)) o iterate({K}, mapSeq(sq)) o reduceSeq(add, 0.0f) $ a))) $ A"},
    {"private4_in_maplcl",
     "size N, M;\n"
     "fun f(A: [[[float]4]M]N) = join o mapWrg0(join o mapLcl0(fun(a => "
     "toGlobal(mapSeq(id)) o iterate({K}, mapSeq(step)) o toPrivate(mapSeq(id)) $ a))) $ A"},
    // Local buffers: a work-group's tree reduction (8, 4, 2, 1 elements) and a same-length map.
    {"local_halving",
     "size N;\n"
     "fun f(x: [float]N*8) = join o mapWrg0(join o toGlobal(mapLcl0(mapSeq(id))) o split(1) o "
     "iterate({K}, join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq(add, 0.0f)) o split(2)) o "
     "join o toLocal(mapLcl0(mapSeq(id))) o split(1)) o split(8) $ x"},
    {"local_map",
     "size N, D;\n"
     "fun f(A: [[float]D]N) = join o mapWrg0(fun(a => toGlobal(mapLcl0(id)) o "
     "iterate({K}, toLocal(mapLcl0(step))) o toLocal(mapLcl0(id)) $ a)) $ A"},
    {"local1",
     "size N;\n"
     "fun f(A: [[float]1]N) = join o mapWrg0(fun(a => toGlobal(mapLcl0(id)) o "
     "iterate({K}, toLocal(mapLcl0(step))) o toLocal(mapLcl0(id)) $ a)) $ A"},
    // Global buffers, of one element and of D, and halving.
    {"global1",
     "size N;\n"
     "fun f(A: [[float]1]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, toGlobal(mapSeq(step))) $ a)) $ A"},
    {"global_map",
     "size N, D;\n"
     "fun f(A: [[float]D]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, toGlobal(mapSeq(step))) $ a)) $ A"},
    {"global_halving",
     "size N;\n"
     "fun f(A: [[float]8]N) = join o mapGlb0(fun(a => toGlobal(mapSeq(id)) o "
     "iterate({K}, join o toGlobal(mapSeq(reduceSeq(add, 0.0f))) o split(2)) $ a)) $ A"},
    // Arrays of tuples (one memory per component): the iterations unrolled.
    {"private1_tuples",
     "size N;\n"
     "fun f(A: [[float]1]N, B: [[float]1]N) = join o mapGlb0(fun(ab => toGlobal(mapSeq(fib)) o "
     "iterate({K}, mapSeq(fib)) o toPrivate(mapSeq(fib)) $ zip(get(0, ab), get(1, ab)))) $ "
     "zip(A, B)"},
    {"private4_tuples",
     "size N;\n"
     "fun f(A: [[float]4]N, B: [[float]4]N) = join o mapGlb0(fun(ab => toGlobal(mapSeq(fib)) o "
     "iterate({K}, mapSeq(fib)) $ zip(get(0, ab), get(1, ab)))) $ zip(A, B)"},
    {"local_tuples",
     "size N, D;\n"
     "fun f(A: [[float]D]N, B: [[float]D]N) = join o mapWrg0(fun(ab => toGlobal(mapLcl0(fib)) o "
     "iterate({K}, toLocal(mapLcl0(fib))) $ zip(get(0, ab), get(1, ab)))) $ zip(A, B)"},
};

std::string instantiate(const char* text, const std::string& count) {
  std::string s = text;
  for (size_t at = s.find("{K}"); at != std::string::npos; at = s.find("{K}")) s.replace(at, 3, count);
  return kPrelude + s;
}

codegen::CompileOptions unoptimised() {
  codegen::CompileOptions o;
  o.simplifyIndices = o.barrierElimination = o.cfgSimplification = o.unrolling = o.fusedMultiplyAdd = false;
  return o;
}

}  // namespace

class TestCodegenIterate : public QObject {
  Q_OBJECT

  QTemporaryDir cacheDir_;
  std::unique_ptr<runtime::KernelRunner> runner_;

  // Runs `k` (compiled from `p`) at `sizes` and compares its result with the interpreter's.
  void runsLikeTheInterpreter(const ir::Program& p, const codegen::CompiledProgram& k,
                              const arith::Env& sizes) {
    std::vector<interp::Value> inputs = interp::randomInputs(p, sizes, 23);
    interp::Value expected = interp::interpret(p, inputs, sizes);
    const InterpreterCheck c = runAgainstInterpreter(*runner_, k, inputs, expected, sizes, 1e-4);
    QVERIFY2(c.result.ok(), c.what.c_str());
    QVERIFY2(c.matched(), c.what.c_str());
  }

  void check(const ir::Program& p) {
    codegen::CompiledProgram k = codegen::compileProgram(p, {});
    // Several sizes: the smallest valid ones, odd ones, larger ones.
    for (int64_t least : {1, 3, 9}) {
      interp::SizeHint hint;
      hint.atLeast = least;
      hint.atMost = 64;
      arith::Env sizes = interp::chooseSizes(p, hint);
      runsLikeTheInterpreter(p, k, sizes);
      if (QTest::currentTestFailed()) return;
    }
    interp::SizeHint hint;
    hint.atLeast = 5;
    hint.atMost = 64;
    arith::Env sizes = interp::chooseSizes(p, hint);
    runsLikeTheInterpreter(p, codegen::compileProgram(p, unoptimised()), sizes);
    if (QTest::currentTestFailed()) return;
    // At fixed sizes every length is a constant (and the optimisations see them).
    ir::Program fixed = interp::specialize(p, sizes);
    runsLikeTheInterpreter(fixed, codegen::compileProgram(fixed, {}), sizes);
    if (QTest::currentTestFailed()) return;
    runsLikeTheInterpreter(fixed, codegen::compileProgram(fixed, unoptimised()), sizes);
  }

  void checkText(const QString& text) {
    try {
      check(lang::parseProgram(text.toStdString(), "iterate.lift"));
    } catch (const LiftError& e) {
      QFAIL((e.diagnostic().format() + "\n" + text.toStdString()).c_str());
    }
  }

 private slots:
  void initTestCase() {
    QVERIFY(cacheDir_.isValid());
    auto cache = std::make_shared<runtime::BuildCache>(cacheDir_.path().toStdString());
    runner_ = std::make_unique<runtime::KernelRunner>(runtime::Device::find("0"), cache);
  }

  void matchesInterpreter_data() {
    QTest::addColumn<QString>("text");
    for (const Case& c : kCases)
      for (const char* count : {"1", "2", "3"})
        QTest::newRow((std::string(c.name) + "_" + count).c_str())
            << QString::fromStdString(instantiate(c.text, count));
  }

  void matchesInterpreter() {
    QFETCH(QString, text);
    checkText(text);
  }

  // A symbolic count (a size I): the loop runs I times over the same buffers.
  void symbolicCountMatchesInterpreter_data() {
    QTest::addColumn<QString>("text");
    for (const char* name :
         {"private1_reduce", "private1_copy", "private4", "private_halving", "private1_in_maplcl",
          "local_map", "local_halving", "global_map", "global_halving"})
      for (const Case& c : kCases)
        if (std::string(c.name) == name) {
          std::string text = instantiate(c.text, "I");
          text.replace(text.find("size "), 5, "size I, ");
          QTest::newRow(name) << QString::fromStdString(text);
        }
  }

  void symbolicCountMatchesInterpreter() {
    QFETCH(QString, text);
    checkText(text);
  }

  // A symbolic count over an array of tuples, whose iterations cannot be unrolled, is a
  // diagnostic at the iterate (it used to be an internal error).
  void symbolicCountOverTuplesIsADiagnostic() {
    std::string text = instantiate(kCases[std::size(kCases) - 2].text, "I");
    text.replace(text.find("size "), 5, "size I, ");
    ir::Program p = lang::parseProgram(text, "iterate.lift");
    try {
      codegen::compileProgram(p, {});
      QFAIL("compiled");
    } catch (const LiftError& e) {
      std::string msg = e.diagnostic().format();
      QVERIFY2(msg.find("iterate with the symbolic count I over an array of tuples") != std::string::npos,
               msg.c_str());
      QVERIFY2(e.diagnostic().loc.line > 0, msg.c_str());
    }
  }

  // The accumulator that iterate points to is an array of one element (`float acc1[1]`); as the
  // scalar it used to be (`const float* src = acc1;` with `float acc1;`), the OpenCL compiler
  // rejects the kernel, which is a BuildFailed naming the line, not a crash or a wrong result.
  void rejectedKernelIsABuildError() {
    ir::Program p = lang::parseProgram(instantiate(kCases[0].text, "2"), "iterate.lift");
    codegen::CompiledProgram k = codegen::compileProgram(p, {});
    std::string source = k.source();
    QVERIFY2(source.find("float acc1[1];") != std::string::npos, source.c_str());
    QVERIFY2(source.find("const float* src = acc1;") != std::string::npos, source.c_str());
    arith::Env sizes{{"N", 4}, {"D", 3}};
    std::vector<interp::Value> inputs = interp::randomInputs(p, sizes, 23);
    runtime::KernelLaunch launch = codegen::instantiate(k, sizes);
    codegen::setInputs(launch, k, inputs);
    // The old kernel: the accumulator a variable, read and written as one.
    std::string& src = launch.source;
    src.replace(src.find("float acc1[1];"), 14, "float acc1;");
    for (size_t at = src.find("acc1[0]"); at != std::string::npos; at = src.find("acc1[0]"))
      src.replace(at, 7, "acc1");
    runtime::RunResult r = runner_->run(launch, {});
    QCOMPARE(r.status, runtime::RunStatus::BuildFailed);
    QVERIFY(!r.buildLog.empty());
    size_t line =
        1 + static_cast<size_t>(std::count(
                launch.source.begin(), launch.source.begin() + launch.source.find("const float* src"), '\n'));
    QCOMPARE(r.diagnostic.loc.line, static_cast<int>(line));
    QVERIFY2(r.message.find(":" + std::to_string(line) + ":") != std::string::npos, r.message.c_str());
  }
};

QTEST_GUILESS_MAIN(TestCodegenIterate)
#include "tst_codegen_iterate.moc"
