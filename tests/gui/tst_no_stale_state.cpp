// No stale state in the main window (issue 18, part 4): a program that fails to load — File >
// Open of a file with a type error, or an edit that does not parse — leaves the previous program
// on screen marked as not current (a notice above the graph and the kernel), with Run, Search
// and the rule pane off until the text type-checks again; opening another example starts the
// run pane (sizes, result) and the search pane (plot, sizes) over.
#include <QtTest/QtTest>

#include <QAction>
#include <QFile>
#include <QTemporaryDir>

#include "views/GraphPane.h"
#include "views/GraphView.h"
#include "views/MainWindow.h"
#include "views/PerformancePlot.h"
#include "views/ProgramEditor.h"
#include "views/RulePalette.h"
#include "views/RunPanel.h"
#include "views/SearchPanel.h"
#include "views/Session.h"
#include "views/SizeFields.h"

using namespace lift::views;

class TestNoStaleState : public QObject {
  Q_OBJECT

  static QString example(const QString& name) {
    QFile f(":/examples/" + name + ".lift");
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
  }
  // scal with `x` where its element `xi` belongs: it parses, and does not type-check.
  static QString scalWithATypeError() {
    QString text = example("scal");
    text.replace("mult(alpha, xi)", "mult(alpha, x)");
    return text;
  }
  // Everything that says whether the window treats its program as the text's.
  static void verifyCurrent(MainWindow& w, bool current) {
    QCOMPARE(w.session()->isProgramCurrent(), current);
    QCOMPARE(w.graphPane()->notice().isEmpty(), current);
    QCOMPARE(w.kernelNotice().isEmpty(), current);
    QCOMPARE(w.runAction()->isEnabled(), current);
    QCOMPARE(w.searchAction()->isEnabled(), current);
    QCOMPARE(w.runPanel()->isAvailable(), current);
    QCOMPARE(w.searchPanel()->isAvailable(), current);
    QCOMPARE(w.rulePalette()->isEnabled(), current);
  }

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void openingAFileWithATypeErrorMarksThePreviousProgramStale() {
    QTemporaryDir dir;
    QString bad = dir.filePath("bad.lift");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(scalWithATypeError().toUtf8());
    f.close();

    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("matmul"));
    verifyCurrent(w, true);
    int matmulNodes = w.graphView()->nodeItemCount();

    QVERIFY(!w.openFile(bad));
    QVERIFY(!w.session()->diagnostic().message.empty());
    QVERIFY(w.programEditor()->text().contains("mult(alpha, x)"));  // the new text, with its error
    QCOMPARE(w.graphView()->nodeItemCount(), matmulNodes);          // the old graph stays, marked
    verifyCurrent(w, false);
    QVERIFY2(w.graphPane()->notice().contains("Not the program in the editor"),
             qPrintable(w.graphPane()->notice()));
    QVERIFY2(w.graphPane()->notice().contains("line 8"), qPrintable(w.graphPane()->notice()));
    // F6 and Ctrl+R do nothing: the old program is neither searched nor run.
    w.searchPanel()->start();
    QVERIFY(!w.searchPanel()->isRunning());
    w.runPanel()->run();
    QVERIFY(!w.runPanel()->isRunning());
    QVERIFY(w.searchPanel()->plot()->pointCount() == 0);

    // Fixed in the editor: the text's program is shown, and everything is on again.
    w.programEditor()->setText(example("scal"));
    w.session()->reparse();
    verifyCurrent(w, true);
    QVERIFY(w.graphView()->nodeItemCount() != matmulNodes);
  }

  void anEditThatDoesNotParseMarksTheProgramStale() {
    MainWindow w;
    QVERIFY(w.openExample("scal"));
    verifyCurrent(w, true);
    auto shown = w.session()->program();
    w.programEditor()->setText(example("scal") + "\n$$$");
    w.session()->reparse();
    QCOMPARE(w.session()->program(), shown);  // the last good program stays shown...
    verifyCurrent(w, false);                  // ...marked as not the text's
    w.programEditor()->setText(example("scal") + "\n// fixed");
    w.session()->reparse();
    verifyCurrent(w, true);
  }

  void switchingExampleStartsRunAndSearchOver() {
    MainWindow w;
    QVERIFY(w.openExample("matmul"));
    QMap<QString, QString> small{{"M", "8"}, {"N", "8"}, {"K", "8"}};
    w.runPanel()->setSizeTexts(small);
    w.searchPanel()->sizeFields()->setTexts(small);
    w.runPanel()->setSizeTexts({{"M", "x"}});  // a run refused: the result line says why
    QString idle = w.runPanel()->resultText();
    w.runPanel()->run();
    QVERIFY(w.runPanel()->resultText() != idle);
    PlotPoint p;
    p.id = 1;
    p.valid = true;
    p.gflops = 1;
    p.ms = 1;
    w.searchPanel()->plot()->addPoint(p);

    QVERIFY(w.openExample("lowlevel/matmul"));  // the same size names M, N, K
    QCOMPARE(w.runPanel()->resultText(), idle);
    QCOMPARE(w.searchPanel()->plot()->pointCount(), 0);
    MainWindow fresh;
    QVERIFY(fresh.openExample("lowlevel/matmul"));
    QCOMPARE(w.runPanel()->sizeTexts(), fresh.runPanel()->sizeTexts());
    QCOMPARE(w.searchPanel()->sizeFields()->texts(), fresh.searchPanel()->sizeFields()->texts());
    QVERIFY(w.runPanel()->sizeTexts() != small);
  }
};

QTEST_MAIN(TestNoStaleState)
#include "tst_no_stale_state.moc"
