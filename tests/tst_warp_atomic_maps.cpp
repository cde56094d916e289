// Lift's warp maps and atomic work distribution (issue 17): mapWarp, mapLane, mapAtomWrg and
// mapAtomLcl mean map (interpreter), type as map with their own nesting rules (located errors),
// print back as written and label the graph. mapAtomWrg and mapAtomLcl kernels run on the CPU
// device against the interpreter at several sizes, also with fewer work-groups or work-items than
// elements (so that the counters hand out several indices each), and repeated executions start
// from a zeroed counter; tests/data/codegen/atomic_*.lift also run in tst_codegen_run and are
// frozen by tst_golden_kernels. mapWarp and mapLane: the kernel's warp and lane loops, and the
// runtime's refusal on a device without warps (PoCL's CPU device).
#include <QtTest/QtTest>

#include "TypeErrorCheck.h"
#include "codegen/Launch.h"
#include "codegen/ProgramCompiler.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/ir/Build.h"
#include "core/ir/ProgramGraph.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

using namespace lift;

namespace {

// Declarations shared by the tests; the program function follows on line kPreludeLines + 1.
const std::string kPrelude =
    "size N, M, K;\n"
    "userfun add(float a, float b) -> float { return a + b; }\n"
    "userfun twice(float a) -> float { return 2.0f * a; }\n";
constexpr int kPreludeLines = 3;

ir::Program parse(const std::string& fun) { return lang::parseProgram(kPrelude + fun, "t.lift"); }

// Type-checking `fun` fails at the first appearance of `needle` with a message holding `parts`.
void expectError(const std::string& fun, const std::string& needle, std::vector<std::string> parts) {
  size_t pos = fun.find(needle);
  QVERIFY2(pos != std::string::npos, "needle not in the program");
  test::expectTypeErrorAt(parse(fun), fun, kPreludeLines + 1, static_cast<int>(pos) + 1, parts);
}

ir::Program file(const std::string& name) { return lang::parseFile(std::string(LIFT_SOURCE_DIR) + name); }

// The result of the interpreter on seeded random inputs at `sizes`.
QString meaning(const ir::Program& p, const arith::Env& sizes) {
  return QString::fromStdString(
      interp::interpret(p, interp::randomInputs(p, sizes, 5), sizes).toString(4096));
}

}  // namespace

class TestWarpAtomicMaps : public QObject {
  Q_OBJECT

  QTemporaryDir cacheDir_;
  std::unique_ptr<runtime::KernelRunner> runner_;

  // Compiles `p` (with `options`), runs it on the CPU device at `sizes` and compares with the
  // interpreter; `repetitions` further executions reuse the buffers (the counters zeroed again).
  void runsLikeTheInterpreter(const ir::Program& p, const arith::Env& sizes,
                              const codegen::CompileOptions& options, int repetitions = 0) {
    codegen::CompiledProgram k = codegen::compileProgram(p, options);
    std::vector<interp::Value> inputs = interp::randomInputs(p, sizes, 11);
    interp::Value expected = interp::interpret(p, inputs, sizes);
    runtime::KernelLaunch launch = codegen::instantiate(k, sizes);
    codegen::setInputs(launch, k, inputs);
    codegen::setExpected(launch, k, expected);
    runtime::RunOptions opts;
    opts.warmups = 0;
    opts.repetitions = repetitions;
    opts.tolerance.floatRel = 1e-4;
    opts.tolerance.floatAbs = 1e-4;
    runtime::RunResult r = runner_->run(launch, opts);
    std::string what = r.summary() + " " + r.validation.message;
    if (r.status == runtime::RunStatus::BuildFailed) what += "\n" + r.buildLog + "\n" + k.source();
    QVERIFY2(r.ok(), what.c_str());
    QVERIFY2(r.validation.checked && r.validation.ok, what.c_str());
  }

 private slots:
  void initTestCase() {
    QVERIFY(cacheDir_.isValid());
    auto cache = std::make_shared<runtime::BuildCache>(cacheDir_.path().toStdString());
    runner_ = std::make_unique<runtime::KernelRunner>(runtime::Device::find("0"), cache);
  }

  void meanMap() {
    const char* mapped = "fun f(x: [[float]32*M]N) = map(map(twice)) $ x";
    arith::Env sizes{{"N", 3}, {"M", 2}, {"K", 1}};
    QString expected = meaning(parse(mapped), sizes);
    for (const char* fun :
         {"fun f(x: [[float]32*M]N) = mapAtomWrg0(mapAtomLcl0(twice)) $ x",
          "fun f(x: [[float]32*M]N) = mapWrg0(mapAtomLcl0(twice)) $ x",
          "fun f(x: [[float]32*M]N) = mapAtomWrg0(mapLcl0(twice)) $ x",
          "fun f(x: [[float]32*M]N) = mapWrg0(fun(r => join o mapWarp(mapLane(twice)) o split(32) $ "
          "r)) $ x"})
      QCOMPARE(meaning(parse(fun), sizes), expected);
  }

  void types() {
    QCOMPARE(
        QString::fromStdString(
            ir::typeCheck(parse("fun f(x: [[float]M]N) = mapAtomWrg1(mapAtomLcl2(twice)) $ x")).signature()),
        QString("([[float]M]N) -> [[float]M]N"));
    QCOMPARE(QString::fromStdString(
                 ir::typeCheck(parse("fun f(x: [[[float]M]K]N) = mapWrg0(mapWarp(mapLane(twice))) $ x"))
                     .signature()),
             QString("([[[float]M]K]N) -> [[[float]M]K]N"));
  }

  void nestingErrorsAreLocated() {
    expectError("fun f(x: [[float]M]N) = mapWrg0(mapLane(twice)) $ x", "mapLane",
                {"mapLane must be nested inside a mapWarp"});
    expectError("fun f(x: [[float]M]N) = mapWarp(mapLane(twice)) $ x", "mapWarp",
                {"mapWarp must be nested inside a mapWrg"});
    expectError("fun f(x: [[float]M]N) = mapWrg1(mapAtomWrg0(twice)) $ x", "mapAtomWrg0",
                {"mapAtomWrg0 inside mapWrg1", "must be the outermost map"});
    expectError("fun f(x: [[[float]M]K]N) = mapWrg0(mapLcl1(mapAtomLcl0(twice))) $ x", "mapAtomLcl0",
                {"mapAtomLcl0 inside mapLcl1", "share mapAtomLcl's counter"});
    expectError("fun f(x: [[[float]M]K]N) = mapWrg0(mapAtomLcl0(mapLcl1(twice))) $ x", "mapLcl1",
                {"mapLcl1 inside mapAtomLcl0", "its own indices"});
    expectError("fun f(x: [[[float]M]K]N) = mapWrg0(mapWarp(mapLcl0(twice))) $ x", "mapLcl0",
                {"mapLcl0 inside mapWarp", "mapped by mapLane"});
    expectError("fun f(x: [[[float]M]K]N) = mapWrg0(mapLcl0(mapWarp(twice))) $ x", "mapWarp",
                {"mapWarp inside mapLcl0", "cannot be nested in a map over work-items"});
    expectError("fun f(x: [[[[float]M]K]K]N) = mapWrg0(mapWarp(mapLane(mapLane(twice)))) $ x",
                "mapLane(twice)", {"already mapped by the outer mapLane"});
    expectError("fun f(x: [[float]M]N) = mapGlb0(mapAtomLcl0(twice)) $ x", "mapAtomLcl0",
                {"global maps cannot be mixed"});
  }

  void printsBackAsWritten() {
    for (const char* fun : {"fun f(x: [[float]M]N) =\n  mapAtomWrg1(mapAtomLcl2(twice)) $ x",
                            "fun f(x: [[[float]M]K]N) =\n  mapWrg0(mapWarp(mapLane(twice))) $ x"}) {
      ir::Program p = parse(fun);
      std::string printed = lang::printProgram(p);
      QVERIFY2(printed.find(fun) != std::string::npos, printed.c_str());
      ir::Program q = lang::parseProgram(printed, "printed.lift");
      QVERIFY2(ir::alphaEqual(ir::Fun(p.main), ir::Fun(q.main)), printed.c_str());
    }
  }

  void graphLabelsAndBuilder() {
    ir::Program parsed = parse("fun f(x: [[float]M]N) = mapAtomWrg1(mapAtomLcl0(twice)) $ x");
    std::vector<std::string> labels;
    ir::visitPreOrder(parsed.main, [&](const ir::NodePath& path) {
      const ir::NodeRef& n = path.back().node;
      if (!n.isExpr())
        if (auto* p = ir::asPattern(n.fun())) labels.push_back(ir::patternLabel(*p));
      return true;
    });
    QVERIFY(std::find(labels.begin(), labels.end(), "mapAtomWrg1") != labels.end());
    QVERIFY(std::find(labels.begin(), labels.end(), "mapAtomLcl0") != labels.end());
    ir::Fun warp = ir::mapWarp(ir::mapLane(ir::mapAtomLcl(ir::mapAtomWrg(ir::map(ir::id()), 2), 1)));
    auto* w = ir::asPattern(warp);
    QVERIFY(w && w->pattern() == ir::PatternKind::MapWarp);
    auto* l = ir::asPattern(w->f());
    QVERIFY(l && l->pattern() == ir::PatternKind::MapLane);
    auto* al = ir::asPattern(l->f());
    QVERIFY(al && al->pattern() == ir::PatternKind::MapAtomLcl && al->index() == 1);
    auto* aw = ir::asPattern(al->f());
    QVERIFY(aw && aw->pattern() == ir::PatternKind::MapAtomWrg && aw->index() == 2);
  }

  // ----- kernels -----

  void warpKernelText() {
    codegen::CompiledProgram k = codegen::compileProgram(file("/tests/data/warp/warp_reduce.lift"), {});
    const codegen::CompiledKernel& kernel = k.stages.front().kernel;
    std::string src = kernel.source;
    for (const char* part : {"int warp_id = get_local_id(0) / 32;", "int lane_id = get_local_id(0) % 32;"})
      QVERIFY2(src.find(part) != std::string::npos, (std::string(part) + " not in\n" + src).c_str());
    QCOMPARE(QString::fromStdString(kernel.launch.warpPatterns), QString("mapWarp and mapLane"));
    // Two warps of 32 work-items a work-group.
    QCOMPARE(QString::fromStdString(arith::toString(kernel.launch.local.at(0))), QString("64"));
    // With more warps than the work-group has, the warps loop.
    codegen::CompileOptions fewer;
    fewer.globalSize = {arith::cst(4 * 32)};
    fewer.localSize = {arith::cst(32)};
    std::string looped = codegen::compileProgram(file("/tests/data/warp/warp_reduce.lift"), fewer).source();
    QVERIFY2(looped.find("warp_id += (int)get_local_size(0) / 32") != std::string::npos, looped.c_str());
    QVERIFY2(looped.find("barrier(") != std::string::npos, looped.c_str());
  }

  void warpKernelRefusedWithoutWarps() {
    runtime::DeviceInfo dev = runtime::Device::find("0").info();
    if (dev.vendor.find("NVIDIA") != std::string::npos) QSKIP("device 0 has warps");
    ir::Program p = file("/tests/data/warp/warp_reduce.lift");
    codegen::CompiledProgram k = codegen::compileProgram(p, {});
    runtime::KernelLaunch launch = codegen::instantiate(k, {{"N", 2}});
    runtime::RunResult r = runner_->run(launch, {});
    QCOMPARE(r.status, runtime::RunStatus::LaunchFailed);
    for (const std::string& part :
         {std::string("mapWarp and mapLane need a device with warps of 32 work-items (NVIDIA)"),
          "the device '" + dev.name + "'"})
      QVERIFY2(r.message.find(part) != std::string::npos, r.message.c_str());
    // A work-group that is not a whole number of warps is refused when the kernel is instantiated.
    codegen::CompileOptions odd;
    odd.globalSize = {arith::cst(48)};
    odd.localSize = {arith::cst(48)};
    codegen::CompiledProgram ko = codegen::compileProgram(p, odd);
    try {
      codegen::instantiate(ko, {{"N", 2}});
      QFAIL("a local size of 48 was accepted");
    } catch (const LiftError& e) {
      QVERIFY2(e.diagnostic().message.find("warps of 32 work-items, but the local size there is 48") !=
                   std::string::npos,
               e.diagnostic().message.c_str());
    }
  }

  void atomicKernelText() {
    codegen::CompiledProgram k = codegen::compileProgram(file("/tests/data/codegen/atomic_both.lift"), {});
    const codegen::CompiledKernel& kernel = k.stages.front().kernel;
    int counters = 0;
    for (auto& prm : kernel.params) counters += prm.kind == codegen::KernelParam::Kind::Counter;
    QCOMPARE(counters, 1);
    for (const char* part :
         {"volatile global int* wg_counter", "= atomic_inc(&wg_counter", "local int wg_task",
          "local int l_task", "l_id = atomic_inc(&l_task", "for (int wg_id = wg_task"})
      QVERIFY2(kernel.source.find(part) != std::string::npos,
               (std::string(part) + " not in\n" + kernel.source).c_str());
  }

  void atomicKernelsMatchTheInterpreter_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("groups");  // 0: the derived NDRange
    QTest::addColumn<int>("local");
    for (const char* f : {"atomic_wrg", "atomic_lcl", "atomic_both"}) {
      QTest::addRow("%s", f) << QString(f) << 0 << 0;
      QTest::addRow("%s, 2 groups of 8", f) << QString(f) << 2 << 8;
      QTest::addRow("%s, 1 group of 5", f) << QString(f) << 1 << 5;
    }
  }

  void atomicKernelsMatchTheInterpreter() {
    QFETCH(QString, file);
    QFETCH(int, groups);
    QFETCH(int, local);
    ir::Program p = ::file("/tests/data/codegen/" + file.toStdString() + ".lift");
    codegen::CompileOptions options;
    if (groups) {
      options.globalSize = {arith::cst(groups * local)};
      options.localSize = {arith::cst(local)};
    }
    for (int64_t least : {1, 3, 7}) {
      interp::SizeHint hint;
      hint.atLeast = least;
      hint.atMost = 64;
      runsLikeTheInterpreter(p, interp::chooseSizes(p, hint), options, 2);
    }
  }

  void atomicResultsAreNotPrivate() {
    ir::Program p = parse(
        "fun f(x: [[float]8]N) = mapWrg0(fun(r => toGlobal(mapLcl0(id)) o toPrivate(mapAtomLcl0(twice)) $ "
        "r)) $ "
        "x");
    try {
      codegen::compileProgram(p, {});
      QFAIL("a private result of mapAtomLcl compiled");
    } catch (const LiftError& e) {
      QVERIFY2(e.diagnostic().message.find("mapAtomLcl0 writes the elements of its result from different "
                                           "work-items, so the result cannot be in private memory") !=
                   std::string::npos,
               e.diagnostic().message.c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestWarpAtomicMaps)
#include "tst_warp_atomic_maps.moc"
