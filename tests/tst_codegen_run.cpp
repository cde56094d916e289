// Generated kernels run on the OpenCL CPU device (PoCL) and compute what the interpreter
// computes: every low-level example (resources/examples/lowlevel) and the code generator's own
// test programs (tests/data/codegen), each compiled once and run on random inputs at several
// sizes (a program that needs several kernels runs them in sequence, its final result checked).
// LIFT_CODEGEN_PROGRAMS=DIR adds the programs of DIR (e.g. random derivations); those
// that do not compile (a diagnostic) are skipped.
#include <QtTest/QtTest>

#include <cstdlib>
#include <filesystem>

#include "InterpreterCheck.h"
#include "codegen/Launch.h"
#include "codegen/ProgramCompiler.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "core/interp/Compare.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/interp/WorkCount.h"
#include "core/lang/Parser.h"
#include "rewrite/explore/SearchProblem.h"

using namespace lift;

namespace {

std::vector<std::string> programs() {
  std::vector<std::string> out;
  std::vector<std::string> dirs = {LIFT_SOURCE_DIR "/resources/examples/lowlevel",
                                   LIFT_SOURCE_DIR "/tests/data/codegen"};
  if (const char* extra = std::getenv("LIFT_CODEGEN_PROGRAMS")) dirs.push_back(extra);
  for (const std::string& dir : dirs) {
    if (!std::filesystem::exists(dir)) continue;
    for (auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".lift" && e.path().filename().string().rfind("bad_", 0) != 0)
        out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The interpreter work (function applications) a size set may cost: a few seconds.
constexpr double kMaxApplications = 2e7;

}  // namespace

class TestCodegenRun : public QObject {
  Q_OBJECT

  QTemporaryDir cacheDir_;
  std::unique_ptr<runtime::KernelRunner> runner_;

 private slots:
  void initTestCase() {
    QVERIFY(cacheDir_.isValid());
    auto cache = std::make_shared<runtime::BuildCache>(cacheDir_.path().toStdString());
    runner_ = std::make_unique<runtime::KernelRunner>(runtime::Device::find("0"), cache);
  }

  void matchesInterpreter_data() {
    QTest::addColumn<QString>("file");
    for (auto& f : programs())
      QTest::newRow(std::filesystem::path(f).filename().string().c_str()) << QString::fromStdString(f);
  }

  void matchesInterpreter() {
    QFETCH(QString, file);
    check(file.toStdString(), codegen::CompileOptions{}, {2, 9});
  }

  // The same with every optimisation off: the unoptimised kernels are correct too.
  void matchesInterpreterUnoptimised_data() { matchesInterpreter_data(); }
  void matchesInterpreterUnoptimised() {
    QFETCH(QString, file);
    codegen::CompileOptions o;
    o.simplifyIndices = o.barrierElimination = o.cfgSimplification = o.unrolling = o.fusedMultiplyAdd = false;
    check(file.toStdString(), o, {5});
  }

  // With the tuning switches on (vector reads of local memory, unroll pragmas, double buffering).
  void matchesInterpreterTuned_data() { matchesInterpreter_data(); }
  void matchesInterpreterTuned() {
    QFETCH(QString, file);
    codegen::CompileOptions o;
    o.vectorLocalLoads = true;
    o.innerLoopUnroll = 4;
    o.doubleBuffering = true;
    check(file.toStdString(), o, {2, 5});
  }

  // Double buffering with the next tiles loaded into registers (RegisterPrefetch.h, in parts:
  // PrefetchParts.h), and float4
  // writes of global memory (GlobalVectorStores.h): with the sizes unknown to the kernel (the
  // last step loads its own tiles again) and with the sizes constants (the last step after the
  // loop).
  void matchesInterpreterPrefetched_data() { matchesInterpreter_data(); }
  void matchesInterpreterPrefetched() {
    QFETCH(QString, file);
    codegen::CompileOptions o;
    o.vectorLocalLoads = true;
    o.innerLoopUnroll = 8;
    o.registerPrefetch = true;
    o.vectorGlobalStores = true;
    check(file.toStdString(), o, {3});
    check(file.toStdString(), std::vector<codegen::CompileOptions>{o}, {4});
    // The loop over K tiles unrolled twice, with run-time sizes and with constant ones.
    o.tileLoopUnroll = 2;
    check(file.toStdString(), o, {5});
    check(file.toStdString(), std::vector<codegen::CompileOptions>{o}, {3});
    // The step in two parts with run-time sizes (the next index clamped) and in four with
    // constant ones (the last step after the loop), each part with its share of the next tiles.
    o.tileLoopUnroll = 1;
    o.prefetchParts = 2;
    check(file.toStdString(), o, {4});
    o.prefetchParts = 4;
    check(file.toStdString(), std::vector<codegen::CompileOptions>{o}, {5});
  }

  // Repeated index subexpressions as const int temporaries (IndexCse.h), alone, and with the
  // tuning switches whose passes change the accesses first (float4 reads and writes, register
  // prefetch's unrolled copies, padded rows).
  void matchesInterpreterIndexCse_data() { matchesInterpreter_data(); }
  void matchesInterpreterIndexCse() {
    QFETCH(QString, file);
    codegen::CompileOptions o;
    o.indexCse = true;
    check(file.toStdString(), o, {2, 7});
    o.vectorLocalLoads = true;
    o.innerLoopUnroll = 8;
    o.registerPrefetch = true;
    o.vectorGlobalStores = true;
    o.localPadding = 1;
    check(file.toStdString(), o, {3});
  }

  // Local tiles laid out with padded rows (LocalPadding.h), alone (a row of 3 floats: no float4
  // read stays aligned) and with the GPU switches (4: every float4 read stays aligned).
  void matchesInterpreterPadded_data() { matchesInterpreter_data(); }
  void matchesInterpreterPadded() {
    QFETCH(QString, file);
    codegen::CompileOptions o;
    o.localPadding = 3;
    check(file.toStdString(), o, {2});
    o.localPadding = 4;
    o.vectorLocalLoads = true;
    o.innerLoopUnroll = 8;
    o.registerPrefetch = true;
    check(file.toStdString(), o, {3});
  }

  // Stream-K (StreamK.h) needs the tile and step counts as constants: each program specialised
  // to its sizes, with fewer work-groups than tiles (whole waves of 3 or 5 tiles a work-group
  // each, the rest shared, where the tile count is not their multiple), and more than there are
  // steps (every tile summed from one-step parts); alone and with the GPU switches. Programs
  // without a K-tiled additive reduction compile as without it.
  void matchesInterpreterStreamK_data() { matchesInterpreter_data(); }
  void matchesInterpreterStreamK() {
    QFETCH(QString, file);
    {
      // Only the programs it applies to (the others compile as without it: tst_codegen_ablation).
      ir::Program p = lang::parseFile(file.toStdString());
      interp::SizeHint hint;
      hint.atLeast = 3;
      hint.atMost = 1 << 12;
      bool applies = false;
      try {
        codegen::CompileOptions o;
        o.streamK = 100000;
        codegen::CompiledProgram k =
            codegen::compileProgram(interp::specialize(p, interp::chooseSizes(p, hint)), o);
        for (auto& s : k.stages) applies = applies || s.kernel.launch.streamKGroups > 0;
        // With 3 or 5 work-groups, whole waves of tiles and a shared rest (the configurations
        // below run both parts of the schedule).
        bool waves = false;
        for (int g : {3, 5}) {
          o.streamK = g;
          waves = waves || codegen::compileProgram(interp::specialize(p, interp::chooseSizes(p, hint)), o)
                                   .source()
                                   .find("tiles a work-group each") != std::string::npos;
        }
        QVERIFY2(!applies || waves, "no configuration runs whole waves of tiles before the shared ones");
      } catch (const LiftError&) {
      }
      if (!applies) QSKIP("stream-K does not apply to this program");
    }
    std::vector<codegen::CompileOptions> configs;
    for (int groups : {3, 100000}) {
      codegen::CompileOptions o;
      o.streamK = groups;
      configs.push_back(o);
    }
    codegen::CompileOptions tuned;
    tuned.streamK = 5;
    tuned.vectorLocalLoads = true;
    tuned.innerLoopUnroll = 8;
    tuned.registerPrefetch = true;
    configs.push_back(tuned);
    check(file.toStdString(), configs, {3});
  }

 private:
  void check(const std::string& file, const codegen::CompileOptions& options, std::vector<int64_t> atLeast) {
    check(file, std::vector<codegen::CompileOptions>{options}, std::move(atLeast), false);
  }

  // Each size set's inputs and expected result once, every configuration run on them; with
  // `specialised`, the program is compiled at each size set, its sizes made constants.
  void check(const std::string& file, const std::vector<codegen::CompileOptions>& configs,
             std::vector<int64_t> atLeast, bool specialised = true) {
    const codegen::CompileOptions& options = configs.front();
    ir::Program p = lang::parseFile(file);
    bool extra = file.rfind(LIFT_SOURCE_DIR, 0) != 0;
    codegen::CompiledProgram k;
    try {
      k = codegen::compileProgram(p, options);
    } catch (const LiftError& e) {
      if (extra) QSKIP(e.diagnostic().format().c_str());
      QFAIL(e.diagnostic().format().c_str());
    }
    for (int64_t least : atLeast) {
      interp::SizeHint hint;
      hint.atLeast = least;
      hint.atMost = 1 << 12;
      arith::Env sizes;
      std::vector<interp::Value> inputs;
      interp::Value expected;
      try {
        sizes = interp::chooseSizes(p, hint);
        // Programs whose sizes count large tiles (matmul_tiled_gpu*: 128 x 128 of C per unit)
        // would cost the interpreter a minute at 9 units; 3 still gives several, odd, tiles.
        if (least > 3 && interp::countWork(p, sizes).applications > kMaxApplications) {
          hint.atLeast = 3;
          sizes = interp::chooseSizes(p, hint);
        }
        inputs = interp::randomInputs(p, sizes, 17 + static_cast<uint64_t>(least));
        expected = interp::interpret(p, inputs, sizes);
      } catch (const LiftError& e) {
        if (extra) QSKIP(e.diagnostic().format().c_str());
        QFAIL(e.diagnostic().format().c_str());
      }
      for (const codegen::CompileOptions& o : configs) {
        if (specialised) {
          try {
            k = codegen::compileProgram(interp::specialize(p, sizes), o);
          } catch (const LiftError& e) {
            if (extra) QSKIP(e.diagnostic().format().c_str());
            QFAIL(e.diagnostic().format().c_str());
          }
        }
        const InterpreterCheck c = runAgainstInterpreter(*runner_, k, inputs, expected, sizes, 1e-3);
        QVERIFY2(c.result.ok(), c.what.c_str());
        QVERIFY2(c.matched(), c.what.c_str());
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestCodegenRun)
#include "tst_codegen_run.moc"
