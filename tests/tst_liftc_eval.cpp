// liftc eval: sizes (given, defaults, chosen), seeds, the printed summary, and exit status 2
// with a clear message for every bad input.
#include <QtTest/QtTest>

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>

namespace {

struct Run {
  int exitCode = -1;
  QString out, err;
};

Run liftc(const QStringList& args) {
  QProcess p;
  p.setWorkingDirectory(QString(LIFT_SOURCE_DIR) + "/resources/examples");
  p.start(LIFT_LIFTC, args);
  Run r;
  if (!p.waitForFinished(120000)) {
    p.kill();
    p.waitForFinished();
    r.err = "timed out";
    return r;
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

QString describe(const Run& r) {
  return QString("exit %1\nstdout:\n%2\nstderr:\n%3").arg(r.exitCode).arg(r.out, r.err);
}

// The line of `out` that starts with `prefix` ("sizes:").
QString line(const QString& out, const QString& prefix) {
  for (const QString& l : out.split('\n'))
    if (l.startsWith(prefix)) return l;
  return {};
}

}  // namespace

class TestLiftcEval : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void evaluatesWithGivenSizes() {
    Run r = liftc({"eval", "matmul.lift", "--size", "M=4,N=3", "--size=K=2"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QCOMPARE(line(r.out, "sizes:"), QString("sizes:   M=4 (given), N=3 (given), K=2 (given)"));
    QCOMPARE(line(r.out, "type:"), QString("type:    ([[float]K]M, [[float]N]K) -> [[[float]1]N]M"));
    QCOMPARE(line(r.out, "inputs:"), QString("inputs:  A: [[float]2]4, B: [[float]3]2 (random, seed 1)"));
    QCOMPARE(line(r.out, "output:"), QString("output:  [[[float]1]3]4"));
    QVERIFY2(line(r.out, "summary:").startsWith("summary: 12 floats: sum "), qPrintable(r.out));
    QVERIFY(line(r.out, "values:").startsWith("values:  [[["));
  }

  void defaultsThenChosenSizes() {
    QString file = write("mixed.lift", R"(size N = 16, M;
userfun add(float a, float b) -> float { return a + b; }
fun f(x: [float]N, m: [[float]M*4]N) = map(fun(row => reduce(add, 0.0f) $ row)) $ m
)");
    Run r = liftc({"eval", file});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    // Chosen sizes give each input dimension at least 8 elements: M*4 >= 8.
    QCOMPARE(line(r.out, "sizes:"), QString("sizes:   N=16 (default), M=2 (chosen)"));
    QCOMPARE(line(r.out, "output:"), QString("output:  [[float]1]16"));
    Run small = liftc({"eval", file, "--small"});
    QVERIFY2(small.exitCode == 0, qPrintable(describe(small)));
    QCOMPARE(line(small.out, "sizes:"), QString("sizes:   N=8 (chosen), M=2 (chosen)"));
  }

  void chosenSizesRespectDivisibility() {
    Run r = liftc({"eval", "lowlevel/vecmult.lift", "--small"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QCOMPARE(line(r.out, "output:"), QString("output:  [float]8"));
  }

  void seedsChooseTheInputs() {
    Run a = liftc({"eval", "dot.lift", "--size", "N=10", "--seed", "5"});
    Run b = liftc({"eval", "dot.lift", "--size", "N=10", "--seed", "5"});
    Run c = liftc({"eval", "dot.lift", "--size", "N=10", "--seed", "6"});
    QVERIFY2(a.exitCode == 0, qPrintable(describe(a)));
    QCOMPARE(line(a.out, "values:"), line(b.out, "values:"));
    QVERIFY(line(a.out, "values:") != line(c.out, "values:"));
    QVERIFY(line(a.out, "inputs:").endsWith("(random, seed 5)"));
  }

  void summarisesTuplesAndInts() {
    Run r = liftc({"eval", "kmeans.lift", "--size", "P=5,C=3,F=2"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(line(r.out, "summary:").startsWith("summary: 5 ints: sum "), qPrintable(r.out));
    Run t = liftc({"eval", "blackscholes.lift", "--size", "N=3"});
    QVERIFY2(t.exitCode == 0, qPrintable(describe(t)));
    QVERIFY(line(t.out, "output:").contains("[(float, float)]3"));
    QVERIFY2(line(t.out, "summary:").startsWith("summary: 6 floats"), qPrintable(t.out));
  }

  void badSizesExitWithTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero") << QStringList{"--size", "N=0"} << "N must be at least 1, got 0";
    QTest::newRow("negative") << QStringList{"--size", "N=-4"} << "must be a positive integer, got '-4'";
    QTest::newRow("not a number") << QStringList{"--size", "N=abc"}
                                  << "must be a positive integer, got 'abc'";
    QTest::newRow("unknown name") << QStringList{"--size", "Q=4"}
                                  << "the program has no size 'Q' (its sizes: N)";
    QTest::newRow("no value") << QStringList{"--size", "N"} << "expected NAME=VALUE";
    QTest::newRow("twice") << QStringList{"--size", "N=4,N=8"} << "N is given twice";
    QTest::newRow("too large") << QStringList{"--size", "N=99999999999"} << "too large";
    QTest::newRow("bad seed") << QStringList{"--seed", "x"} << "--seed: expected a non-negative integer";
    QTest::newRow("missing value") << QStringList{"--size"} << "needs a value";
  }
  void badSizesExitWithTwo() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    Run r = liftc(QStringList{"eval", "lowlevel/asum.lift"} + args);
    QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(message), qPrintable(describe(r)));
    QVERIFY(!r.err.contains("internal error"));
  }

  void sizesViolatingDivisibilityExitWithTwo() {
    // split(4) of 2*N elements is valid for even N only.
    QString file = write("even.lift", R"(size N = 1000;
userfun add(float a, float b) -> float { return a + b; }
fun f(x: [float]N*2) = join o map(reduce(add, 0.0f)) o split(4) $ x
)");
    Run bad = liftc({"eval", file, "--size", "N=3"});
    QVERIFY2(bad.exitCode == 2, qPrintable(describe(bad)));
    QVERIFY2(
        bad.err.contains("even.lift:3:56: error: split 4 of an array of length 6: 6 must be divisible by 4"),
        qPrintable(describe(bad)));
    // At valid sizes it runs, with a warning that it is not valid at all of them.
    Run good = liftc({"eval", file, "--size", "N=6"});
    QVERIFY2(good.exitCode == 0, qPrintable(describe(good)));
    QVERIFY(good.err.contains("warning: split 4 of an array of length 2*N"));
    QCOMPARE(line(good.out, "output:"), QString("output:  [float]3"));
    // Defaults that violate a constraint are reported the same way.
    QString odd = write("odd.lift", R"(size N = 7;
userfun add(float a, float b) -> float { return a + b; }
fun f(x: [float]N*2) = join o map(reduce(add, 0.0f)) o split(4) $ x
)");
    Run def = liftc({"eval", odd});
    QVERIFY2(def.exitCode == 2, qPrintable(describe(def)));
    QVERIFY(def.err.contains("14 must be divisible by 4 (at sizes N=7)"));
  }

  void badProgramsExitWithTwo() {
    Run missing = liftc({"eval", "no-such-file.lift"});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains("cannot read 'no-such-file.lift': No such file or directory"));
    QString syntax = write("syntax.lift", "size N;\nfun f(x: [float]N) = map(\n");
    Run s = liftc({"eval", syntax});
    QCOMPARE(s.exitCode, 2);
    QVERIFY2(s.err.contains("syntax.lift:"), qPrintable(describe(s)));
    Run none = liftc({"eval"});
    QCOMPARE(none.exitCode, 2);
  }

  void runtimeErrorsExitWithTwo() {
    QString file = write("divzero.lift", R"(size N;
userfun f(int a) -> int {
  return a / (a - a);
}
fun g(x: [int]N) = map(f) $ x
)");
    Run r = liftc({"eval", file, "--size", "N=4"});
    QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
    QVERIFY2(r.err.contains("divzero.lift:3:12: error: integer division by zero (in user function 'f')"),
             qPrintable(describe(r)));
  }

  void everyExampleEvaluates_data() {
    QTest::addColumn<QString>("file");
    QString root = QString(LIFT_SOURCE_DIR) + "/resources/examples";
    QDirIterator it(root, {"*.lift"}, QDir::Files, QDirIterator::Subdirectories);
    QStringList files;
    while (it.hasNext()) files << QDir(root).relativeFilePath(it.next());
    files.sort();
    for (const QString& f : files) QTest::newRow(qPrintable(f)) << f;
  }
  void everyExampleEvaluates() {
    QFETCH(QString, file);
    Run r = liftc({"eval", file, "--small"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY(!line(r.out, "summary:").isEmpty());
  }

 private:
  QString write(const QString& name, const QString& text) {
    QString path = dir_.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text.toUtf8());
    return path;
  }

  QTemporaryDir dir_;
};

QTEST_APPLESS_MAIN(TestLiftcEval)
#include "tst_liftc_eval.moc"
