// Nothing lost (issue 18, part 3): opening an example, a file, a session or a derivation while
// the derivation has unsaved steps or edits asks first (save as a session / discard / cancel);
// a stored search opens alongside; scripted runs of lift-studio leave the user's settings and
// autosaved session alone; every running instance autosaves to a file of its own.
#include <QtTest/QtTest>

#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <functional>

#include "views/AutosaveSlot.h"
#include "views/DerivationTreeModel.h"
#include "views/MainWindow.h"
#include "views/ProgramEditor.h"
#include "views/Session.h"

using namespace lift::views;

// Answers the dialogs that open while it lives: the unsaved-work question with `button`, a file
// dialog with `file` (or cancels it). Counts the questions.
class DialogAnswerer : public QObject {
 public:
  DialogAnswerer(QMessageBox::StandardButton button, QString file = {})
      : button_(button), file_(std::move(file)) {
    timer_.setInterval(20);
    connect(&timer_, &QTimer::timeout, this, &DialogAnswerer::answer);
    timer_.start();
  }
  int questions = 0;
  QString informativeText;

 private:
  void answer() {
    QWidget* modal = QApplication::activeModalWidget();
    if (auto* box = qobject_cast<QMessageBox*>(modal)) {
      ++questions;
      informativeText = box->informativeText();
      box->button(button_)->click();
    } else if (auto* dialog = qobject_cast<QFileDialog*>(modal)) {
      if (file_.isEmpty()) {
        dialog->reject();
      } else {
        // As a user types it: the name field takes a whole path.
        auto* name = dialog->findChild<QLineEdit*>("fileNameEdit");
        if (!name) return;
        name->setText(file_);
        static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept is protected
      }
    }
  }
  QMessageBox::StandardButton button_;
  QString file_;
  QTimer timer_;
};

class TestNothingLost : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    QVERIFY(dir_.isValid());
  }

  void unchangedWorkIsReplacedWithoutAQuestion() {
    MainWindow w;
    QVERIFY(w.openExample("scal"));
    QVERIFY(!w.session()->isModified());
    DialogAnswerer answerer(QMessageBox::Cancel);
    QVERIFY(w.openExample("matmul"));
    QCOMPARE(answerer.questions, 0);
  }

  void unsavedStepsAreAskedFor() {
    MainWindow w;
    w.show();
    QVERIFY(w.openExample("scal"));
    QVERIFY(w.session()->applyRewrite("map-to-glb@0:dim=0"));
    QVERIFY(w.session()->isModified());
    QVERIFY(w.isWindowModified());  // the title's asterisk
    {
      DialogAnswerer answerer(QMessageBox::Cancel);
      QVERIFY(!w.openExample("matmul"));  // cancelled: nothing changed
      QCOMPARE(answerer.questions, 1);
      QVERIFY(answerer.informativeText.contains("matmul"));
    }
    QCOMPARE(w.session()->tree()->stateCount(), 2);
    QVERIFY(w.programEditor()->text().contains("mapGlb"));
    {
      DialogAnswerer answerer(QMessageBox::Save);  // the file dialog is cancelled: so is the open
      QVERIFY(!w.openExample("matmul"));
      QCOMPARE(answerer.questions, 1);
    }
    QCOMPARE(w.session()->tree()->stateCount(), 2);
    QString saved = dir_.filePath("kept.liftsession");
    {
      DialogAnswerer answerer(QMessageBox::Save, saved);
      QVERIFY(w.openExample("matmul"));
      QCOMPARE(answerer.questions, 1);
    }
    QVERIFY(QFile::exists(saved));
    QVERIFY(!w.session()->isModified());
    QVERIFY(w.programEditor()->text().contains("fun matmul"));
    // What was saved comes back, and is not unsaved work.
    QVERIFY(w.openSession(saved));
    w.session()->waitForReplay();
    QCOMPARE(w.session()->tree()->stateCount(), 2);
    QVERIFY(w.programEditor()->text().contains("mapGlb"));
    QVERIFY(!w.session()->isModified());
  }

  void unsavedEditsAreAskedForAndDiscarded() {
    MainWindow w;
    QVERIFY(w.openExample("scal"));
    w.programEditor()->setText(w.programEditor()->text() + "\n// a note");
    QVERIFY(w.session()->isModified());
    {
      DialogAnswerer answerer(QMessageBox::Cancel);
      QVERIFY(!w.openDerivation(dir_.filePath("none.derivation")));
      QCOMPARE(answerer.questions, 1);
      QVERIFY(!w.openSession(dir_.filePath("none.liftsession")));
      QCOMPARE(answerer.questions, 2);
    }
    QVERIFY(w.programEditor()->text().endsWith("// a note"));
    {
      DialogAnswerer answerer(QMessageBox::Discard);
      QVERIFY(w.openExample("dot"));
      QCOMPARE(answerer.questions, 1);
    }
    QVERIFY(!w.session()->isModified());
    QVERIFY(!w.programEditor()->text().contains("// a note"));
  }

  // The autosave keeps whether the work was saved: a restored unsaved derivation still asks.
  void theAutosaveKeepsTheModifiedFlag() {
    QString path = dir_.filePath("auto/autosave.liftsession");
    {
      Session s;
      s.setAutosavePath(path);
      QFile f(":/examples/scal.lift");
      QVERIFY(f.open(QIODevice::ReadOnly));
      s.open(QString::fromUtf8(f.readAll()), "scal.lift");
      QVERIFY(s.applyRewrite("map-to-glb@0:dim=0"));
    }  // written now
    Session restored;
    QVERIFY(restored.openSession(path));
    restored.waitForReplay();
    QCOMPARE(restored.tree()->stateCount(), 2);
    QVERIFY(restored.isModified());
  }

  void eachInstanceAutosavesToItsOwnFile() {
    QString folder = dir_.filePath("slots");
    auto first = std::make_unique<AutosaveSlot>();
    QVERIFY(first->acquire(folder));
    QCOMPARE(first->number(), 1);
    QCOMPARE(first->path(), QDir(folder).filePath("autosave.liftsession"));
    AutosaveSlot second;
    QVERIFY(second.acquire(folder));
    QCOMPARE(second.number(), 2);
    QCOMPARE(second.path(), QDir(folder).filePath("autosave-2.liftsession"));
    first.reset();  // the first instance quits: its slot is free again
    AutosaveSlot third;
    QVERIFY(third.acquire(folder));
    QCOMPARE(third.number(), 1);
    AutosaveSlot none;
    QVERIFY(!none.acquire(folder, 2));  // both taken
  }

  // A scripted run (--apply, --select, --screenshot) writes neither the settings nor the
  // autosaved session of the user's interactive instance.
  void scriptedRunsLeaveSettingsAndAutosaveAlone() {
    QTemporaryDir home;
    QString config = home.filePath("config/LiftStudio");
    QString data = home.filePath("data/LiftStudio/lift-studio");
    QVERIFY(QDir().mkpath(config));
    QVERIFY(QDir().mkpath(data));
    QString settingsFile = config + "/lift-studio.conf";
    QString autosaveFile = data + "/autosave.liftsession";
    const QByteArray settings = "[view]\ndark=true\n", session = "{\"format\": \"lift-studio-session\"}\n";
    for (auto [path, bytes] : {std::pair{settingsFile, settings}, std::pair{autosaveFile, session}}) {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(bytes);
    }
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("HOME", home.path());
    env.insert("XDG_CONFIG_HOME", home.filePath("config"));
    env.insert("XDG_DATA_HOME", home.filePath("data"));
    app.setProcessEnvironment(env);
    app.start(LIFT_STUDIO, {"--example", "scal", "--apply", "map-to-glb@0:dim=0", "--select", "map",
                            "--screenshot", home.filePath("x.png")});
    QVERIFY(app.waitForFinished(120000));
    QVERIFY2(app.exitCode() == 0, app.readAllStandardError().constData());
    QVERIFY(QFile::exists(home.filePath("x.png")));
    QDir configDir(config), dataDir(data);
    QCOMPARE(configDir.entryList(QDir::Files), QStringList{"lift-studio.conf"});
    QCOMPARE(dataDir.entryList(QDir::Files), QStringList{"autosave.liftsession"});
    for (auto [path, bytes] : {std::pair{settingsFile, settings}, std::pair{autosaveFile, session}}) {
      QFile f(path);
      QVERIFY(f.open(QIODevice::ReadOnly));
      QCOMPARE(f.readAll(), bytes);
    }
  }
};

QTEST_MAIN(TestNothingLost)
#include "tst_nothing_lost.moc"
