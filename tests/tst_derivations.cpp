// Derivations: every shipped resources/derivations/*.derivation replays, its result means what
// its starting program means (interpreter), is fully lowered and compiles to an OpenCL kernel;
// every program on the way prints to text that parses back to it; the text format round-trips;
// strategies expand into replayable rewrites; errors name the file, line and step. Two
// derivations must reach the hand-written low-level examples; the local-memory tiled matmul loops
// over K tiles copied to local memory; the register-blocked one is the explorer's lowering.
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <regex>

#include "codegen/Compiler.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "rewrite/Derivation.h"
#include "rewrite/Equivalence.h"
#include "rewrite/explore/DerivationTemplate.h"
#include "rewrite/explore/OpenCLMapping.h"

using namespace lift;
using namespace lift::rewrite;

namespace {

std::vector<std::filesystem::path> shipped() {
  std::vector<std::filesystem::path> files;
  for (auto& e : std::filesystem::directory_iterator(LIFT_SOURCE_DIR "/resources/derivations"))
    if (e.path().extension() == ".derivation") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string derivationPath(const char* name) {
  return std::string(LIFT_SOURCE_DIR "/resources/derivations/") + name;
}

std::string writeTemp(const QString& name, const std::string& text) {
  static QTemporaryDir dir;
  std::string path = dir.filePath(name).toStdString();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

class TestDerivations : public QObject {
  Q_OBJECT
 private slots:
  void shippedDerivationsReplay_data() {
    QTest::addColumn<QString>("file");
    auto files = shipped();
    QVERIFY(files.size() >= 7);
    for (auto& f : files) QTest::newRow(f.filename().string().c_str()) << QString::fromStdString(f.string());
  }

  void shippedDerivationsReplay() {
    QFETCH(QString, file);
    Derivation d = Derivation::load(file.toStdString());
    QVERIFY(!d.header.empty());  // each says what it derives
    ReplayResult r = replay(d);
    QCOMPARE(r.steps.size(), d.steps.size());
    // The meaning is kept ...
    EquivalenceReport eq = checkEquivalence(r.start.program, r.result.program);
    QVERIFY2(eq, eq.message.c_str());
    // ... and the result is one OpenCL kernel.
    try {
      codegen::CompiledKernel k = codegen::compileKernel(r.result.program);
      Q_UNUSED(k);
    } catch (const LiftError& e) {
      QFAIL(qPrintable(
          QString("does not compile: %1\n%2").arg(e.what(), lang::printProgram(r.result.program).c_str())));
    }
    // The printed start, every step's program and the result parse back to the same program
    // and print the same (the prelude's names, allPairs, slide2D, pad2D, included).
    std::vector<const ir::Program*> programs{&r.start.program};
    for (const ReplayedStep& step : r.steps) programs.push_back(&step.after.program);
    for (const ir::Program* p : programs) {
      std::string printed = lang::printProgram(*p);
      ir::Program again = lang::parseProgram(printed, "<printed>");
      QVERIFY2(ir::alphaEqual(ir::Fun(again.main), ir::Fun(p->main)), printed.c_str());
      QCOMPARE(QString::fromStdString(lang::printProgram(again)), QString::fromStdString(printed));
    }
  }

  void listing58IsTheLowLevelExample() {
    ReplayResult r = replay(Derivation::load(derivationPath("vecsum_listing_5_8.derivation")));
    ir::Program expected = lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/lowlevel/reduce.lift");
    QVERIFY2(ir::alphaEqual(ir::Fun(r.result.main()), ir::Fun(expected.main)),
             lang::printProgram(r.result.program).c_str());
  }

  void partialDotComputesTheLowLevelExample() {
    ReplayResult r = replay(Derivation::load(derivationPath("dot_partial_dot.derivation")));
    ir::Program expected = lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/lowlevel/dot.lift");
    EquivalenceReport eq = checkEquivalence(expected, r.result.program);
    QVERIFY2(eq, eq.message.c_str());
  }

  void tiledBlockedIsTheExplorersLocalMapping() {
    // The shipped derivation's lowering is what the explorer's "-local" mapping does to its
    // algorithmic steps: the explorer reaches this kernel from matmul.lift alone.
    Derivation d = Derivation::load(derivationPath("matmul_tiled_blocked.derivation"));
    ReplayResult r = replay(d);
    Derivation algorithmic = d;
    algorithmic.steps.resize(5);  // size-multiple x3, tiling, tile-reduction-blocked
    ReplayResult a = replay(algorithmic);
    const explore::OpenCLMapping* local = nullptr;
    std::vector<explore::OpenCLMapping> maps = explore::openclMappings(a.result);
    for (const explore::OpenCLMapping& m : maps)
      if (m.name == "wrg-1-0-lcl-1-0-local") local = &m;
    QVERIFY(local);
    auto lowered = explore::replaySteps(a.result, local->steps);
    QVERIFY(lowered);
    QVERIFY2(ir::alphaEqual(ir::Fun(lowered->main()), ir::Fun(r.result.main())),
             lang::printProgram(lowered->program).c_str());
    // 16 x 16 work-items, each with its 4 x 4 block in registers; the two tiles in local memory.
    codegen::CompiledKernel k = codegen::compileKernel(r.result.program);
    QVERIFY2(k.source.find("reqd_work_group_size(16, 16, 1)") != std::string::npos, k.source.c_str());
    QVERIFY2(k.source.find("acc1_15") != std::string::npos, k.source.c_str());
    size_t first = k.source.find("local float");
    QVERIFY(first != std::string::npos && k.source.find("local float", first + 1) != std::string::npos);
  }

  void tiledLocalLoopsOverKTilesInLocalMemory() {
    // The reduction over K is the work-group's loop over pairs of tiles, both copied to local
    // memory in each step, with barriers around them; the accumulator is one private register
    // per work-item (only the two tiles are local).
    ReplayResult r = replay(Derivation::load(derivationPath("matmul_tiled_local.derivation")));
    std::string printed = lang::printProgram(r.result.program);
    QVERIFY2(printed.find("reduceSeq(\n        fun((acc, tiles) =>") != std::string::npos, printed.c_str());
    size_t first = printed.find("toLocal(mapLcl1");
    QVERIFY2(first != std::string::npos && printed.find("toLocal(mapLcl1", first + 1) != std::string::npos,
             printed.c_str());
    codegen::CompiledKernel k = codegen::compileKernel(r.result.program);
    QVERIFY2(k.source.find("local float tmp1[256];") != std::string::npos &&
                 k.source.find("local float tmp2[256];") != std::string::npos &&
                 k.source.find("local float tmp3") == std::string::npos,
             k.source.c_str());
    QVERIFY2(std::regex_search(k.source, std::regex("\\n  float acc[0-9]+;")), k.source.c_str());
    QVERIFY2(k.source.find("barrier(CLK_LOCAL_MEM_FENCE)") != std::string::npos, k.source.c_str());
  }

  void textRoundTrips() {
    for (auto& f : shipped()) {
      Derivation d = Derivation::load(f.string());
      std::string text = d.toText();
      Derivation again = Derivation::parse(text, d.file);
      QCOMPARE(again.steps.size(), d.steps.size());
      for (size_t i = 0; i < d.steps.size(); ++i) QCOMPARE(again.steps[i].text(), d.steps[i].text());
      QCOMPARE(again.toText(), text);
    }
  }

  void strategiesFlattenToRewrites() {
    Derivation d = Derivation::load(derivationPath("vecsum_listing_5_13.derivation"));
    ReplayResult r = replay(d);
    Derivation flat;
    flat.file = d.file;
    flat.program = d.program;
    for (auto& s : r.flattened())
      flat.steps.push_back({DerivationStep::Kind::Rewrite, s, "", Location::body(), "", 0});
    QVERIFY(flat.steps.size() > d.steps.size());
    ReplayResult again = replay(Derivation::parse(flat.toText(), d.file));
    QCOMPARE(lang::printProgram(again.result.program), lang::printProgram(r.result.program));
  }

  void programPathResolution() {
    // Relative to the derivation's folder, else to a resources/ folder above it.
    Derivation d = Derivation::load(derivationPath("matmul_register_blocking_1d.derivation"));
    QVERIFY(std::filesystem::exists(d.programPath()));
    QVERIFY(d.programPath().find("resources/examples/matmul.lift") != std::string::npos);
    Derivation missing = Derivation::parse("program: nowhere.lift\n", derivationPath("x.derivation"));
    QVERIFY_EXCEPTION_THROWN(missing.programPath(), LiftError);
  }

  void errorsNameLineAndStep() {
    try {
      Derivation::parse("# t\nprogram: examples/dot.lift\nmap-fuson@0\n", "f.derivation");
      QFAIL("expected an error");
    } catch (const LiftError& e) {
      QCOMPARE(e.diagnostic().loc.line, 3);
      QVERIFY(std::string(e.what()).find("did you mean map-fusion") != std::string::npos);
    }
    QVERIFY_EXCEPTION_THROWN(Derivation::parse("map-fusion@0\n", "f.derivation"), LiftError);  // no program
    QVERIFY_EXCEPTION_THROWN(Derivation::parse("program: a.lift\nstrategy: repeat(\n", "f.derivation"),
                             LiftError);
    std::string path =
        writeTemp("bad.derivation", "program: " LIFT_SOURCE_DIR
                                    "/resources/examples/dot.lift\n"
                                    "1. split-join@0.2:n=4   # the length is N: not provably divisible\n");
    try {
      replay(Derivation::load(path));
      QFAIL("expected an error");
    } catch (const LiftError& e) {
      QCOMPARE(e.diagnostic().loc.line, 2);
      QVERIFY(std::string(e.what()).find("step 1") != std::string::npos);
      QVERIFY(std::string(e.what()).find("does not provably divide") != std::string::npos);
    }
  }

  void savedDerivationReplaysExactly() {
    // Record some rewrites, save, load, replay: the same program.
    TypedProgram start =
        TypedProgram::check(lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/asum.lift"));
    Derivation d;
    d.header = {"asum fused and lowered"};
    d.program = LIFT_SOURCE_DIR "/resources/examples/asum.lift";
    for (const char* spec : {"reduce-map-fusion@0", "reduce-to-seq@0"})
      d.steps.push_back(
          {DerivationStep::Kind::Rewrite, RewriteStep::parse(spec), "", Location::body(), "", 0});
    std::string path = writeTemp("asum.derivation", d.toText());
    ReplayResult r = replay(Derivation::load(path));
    TypedProgram cur = start;
    for (auto& s : d.steps) cur = *applyRewrite(cur, s.rewrite).program;
    QCOMPARE(lang::printProgram(r.result.program), lang::printProgram(cur.program));
  }
};

QTEST_APPLESS_MAIN(TestDerivations)
#include "tst_derivations.moc"
