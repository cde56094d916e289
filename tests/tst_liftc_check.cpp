// liftc check and liftc print as a user runs them: output, exit statuses, and error messages
// with file:line:col and a caret line.
#include <QtTest/QtTest>

#include <QTemporaryDir>

#include "LiftcProcess.h"

namespace {

using Run = lift::test::LiftcRun;

Run liftc(const QStringList& args) { return lift::test::runLiftc(args, QDir::currentPath(), 60000); }

QString data(const char* name) { return QString(LIFT_SOURCE_DIR "/tests/data/") + name; }

}  // namespace

class TestLiftcCheck : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY(tmp_.isValid()); }

  void checkPrintsTheType() {
    Run r = liftc({"check", data("matmul.lift")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QString("([[float]K]M, [[float]N]K) -> [[[float]1]N]M\n"));
    r = liftc({"check", data("transpose.lift")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, QString("([[float]M]N) -> [[float]N]M\n"));
  }

  void checkListsNodeTypes() {
    Run r = liftc({"check", data("partial_dot.lift"), "--types"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("13:7: split: [[(float, float)]128]N\n"),
             qPrintable(r.out));  // split128 $ zip(x, y)
    QVERIFY2(r.out.contains("8:16: x: [float]128*N\n"), qPrintable(r.out));
  }

  void typeErrorsAreLocated() {
    QString path = write("bad.lift",
                         "size N, M;\n"
                         "fun f(x: [float]N, y: [float]M) =\n"
                         "  zip(x, y)\n");
    Run r = liftc({"check", path});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith(path + ":3:3: error: zip of arrays of different lengths"), qPrintable(r.err));
    QVERIFY2(r.err.contains("N") && r.err.contains("M"), qPrintable(r.err));
    QVERIFY2(r.err.contains("\n    zip(x, y)\n    ^"), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());

    path = write("split.lift", "size N;\nfun f(x: [float]N) = split(4) $ x\n");
    r = liftc({"check", path});
    QCOMPARE(r.code, 2);
    QVERIFY2(
        r.err.startsWith(path + ":2:22: error: split 4 of an array of length N: N must be divisible by 4"),
        qPrintable(r.err));
  }

  void syntaxErrorsAreLocated() {
    QString path = write("syntax.lift", "size N;\nfun f(x: [float]N) =\n  mpa(id) $ x\n");
    for (const char* cmd : {"check", "print"}) {
      Run r = liftc({cmd, path});
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.startsWith(path + ":3:3: error: unknown name 'mpa'; did you mean 'map'?"),
               qPrintable(r.err));
      QVERIFY(r.out.isEmpty());
    }
  }

  void missingFileAndArguments() {
    Run r = liftc({"check", "/no/such/file.lift"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("/no/such/file.lift"), qPrintable(r.err));
    r = liftc({"print", "/no/such/file.lift"});
    QCOMPARE(r.code, 2);
    r = liftc({"check"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("usage"), qPrintable(r.err));
    r = liftc({"check", data("matmul.lift"), "--bogus"});
    QCOMPARE(r.code, 2);
  }

  void printRoundTrips() {
    Run r = liftc({"print", data("partial_dot.lift")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("fun partialDot(x: [float]128*N, y: [float]128*N) ="));
    QString printed = write("printed.lift", r.out);
    Run again = liftc({"print", printed});
    QCOMPARE(again.code, 0);
    QCOMPARE(again.out, r.out);
    Run types = liftc({"check", printed});
    QCOMPARE(types.out, liftc({"check", data("partial_dot.lift")}).out);
    // --check type-checks before printing.
    QString bad = write("bad2.lift", "size N, M;\nfun f(x: [float]N, y: [float]M) = zip(x, y)\n");
    QCOMPARE(liftc({"print", bad}).code, 0);
    QCOMPARE(liftc({"print", bad, "--check"}).code, 2);
  }

  // The examples written with allPairs (the prelude): check gives the nest's type, print writes
  // them by name and round-trips; a misused allPairs is located.
  void allPairsExamples() {
    const QString examples = LIFT_SOURCE_DIR "/resources/examples/";
    Run c = liftc({"check", examples + "cosine_similarity.lift"});
    QCOMPARE(c.code, 0);
    QCOMPARE(c.out, QString("([[float]K]M, [[float]K]N) -> [[[float]1]N]M\n"));
    c = liftc({"check", examples + "manhattan.lift"});
    QCOMPARE(c.out, QString("([[float]K]M, [[float]N]K) -> [[[float]1]N]M\n"));
    for (const char* name : {"manhattan.lift", "cosine_similarity.lift", "matmul.lift"}) {
      Run r = liftc({"print", examples + name});
      QCOMPARE(r.code, 0);
      QVERIFY2(r.out.contains("  allPairs("), qPrintable(r.out));
      Run again = liftc({"print", write(QString("printed_") + name, r.out)});
      QCOMPARE(again.out, r.out);
    }
    QVERIFY(liftc({"print", examples + "matmul.lift"})
                .out.endsWith("  allPairs(reduce(add, 0.0f), mult)(A, transpose(B))\n"));
    QString bad = write("allpairs.lift",
                        "size M, N, K;\n"
                        "userfun mult(float x, float y) -> float { return x * y; }\n"
                        "fun f(A: [[float]K]M, B: [[float]K]N) =\n"
                        "  A |> allPairs(mult)\n");
    for (const char* cmd : {"check", "print"}) {
      Run r = liftc({cmd, bad});
      QCOMPARE(r.code, 2);
      QVERIFY2(
          r.err.startsWith(bad + ":4:8: error: allPairs(...) is applied to its two arrays at once, as in "
                                 "allPairs(f)(A, B)"),
          qPrintable(r.err));
      QVERIFY(r.out.isEmpty());
    }
  }

 private:
  QString write(const QString& name, const QString& text) {
    QString path = tmp_.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) f.write(text.toUtf8());
    return path;
  }

  QTemporaryDir tmp_;
};

QTEST_GUILESS_MAIN(TestLiftcCheck)
#include "tst_liftc_check.moc"
