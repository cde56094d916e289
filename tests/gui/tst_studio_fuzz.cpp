// lift-studio's headless flags (issue 19, parts 5 and 7): each certainly-invalid value is refused
// with a message on stderr and exit 2 instead of exit 0 or a wait on a dialog, and mutants of
// valid --screenshot lines pass CommandLineFuzz.h's rules (no crash, no hang, no exit 0 on invalid
// input, no internals, read files unchanged, the screenshot written whole or not at all).
// Deterministic; LIFT_FUZZ_MUTANTS runs a longer campaign (docs/TESTING.md).
#include <QtTest/QtTest>

#include <QElapsedTimer>
#include <QTemporaryDir>

#include "CommandLineFuzz.h"

using namespace lift::test;

namespace {

// Where "--screenshot FILE" is as the app parses the line, or -1: after "--" everything is a file
// to open, and the word after an option that takes a value is that value (`--select
// --screenshot x.png` selects a node named "--screenshot" and opens x.png in a window).
int screenshotOption(const QStringList& args) {
  static const QStringList takesValue = {"--example", "--apply",       "--select",   "--size", "--device",
                                         "--search",  "--max-kernels", "--strategy", "--store"};
  for (int i = 0; i < args.size(); ++i) {
    if (args[i] == "--") return -1;
    if (args[i] == "--screenshot") return i + 1 < args.size() ? i : -1;
    if (takesValue.contains(args[i])) ++i;
  }
  return -1;
}

}  // namespace

class TestStudioFuzz : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;

  // A scripted run's environment: offscreen, its own runtime folder.
  QProcessEnvironment environment() const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("XDG_RUNTIME_DIR", tmp_.path());
    env.insert("HOME", tmp_.path());
    return env;
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    QFile::setPermissions(tmp_.path(),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  }

  void invalidHeadlessFlagsExitTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QString shot = tmp_.path() + "/x.png";
    // Each was exit 0 (the value ignored or clamped), waited forever, or leaked markup.
    QTest::newRow("fifo") << QStringList{tmp_.path() + "/fifo.lift", "--screenshot", shot}
                          << "it is a FIFO (named pipe), not a file";
    QTest::newRow("/dev/zero") << QStringList{"/dev/zero", "--screenshot", shot}
                               << "it is a character device";
    QTest::newRow("folder") << QStringList{tmp_.path(), "--screenshot", shot} << "it is a directory";
    QTest::newRow("search seconds") << QStringList{"--example", "dot",          "--search",
                                                   "soon",      "--screenshot", shot}
                                    << "--search: expected an integer from 1 to 604800, got 'soon'";
    QTest::newRow("max kernels") << QStringList{"--example",     "dot", "--search",     "1",
                                                "--max-kernels", "x",   "--screenshot", shot}
                                 << "--max-kernels: expected an integer from 1 to 10000000, got 'x'";
    QTest::newRow("strategy") << QStringList{"--example", "dot", "--strategy", "greedy", "--screenshot", shot}
                              << "--strategy: no strategy 'greedy'";
    QTest::newRow("size") << QStringList{"--example", "dot", "--size", "N=0", "--screenshot", shot}
                          << "--size";
  }

  void invalidHeadlessFlagsExitTwo() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    ::mkfifo((tmp_.path() + "/fifo.lift").toLocal8Bit().constData(), 0600);
    FuzzRun r = runProgram(LIFT_STUDIO, args, tmp_.path(), 60000, environment());
    QVERIFY2(!r.timedOut, "timed out");
    QVERIFY2(r.code == 2 && r.err.contains(message) && !r.err.contains('<'), qPrintable(r.err));
    QVERIFY(!QFile::exists(tmp_.path() + "/x.png"));
  }

  void headlessCommandLines() {
    FuzzFolder folder(tmp_.path() + "/fuzz");
    QFile::copy(QString(LIFT_SOURCE_DIR) + "/resources/examples/dot.lift", folder.path("dot.lift"));
    const QStringList files = {"dot.lift"};
    const QList<QStringList> seeds = {
        {"dot.lift", "--screenshot", "shot.png"},
        {"--example", "matmul", "--apply", "map-map-interchange@0", "--select", "zip", "--screenshot",
         "shot.png"},
        {"--example", "dot", "--size", "N=64", "--strategy", "random", "--screenshot", "shot.png"},
    };
    const QMap<QString, QStringList> invalid = {
        {"--size", {"N=0", "N=2147483648", "N=x", "N=4,N=8"}},
        {"--example", {"no-such-example", "../../etc/passwd", ""}},
        {"--apply", {"no-such-rule@0", "map-map-interchange@9.9.9"}},
        {"--select", {"no-such-node"}},
        {"--strategy", {"greedy", ""}},
    };
    CommandLineMutator mutator(19, folder, invalid);
    FuzzCounts counts;
    QStringList failures;
    QElapsedTimer clock;
    clock.start();
    const int mutants = fuzzMutants(16);
    for (int i = 0; i < mutants; ++i) {
      CommandLine c = mutator.mutate(seeds[i % seeds.size()], files);
      // Without --screenshot FILE the app stays open for the user: not a headless run.
      int at = screenshotOption(c.args);
      if (at < 0) continue;
      QString shot = QFileInfo(QDir(tmp_.path() + "/fuzz"), c.args[at + 1]).absoluteFilePath();
      QMap<QString, QByteArray> before = folder.snapshot();
      FuzzRun r = runProgram(LIFT_STUDIO, c.args, tmp_.path() + "/fuzz", 120000, environment());
      QMap<QString, QByteArray> after = folder.snapshot();
      QString broken = checkRun(c, r, before, after, {shot}, counts);
      if (!broken.isEmpty())
        failures << QString("lift-studio %1: %2").arg(c.args.join(' ').left(300), broken);
      QFile::remove(shot);
    }
    qInfo("%s in %.1f s", qPrintable(counts.summary()), clock.elapsed() / 1000.0);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 10).join('\n')));
  }
};

QTEST_GUILESS_MAIN(TestStudioFuzz)
#include "tst_studio_fuzz.moc"
