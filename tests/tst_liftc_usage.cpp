// liftc's command line (CLI11) as a user meets it: one parser of sizes for every command that
// takes --size, a generated --help per command, and for every usage error exit status 2 with a
// message that says what is wrong and where (the option or argument) followed by the usage line.
#include <QtTest/QtTest>

#include "LiftcProcess.h"

using lift::test::LiftcRun;
using lift::test::runLiftc;

namespace {

const QString kDot = "resources/examples/lowlevel/dot.lift";

// The commands taking --size, with what each needs besides (a size error comes first).
QList<QStringList> sizeCommands() {
  return {{"compile", kDot},
          {"eval", kDot},
          {"run", kDot, "--device", "cpu"},
          {"explore", kDot, "--dry-run", "--max-kernels", "1"}};
}

void expectUsageError(const QStringList& args, const QString& message) {
  LiftcRun r = runLiftc(args);
  QVERIFY2(r.code == 2, qPrintable(r.describe()));
  QVERIFY2(r.err.contains(message), qPrintable(r.describe()));
  QVERIFY2(r.err.contains("usage: liftc"), qPrintable(r.describe()));
  QVERIFY2(!r.err.contains("error: error:"), qPrintable(r.describe()));
  QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
}

}  // namespace

class TestLiftcUsage : public QObject {
  Q_OBJECT
 private slots:
  // compile accepted what eval refused (beyond 64 bits, a name twice, a space); now every
  // command refuses each alike, before reading the program.
  void sizesAreParsedAlikeByEveryCommand_data() {
    QTest::addColumn<QStringList>("sizes");
    QTest::addColumn<QString>("message");
    QTest::newRow("beyond 64 bits") << QStringList{"--size", "N=9223372036854775808"}
                                    << "--size: N = 9223372036854775808 is too large (at most 2147483647)";
    QTest::newRow("beyond 32 bits") << QStringList{"--size", "N=2147483648"} << "is too large";
    QTest::newRow("twice in one") << QStringList{"--size", "N=4,N=8"}
                                  << "--size: N is given twice, as 4 and 8";
    QTest::newRow("twice, same value") << QStringList{"--size", "N=4,N=4"} << "N is given twice";
    QTest::newRow("twice in two") << QStringList{"--size", "N=4", "--size", "N=8"} << "N is given twice";
    QTest::newRow("space") << QStringList{"--size", "N= 4"}
                           << "--size: the value of N must be a positive integer, got ' 4'";
    QTest::newRow("space in the name") << QStringList{"--size", "N =4"} << "'N ' is not a size name";
    QTest::newRow("zero") << QStringList{"--size", "N=0"} << "--size: N must be at least 1, got 0";
    QTest::newRow("negative") << QStringList{"--size", "N=-4"} << "must be a positive integer, got '-4'";
    QTest::newRow("sign") << QStringList{"--size", "N=+4"} << "must be a positive integer, got '+4'";
    QTest::newRow("no value") << QStringList{"--size", "N"} << "--size: expected NAME=VALUE";
    QTest::newRow("empty item") << QStringList{"--size", "N=4,"} << "--size: expected NAME=VALUE";
    QTest::newRow("missing") << QStringList{"--size"} << "option '--size' needs a value";
  }
  void sizesAreParsedAlikeByEveryCommand() {
    QFETCH(QStringList, sizes);
    QFETCH(QString, message);
    for (const QStringList& command : sizeCommands()) expectUsageError(command + sizes, message);
  }

  // A size the program does not declare is refused by every command, naming its sizes.
  void sizeNamesMustBeTheProgramsOwn() {
    for (const QStringList& command : sizeCommands())
      expectUsageError(command + QStringList{"--size", "Q=4"},
                       "--size: the program has no size 'Q' (its sizes: N)");
  }

  void helpPerCommand_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("options");
    QTest::newRow("check") << "check" << QStringList{"FILE.lift", "--types"};
    QTest::newRow("compile") << "compile" << QStringList{"--size", "--indices", "--no-fma"};
    QTest::newRow("eval") << "eval" << QStringList{"--size", "--seed", "--small", "--show"};
    QTest::newRow("run") << "run" << QStringList{"--device", "--global",  "--local",
                                                 "--repeat", "--timeout", "--kernel"};
    QTest::newRow("explore") << "explore" << QStringList{"--budget", "--db", "--shard", "--device-info"};
    QTest::newRow("results") << "results" << QStringList{"--db", "--check", "--merge", "--csv"};
    QTest::newRow("rewrite") << "rewrite" << QStringList{"--apply", "--strategy", "--at", "-o"};
    QTest::newRow("rules") << "rules" << QStringList{"--at", "--family", "--all", "--markdown"};
    QTest::newRow("simplify") << "simplify" << QStringList{"EXPR", "--range"};
    QTest::newRow("derive") << "derive" << QStringList{"DERIVATION", "--flatten", "--trace"};
  }
  void helpPerCommand() {
    QFETCH(QString, command);
    QFETCH(QStringList, options);
    LiftcRun r = runLiftc({command, "--help"});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains("usage: liftc " + command + " [OPTIONS]"), qPrintable(r.describe()));
    for (const QString& o : options) QVERIFY2(r.out.contains(o), qPrintable(o + "\n" + r.describe()));
  }

  void helpListsTheCommands() {
    LiftcRun r = runLiftc({"--help"});
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    for (const char* c : {"check", "compile", "derive", "devices", "eval", "explore", "print", "results",
                          "rewrite", "rules", "run", "simplify"})
      QVERIFY2(r.out.contains(c), c);
    LiftcRun none = runLiftc({});
    QCOMPARE(none.code, 2);
    QVERIFY2(none.err.contains("compile"), qPrintable(none.describe()));
  }

  void usageErrorsExitWithTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown command") << QStringList{"frobnicate"}
                                     << "liftc: error: unknown command 'frobnicate'";
    QTest::newRow("unknown option") << QStringList{"compile", kDot, "--fast"}
                                    << "liftc compile: error: unknown option '--fast'";
    QTest::newRow("two programs") << QStringList{"check", kDot, kDot} << "unexpected argument";
    QTest::newRow("no program") << QStringList{"compile"} << "liftc compile: error: expected one FILE.lift";
    QTest::newRow("option twice") << QStringList{"eval", kDot, "--seed", "1", "--seed", "2"}
                                  << "option '--seed' is given more than once";
    QTest::newRow("not a number") << QStringList{"run", kDot, "--repeat", "x"}
                                  << "--repeat: expected a positive integer, got 'x'";
    QTest::newRow("beyond 64 bits") << QStringList{"eval", kDot, "--show", "99999999999999999999"}
                                    << "--show: 99999999999999999999 is too large";
    QTest::newRow("four dimensions") << QStringList{"run", kDot, "--local", "1,2,3,4"}
                                     << "--local: expected one to three positive integers";
    QTest::newRow("bad duration") << QStringList{"explore", kDot, "--budget", "10x"}
                                  << "--budget: unknown unit 'x'";
    QTest::newRow("bad shard") << QStringList{"explore", kDot, "--shard", "4/4"}
                               << "--shard: bad shard '4/4'";
    QTest::newRow("bad strategy") << QStringList{"explore", kDot, "--strategy", "greedy"} << "--strategy:";
    QTest::newRow("bad reference") << QStringList{"run", kDot, "--reference", "zgemm"}
                                   << "--reference: unknown reference 'zgemm'";
    QTest::newRow("device-info alone")
        << QStringList{"explore", kDot, "--device-info", "gpu"} << "--device-info requires --dry-run";
    QTest::newRow("results with nothing") << QStringList{"results"} << "expected --db FILE, --check STORE";
    QTest::newRow("merge without -o")
        << QStringList{"results", "--merge", "a.sqlite"} << "--merge requires -o";
    QTest::newRow("unknown family") << QStringList{"rules", kDot, "--family", "nope"}
                                    << "--family: unknown rule family 'nope'";
    QTest::newRow("timeout in-process")
        << QStringList{"run", kDot, "--in-process", "--timeout", "5"} << "--timeout needs the worker process";
  }
  void usageErrorsExitWithTwo() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    expectUsageError(args, message);
  }
};

QTEST_GUILESS_MAIN(TestLiftcUsage)
#include "tst_liftc_usage.moc"
