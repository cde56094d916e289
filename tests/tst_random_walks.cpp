// Random walks of applied-and-checked rewrites from every example program: every step must
// give a well-typed program equal (in the interpreter, on random inputs at two sizes) to the
// one before, and the end of the walk must equal the start and print to text that parses back to
// it. The seeds are fixed here; the walk code works for any seed (LIFT_WALK_SEEDS=1,2,3 and
// LIFT_WALK_STEPS=n override them; LIFT_WALK_EXCLUDE=rule,rule leaves rules out).
#include <QtTest/QtTest>

#include <filesystem>

#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "rewrite/RandomWalk.h"

using namespace lift;
using namespace lift::rewrite;

namespace {

std::vector<uint64_t> seeds() {
  std::vector<uint64_t> out{11, 23};
  if (const char* env = std::getenv("LIFT_WALK_SEEDS")) {
    out.clear();
    for (const QString& s : QString(env).split(',', Qt::SkipEmptyParts)) out.push_back(s.toULongLong());
  }
  return out;
}

int steps() {
  if (const char* env = std::getenv("LIFT_WALK_STEPS")) return std::atoi(env);
  return 12;
}

std::vector<std::filesystem::path> examples() {
  std::vector<std::filesystem::path> files;
  for (auto* dir : {"/resources/examples", "/resources/examples/lowlevel"})
    for (auto& e : std::filesystem::directory_iterator(std::string(LIFT_SOURCE_DIR) + dir))
      if (e.path().extension() == ".lift") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

class TestRandomWalks : public QObject {
  Q_OBJECT
 private slots:
  void walksStayWellTypedAndEqual_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("multiples");
    QTest::addColumn<qulonglong>("seed");
    for (auto& f : examples())
      for (bool multiples : {false, true})
        for (uint64_t s : seeds())
          QTest::newRow(
              qPrintable(QString("%1%2 seed %3")
                             .arg(QString::fromStdString(f.filename().string()), multiples ? " x4" : "")
                             .arg(s)))
              << QString::fromStdString(f.string()) << multiples << qulonglong(s);
  }

  void walksStayWellTypedAndEqual() {
    QFETCH(QString, file);
    QFETCH(bool, multiples);
    QFETCH(qulonglong, seed);
    TypedProgram start = TypedProgram::check(lang::parseFile(file.toStdString()));
    if (multiples)  // every size a multiple of 4: split, vectorisation and tiling rules apply
      for (auto& s : start.program.sizes) {
        RewriteResult r = applyRewrite(start, RewriteStep::parse("size-multiple@0:var=" + s.name + ",k=4"));
        if (r) start = *r.program;
      }
    RandomWalkOptions o;
    o.steps = steps();
    o.seed = seed;
    o.maxSeconds = 20;  // any seed: the walk stops (and passes) rather than running long
    if (const char* ex = std::getenv("LIFT_WALK_EXCLUDE"))  // rules to leave out (comma separated)
      for (const QString& r : QString(ex).split(',', Qt::SkipEmptyParts))
        o.exclude.push_back(r.toStdString());
    o.equivalence.atLeast = {1, 3, 6};
    o.equivalence.maxInputScalars = 1 << 13;
    RandomWalkResult w = randomWalk(start, o);
    QVERIFY2(w.ok, w.failure.c_str());
    // The whole walk is a derivation: its end equals its start.
    EquivalenceReport eq = checkEquivalence(start.program, w.final.program, o.equivalence);
    QVERIFY2(eq.equal, qPrintable(QString("%1\nafter %2").arg(eq.message.c_str(), [&] {
               QString s;
               for (auto& st : w.steps) s += QString::fromStdString(st.spec()) + " ";
               return s;
             }())));
    // And prints to text that parses back to it (the prelude's names, allPairs among them, too).
    std::string printed = lang::printProgram(w.final.program);
    try {
      ir::Program again = lang::parseProgram(printed, "printed.lift");
      QVERIFY2(ir::alphaEqual(ir::Fun(again.main), ir::Fun(w.final.main())), printed.c_str());
      QCOMPARE(QString::fromStdString(lang::printProgram(again)), QString::fromStdString(printed));
    } catch (const LiftError& e) {
      QFAIL(qPrintable(QString::fromStdString(std::string(e.what()) + "\n" + printed)));
    }
    qInfo("%d steps (%d checked)%s", static_cast<int>(w.steps.size()), w.checked,
          w.stopReason.empty() ? "" : qPrintable(" — " + QString::fromStdString(w.stopReason)));
  }

  void walksReplayExactly() {
    // A walk is a derivation: replaying its steps gives the same program.
    TypedProgram start =
        TypedProgram::check(lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/matmul.lift"));
    RandomWalkOptions o;
    o.steps = 25;
    o.seed = 5;
    o.check = false;
    RandomWalkResult w = randomWalk(start, o);
    QVERIFY2(w.ok, w.failure.c_str());
    TypedProgram cur = start;
    for (auto& s : w.steps) {
      RewriteResult r = applyRewrite(cur, RewriteStep::parse(s.spec()));
      QVERIFY2(r, r.message.c_str());
      cur = *r.program;
    }
    QCOMPARE(lang::printProgram(cur.program), lang::printProgram(w.final.program));
  }
};

QTEST_APPLESS_MAIN(TestRandomWalks)
#include "tst_random_walks.moc"
