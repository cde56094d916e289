// Limits instead of runaway cost (issue 19, part 4), through liftc as a user runs it: input files
// are read only when they are regular files within the size limit (a FIFO with no writer,
// /dev/zero, a directory and an oversized file are refused at once), a UTF-8 byte-order mark is
// accepted, lists (a zip's arguments, inputs, parameters) are bounded, a user function's body is
// parsed in linear time, eval keeps to a budget and names --small, and running out of memory is
// said in words (not std::bad_alloc or max_size()).
#include <QtTest/QtTest>

#include <sys/stat.h>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include "LiftcProcess.h"
#include "codegen/Compiler.h"
#include "codegen/Launch.h"
#include "core/lang/Parser.h"

using lift::test::LiftcRun;
using lift::test::runLiftc;

namespace {

const QString kDot = QString(LIFT_SOURCE_DIR) + "/resources/examples/dot.lift";

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A program whose main zips `n` inputs and applies a user function of `n` parameters.
QByteArray wideZip(int n) {
  QStringList inputs, args, params;
  for (int i = 0; i < n; ++i) {
    inputs << QString("x%1: [float]N").arg(i);
    args << QString("x%1").arg(i);
    params << QString("float a%1").arg(i);
  }
  return QString(
             "size N = 64;\nuserfun first(%1) -> float { return a0; }\nfun f(%2) =\n  mapGlb(first) $ "
             "zip(%3)\n")
      .arg(params.join(", "), inputs.join(", "), args.join(", "))
      .toUtf8();
}

}  // namespace

class TestInputLimits : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  QString write(const QString& name, const QByteArray& content) {
    QString path = dir_.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(content);
    return path;
  }

  // liftc refuses quickly (a blocked or endless read would hit the timeout), with exit 2 and
  // `message` on stderr.
  void expectRefused(const QStringList& args, const QString& message, int timeoutMs = 20000) {
    LiftcRun r = runLiftc(args, dir_.path(), timeoutMs);
    QVERIFY2(r.code == 2 && r.err.contains(message), qPrintable(args.join(' ') + "\n" + r.describe()));
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void fifoWithoutWriterIsRefused() {
    // Opening it used to wait forever for a writer.
    QString fifo = dir_.filePath("pipe.lift");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    expectRefused({"check", fifo}, "it is a FIFO (named pipe), not a file");
    expectRefused({"derive", fifo}, "it is a FIFO (named pipe), not a file");
  }

  void devicesAndDirectoriesAreRefused() {
    // check /dev/zero read 6 GB in 20 s; a directory was "no program".
    expectRefused({"check", "/dev/zero"}, "cannot read '/dev/zero': it is a character device, not a file");
    expectRefused({"print", dir_.path()}, "it is a directory, not a file");
    expectRefused({"derive", "/dev/zero"}, "it is a character device");
  }

  void oversizedFileIsRefusedBeforeReading() {
    QString big = dir_.filePath("big.lift");
    {
      QFile f(big);
      QVERIFY(f.open(QIODevice::WriteOnly));
      QVERIFY(f.resize(qint64(17) << 20));  // sparse: 17 MiB of NULs
    }
    expectRefused({"check", big}, "it is larger than 16.0 MiB, the limit for an input file");
  }

  void byteOrderMarkIsAccepted() {
    QByteArray program = readAll(kDot);
    QString bom = write("bom.lift", QByteArray("\xEF\xBB\xBF") + program);
    LiftcRun r = runLiftc({"check", bom}, dir_.path());
    QVERIFY2(r.code == 0, qPrintable(r.describe()));  // was "unexpected byte 0xef"
    QString bad = write("bom_bad.lift", QByteArray("\xEF\xBB\xBF") + "size N;\nfun f(x: [float]N) = y\n");
    expectRefused({"check", bad}, "bom_bad.lift:2:22: error: unknown name 'y'");
  }

  void derivationCaretIsUnderTheStep() {
    // The caret sat one column left of a numbered step.
    QString d = write("caret.derivation", "program: " + kDot.toUtf8() + "\n1.  bogus@0\n");
    LiftcRun r = runLiftc({"derive", d}, dir_.path());
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("caret.derivation:2:5: error: unknown rule 'bogus'") &&
                 r.err.contains("  1.  bogus@0\n      ^"),
             qPrintable(r.describe()));
  }

  void listsAreBounded() {
    // A 10,001-way zip took 16 s to compile (and 5,000-way 2 s); 256 is the most.
    LiftcRun ok = runLiftc({"compile", write("zip256.lift", wideZip(256))}, dir_.path());
    QVERIFY2(ok.code == 0, qPrintable(ok.describe().left(2000)));
    QElapsedTimer t;
    t.start();
    expectRefused({"compile", write("zip10001.lift", wideZip(10001))}, "too many parameters (at most 256)");
    QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
    QStringList xs, inputs;
    for (int i = 0; i < 300; ++i) {
      xs << "x";
      inputs << QString("x%1: [float]N").arg(i);
    }
    QString zip =
        write("zip300.lift", ("size N = 64;\nfun f(x: [float]N) = zip(" + xs.join(", ") + ")\n").toUtf8());
    expectRefused({"check", zip}, "too many arguments (at most 256)");
    QString many =
        write("inputs300.lift", ("size N = 64;\nfun f(" + inputs.join(", ") + ") = x0\n").toUtf8());
    expectRefused({"check", many}, "too many inputs (at most 256)");
  }

  void userFunctionBodyIsLinear() {
    // Every token's location counted lines from the start: an 80 KB body took 13 s, 1 MB never
    // finished. A 1 MB body now checks in about a second.
    QByteArray body;
    while (body.size() < (1 << 20)) body += "x = x + 1.0f;\n";
    QString big = write("bigbody.lift", "size N = 64;\nuserfun f(float x) -> float {\n" + body +
                                            "return x; }\nfun g(a: [float]N) = map(f) $ a\n");
    QElapsedTimer t;
    t.start();
    LiftcRun r = runLiftc({"check", big}, dir_.path(), 60000);
    QVERIFY2(r.code == 0, qPrintable(r.describe().left(2000)));
    QVERIFY2(t.elapsed() < 20000, qPrintable(QString("%1 ms").arg(t.elapsed())));
  }

  void evalKeepsToItsBudget() {
    // At matmul's default sizes (1024³) eval ran for minutes: now it is refused at once.
    QString matmul = QString(LIFT_SOURCE_DIR) + "/resources/examples/matmul.lift";
    QElapsedTimer t;
    t.start();
    expectRefused({"eval", matmul}, "more than its budget of 20000000: run it at small sizes with --small");
    QVERIFY2(t.elapsed() < 10000, qPrintable(QString("%1 ms").arg(t.elapsed())));
    LiftcRun small = runLiftc({"eval", matmul, "--small"}, dir_.path());
    QVERIFY2(small.code == 0, qPrintable(small.describe()));
    // A budget the run reaches stops the interpreter with the same advice.
    expectRefused({"eval", kDot, "--size", "N=100000", "--max-applications", "1000"},
                  "more than its budget of 1000: run it at small sizes with --small");
  }

  void buffersBeyond32BitIndicesAreRefused() {
    // Kernels index with int: at M=K=65536 A has 2^32 elements, and its indices wrapped silently.
    auto p = lift::lang::parseFile(std::string(LIFT_SOURCE_DIR) + "/resources/examples/lowlevel/matmul.lift");
    auto kernel = lift::codegen::compileKernel(p);
    try {
      lift::codegen::instantiate(kernel, {{"M", 65536}, {"N", 16}, {"K", 65536}});
      QFAIL("instantiated");
    } catch (const lift::LiftError& e) {
      QVERIFY2(e.diagnostic().message.find("input buffer 'A' would have 4294967296 elements") !=
                       std::string::npos &&
                   e.diagnostic().message.find("32-bit int") != std::string::npos,
               e.what());
    }
    auto fits = lift::codegen::instantiate(kernel, {{"M", 32768}, {"N", 16}, {"K", 65535}});
    QVERIFY(!fits.args.empty());
  }

  void outOfMemoryIsSaidInWords() {
    // Sizes whose inputs cannot be allocated leaked "cannot create std::vector larger than
    // max_size()" (with the budget lifted).
    QString matmul = QString(LIFT_SOURCE_DIR) + "/resources/examples/matmul.lift";
    LiftcRun r = runLiftc(
        {"eval", matmul, "--size", "M=2147483647,N=2147483647,K=2147483647", "--max-applications", "0"},
        dir_.path());
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("out of memory") && !r.err.contains("max_size") && !r.err.contains("std::"),
             qPrintable(r.describe()));
  }
};

QTEST_GUILESS_MAIN(TestInputLimits)
#include "tst_input_limits.moc"
