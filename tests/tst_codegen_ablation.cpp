// Ablation of code generation: each switch (index simplification, barrier elimination,
// control-flow simplification, unrolling) changes the kernel, and disabling index
// simplification makes it longer (CGO 2017, section 7: the unsimplified matmul kernel reached
// megabytes).
#include <QtTest/QtTest>

#include "codegen/BarrierElimination.h"
#include "codegen/Compiler.h"
#include "core/lang/Parser.h"

using namespace lift;

namespace {

std::string compile(const std::string& example, void (*tweak)(codegen::CompileOptions&) = nullptr) {
  codegen::CompileOptions o;
  if (tweak) tweak(o);
  ir::Program p = lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/lowlevel/" + example);
  return codegen::compileKernel(p, o).source;
}

codegen::c::StmtP stmt(codegen::c::Stmt::Kind kind, std::vector<codegen::c::StmtP> body = {}) {
  auto s = std::make_unique<codegen::c::Stmt>();
  s->kind = kind;
  for (auto& b : body) s->body.push_back(std::move(b));
  return s;
}

int barriers(const codegen::c::Block& b) {
  int n = 0;
  for (auto& s : b) n += (s->kind == codegen::c::Stmt::Kind::Barrier) + barriers(s->body);
  return n;
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

class TestCodegenAblation : public QObject {
  Q_OBJECT

 private slots:
  void indexSimplificationMakesKernelsShorter_data() {
    QTest::addColumn<QString>("example");
    for (const char* e :
         {"dot.lift", "transpose.lift", "matmul_best.lift", "matmul_expert.lift", "stencil3.lift"})
      QTest::newRow(e) << e;
  }
  void indexSimplificationMakesKernelsShorter() {
    QFETCH(QString, example);
    std::string on = compile(example.toStdString());
    std::string off =
        compile(example.toStdString(), [](codegen::CompileOptions& o) { o.simplifyIndices = false; });
    QVERIFY(on != off);
    QVERIFY2(off.size() > on.size(), qPrintable(QString("%1 vs %2 bytes").arg(off.size()).arg(on.size())));
  }

  void barrierEliminationRemovesBarriers() {
    std::string on = compile("dot.lift");
    std::string off = compile("dot.lift", [](codegen::CompileOptions& o) { o.barrierElimination = false; });
    QVERIFY(on != off);
    QVERIFY(count(off, "barrier(") > count(on, "barrier("));
  }

  // The generator emits an iteration's barrier even where one precedes it; the pass after
  // elimination drops it when the preceding statement, or a block it ends, is a barrier.
  void repeatedBarriersDropped() {
    using K = codegen::c::Stmt::Kind;
    std::vector<codegen::c::StmtP> inScope, inLoop;
    inScope.push_back(stmt(K::Barrier));
    inLoop.push_back(stmt(K::Barrier));
    codegen::c::Block b;
    b.push_back(stmt(K::Barrier));
    b.push_back(stmt(K::Barrier));  // dropped
    b.push_back(stmt(K::Scope, std::move(inScope)));
    b.push_back(stmt(K::Barrier));  // dropped: the scope ends with one
    b.push_back(stmt(K::For, std::move(inLoop)));
    b.push_back(stmt(K::Barrier));  // kept: the loop may not run
    codegen::dropRepeatedBarriers(b);
    QCOMPARE(b.size(), size_t(4));
    QCOMPARE(barriers(b), 4);
    QCOMPARE(int(b.back()->kind), int(K::Barrier));
  }

  void controlFlowSimplificationRemovesLoops() {
    std::string on = compile("dot.lift");
    std::string off = compile("dot.lift", [](codegen::CompileOptions& o) { o.cfgSimplification = false; });
    QVERIFY(on != off);
    QCOMPARE(count(on, "for (int wg_id"), 0);
    QCOMPARE(count(off, "for (int wg_id"), 1);
    QCOMPARE(count(on, "for (int l_id"), 0);
    QCOMPARE(count(off, "for (int l_id"), 3);
    QVERIFY(count(on, "if (get_local_id(0)") == 2);
    QCOMPARE(count(off, "if (get_local_id(0)"), 0);
    // Without it the kernel does not rely on the NDRange.
    QVERIFY(on.find("reqd_work_group_size(64, 1, 1)") != std::string::npos);
    QVERIFY(off.find("reqd_work_group_size") == std::string::npos);
  }

  void unrollingTurnsPrivateArraysIntoVariables() {
    std::string on = compile("matmul_best.lift");
    std::string off = compile("matmul_best.lift", [](codegen::CompileOptions& o) { o.unrolling = false; });
    QVERIFY(on != off);
    QVERIFY(on.find("acc1_0") != std::string::npos);
    QVERIFY(off.find("float acc1[4];") != std::string::npos);
    QVERIFY(count(off, "for (int") > count(on, "for (int"));
  }

  void everySwitchChangesSomeKernel() {
    using Tweak = void (*)(codegen::CompileOptions&);
    const Tweak tweaks[] = {
        [](codegen::CompileOptions& o) { o.simplifyIndices = false; },
        [](codegen::CompileOptions& o) { o.barrierElimination = false; },
        [](codegen::CompileOptions& o) { o.cfgSimplification = false; },
        [](codegen::CompileOptions& o) { o.unrolling = false; },
    };
    for (Tweak t : tweaks) {
      bool changed = false;
      for (const char* e : {"dot.lift", "matmul_best.lift", "matmul_expert.lift"})
        changed = changed || compile(e) != compile(e, t);
      QVERIFY(changed);
    }
  }
};

QTEST_GUILESS_MAIN(TestCodegenAblation)
#include "tst_codegen_ablation.moc"
