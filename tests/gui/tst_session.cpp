// The document without any widget: a Session opened on an example, rewritten, undone, edited
// (a broken edit keeps the program, an edit of a later state starts a new derivation), its
// steps checked by the interpreter; sessions and derivations saved and replayed in the
// background (the call returns before the states exist; a newer replay wins; a step that no
// longer replays is reported and the rest kept); the code generator's switches and the
// unfinished text come back; autosave writes the session when the object goes away.
#include <QtTest/QtTest>

#include <QAbstractItemModelTester>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QUndoStack>

#include "core/lang/Printer.h"
#include "views/DerivationTreeModel.h"
#include "views/Session.h"

using namespace lift;
using namespace lift::views;

class TestSession : public QObject {
  Q_OBJECT

  static QString example(const QString& name) {
    QFile f(":/examples/" + name + ".lift");
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
  }
  // matmul with two branches from its start; the second one current.
  static void twoBranches(Session& s) {
    s.open(example("matmul"), "matmul.lift");
    QVERIFY(s.applyRewrite("map-map-interchange@0"));
    s.undoStack()->undo();
    QVERIFY(s.applyRewrite("map-to-glb@0:dim=0"));
  }

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void rewriteUndoRedo() {
    Session s;
    QAbstractItemModelTester tester(s.tree(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy shown(&s, &Session::programChanged);
    QSignalSpy file(&s, &Session::fileChanged);
    QString start = example("matmul");
    s.open(start, "matmul.lift");
    QVERIFY(s.program() != nullptr);
    QCOMPARE(s.file(), QString("matmul.lift"));
    QCOMPARE(file.count(), 1);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(shown.last().at(1).toBool(), false);  // nothing to highlight in a new program
    QCOMPARE(s.tree()->stateCount(), 1);

    QSignalSpy replaced(&s, &Session::textReplaced);
    QVERIFY(s.applyRewrite("map-map-interchange@0"));
    QCOMPARE(s.tree()->stateCount(), 2);
    QCOMPARE(s.tree()->current(), 1);
    QCOMPARE(shown.last().at(1).toBool(), true);  // a rewrite: the panes highlight what changed
    QCOMPARE(replaced.count(), 1);
    QCOMPARE(s.text(), QString::fromStdString(lang::printProgram(s.program()->program)));

    s.undoStack()->undo();
    QCOMPARE(s.tree()->current(), 0);
    QCOMPARE(s.text(), start);  // the start comes back as written
    s.undoStack()->redo();
    QCOMPARE(s.tree()->current(), 1);

    // A rule that does not apply says why, and nothing changes.
    QString error;
    QVERIFY(!s.applyRewrite("no-such-rule@0", &error));
    QVERIFY2(error.contains("unknown rule"), qPrintable(error));
    QCOMPARE(s.tree()->stateCount(), 2);

    s.waitForChecks();
    QCOMPARE(s.tree()->state(1).check, DerivationTreeModel::Check::Verified);
  }

  void editsKeepTheProgramOrStartADerivation() {
    Session s;
    QSignalSpy diagnostics(&s, &Session::diagnosticChanged);
    s.open(example("matmul"), "matmul.lift");
    auto before = s.program();
    // Editing the start (no steps yet) replaces it.
    s.setText(s.text() + "\n// a comment");
    s.reparse();
    QCOMPARE(s.tree()->stateCount(), 1);
    QVERIFY(s.program() != before);
    // A broken edit: a located diagnostic, the last good program stays.
    auto good = s.program();
    s.setText(s.text() + "\n$$$");
    s.reparse();
    QVERIFY(!s.diagnostic().message.empty());
    QVERIFY(s.diagnostic().loc.line > 0);
    QCOMPARE(s.program(), good);
    QVERIFY(diagnostics.count() > 0);
    // Editing a later state starts a new derivation from the edited text.
    QVERIFY(s.applyRewrite("map-map-interchange@0"));
    QVERIFY(s.diagnostic().message.empty());
    s.setText(s.text() + "\n// edited");
    s.reparse();
    QCOMPARE(s.tree()->stateCount(), 3);
    QCOMPARE(s.tree()->state(2).parent, -1);
    QVERIFY(s.tree()->state(2).origin.startsWith("edited"));
    s.undoStack()->undo();  // back to the rewritten state
    QCOMPARE(s.tree()->current(), 1);
  }

  void sessionRoundTripInTheBackground() {
    QTemporaryDir dir;
    QString path = dir.filePath("s.liftsession");
    Session s;
    twoBranches(s);
    codegen::CompileOptions options;
    options.barrierElimination = false;
    options.unrolling = false;
    options.vectorLocalLoads = true;
    options.innerLoopUnroll = 4;
    options.tileLoopUnroll = 2;
    options.doubleBuffering = true;
    options.registerPrefetch = true;
    options.prefetchParts = 4;
    options.streamK = 132;
    options.maxRegisters = 96;
    s.setCompileOptions(options);
    s.setText(s.text() + "\nnot finished (");
    QVERIFY(s.saveSession(path));

    Session r;
    QSignalSpy switches(&r, &Session::compileOptionsChanged);
    QVERIFY(r.openSession(path));
    // The states are replayed off the GUI thread: none exists when the call returns.
    QVERIFY(r.isReplaying());
    QCOMPARE(r.tree()->stateCount(), 0);
    r.waitForReplay();
    QCOMPARE(r.tree()->stateCount(), 3);
    QCOMPARE(r.tree()->state(1).parent, 0);
    QCOMPARE(r.tree()->state(2).parent, 0);
    QCOMPARE(r.tree()->current(), 2);
    QCOMPARE(r.tree()->state(2).spec, QString("map-to-glb@0:dim=0"));
    QCOMPARE(r.file(), QString("matmul.lift"));
    QVERIFY(r.text().endsWith("not finished ("));  // unfinished edits come back
    QVERIFY(!r.diagnostic().message.empty());
    QCOMPARE(switches.count(), 1);
    QVERIFY(!r.compileOptions().barrierElimination);
    QVERIFY(!r.compileOptions().unrolling);
    QVERIFY(r.compileOptions().vectorLocalLoads);
    QCOMPARE(r.compileOptions().innerLoopUnroll, 4);
    QCOMPARE(r.compileOptions().tileLoopUnroll, 2);
    QVERIFY(r.compileOptions().doubleBuffering);
    QVERIFY(r.compileOptions().registerPrefetch);
    QCOMPARE(r.compileOptions().prefetchParts, 4);
    QVERIFY(r.compileOptions().simplifyIndices);
    QCOMPARE(r.compileOptions().streamK, 132);
    QCOMPARE(r.compileOptions().maxRegisters, 96);
    QCOMPARE(r.toJson(), s.toJson());

    // Not a session: refused with the reason, nothing replaced.
    QFile bad(dir.filePath("bad.liftsession"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{ not json");
    bad.close();
    QString error;
    QVERIFY(!r.openSession(bad.fileName(), &error));
    QVERIFY2(error.contains("not a Lift Studio session"), qPrintable(error));
    QCOMPARE(r.tree()->stateCount(), 3);
  }

  // A session file whose kernel options were edited by hand or damaged: each value out of its
  // range, or of the wrong type, comes back as the default; the rest of the session opens.
  void damagedKernelOptionsFallBackToDefaults() {
    QTemporaryDir dir;
    QString path = dir.filePath("s.liftsession");
    Session s;
    twoBranches(s);
    codegen::CompileOptions options;
    options.vectorLocalLoads = true;
    options.tileLoopUnroll = 2;
    options.prefetchParts = 2;
    s.setCompileOptions(options);
    QVERIFY(s.saveSession(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    QJsonObject kernel = json["kernelOptions"].toObject();
    QCOMPARE(kernel["tileLoopUnroll"].toInt(), 2);
    kernel["innerLoopUnroll"] = 0;
    kernel["tileLoopUnroll"] = 17;
    kernel["prefetchParts"] = 0;
    kernel["localPadding"] = -1;
    kernel["streamK"] = "many";
    kernel["maxRegisters"] = 7;
    kernel["vectorLocalLoads"] = "yes";
    json["kernelOptions"] = kernel;
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QJsonDocument(json).toJson());
    f.close();

    Session r;
    QString error;
    QVERIFY2(r.openSession(path, &error), qPrintable(error));
    r.waitForReplay();
    QCOMPARE(r.tree()->stateCount(), 3);
    codegen::CompileOptions defaults;
    QCOMPARE(r.compileOptions().innerLoopUnroll, defaults.innerLoopUnroll);
    QCOMPARE(r.compileOptions().tileLoopUnroll, defaults.tileLoopUnroll);
    QCOMPARE(r.compileOptions().prefetchParts, defaults.prefetchParts);
    QCOMPARE(r.compileOptions().localPadding, defaults.localPadding);
    QCOMPARE(r.compileOptions().streamK, defaults.streamK);
    QCOMPARE(r.compileOptions().maxRegisters, defaults.maxRegisters);
    QCOMPARE(r.compileOptions().vectorLocalLoads, defaults.vectorLocalLoads);
  }

  void stepThatNoLongerReplaysIsReported() {
    QTemporaryDir dir;
    Session s;
    twoBranches(s);
    QJsonObject json = QJsonDocument::fromJson(s.toJson()).object();
    QJsonArray states = json["states"].toArray();
    QJsonObject broken = states[1].toObject();
    broken["spec"] = "map-to-lcl@0";  // needs an enclosing mapWrg
    states[1] = broken;
    json["states"] = states;
    QString path = dir.filePath("broken.liftsession");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(json).toJson());
    f.close();

    Session r;
    QSignalSpy problems(&r, &Session::problem);
    QVERIFY(r.openSession(path));
    r.waitForReplay();
    QCOMPARE(problems.count(), 1);
    QVERIFY2(problems.last().at(1).toString().contains("state 1"),
             qPrintable(problems.last().at(1).toString()));
    QCOMPARE(r.tree()->stateCount(), 2);  // the start and the branch that replays
    QCOMPARE(r.tree()->state(1).spec, QString("map-to-glb@0:dim=0"));
    QCOMPARE(r.tree()->current(), 1);  // the saved current state, renumbered
  }

  void derivationRoundTrip() {
    QTemporaryDir dir;
    QString path = dir.filePath("m.derivation");
    Session s;
    s.open(example("matmul"), "matmul.lift");
    QVERIFY(s.applyRewrite("map-map-interchange@0"));
    QVERIFY(s.applyRewrite("map-to-glb@0.1:dim=0"));
    QString error;
    QVERIFY2(s.saveDerivation(path, &error), qPrintable(error));
    QVERIFY(QFile::exists(dir.filePath("m.lift")));  // the example, next to its derivation

    Session r;
    QSignalSpy opened(&r, &Session::derivationOpened);
    r.openDerivation(path);
    QVERIFY(r.isReplaying());
    r.waitForReplay();
    QCOMPARE(opened.count(), 1);
    QCOMPARE(r.tree()->stateCount(), 3);
    QCOMPARE(r.text(), s.text());
    QCOMPARE(QFileInfo(r.file()).canonicalFilePath(), QFileInfo(dir.filePath("m.lift")).canonicalFilePath());
    r.undoStack()->undo();  // one undo returns to the start
    QCOMPARE(r.tree()->current(), 0);

    QSignalSpy problems(&r, &Session::problem);
    r.openDerivation(dir.filePath("missing.derivation"));
    r.waitForReplay();
    QCOMPARE(problems.count(), 1);
    QCOMPARE(r.tree()->stateCount(), 3);  // the document stays
  }

  void newerReplayWins() {
    Session s;
    s.open(example("matmul"), "matmul.lift");
    auto start = s.program();
    s.showDerivation(start, "first", {"map-map-interchange@0"});
    s.showDerivation(start, "second", {"map-to-glb@0:dim=0"});
    s.waitForReplay();
    QCOMPARE(s.tree()->stateCount(), 3);  // the start, and the second load's root and step
    QCOMPARE(s.tree()->state(1).origin, QString("second"));
    QCOMPARE(s.tree()->current(), 2);
    s.undoStack()->undo();  // back to what was shown before the load
    QCOMPARE(s.tree()->current(), 0);

    // A step that does not replay: reported, nothing added.
    QSignalSpy messages(&s, &Session::message);
    s.showDerivation(start, "third", {"map-to-lcl@0"});
    s.waitForReplay();
    QCOMPARE(s.tree()->stateCount(), 3);
    QVERIFY(messages.last().at(0).toString().startsWith("Cannot load third"));
  }

  void autosaveOnDestruction() {
    QTemporaryDir dir;
    QString path = dir.filePath("auto/autosave.liftsession");
    {
      Session s;
      s.setAutosavePath(path);
      s.open(example("matmul"), "matmul.lift");
      QVERIFY(s.applyRewrite("map-map-interchange@0"));
    }  // the pending autosave is written now
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("map-map-interchange@0"));
  }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
