// liftc run on the CPU device (PoCL): every low-level example runs, validates against the
// interpreter and is timed, through the worker and in-process; OpenBLAS references with the
// bindings they find; NDRange overrides; the printed report; exit status 2 for a high-level
// program, bad sizes, an unknown device and other bad input. (A kernel computing a wrong result,
// exit 1, needs a broken compiler: the runtime's tests cover that status, tst_runtime.)
#include <QtTest/QtTest>

#include <QDirIterator>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

namespace {

struct Run {
  int exitCode = -1;
  QString out, err;
};

QString describe(const Run& r) {
  return QString("exit %1\nstdout:\n%2\nstderr:\n%3").arg(r.exitCode).arg(r.out, r.err);
}

// The line of `out` that starts with `prefix` ("validation:").
QString line(const QString& out, const QString& prefix) {
  for (const QString& l : out.split('\n'))
    if (l.startsWith(prefix)) return l;
  return {};
}

QStringList lowLevelExamples() {
  QStringList files;
  QDirIterator it(QString(LIFT_SOURCE_DIR) + "/resources/examples/lowlevel", {"*.lift"});
  while (it.hasNext()) files << it.next();
  files.sort();
  return files;
}

}  // namespace

class TestLiftcRun : public QObject {
  Q_OBJECT

  QTemporaryDir cache_;  // the kernel build cache of these runs (shared by all of them)

  Run liftc(const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CACHE_HOME", cache_.path());
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(QString(LIFT_SOURCE_DIR) + "/resources/examples");
    p.start(LIFT_LIFTC, args);
    Run r;
    if (!p.waitForFinished(300000)) {
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

  void expectError(const QStringList& args, const QString& message) {
    Run r = liftc(args);
    QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(message), qPrintable(describe(r)));
    QVERIFY2(!r.err.contains("Assertion") && !r.err.contains("terminate"), qPrintable(describe(r)));
  }

 private slots:
  void initTestCase() {
    QVERIFY(cache_.isValid());
    QVERIFY(!lowLevelExamples().isEmpty());
  }

  // Every low-level example at small sizes, through the worker (the default) and in-process.
  void examplesValidate_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("inProcess");
    for (const QString& f : lowLevelExamples()) {
      QString name = QFileInfo(f).baseName();
      QTest::newRow(qPrintable(name + " worker")) << f << false;
      QTest::newRow(qPrintable(name + " in-process")) << f << true;
    }
  }

  void examplesValidate() {
    QFETCH(QString, file);
    QFETCH(bool, inProcess);
    QStringList args = {"run", file, "--device", "cpu", "--small", "--repeat", "3"};
    if (inProcess) args << "--in-process";
    Run r = liftc(args);
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    // Against the interpreter, or against OpenBLAS where the smallest valid sizes are beyond the
    // interpreter's budget (the 64x64 and 128x128 tiles of the matmul_tiled_gpu examples).
    QString validation = line(r.out, "validation:");
    QVERIFY2(validation.startsWith("validation: ok against the interpreter (max relative error") ||
                 validation.startsWith("validation: ok against OpenBLAS"),
             qPrintable(describe(r)));
    QCOMPARE(line(r.out, "result:"), QString("result:     ok"));
    QVERIFY2(line(r.out, "device:").contains(inProcess ? "" : "(in a worker process)"), qPrintable(r.out));
    QVERIFY2(line(r.out, "sizes:").contains("(chosen)"), qPrintable(r.out));
    QVERIFY2(line(r.out, "ndrange:").startsWith("ndrange:    global ") ||
                 line(r.out, "ndrange:").startsWith("ndrange:    kernel 1 of "),
             qPrintable(r.out));
    QVERIFY2(line(r.out, "time:")
                 .contains(QRegularExpression("median [0-9.]+ ms \\(min [0-9.]+, max [0-9.]+; 3 runs")),
             qPrintable(r.out));
    QVERIFY2(line(r.out, "throughput:").contains(QRegularExpression("[0-9.]+ (GFLOP|GB)/s")),
             qPrintable(r.out));
  }

  // The whole report for one run, with the work and the choice of GFLOP/s.
  void report() {
    Run r = liftc({"run", "lowlevel/matmul.lift", "--device", "cpu", "--size", "M=32,N=16", "--size", "K=64",
                   "--in-process", "--seed", "5"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QCOMPARE(line(r.out, "program:"), QString("program:    matmul (lowlevel/matmul.lift)"));
    QCOMPARE(line(r.out, "sizes:"), QString("sizes:      M=32 (given), N=16 (given), K=64 (given)"));
    QCOMPARE(line(r.out, "ndrange:").left(28), QString("ndrange:    global 32 x 16, "));
    QVERIFY2(line(r.out, "kernel:").startsWith("kernel:     "), qPrintable(r.out));
    // 2 x 32 x 16 x 64 flops over (32x64 + 64x16 + 32x16) floats: compute-bound.
    QCOMPARE(line(r.out, "work:"), QString("work:       65.54 kFLOP, 14.34 kB moved, 4.57 flop/byte"));
    QVERIFY2(line(r.out, "throughput:")
                 .contains(QRegularExpression("^throughput: [0-9.e+-]+ GFLOP/s \\([0-9.e+-]+ GB/s\\)$")),
             qPrintable(r.out));
    // Defaults and their origin: gemv's M and N are declared 1024.
    Run d = liftc({"run", "lowlevel/gemv.lift", "--device", "cpu", "--size", "N=64", "--repeat", "2"});
    QVERIFY2(d.exitCode == 0, qPrintable(describe(d)));
    QCOMPARE(line(d.out, "sizes:"), QString("sizes:      M=1024 (default), N=64 (given)"));
    QVERIFY2(line(d.out, "throughput:").contains(QRegularExpression("^throughput: [0-9.e+-]+ GB/s")),
             qPrintable(d.out));
  }

  // OpenBLAS references: the binding is found by trial (matmul_expert takes B transposed) and
  // named; programs too large for the interpreter are validated against them.
  void blasReferences_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("sizes");
    QTest::addColumn<QString>("reference");
    QTest::addColumn<QString>("validation");
    QTest::newRow("matmul") << "lowlevel/matmul.lift"
                            << "M=64,N=32,K=48"
                            << "sgemm"
                            << "OpenBLAS sgemm A x B (";
    QTest::newRow("matmul_expert") << "lowlevel/matmul_expert.lift"
                                   << "M=16,N=8,K=4"
                                   << "sgemm"
                                   << "OpenBLAS sgemm A x B^T (";
    QTest::newRow("matmul_best auto") << "lowlevel/matmul_best.lift"
                                      << "M=16,N=8,K=4"
                                      << "auto"
                                      << "OpenBLAS sgemm A x B^T (";
    QTest::newRow("gemv") << "lowlevel/gemv.lift"
                          << "M=64,N=128"
                          << "sgemv"
                          << "OpenBLAS sgemv alpha * A x x + beta * y (";
    QTest::newRow("dot") << "lowlevel/dot.lift"
                         << "N=16"
                         << "sdot"
                         << "OpenBLAS sdot x . y (";
    QTest::newRow("asum auto") << "lowlevel/asum.lift"
                               << "N=16"
                               << "auto"
                               << "OpenBLAS sasum |x| (";
  }

  void blasReferences() {
    QFETCH(QString, file);
    QFETCH(QString, sizes);
    QFETCH(QString, reference);
    QFETCH(QString, validation);
    // A budget of 0 makes `auto` skip the interpreter.
    Run r = liftc({"run", file, "--device", "cpu", "--size", sizes, "--reference", reference,
                   "--interp-budget", "0", "--repeat", "2", "--in-process"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(line(r.out, "validation:").startsWith("validation: ok against " + validation),
             qPrintable(r.out));
  }

  void notValidatedWhenTooLarge() {
    Run r = liftc({"run", "lowlevel/transpose.lift", "--device", "cpu", "--size", "M=64,N=32",
                   "--interp-budget", "10", "--repeat", "2"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(
        line(r.out, "validation:").startsWith("validation: not validated (too large for the interpreter"),
        qPrintable(r.out));
    QVERIFY2(line(r.out, "validation:").endsWith("every output element was written"), qPrintable(r.out));
  }

  // --global/--local: the kernel is generated for the NDRange given (fewer work-items than
  // elements: each loops), and still validates.
  void ndrangeOverride() {
    Run r = liftc({"run", "lowlevel/matmul.lift", "--device", "cpu", "--size", "M=32,N=32,K=8", "--global",
                   "8,4", "--local", "4,2", "--repeat", "2", "--in-process"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QCOMPARE(line(r.out, "ndrange:"), QString("ndrange:    global 8 x 4, local 4 x 2"));
    QVERIFY2(line(r.out, "validation:").startsWith("validation: ok against the interpreter"),
             qPrintable(r.out));
    expectError({"run", "lowlevel/matmul.lift", "--device", "cpu", "--size", "M=32,N=32,K=8", "--global",
                 "8,6", "--local", "4,4"},
                "not a multiple of the local size");
  }

  // --max-registers: on a device whose compiler takes no register cap (PoCL) the kernel runs and
  // validates as it is, and a note says the cap had no effect; a cap ptxas would refuse is a
  // usage error.
  void registerCap() {
    Run r = liftc({"run", "lowlevel/matmul.lift", "--device", "cpu", "--small", "--max-registers", "128"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(line(r.out, "validation:").startsWith("validation: ok"), qPrintable(r.out));
    QVERIFY2(r.err.contains("note: --max-registers 128 has no effect on ") &&
                 r.err.contains("only NVIDIA's OpenCL compiler takes a register cap"),
             qPrintable(describe(r)));
    Run plain = liftc({"run", "lowlevel/matmul.lift", "--device", "cpu", "--small", "--max-registers", "0"});
    QVERIFY2(plain.exitCode == 0 && !plain.err.contains("--max-registers"), qPrintable(describe(plain)));
    const std::pair<QString, QString> bad[] = {{"8", "8 is too few (0, or at least 16)"},
                                               {"256", "256 is too large (at most 255)"},
                                               {"x", "--max-registers"}};
    for (const auto& [cap, message] : bad)
      expectError({"run", "lowlevel/matmul.lift", "--device", "cpu", "--small", "--max-registers", cap},
                  message);
  }

  // --stream-k where the program's sizes are not constants: `run`'s --size gives run-time values,
  // so the note says the sizes must be written in the program (not "give them with --size", which
  // is `compile`'s advice), and the kernel runs and validates as without it.
  void streamKNoteSaysWhereSizesComeFrom() {
    Run r = liftc({"run", "lowlevel/matmul_tiled_gpu_8x8.lift", "--device", "cpu", "--size", "M=1,N=1,K=2",
                   "--stream-k", "4"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(line(r.out, "validation:").startsWith("validation: ok"), qPrintable(r.out));
    QVERIFY2(r.err.contains("note: --stream-k 4 does not apply") &&
                 r.err.contains("written in the program") && !r.err.contains("give them with --size"),
             qPrintable(describe(r)));
  }

  // --kernel: a hand-edited kernel runs with the program's parameters, NDRange and validation;
  // a wrong one is caught, a file without the program's kernel or no file at all is an error.
  void handWrittenKernel() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Run compiled = liftc({"compile", "lowlevel/vecmult.lift"});
    QVERIFY2(compiled.exitCode == 0, qPrintable(describe(compiled)));
    auto write = [&](const QString& name, const QString& text) {
      QFile f(dir.filePath(name));
      if (!f.open(QIODevice::WriteOnly)) return QString();
      f.write(text.toUtf8());
      return f.fileName();
    };
    QStringList run = {"run", "lowlevel/vecmult.lift", "--device", "cpu", "--size", "N=64", "--repeat", "2"};
    Run same = liftc(run + QStringList{"--kernel", write("same.cl", compiled.out)});
    QVERIFY2(same.exitCode == 0, qPrintable(describe(same)));
    QVERIFY2(line(same.out, "validation:").startsWith("validation: ok"), qPrintable(same.out));
    QString wrong = compiled.out;
    wrong.replace("float4 y) { return x * y; }", "float4 y) { return x + y; }");
    QVERIFY(wrong != compiled.out);
    Run bad = liftc(run + QStringList{"--kernel", write("wrong.cl", wrong)});
    QVERIFY2(bad.exitCode == 1, qPrintable(describe(bad)));
    expectError(run + QStringList{"--kernel", write("other.cl", "kernel void other(global float* x) {}")},
                "defines no kernel named 'vecMult'");
    expectError(run + QStringList{"--kernel", dir.filePath("missing.cl")}, "cannot read");
  }

  void errors() {
    QString hl = "matmul.lift";
    expectError({"run", hl, "--device", "cpu", "--size", "M=8,N=8,K=8"},
                "must be lowered before code generation");
    expectError({"run", hl, "--device", "cpu", "--size", "M=8,N=8,K=8"}, "needs a low-level program");
    // A lowered program the compiler refuses for its resources gets no advice to lower it.
    QTemporaryDir dir;
    QFile big(dir.filePath("big.lift"));
    QVERIFY(big.open(QIODevice::WriteOnly));
    big.write(
        "fun big(x: [float]32768) =\n"
        "  join o mapWrg0(fun(c => toGlobal(mapLcl0(id)) o toLocal(mapLcl0(id)) $ c)) o split(32768) $ x\n");
    big.close();
    Run tooLarge = liftc({"run", big.fileName(), "--device", "cpu"});
    QCOMPARE(tooLarge.exitCode, 2);
    QVERIFY2(tooLarge.err.contains("bytes of local memory") && !tooLarge.err.contains("low-level program"),
             qPrintable(describe(tooLarge)));
    expectError({"run", "lowlevel/matmul.lift", "--device", "no-such-device-xyz", "--small"},
                "no-such-device-xyz");
    expectError({"run", "lowlevel/matmul.lift", "--device", "cpu", "--size", "Q=3"},
                "the program has no size 'Q'");
    expectError({"run", "lowlevel/matmul.lift", "--device", "cpu", "--size", "M=abc"},
                "must be a positive integer");
    expectError({"run", "lowlevel/matmul.lift", "--device", "cpu", "--size", "M=0"}, "M must be at least 1");
    expectError({"run", "no/such/file.lift", "--device", "cpu"}, "no/such/file.lift");
    expectError({"run", "lowlevel/matmul.lift", "--device", "cpu", "--local", "4,x"}, "--local");
    expectError({"run", "lowlevel/matmul.lift", "--device", "cpu", "--repeat", "0"}, "--repeat");
    expectError({"run", "lowlevel/matmul.lift", "--device", "cpu", "--reference", "zgemm"},
                "unknown reference 'zgemm'");
    // A BLAS routine the program does not compute is an error, not a false "valid".
    // (reduce.lift sums, it does not sum absolute values: the trial on negative inputs tells.)
    expectError({"run", "lowlevel/reduce.lift", "--device", "cpu", "--small", "--reference", "sasum"},
                "does not compute sasum");
    expectError({"run", "lowlevel/vecmult.lift", "--device", "cpu", "--small", "--reference", "sasum"},
                "sasum needs one input");
    expectError({"run", "lowlevel/transpose.lift", "--device", "cpu", "--small", "--reference", "sgemm"},
                "reference sgemm");
    expectError({"run"}, "expected one FILE.lift");
    // In-process, nothing could stop a kernel that runs too long: the timeout is refused, not
    // silently ignored.
    expectError(
        {"run", "lowlevel/matmul.lift", "--device", "cpu", "--small", "--in-process", "--timeout", "5"},
        "--timeout needs the worker process");
  }
};

QTEST_GUILESS_MAIN(TestLiftcRun)
#include "tst_liftc_run.moc"
