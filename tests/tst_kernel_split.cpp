// Programs that need several kernels (codegen/KernelSplit.h, ProgramCompiler.h): where the split
// falls, the temporaries between the kernels, the arguments the kernels share, programs that fit
// in one kernel left as compileKernel makes them, and the sequences run on the CPU device (PoCL)
// through the evaluation pipeline, validated against the interpreter at several sizes.
#include <QtTest/QtTest>

#include "codegen/Compiler.h"
#include "codegen/Evaluation.h"
#include "codegen/KernelSplit.h"
#include "codegen/Launch.h"
#include "codegen/LoweringCheck.h"
#include "codegen/ProgramCompiler.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/lang/Parser.h"

using namespace lift;

namespace {

// A sum in two kernels: partial sums of chunks of 4 by mapGlb0, then one sequential reduction.
const char* kTwoKernels = R"(
size N = 8;
userfun add(float x, float y) -> float { return x + y; }
fun sum(x: [float]N*4) =
  toGlobal(mapSeq(id)) o reduceSeq(add, 0.0f) o join o
  mapGlb0(toGlobal(mapSeq(id)) o reduceSeq(add, 0.0f)) o split(4) $ x
)";

// The same in three kernels: chunks of 4, then chunks of 2 of those, then the rest; and a second
// input used only by the last kernel.
const char* kThreeKernels = R"(
size N = 8;
userfun add(float x, float y) -> float { return x + y; }
userfun mult(float x, float y) -> float { return x * y; }
fun scaledSum(x: [float]N*8, s: [float]1) =
  fun(total => toGlobal(mapSeq(mult)) $ zip(total, s)) o
  toGlobal(mapSeq(id)) o reduceSeq(add, 0.0f) o join o
  mapGlb0(toGlobal(mapSeq(id)) o reduceSeq(add, 0.0f)) o split(2) o join o
  mapGlb0(toGlobal(mapSeq(id)) o reduceSeq(add, 0.0f)) o split(4) $ x
)";

ir::Program parse(const char* text) { return lang::parseProgram(text, "test.lift"); }

int count(const codegen::CompiledProgram& p, codegen::KernelParam::Kind k) {
  int n = 0;
  for (auto& q : p.params) n += q.kind == k;
  return n;
}

}  // namespace

class TestKernelSplit : public QObject {
  Q_OBJECT

  QTemporaryDir cacheDir_;
  std::unique_ptr<runtime::KernelRunner> runner_;

 private slots:
  void initTestCase() {
    QVERIFY(cacheDir_.isValid());
    auto cache = std::make_shared<runtime::BuildCache>(cacheDir_.path().toStdString());
    runner_ = std::make_unique<runtime::KernelRunner>(runtime::Device::find("0"), cache);
  }

  // Programs that fit in one kernel are one part, compiled exactly as compileKernel compiles them.
  void oneKernelUnchanged_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"dot.lift", "reduce.lift", "asum.lift", "matmul_tiled_gpu.lift", "gemv.lift"})
      QTest::newRow(f) << QString(f);
  }
  void oneKernelUnchanged() {
    QFETCH(QString, file);
    ir::Program p = lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/lowlevel/" + file.toStdString());
    QCOMPARE(codegen::splitIntoKernels(p).parts.size(), size_t(1));
    codegen::CompiledProgram c = codegen::compileProgram(p);
    QVERIFY(c.singleKernel());
    codegen::CompiledKernel k = codegen::compileKernel(p);
    QCOMPARE(c.source(), k.source);
    QCOMPARE(c.params.size(), k.params.size());
  }

  // The split falls where reduceSeq consumes the mapGlb0's result; the temporary holds the N
  // partial sums, one buffer written by kernel 1 and read by kernel 2.
  void twoKernels() {
    ir::Program p = parse(kTwoKernels);
    codegen::ProgramSplit s = codegen::splitIntoKernels(p);
    QCOMPARE(s.parts.size(), size_t(2));
    QCOMPARE(s.temporaries.size(), size_t(1));
    QCOMPARE(s.reducedTemporaries, std::vector<bool>{true});  // a reduction finished by kernel 2
    QCOMPARE(QString::fromStdString(s.temporaries[0].toString()), QString("[float]N"));
    QCOMPARE(s.parts[0].program.name, std::string("sum_1"));
    QVERIFY(s.parts[0].result.kind == codegen::StageValue::Kind::Temporary);
    QVERIFY(s.parts[1].result.kind == codegen::StageValue::Kind::ProgramResult);
    QCOMPARE(s.parts[1].inputs.size(), size_t(1));
    QVERIFY(s.parts[1].inputs[0].kind == codegen::StageValue::Kind::Temporary);

    codegen::CompiledProgram c = codegen::compileProgram(p);
    QCOMPARE(c.stages.size(), size_t(2));
    QCOMPARE(count(c, codegen::KernelParam::Kind::Input), 1);
    QCOMPARE(count(c, codegen::KernelParam::Kind::Output), 1);
    QCOMPARE(count(c, codegen::KernelParam::Kind::Temporary), 1);
    QCOMPARE(count(c, codegen::KernelParam::Kind::Size), 1);  // N, shared by both kernels
    // Kernel 1's output and kernel 2's input are the same argument.
    auto argOf = [&](size_t stage, codegen::KernelParam::Kind k) {
      const codegen::KernelStage& st = c.stages[stage];
      for (size_t j = 0; j < st.kernel.params.size(); ++j)
        if (st.kernel.params[j].kind == k) return st.args[j];
      return size_t(-1);
    };
    QCOMPARE(argOf(0, codegen::KernelParam::Kind::Output), argOf(1, codegen::KernelParam::Kind::Input));
    QCOMPARE(c.params[argOf(0, codegen::KernelParam::Kind::Output)].kind,
             codegen::KernelParam::Kind::Temporary);
    std::string text = c.source();
    QVERIFY(text.find("// ----- kernel 1 of 2: sum_1, global N") != std::string::npos);
    QVERIFY(text.find("// ----- kernel 2 of 2: sum_2, global 1") != std::string::npos);
    // A register cap (a build option) reaches the launch of the sequence and of one kernel.
    codegen::CompileOptions capped;
    capped.maxRegisters = 96;
    QCOMPARE(codegen::instantiate(codegen::compileProgram(p, capped), {{"N", 64}}).maxRegisters, 96);
    QCOMPARE(codegen::instantiate(c, {{"N", 64}}).maxRegisters, 0);
    QCOMPARE(
        codegen::instantiate(codegen::compileKernel(s.parts[0].program, capped), {{"N", 64}}).maxRegisters,
        96);
  }

  // A mapGlb0 whose rows a nested mapGlb1 spreads over other work-items, read whole by the next
  // mapGlb0 (an md_gemv mapping after map-hoist, issue 15): not element-wise, so two kernels
  // (one kernel computed some sums from products not yet written); compileKernel refuses it.
  void spreadElementsAreCut() {
    ir::Program p = lang::parseFile(LIFT_SOURCE_DIR "/tests/data/codegen/nested_glb_two_kernels.lift");
    codegen::ProgramSplit s = codegen::splitIntoKernels(p);
    QCOMPARE(s.parts.size(), size_t(2));
    QCOMPARE(QString::fromStdString(s.temporaries[0].toString()), QString("[[float]2*K]M"));
    QCOMPARE(codegen::compileProgram(p).stages.size(), size_t(2));
    try {
      codegen::compileKernel(p);
      QFAIL("compileKernel accepted a mapGlb0 reading rows that other work-items make");
    } catch (const codegen::LoweringError& e) {
      QVERIFY2(std::string(e.what()).find("nested parallel map of another dimension") != std::string::npos,
               e.what());
    }
  }

  // A split program split again; an input only the last kernel reads is only its argument.
  void threeKernels() {
    ir::Program p = parse(kThreeKernels);
    codegen::ProgramSplit s = codegen::splitIntoKernels(p);
    QCOMPARE(s.parts.size(), size_t(3));
    QCOMPARE(s.temporaries.size(), size_t(2));
    // The first temporary is read by a mapGlb0 (in chunks of 2), the second by the reduction.
    QCOMPARE(s.reducedTemporaries, (std::vector<bool>{false, true}));
    QCOMPARE(s.parts[0].inputs.size(), size_t(1));
    QVERIFY(s.parts[2].inputs[0].kind == codegen::StageValue::Kind::ProgramInput);
    QCOMPARE(s.parts[2].inputs[0].index, 1);
    QVERIFY(s.parts[2].inputs[1].kind == codegen::StageValue::Kind::Temporary);
    QCOMPARE(s.parts[2].inputs[1].index, 1);
    codegen::CompiledProgram c = codegen::compileProgram(p);
    QCOMPARE(c.stages.size(), size_t(3));
    QCOMPARE(count(c, codegen::KernelParam::Kind::Input), 2);
    // Two between the kernels, and kernel 3's own for the lambda's argument.
    QCOMPARE(count(c, codegen::KernelParam::Kind::Temporary), 3);
    QCOMPARE(c.params[c.stages[0].args[1]].name, std::string("tmp1"));
    QCOMPARE(c.params[c.stages[1].args[1]].name, std::string("tmp2"));
  }

  // The chunked scan: the zip's first array (the scanned totals) is made by two earlier kernels,
  // the totals (a mapGlb0) and their scan (a scanSeq of the whole array, one work-item); the
  // chunks' scans read the offsets through the zip. Every temporary is finished on the device.
  void chunkedScanIsThreeKernels() {
    ir::Program p = lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/lowlevel/prefix_sum.lift");
    codegen::ProgramSplit s = codegen::splitIntoKernels(p);
    QCOMPARE(s.parts.size(), size_t(3));
    QCOMPARE(s.reducedTemporaries, (std::vector<bool>{true, true}));
    QCOMPARE(QString::fromStdString(s.temporaries[0].toString()), QString("[float]M"));
    QCOMPARE(QString::fromStdString(s.temporaries[1].toString()), QString("[float]M"));
    // Kernel 1 reads x; kernel 2 the totals; kernel 3 x and the offsets.
    QCOMPARE(s.parts[0].inputs.size(), size_t(1));
    QVERIFY(s.parts[1].inputs.at(0).kind == codegen::StageValue::Kind::Temporary);
    QCOMPARE(s.parts[1].inputs.at(0).index, 0);
    QVERIFY(s.parts[1].result.kind == codegen::StageValue::Kind::Temporary);
    QCOMPARE(s.parts[1].result.index, 1);
    QCOMPARE(s.parts[2].inputs.size(), size_t(2));
    QVERIFY(s.parts[2].inputs[0].kind == codegen::StageValue::Kind::ProgramInput);
    QVERIFY(s.parts[2].inputs[1].kind == codegen::StageValue::Kind::Temporary);
    QCOMPARE(s.parts[2].inputs[1].index, 1);
    std::string text = codegen::compileProgram(p).source();
    QVERIFY2(text.find("// ----- kernel 2 of 3: prefix_sum_2, global 1") != std::string::npos, text.c_str());
  }

  // Stream compaction: the zip's first array is the scan seen through a split (both arrays whole
  // as the zip's one element); kernel 1 computes split(N) o scanSeq, one work-item, and the
  // searches of kernel 2 read it. Without looking through the split the scan stayed in the one
  // kernel, where every work-item would run it ("a scanSeq at kernel level").
  void scanUnderASplitIsCut() {
    ir::Program p = lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/lowlevel/compact.lift");
    codegen::ProgramSplit s = codegen::splitIntoKernels(p);
    QCOMPARE(s.parts.size(), size_t(2));
    QCOMPARE(s.reducedTemporaries, (std::vector<bool>{true}));
    QCOMPARE(QString::fromStdString(s.temporaries[0].toString()), QString("[[int]N]1"));
    QCOMPARE(s.parts[1].inputs.size(), size_t(2));
    QVERIFY(s.parts[1].inputs[1].kind == codegen::StageValue::Kind::Temporary);
  }

  // The sequences run in one queue and give what the interpreter gives, at several sizes.
  void runsAgainstTheInterpreter_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<int>("kernels");
    QTest::newRow("two kernels") << QString(kTwoKernels) << 2;
    QTest::newRow("three kernels") << QString(kThreeKernels) << 3;
    QTest::newRow("lowlevel/asum_device.lift") << QString("asum_device.lift") << 2;
    QTest::newRow("lowlevel/dot_device.lift") << QString("dot_device.lift") << 2;
    QTest::newRow("lowlevel/prefix_sum.lift") << QString("prefix_sum.lift") << 3;
    QTest::newRow("lowlevel/compact.lift") << QString("compact.lift") << 2;
  }
  void runsAgainstTheInterpreter() {
    QFETCH(QString, program);
    QFETCH(int, kernels);
    ir::Program p =
        program.endsWith(".lift")
            ? lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/lowlevel/" + program.toStdString())
            : parse(program.toUtf8().constData());
    for (int64_t least : {1, 3, 17}) {
      codegen::EvaluationRequest req;
      req.sizes = codegen::runSizes(p, {}, true);
      for (auto& [n, v] : req.sizes) v = std::max<int64_t>(v, least);
      req.reference.kind = codegen::ReferenceChoice::Kind::Interpreter;
      req.run.repetitions = 2;
      req.run.warmups = 1;
      req.seed = static_cast<uint64_t>(least);
      codegen::Evaluation e = codegen::evaluate(p, req, *runner_);
      QVERIFY2(e.ok(), e.summary().c_str());
      QVERIFY2(e.validated(), e.validationText.c_str());
      QVERIFY(e.program);
      QCOMPARE(e.program->stages.size(), size_t(kernels));
      QVERIFY(e.run.medianMs > 0);
    }
  }

  // The work-group size tuned for the first kernel reaches every later kernel that leaves its own
  // to the runtime (the chunked scan's third, a global map), where it divides the global size;
  // the second (one work-item) keeps its own. The sequence runs valid with it.
  void laterKernelsTakeTheWorkGroupSize() {
    ir::Program p = interp::specialize(
        lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/lowlevel/prefix_sum.lift"), {{"M", 64}});
    codegen::CompileOptions options;
    options.localSize = {arith::cst(16)};
    codegen::CompiledProgram c = codegen::compileProgram(p, options);
    QCOMPARE(c.stages.size(), size_t(3));
    runtime::KernelLaunch l = codegen::instantiate(c, {{"M", 64}});
    QCOMPARE(l.sequence[0].local, std::vector<uint64_t>{16});
    QCOMPARE(l.sequence[1].local, std::vector<uint64_t>{1});
    QCOMPARE(l.sequence[2].local, std::vector<uint64_t>{16});
    // 48 does not divide the third kernel's 64 work-items: the runtime chooses there.
    options.localSize = {arith::cst(48)};
    QVERIFY(codegen::compileProgram(p, options).stages[2].kernel.launch.local.empty());

    codegen::EvaluationRequest req;
    req.sizes = {{"M", 64}};
    req.reference.kind = codegen::ReferenceChoice::Kind::Interpreter;
    req.local = {16};
    req.run.repetitions = 1;
    codegen::Evaluation e = codegen::evaluate(p, req, *runner_);
    QVERIFY2(e.validated(), e.summary().c_str());
  }

  // A wrong second kernel is caught: the final result is what is validated.
  void wrongSequenceIsCaught() {
    ir::Program p = parse(kTwoKernels);
    codegen::CompiledProgram c = codegen::compileProgram(p);
    arith::Env sizes{{"N", 5}};
    runtime::KernelLaunch l = codegen::instantiate(c, sizes);
    QCOMPARE(l.sequence.size(), size_t(2));
    QVERIFY2(l.check().empty(), l.check().c_str());
    std::vector<interp::Value> inputs = interp::randomInputs(p, sizes, 3);
    interp::Value expected = interp::interpret(p, inputs, sizes);
    codegen::setInputs(l, c, inputs);
    codegen::setExpected(l, c, expected);
    QVERIFY(runner_->run(l).ok());
    // Without the second kernel the output is never written.
    l.sequence.pop_back();
    QCOMPARE(runner_->run(l).status, runtime::RunStatus::WrongResult);
  }
};

QTEST_GUILESS_MAIN(TestKernelSplit)
#include "tst_kernel_split.moc"
