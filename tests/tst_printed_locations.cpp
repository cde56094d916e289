// Positions in a program's printed text (lang::withPrintedLocations): after a rewrite, every
// node's position names its own text in the re-printed program, not a place in the file the
// program was first read from.
#include <QtTest/QtTest>

#include "core/ir/Pattern.h"
#include "core/ir/Prelude.h"
#include "core/lang/Parser.h"
#include "core/lang/PrintedLocations.h"
#include "core/lang/Printer.h"
#include "rewrite/Engine.h"

using namespace lift;

namespace {

std::string readExample(const char* name) {
  QFile f(QString(LIFT_SOURCE_DIR "/resources/examples/") + name);
  return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

// The text at 1-based line:col of `text`.
std::string textAt(const std::string& text, const SourceLoc& loc) {
  size_t pos = 0;
  for (int line = 1; line < loc.line; ++line) pos = text.find('\n', pos) + 1;
  return text.substr(pos + static_cast<size_t>(loc.col - 1));
}

// Whether `text` starts with the name of a prelude function (slide2D, pad2D, allPairs): the
// patterns it expands to have its position.
bool atPreludeName(const std::string& text) {
  for (const std::string& n : ir::preludeNames())
    if (text.rfind(n + "(", 0) == 0) return true;
  return false;
}

// Every pattern call's and user function's position in `p.source` starts with its name, or with
// the name of the prelude function it is part of.
void checkNamesAtPositions(const ir::Program& p) {
  QVERIFY(p.source);
  int checked = 0;
  ir::visitPreOrder(p.main, [&](const ir::NodePath& path) {
    ir::NodeRef n = path.back().node;
    std::string name;
    if (auto* pat = n.isFun() ? ir::asPattern(n.fun()) : nullptr)
      name = ir::patternName(pat->pattern());
    else if (auto* u = n.isFun() ? ir::asUserFun(n.fun()) : nullptr)
      name = u->def().name;
    SourceLoc loc = p.locationOf(n.id());
    if (name.empty() || !loc.known()) return true;
    std::string at = textAt(*p.source, loc);
    if (at.rfind(name, 0) != 0 && !atPreludeName(at))
      QTest::qFail(
          qPrintable(QString::fromStdString(name + " at " + std::to_string(loc.line) + ":" +
                                            std::to_string(loc.col) + " reads '" + at.substr(0, 20) + "'")),
          __FILE__, __LINE__);
    ++checked;
    return true;
  });
  QVERIFY(checked > 3);
}

}  // namespace

class TestPrintedLocations : public QObject {
  Q_OBJECT
 private slots:
  // A program read from its printed text has the positions that text gives it.
  void printedTextKeepsItsPositions() {
    ir::Program first = lang::parseProgram(readExample("matmul.lift"), "matmul.lift");
    ir::Program p = lang::parseProgram(lang::printProgram(first), "matmul.lift");
    ir::Program q = lang::withPrintedLocations(p);
    QCOMPARE(*q.source, lang::printProgram(p));
    QVERIFY(!p.locations->empty());
    for (auto& [id, loc] : *p.locations) {
      SourceLoc got = q.locationOf(id);
      QCOMPARE(got.line, loc.line);
      QCOMPARE(got.col, loc.col);
    }
  }

  // The file has comments above the program: after a rewrite its positions are off by those
  // lines, the printed ones are not.
  void rewrittenProgramNamesItsPrintedText() {
    auto start = rewrite::TypedProgram::check(lang::parseProgram(readExample("matmul.lift"), "matmul.lift"));
    rewrite::RewriteResult r =
        rewrite::applyRewrite(start, rewrite::RewriteStep::parse("map-map-interchange@0"));
    QVERIFY(r);
    ir::Program q = lang::withPrintedLocations(r.program->program);
    checkNamesAtPositions(q);
    // Before: the rewritten program's zip still sits where the file has it.
    bool zipMoved = false;
    ir::visitPreOrder(q.main, [&](const ir::NodePath& path) {
      auto* pat = path.back().node.isFun() ? ir::asPattern(path.back().node.fun()) : nullptr;
      if (pat && pat->pattern() == ir::PatternKind::Zip)
        zipMoved = q.locationOf(pat->id()).line != r.program->program.locationOf(pat->id()).line;
      return true;
    });
    QVERIFY(zipMoved);
  }

  // Every bundled example, printed: each name is where its position says.
  void everyExampleNamesItsPrintedText() {
    for (const char* name :
         {"matmul.lift", "dot.lift", "gemv.lift", "lowlevel/matmul_tiled_gpu.lift", "stencil3.lift",
          "md_gemm.lift", "kmeans.lift", "manhattan.lift", "cosine_similarity.lift", "gaussian_blur.lift"}) {
      std::string text = readExample(name);
      QVERIFY2(!text.empty(), name);
      checkNamesAtPositions(lang::withPrintedLocations(lang::parseProgram(text, name)));
      if (QTest::currentTestFailed()) QFAIL(name);
    }
  }
};

QTEST_GUILESS_MAIN(TestPrintedLocations)
#include "tst_printed_locations.moc"
