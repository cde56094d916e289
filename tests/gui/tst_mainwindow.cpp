// The main window driven like a user: open an example, click graph nodes, pick rules in the
// rewrite pane, press Apply — four times, lowering scal to a work-group kernel — and check
// that the program text, graph, history (verified steps), kernel and index panes follow.
// Undo/redo and saving/replaying the derivation round-trip.
#include <QtTest/QtTest>

#include <QCheckBox>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>

#include "views/DerivationTreeModel.h"
#include "views/FileDialogs.h"
#include "views/GraphPane.h"
#include "views/GraphView.h"
#include "views/IndexTableModel.h"
#include "views/KernelView.h"
#include "views/MainWindow.h"
#include "views/ProgramEditor.h"
#include "views/RulePalette.h"
#include "views/RunPanel.h"
#include "views/Session.h"
#include "views/SizeFields.h"

using namespace lift;
using namespace lift::views;

class TestMainWindow : public QObject {
  Q_OBJECT

  // Clicks (with the mouse) the graph node whose label is exactly `label`; the `nth` such node.
  static bool clickNode(MainWindow& w, const QString& label, int nth = 0) {
    GraphView* g = w.graphView();
    for (auto& n : g->graph().nodes) {
      if (QString::fromStdString(n.label) != label || nth-- > 0) continue;
      QRectF r = g->nodeRect(n.irId);
      g->centerOn(r.center());
      QPoint p = g->mapFromScene(r.center());
      QTest::mouseClick(g->viewport(), Qt::LeftButton, {}, p);
      w.rulePalette()->waitForRules();
      return g->selectedNode() == n.irId;
    }
    return false;
  }

  // Clicks the rule `name` in the rule tree, then the Apply button.
  static bool applyRule(MainWindow& w, const QString& name) {
    auto* tree = w.rulePalette()->findChild<QTreeWidget*>("ruleTree");
    QTreeWidgetItem* target = nullptr;
    for (int g = 0; g < tree->topLevelItemCount() && !target; ++g)
      for (int c = 0; c < tree->topLevelItem(g)->childCount(); ++c)
        if (tree->topLevelItem(g)->child(c)->text(0) == name) target = tree->topLevelItem(g)->child(c);
    if (!target) return false;
    tree->scrollToItem(target);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(target).center());
    if (tree->currentItem() != target) return false;
    auto* apply = w.rulePalette()->findChild<QPushButton*>("applyRule");
    if (!apply->isEnabled()) return false;
    int states = w.session()->tree()->stateCount();
    QTest::mouseClick(apply, Qt::LeftButton);
    return w.session()->tree()->stateCount() == states + 1;
  }

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void deriveKernelByClicking() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("scal"));
    QVERIFY(w.kernelView()->compiled() == nullptr);  // high level: no kernel yet, with a reason
    QVERIFY(!w.kernelView()->errorText().isEmpty());

    QVERIFY(clickNode(w, "map"));
    QVERIFY(w.rulePalette()->applicableCount() > 0);
    QVERIFY(applyRule(w, "size-multiple"));
    QVERIFY(w.programEditor()->text().contains("[float]4*N"));

    QVERIFY(clickNode(w, "map"));
    QVERIFY(applyRule(w, "split-join"));
    QVERIFY(w.programEditor()->text().contains("split(4)"));
    QVERIFY(w.programEditor()->text().contains("join"));

    // The outer map now maps over chunks: give it to work-groups, the inner one to threads.
    QVERIFY(clickNode(w, "map"));
    QVERIFY(applyRule(w, "map-to-wrg"));
    QVERIFY(w.programEditor()->text().contains("mapWrg0"));
    QVERIFY(w.kernelView()->compiled() == nullptr);  // the inner map is still high level

    QVERIFY(clickNode(w, "map(mult)") || clickNode(w, "map"));
    QVERIFY(applyRule(w, "map-to-lcl"));
    QVERIFY(w.programEditor()->text().contains("mapLcl0"));

    // The kernel and index panes follow.
    const codegen::CompiledProgram* k = w.kernelView()->compiled();
    QVERIFY2(k != nullptr, qPrintable(w.kernelView()->errorText()));
    QVERIFY(w.kernelView()->source().contains("get_group_id(0)"));
    QVERIFY(w.kernelView()->source().contains("get_local_id(0)"));
    QVERIFY(w.kernelView()->indexModel()->rowCount() >= 2);
    QAbstractItemModelTester tester(w.kernelView()->indexModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);

    // Every step is verified by the interpreter.
    w.session()->waitForChecks();
    QCOMPARE(w.session()->tree()->stateCount(), 5);
    for (int i = 1; i < 5; ++i)
      QVERIFY2(w.session()->tree()->state(i).check == DerivationTreeModel::Check::Verified,
               qPrintable(w.session()->tree()->state(i).checkMessage));

    // Cross-highlighting: the selected mapLcl node has kernel lines.
    QVERIFY(clickNode(w, "mapLcl0(mult)") || clickNode(w, "mapLcl0"));
    QVERIFY(w.kernelView()->highlightedLineCount() > 0);

    // Undo goes back to the work-group step (no kernel), redo returns.
    w.session()->undoStack()->undo();
    QVERIFY(!w.programEditor()->text().contains("mapLcl0"));
    QVERIFY(w.kernelView()->compiled() == nullptr);
    w.session()->undoStack()->redo();
    QVERIFY(w.programEditor()->text().contains("mapLcl0"));
    QVERIFY(w.kernelView()->compiled() != nullptr);

    // The derivation saves and replays to the same program.
    QTemporaryDir dir;
    QString path = dir.filePath("scal.derivation");
    QVERIFY(w.session()->saveDerivation(path));
    QString finalText = w.programEditor()->text();
    MainWindow w2;
    w2.session()->openDerivation(path);  // replayed in the background
    QVERIFY(w2.session()->isReplaying());
    w2.session()->waitForReplay();
    QCOMPARE(w2.programEditor()->text(), finalText);
    QCOMPARE(w2.session()->tree()->stateCount(), 5);
  }

  void sessionRoundTripKeepsBranchesAndEdits() {
    QTemporaryDir dir;
    QString path = dir.filePath("s.liftsession");
    QString current;
    {
      MainWindow w;
      QVERIFY(w.openExample("matmul"));
      QVERIFY(w.session()->applyRewrite("map-map-interchange@0"));
      w.session()->undoStack()->undo();                          // back to the start...
      QVERIFY(w.session()->applyRewrite("map-to-glb@0:dim=0"));  // ...and a second branch from it
      current = w.programEditor()->text();
      QCOMPARE(w.session()->tree()->stateCount(), 3);
      QVERIFY(w.session()->saveSession(path));
    }
    MainWindow w2;
    QVERIFY(w2.openSession(path));
    w2.session()->waitForReplay();
    QCOMPARE(w2.session()->tree()->stateCount(), 3);
    QCOMPARE(w2.session()->tree()->state(1).parent, 0);
    QCOMPARE(w2.session()->tree()->state(2).parent, 0);
    QCOMPARE(w2.programEditor()->text(), current);
    // Unfinished edits are part of the session too.
    w2.programEditor()->setText(current + "\n// not finished (");
    QVERIFY(w2.session()->saveSession(path));
    MainWindow w3;
    QVERIFY(w3.openSession(path));
    w3.session()->waitForReplay();
    QVERIFY(w3.programEditor()->text().endsWith("// not finished ("));
    // A file that is not a session is refused with a message, not a crash.
    QFile bad(dir.filePath("bad.liftsession"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{ not json");
    bad.close();
    QTimer::singleShot(0, [] {
      for (QWidget* top : QApplication::topLevelWidgets())
        if (auto* box = qobject_cast<QMessageBox*>(top)) box->accept();
    });
    QVERIFY(!w3.openSession(dir.filePath("bad.liftsession")));
  }

  void ruleThatDoesNotApplyIsExplained() {
    MainWindow w;
    QVERIFY(w.openExample("scal"));
    QString error;
    QVERIFY(!w.session()->applyRewrite("map-to-lcl@0", &error));  // mapLcl needs an enclosing mapWrg
    QVERIFY2(!error.isEmpty(), "no reason given");
    QVERIFY(!w.session()->applyRewrite("no-such-rule@0", &error));
    QVERIFY2(error.contains("unknown rule"), qPrintable(error));
    QCOMPARE(w.session()->tree()->stateCount(), 1);  // nothing changed
  }

  // The kernel pane's tuning toggles (off by default) switch the float4 reads of local memory
  // and the unroll pragmas in the kernel shown, and the session keeps them.
  void tuningTogglesChangeTheKernel() {
    MainWindow w;
    w.show();
    QVERIFY(w.openFile(LIFT_SOURCE_DIR "/tests/data/codegen/matmul_lanes_local_tiles.lift"));
    QVERIFY2(w.kernelView()->compiled() != nullptr, qPrintable(w.kernelView()->errorText()));
    auto* vload = w.kernelView()->findChild<QCheckBox*>("toggleVectorLoads");
    auto* pragma = w.kernelView()->findChild<QCheckBox*>("toggleUnrollPragma");
    QVERIFY(vload && pragma);
    QVERIFY(!vload->isChecked() && !pragma->isChecked());
    QVERIFY(!w.kernelView()->source().contains("(local float4*)"));
    vload->click();
    QVERIFY(w.kernelView()->source().contains("((local float4*)tmp2)"));
    QVERIFY(!w.kernelView()->source().contains("#pragma unroll"));
    pragma->click();
    QVERIFY(w.kernelView()->source().contains("#pragma unroll 4"));  // the K tile's 4 iterations
    QVERIFY(w.session()->compileOptions().vectorLocalLoads);
    QCOMPARE(w.session()->compileOptions().innerLoopUnroll, 8);
    vload->click();
    QVERIFY(!w.kernelView()->source().contains("(local float4*)"));
    auto* twice = w.kernelView()->findChild<QCheckBox*>("toggleDoubleBuffer");
    QVERIFY(twice && !twice->isChecked());
    QVERIFY(!w.kernelView()->source().contains("if (i + 1 < K)"));
    twice->click();
    QVERIFY(w.kernelView()->source().contains("if (i + 1 < K)"));
    QVERIFY(w.session()->compileOptions().doubleBuffering);
    // Padded rows: the tiles (4 x 4 float4, 4 x 16 float, twice for double buffering) grow by a
    // row's element each.
    auto* pad = w.kernelView()->findChild<QCheckBox*>("togglePadLocal");
    QVERIFY(pad && !pad->isChecked());
    QVERIFY(w.kernelView()->source().contains("local float tmp2[128];"));
    pad->click();
    QVERIFY2(w.kernelView()->source().contains("local float tmp2[136];"),
             qPrintable(w.kernelView()->source()));
    QCOMPARE(w.session()->compileOptions().localPadding, 1);
    pad->click();
    QCOMPARE(w.session()->compileOptions().localPadding, 0);
    // Index temporaries: repeated index subexpressions declared once (64*wg_id_1*K, ...).
    auto* cse = w.kernelView()->findChild<QCheckBox*>("toggleCseIndices");
    QVERIFY(cse && !cse->isChecked());
    QVERIFY(!w.kernelView()->source().contains("const int ix1 = "));
    cse->click();
    QVERIFY2(w.kernelView()->source().contains("const int ix1 = "), qPrintable(w.kernelView()->source()));
    QVERIFY(w.session()->compileOptions().indexCse);
    cse->click();
    QVERIFY(!w.session()->compileOptions().indexCse);
    // Stream-K: this program's sizes are symbolic, so the kernel stays as it is and the line
    // above the kernel says why.
    auto* streamK = w.kernelView()->findChild<QCheckBox*>("toggleStreamK");
    auto* info = w.kernelView()->findChild<QLabel*>("kernelInfo");
    QVERIFY(streamK && info && !streamK->isChecked());
    QString before = w.kernelView()->source();
    streamK->click();
    QCOMPARE(w.session()->compileOptions().streamK, 264);
    QCOMPARE(w.kernelView()->source(), before);
    QVERIFY2(info->text().contains("stream-K does not apply here"), qPrintable(info->text()));
    streamK->click();
    QCOMPARE(w.session()->compileOptions().streamK, 0);
    QVERIFY(!info->text().contains("stream-K"));
    // The register cap is a build option (NVIDIA's PTX gets .maxnreg): the source stays as it is.
    auto* cap = w.kernelView()->findChild<QCheckBox*>("toggleRegisterCap");
    QVERIFY(cap && !cap->isChecked());
    cap->click();
    QCOMPARE(w.session()->compileOptions().maxRegisters, 128);
    QCOMPARE(w.kernelView()->source(), before);
    cap->click();
    QCOMPARE(w.session()->compileOptions().maxRegisters, 0);
    // The loop over K tiles (the one with barriers inside) unrolled twice.
    auto* tiles = w.kernelView()->findChild<QCheckBox*>("toggleUnrollTiles");
    QVERIFY(tiles && !tiles->isChecked());
    tiles->click();
    QCOMPARE(w.session()->compileOptions().tileLoopUnroll, 2);
    QVERIFY2(w.kernelView()->source().contains("#pragma unroll 2\n      for (int i = 0; i < K; i += 1) {"),
             qPrintable(w.kernelView()->source()));
    tiles->click();
    QCOMPARE(w.session()->compileOptions().tileLoopUnroll, 1);
    QCOMPARE(w.kernelView()->source(), before);
    // The prefetching step in two parts: with the prefetch to registers only.
    auto* prefetch = w.kernelView()->findChild<QCheckBox*>("togglePrefetch");
    auto* parts = w.kernelView()->findChild<QCheckBox*>("togglePrefetchParts");
    QVERIFY(prefetch && parts && !prefetch->isChecked() && !parts->isChecked());
    parts->click();
    QCOMPARE(w.session()->compileOptions().prefetchParts, 2);
    QCOMPARE(w.kernelView()->source(), before);
    prefetch->click();
    QVERIFY2(w.kernelView()->source().contains("part 2 of 2: "), qPrintable(w.kernelView()->source()));
    QVERIFY(!info->text().contains("prefetch in"));
    // Three parts do not divide the step's loop of 4: the kernel as in one part, and the line
    // above it says why.
    QString twoParts = w.kernelView()->source();
    codegen::CompileOptions three = w.kernelView()->options();
    three.prefetchParts = 3;
    w.kernelView()->setOptions(three);
    QCOMPARE(parts->text(), QString("Prefetch in 3 parts"));
    QVERIFY2(info->text().contains("prefetch in 3 parts does not apply here"), qPrintable(info->text()));
    QString threeParts = w.kernelView()->source();
    QVERIFY(!threeParts.contains("part 1 of"));
    parts->click();  // one part
    QCOMPARE(w.kernelView()->source(), threeParts);
    QVERIFY(!info->text().contains("prefetch in"));
    three.prefetchParts = 2;
    w.kernelView()->setOptions(three);
    QCOMPARE(parts->text(), QString("Prefetch in 2 parts"));
    QCOMPARE(w.kernelView()->source(), twoParts);
    parts->click();
    QCOMPARE(w.session()->compileOptions().prefetchParts, 1);
    QVERIFY(!w.kernelView()->source().contains("part 2 of 2: "));
    prefetch->click();
    QCOMPARE(w.kernelView()->source(), before);
  }

  // One action per shortcut: Ctrl+0 was bound by the View menu and the graph's tool bar, so Qt
  // reported "Ambiguous shortcut overload" and Fit never ran from the keyboard.
  void everyShortcutHasOneAction() {
    MainWindow w;
    QMap<QString, QString> owner;  // shortcut -> the action's text
    for (QAction* a : w.findChildren<QAction*>())
      for (const QKeySequence& k : a->shortcuts()) {
        QString key = k.toString(QKeySequence::PortableText);
        QVERIFY2(!owner.contains(key),
                 qPrintable(key + " is bound to '" + owner.value(key) + "' and '" + a->text() + "'"));
        owner[key] = a->text();
      }
    QVERIFY(owner.contains("Ctrl+0"));

    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openExample("matmul"));
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    auto* pane = w.findChild<GraphPane*>();
    QVERIFY(pane);
    QSignalSpy fit(pane->fitAction(), &QAction::triggered);
    w.graphView()->zoomIn();
    QTest::keyClick(w.graphView(), Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(fit.count(), 1);
  }

  // An exported kernel says how to launch it: its NDRange, symbolic and at the run pane's sizes.
  void exportedKernelCarriesItsNDRangeAndSizes() {
    MainWindow w;
    QVERIFY(w.openExample("lowlevel/dot"));
    QVERIFY2(w.kernelView()->compiled() != nullptr, qPrintable(w.kernelView()->errorText()));
    w.runPanel()->setSizeTexts({{"N", "4096"}});
    QString text = w.exportedKernel();
    QVERIFY2(text.startsWith("// Kernel "), qPrintable(text));
    QVERIFY2(text.contains("// NDRange: ") && text.contains("global ("), qPrintable(text.left(400)));
    QVERIFY2(text.contains("// At N=4096: global ("), qPrintable(text.left(400)));
    QVERIFY(text.endsWith(w.kernelView()->source()));
  }

  // A program that finishes its reduction on the device shows both of its kernels, one after the
  // other under a line naming each, and the index table lists the accesses of both, at their lines
  // in the pane; the exported file carries both.
  void programOfTwoKernelsShowsEach() {
    MainWindow w;
    QVERIFY(w.openExample("lowlevel/asum_device"));
    const codegen::CompiledProgram* c = w.kernelView()->compiled();
    QVERIFY2(c != nullptr, qPrintable(w.kernelView()->errorText()));
    QVERIFY(w.kernelView()->errorText().isEmpty());
    QCOMPARE(c->stages.size(), size_t(2));
    QString source = w.kernelView()->source();
    int first = source.indexOf("// ----- kernel 1 of 2: ");
    int second = source.indexOf("// ----- kernel 2 of 2: ");
    QVERIFY2(first == 0 && second > first, qPrintable(source.left(400)));
    QCOMPARE(source.count(QRegularExpression("^kernel ", QRegularExpression::MultilineOption)), 2);
    QString secondName = QString::fromStdString(c->stages[1].kernel.kernelName);
    QVERIFY(source.indexOf(" void " + secondName + "(") > second);

    QStringList lines = source.split('\n');
    int secondKernelLine = static_cast<int>(source.left(second).count('\n')) + 1;  // 1-based
    bool accessInSecond = false;
    IndexTableModel* model = w.kernelView()->indexModel();
    QCOMPARE(model->rowCount(),
             static_cast<int>(c->stages[0].kernel.indices.size() + c->stages[1].kernel.indices.size()));
    for (int r = 0; r < model->rowCount(); ++r) {
      const codegen::IndexEntry& e = model->entry(r);
      QVERIFY(e.line >= 1 && e.line <= lines.size());
      QVERIFY2(lines[e.line - 1].contains(QString::fromStdString(e.buffer)),
               qPrintable(QString("line %1: %2").arg(e.line).arg(lines[e.line - 1])));
      accessInSecond = accessInSecond || e.line > secondKernelLine;
    }
    QVERIFY(accessInSecond);

    QString exported = w.exportedKernel();
    QVERIFY2(exported.startsWith("// 2 kernels"), qPrintable(exported.left(200)));
    QVERIFY(exported.contains("// Kernel " + secondName + " (2 of 2)"));
    QCOMPARE(exported.count(QRegularExpression("^kernel ", QRegularExpression::MultilineOption)), 2);
  }

  // File dialogs open in the last folder a file was chosen in, at first in the documents folder.
  void fileDialogsStartInDocumentsOrTheLastFolder() {
    QSettings().remove("files/lastFolder");
    QCOMPARE(dialogFolder(), QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    QTemporaryDir dir;
    QSettings().setValue("files/lastFolder", dir.path());
    QCOMPARE(dialogFolder(), dir.path());
    QSettings().remove("files/lastFolder");
  }

  // A size beyond 32 bits is refused in the size fields (the run pane used to start a run with it,
  // and the app aborted on what escaped the worker).
  void sizeFieldsRefuseSizesBeyond32Bits() {
    MainWindow w;
    QVERIFY(w.openExample("scal"));
    SizeFields f;
    f.setProgram(w.session()->program());
    arith::Env sizes;
    QString error;
    f.setTexts({{"N", "2147483648"}});
    QVERIFY(!f.values(sizes, &error));
    QVERIFY2(error.contains("at most 2147483647"), qPrintable(error));
    f.setTexts({{"N", "2147483647"}});
    QVERIFY2(f.values(sizes, &error), qPrintable(error));
    QCOMPARE(sizes.at("N"), int64_t(2147483647));
  }

  // The app's headless flags never wait on a dialog: a missing file with --screenshot is a line
  // on standard error and exit status 2 (it used to wait forever on a modal warning).
  void headlessScreenshotOfAMissingFileFailsWithoutADialog() {
    QTemporaryDir dir;
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("HOME", dir.path());  // settings and the autosaved session stay in the temporary folder
    env.insert("XDG_CONFIG_HOME", dir.filePath("config"));
    env.insert("XDG_DATA_HOME", dir.filePath("data"));
    app.setProcessEnvironment(env);
    app.start(LIFT_STUDIO, {dir.filePath("MISSING.lift"), "--screenshot", dir.filePath("x.png")});
    bool finished = app.waitForFinished(60000);
    if (!finished) {
      app.kill();
      app.waitForFinished();
    }
    QVERIFY2(finished, "lift-studio did not exit (waiting on a dialog?)");
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), 2);
    QString err = QString::fromUtf8(app.readAllStandardError());
    QVERIFY2(err.contains("Cannot read") && err.contains("MISSING.lift"), qPrintable(err));
  }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
