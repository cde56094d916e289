// liftc rules / rewrite / derive: the command-line contract. Every first column of
// `liftc rules FILE` is accepted by `liftc rewrite --apply`; `rules --all` lists each rule as
// NAME FAMILY lhs => rhs; docs/RULES.md is what `rules --markdown` prints; errors (unknown
// rule with "did you mean", missing location, rule that does not apply with its reason, bad
// parameter) exit with status 2 and a clear message; derive replays shipped derivations.
#include <sys/resource.h>
#include <sys/stat.h>
#include <QtTest/QtTest>

#include <fstream>
#include <sstream>

using namespace Qt::StringLiterals;

namespace {

struct Run {
  int code = -1;
  QString out, err;
};

Run liftc(const QStringList& args) {
  QProcess p;
  p.setWorkingDirectory(LIFT_SOURCE_DIR);
  p.start(LIFT_LIFTC, args);
  p.waitForFinished(120000);
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

const QString kMatmul = u"resources/examples/matmul.lift"_s;

}  // namespace

class TestLiftcRules : public QObject {
  Q_OBJECT
 private slots:
  void listsApplicableRewritesThatApplyAsListed() {
    Run r = liftc({"rules", kMatmul});
    QCOMPARE(r.code, 0);
    QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY(lines.size() >= 10);
    QRegularExpression spec(u"^[a-z0-9-]+@[0-9.]+(:[a-z]+=[^,\\s]+(,[a-z]+=[^,\\s]+)*)?$"_s);
    for (const QString& line : lines) {
      QString first = line.section(' ', 0, 0);
      QVERIFY2(spec.match(first).hasMatch(), qPrintable(line));
      QVERIFY2(line.size() > first.size() + 2,
               qPrintable("no description: " + line));  // a description follows
      Run a = liftc({"rewrite", kMatmul, "--apply", first});
      QVERIFY2(a.code == 0, qPrintable(first + ": " + a.err));
      QVERIFY(a.out.contains("fun matmul"));
    }
  }

  void listsEveryRule() {
    Run r = liftc({"rules", "--all"});
    QCOMPARE(r.code, 0);
    QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.size() >= 80, qPrintable(QString::number(lines.size())));
    QRegularExpression row(u"^([a-z0-9-]+)\\s+([a-z-]+)\\s+(.+) => (.+)$"_s);
    for (const QString& line : lines) QVERIFY2(row.match(line).hasMatch(), qPrintable(line));
    QVERIFY(r.out.contains(
        QRegularExpression(u"^map-fusion\\s+fusion\\s+map\\(f\\) o map\\(g\\) => map\\(f o g\\)$"_s,
                           QRegularExpression::MultilineOption)));
  }

  void rulesDocIsUpToDate() {
    Run r = liftc({"rules", "--markdown"});
    QCOMPARE(r.code, 0);
    std::ifstream in(LIFT_SOURCE_DIR "/docs/RULES.md");
    QVERIFY2(in.good(), "docs/RULES.md is missing: liftc rules --markdown > docs/RULES.md");
    std::stringstream ss;
    ss << in.rdbuf();
    QVERIFY2(QString::fromStdString(ss.str()) == r.out,
             "docs/RULES.md is out of date: regenerate it with liftc rules --markdown > docs/RULES.md");
  }

  void rewriteAppliesInOrderAndChecks() {
    Run r =
        liftc({"rewrite", kMatmul, "--apply", "map-fission@0.0.0.0", "--apply", "map-to-seq@0", "--check"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("mapSeq(fun(rowA"));
    QVERIFY2(r.err.contains("check: equal"), qPrintable(r.err));
    Run s = liftc({"rewrite", "resources/examples/asum.lift", "--strategy",
                   "normalise(reduce-map-fusion <+ reduce-to-seq)"});
    QCOMPARE(s.code, 0);
    QVERIFY(s.out.contains("reduceSeq(fun((acc"));
  }

  void perLocationView() {
    Run r = liftc({"rules", kMatmul, "--at", "0"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("applies   map-map-interchange@0"));
    QVERIFY(r.out.contains(
        QRegularExpression(u"no\\s+split-join\\s+the split factor 4 does not provably divide"_s)));
    Run l = liftc({"rules", kMatmul, "--locations"});
    QCOMPARE(l.code, 0);
    QVERIFY(l.out.contains(QRegularExpression(u"^0\\.1\\s+parameter A : \\[\\[float\\]K\\]M$"_s,
                                              QRegularExpression::MultilineOption)));
  }

  // --size judges the rules at those sizes (parsed as `explore --size` parses them): the symbolic
  // M, N and K of matmul.lift are not provably divisible by a tile, 256 is, and the factors
  // listed are those that divide the given sizes. A malformed size, one the program does not
  // have, or one it cannot have (a split of 4 of a length 6) exits with status 2.
  void rulesAtGivenSizes() {
    const auto lines = QRegularExpression::MultilineOption;
    Run symbolic = liftc({"rules", kMatmul, "--at", "0"});
    QCOMPARE(symbolic.code, 0);
    QVERIFY2(symbolic.out.contains(
                 QRegularExpression(u"^  no +tiling +.*does not provably divide the length M"_s, lines)),
             qPrintable(symbolic.out));
    QVERIFY(!symbolic.out.contains("applies   tiling@"));
    QVERIFY(!symbolic.out.contains("applies   tile-reduction"));
    Run sized = liftc({"rules", kMatmul, "--at", "0", "--size", "M=256,N=256,K=256"});
    QCOMPARE(sized.code, 0);
    QVERIFY2(sized.out.contains("applies   tiling@0:x=4,y=4 "), qPrintable(sized.out));
    QVERIFY(sized.out.contains("applies   tile-reduction@0:k=4 "));
    QVERIFY(sized.out.contains("applies   tile-reduction-blocked@0:k=4,"));
    QVERIFY(sized.out.contains("applies   split-join@0:n=4 "));
    // Repeated, before the file: the same.
    Run before = liftc({"rules", "--size", "M=256", "--size", "N=256,K=256", "--at", "0", kMatmul});
    QCOMPARE(before.code, 0);
    QCOMPARE(before.out, sized.out);
    // Sizes not given stay symbolic: the tiles of M x N, not of K.
    Run partial = liftc({"rules", kMatmul, "--at", "0", "--size", "M=256,N=256"});
    QCOMPARE(partial.code, 0);
    QVERIFY(partial.out.contains("applies   tiling@0:x=4,y=4 "));
    QVERIFY2(partial.out.contains(QRegularExpression(
                 u"^  no +tile-reduction +the tile length 4 does not provably divide the reduced length K$"_s,
                 lines)),
             qPrintable(partial.out));
    // At 6 the factor that divides it.
    Run six = liftc({"rules", kMatmul, "--at", "0", "--size", "M=6,N=6,K=6"});
    QCOMPARE(six.code, 0);
    QVERIFY2(six.out.contains("applies   split-join@0:n=2 "), qPrintable(six.out));
    // The whole listing and --locations too.
    Run all = liftc({"rules", kMatmul, "--size", "M=256,N=256,K=256"});
    QCOMPARE(all.code, 0);
    QVERIFY(all.out.contains(QRegularExpression(u"^tiling@0:x=4,y=4 "_s, lines)));
    Run locations = liftc({"rules", kMatmul, "--locations", "--size", "M=256,N=256,K=256"});
    QCOMPARE(locations.code, 0);
    QVERIFY(locations.out.contains(
        QRegularExpression(u"^0\\.1\\s+parameter A : \\[\\[float\\]256\\]256$"_s, lines)));

    for (const QString& bad : {u"M=0"_s, u"Q=3"_s, u"M=abc"_s, u"M=4,M=8"_s, u"M=3000000000"_s, u"M"_s}) {
      Run r = liftc({"rules", kMatmul, "--at", "0", "--size", bad});
      QVERIFY2(r.code == 2 && r.err.contains("--size: ") && r.out.isEmpty(), qPrintable(bad + ": " + r.err));
    }
    Run library = liftc({"rules", "--all", "--size", "M=4"});
    QCOMPARE(library.code, 2);
    QVERIFY2(library.err.contains("--all excludes --size"), qPrintable(library.err));
    QTemporaryDir dir;
    QString path = dir.filePath("split.lift");
    {
      std::ofstream f(path.toStdString());
      f << "size N = 1024;\nuserfun sq(float x) -> float { return x * x; }\n"
           "fun f(x: [float]N) = join o map(map(sq)) o split(4) $ x\n";
    }
    Run indivisible = liftc({"rules", path, "--size", "N=6"});
    QCOMPARE(indivisible.code, 2);
    QVERIFY2(indivisible.err.contains("6 must be divisible by 4 (at sizes N=6)") && indivisible.out.isEmpty(),
             qPrintable(indivisible.err));
    QCOMPARE(liftc({"rules", path, "--size", "N=8"}).code, 0);
  }

  // `liftc rewrite --size` applies what `rules --size` lists: the tiling refused on the symbolic
  // program applies at 256, the result (checked by the interpreter) has the sizes as constants.
  void rewriteAtGivenSizes() {
    Run symbolic = liftc({"rewrite", kMatmul, "--apply", "tiling@0:x=4,y=4"});
    QCOMPARE(symbolic.code, 2);
    QVERIFY2(symbolic.err.contains("does not provably divide"), qPrintable(symbolic.err));
    Run sized = liftc({"rewrite", kMatmul, "--size", "M=256,N=256,K=256", "--apply", "tiling@0:x=4,y=4",
                       "--apply", "tile-reduction@0.1.0.0.0.1.1.0.0.0.1:k=4", "--check"});
    QVERIFY2(sized.code == 0 && sized.err.contains("check: "), qPrintable(sized.err));
    QVERIFY2(sized.out.contains("A: [[float]256]256") && sized.out.contains("split(4)") &&
                 !sized.out.contains("size M"),  // constants now: their declarations went
             qPrintable(sized.out));
    // The result is a program of its own: it parses and checks as it is.
    QTemporaryDir dir;
    QString path = dir.filePath("tiled.lift");
    {
      std::ofstream f(path.toStdString());
      f << sized.out.toStdString();
    }
    Run again = liftc({"check", path});
    QVERIFY2(again.code == 0, qPrintable(again.err));
    Run bad = liftc({"rewrite", kMatmul, "--size", "Q=4", "--apply", "tiling@0:x=4,y=4"});
    QVERIFY2(bad.code == 2 && bad.err.contains("--size: ") && bad.out.isEmpty(), qPrintable(bad.err));
  }

  // `liftc derive --size` replays from the program at those sizes, as `rewrite --size` applies:
  // a derivation whose tiling the symbolic program refuses replays at 256 (checked by the
  // interpreter; the sizes constants in the result, its flattened form replays with the same
  // sizes); a size the program does not have or a malformed one exits with 2 and prints nothing.
  void deriveAtGivenSizes() {
    QTemporaryDir dir;
    QString path = dir.filePath("tiled.derivation");
    {
      std::ofstream f(path.toStdString());
      f << "program: " LIFT_SOURCE_DIR
           "/resources/examples/matmul.lift\n"
           "1. tiling@0:x=4,y=4\n2. tile-reduction@0.1.0.0.0.1.1.0.0.0.1:k=4\n";
    }
    Run symbolic = liftc({"derive", path});
    QCOMPARE(symbolic.code, 2);
    QVERIFY2(symbolic.err.contains("does not provably divide") && symbolic.out.isEmpty(),
             qPrintable(symbolic.err));
    Run sized = liftc({"derive", path, "--size", "M=256,N=256", "--size", "K=256", "--check"});
    QVERIFY2(sized.code == 0 && sized.err.contains("check: "), qPrintable(sized.err));
    QVERIFY2(sized.out.contains("A: [[float]256]256") && sized.out.contains("split(4)") &&
                 !sized.out.contains("size M"),  // constants now: their declarations went
             qPrintable(sized.out));
    // The same program as rewrite --size gives, and it parses and checks as it is.
    Run rewritten = liftc({"rewrite", kMatmul, "--size", "M=256,N=256,K=256", "--apply", "tiling@0:x=4,y=4",
                           "--apply", "tile-reduction@0.1.0.0.0.1.1.0.0.0.1:k=4"});
    QCOMPARE(rewritten.code, 0);
    QCOMPARE(sized.out, rewritten.out);
    QString result = dir.filePath("tiled.lift");
    QString flat = dir.filePath("flat.derivation");
    Run written = liftc({"derive", path, "--size", "M=256,N=256,K=256", "-o", result, "--flatten", flat});
    QVERIFY2(written.code == 0 && written.out.isEmpty(), qPrintable(written.err));
    Run c = liftc({"check", result});
    QVERIFY2(c.code == 0, qPrintable(c.err));
    Run again = liftc({"derive", flat, "--size", "M=256,N=256,K=256"});
    QCOMPARE(again.code, 0);
    QCOMPARE(again.out, sized.out);
    std::ifstream flatText(flat.toStdString());
    std::stringstream flatContent;
    flatContent << flatText.rdbuf();
    QVERIFY2(flatContent.str().find("liftc derive --size K=256,M=256,N=256") != std::string::npos,
             flatContent.str().c_str());

    for (const QString& bad : {u"Q=4"_s, u"M=0"_s, u"M=abc"_s, u"M=4,M=8"_s, u"M=3000000000"_s, u"M"_s}) {
      Run r = liftc({"derive", path, "--size", bad});
      QVERIFY2(r.code == 2 && r.err.contains("--size: ") && r.out.isEmpty(), qPrintable(bad + ": " + r.err));
    }
    Run unknown = liftc({"derive", path, "--size", "Q=4"});
    QVERIFY2(unknown.err.contains("the program has no size 'Q' (its sizes: M, N, K)"),
             qPrintable(unknown.err));
    // A size the program cannot have (a split of 4 of a length 6) is refused too.
    Run indivisible = liftc({"derive", path, "--size", "M=6,N=6,K=6"});
    QCOMPARE(indivisible.code, 2);
    QVERIFY(indivisible.out.isEmpty());
  }

  void errorsExitTwoWithAClearMessage() {
    Run unknown = liftc({"rewrite", kMatmul, "--apply", "map-fuson@0"});
    QCOMPARE(unknown.code, 2);
    QVERIFY2(
        unknown.err.contains("unknown rule 'map-fuson'") && unknown.err.contains("did you mean map-fusion"),
        qPrintable(unknown.err));
    Run noLoc = liftc({"rewrite", kMatmul, "--apply", "map-fission@0.7"});
    QCOMPARE(noLoc.code, 2);
    QVERIFY2(noLoc.err.contains("location 0.7 does not exist"), qPrintable(noLoc.err));
    Run notHere = liftc({"rewrite", kMatmul, "--apply", "split-join@0:n=4"});
    QCOMPARE(notHere.code, 2);
    QVERIFY2(notHere.err.contains("split-join does not apply at 0") &&
                 notHere.err.contains("does not provably divide"),
             qPrintable(notHere.err));
    Run badParam = liftc({"rewrite", kMatmul, "--apply", "split-join@0:n=0"});
    QCOMPARE(badParam.code, 2);
    QVERIFY2(badParam.err.contains("must be positive"), qPrintable(badParam.err));
    Run unknownParam = liftc({"rewrite", kMatmul, "--apply", "split-join@0:k=4"});
    QCOMPARE(unknownParam.code, 2);
    QVERIFY2(unknownParam.err.contains("unknown parameter 'k' of split-join"), qPrintable(unknownParam.err));
    Run badSpec = liftc({"rewrite", kMatmul, "--apply", "map-fusion"});
    QCOMPARE(badSpec.code, 2);
    Run badStrategy = liftc({"rewrite", kMatmul, "--strategy", "repeat(topDown(map-fuson))"});
    QCOMPARE(badStrategy.code, 2);
    QVERIFY(badStrategy.err.contains("did you mean map-fusion"));
    Run badFile = liftc({"rules", "no/such/file.lift"});
    QCOMPARE(badFile.code, 2);
    Run badDerivation = liftc({"derive", "no/such.derivation"});
    QCOMPARE(badDerivation.code, 2);
  }

  void hugeStrategyIndicesAreRefused() {
    for (const QString& strategy : {u"argument(2147483647, id)"_s, u"child(4294967296, id)"_s}) {
      Run r = liftc({"rewrite", kMatmul, "--strategy", strategy});
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.contains("too large") && !r.err.contains("stoi"), qPrintable(r.err));
    }
    QTemporaryDir dir;
    QString path = dir.filePath("huge.derivation");
    {
      std::ofstream f(path.toStdString());
      f << "program: " LIFT_SOURCE_DIR
           "/resources/examples/matmul.lift\nstrategy: argument(2147483647, id)\n";
    }
    Run d = liftc({"derive", path});
    QCOMPARE(d.code, 2);
    QVERIFY2(d.err.contains("too large") && !d.err.contains("stoi"), qPrintable(d.err));
  }

  // A rewrite whose result the language cannot write (a size beyond 32 bits) is refused, and
  // nothing is printed (it used to print a program `check` rejects, with exit 0).
  void oversizedSizeMultipleIsRefused() {
    Run big = liftc({"rewrite", kMatmul, "--apply", "size-multiple@0:var=N,k=1099511627776"});
    QCOMPARE(big.code, 2);
    QVERIFY2(big.err.contains("too large") && big.out.isEmpty(), qPrintable(big.err));
    QTemporaryDir dir;
    QString path = dir.filePath("blocks.lift");
    {
      std::ofstream f(path.toStdString());
      f << "size N;\nuserfun neg(float x) -> float { return -x; }\nfun f(x: [float]128*N) = map(neg) $ x\n";
    }
    // k fits, 128*k does not: the engine refuses the result.
    Run product = liftc({"rewrite", path, "--apply", "size-multiple@0:var=N,k=1073741824"});
    QCOMPARE(product.code, 2);
    QVERIFY2(product.err.contains("beyond the 32-bit sizes") && product.out.isEmpty(),
             qPrintable(product.err));
    Run fits = liftc({"rewrite", path, "--apply", "size-multiple@0:var=N,k=1024"});
    QCOMPARE(fits.code, 0);
    QVERIFY2(fits.out.contains("[float]131072*N"), qPrintable(fits.out));
  }

  void deriveWritesTheResult() {
    QTemporaryDir dir;
    QString out = dir.filePath("reduce.lift");
    Run r = liftc({"derive", "resources/derivations/vecsum_listing_5_8.derivation", "-o", out, "--check"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.err.contains("check: equal"));
    Run c = liftc({"check", out});
    QVERIFY2(c.code == 0, qPrintable(c.err));
    Run printed = liftc({"derive", "resources/derivations/vecsum_listing_5_8.derivation"});
    QCOMPARE(printed.code, 0);
    QVERIFY(printed.out.contains("iterate(7"));
    QString flat = dir.filePath("flat.derivation");
    Run f = liftc({"derive", "resources/derivations/vecsum_listing_5_13.derivation", "--flatten", flat, "-o",
                   dir.filePath("x.lift")});
    QCOMPARE(f.code, 0);
    Run again = liftc({"derive", flat});
    QCOMPARE(again.code, 0);
  }

  // A write that fails is an error and never leaves a partial file: standard output on a full
  // disk, -o under a file-size limit (the previous content stays, no temporary is left), -o
  // into a missing folder.
  void failedWritesExitTwoAndKeepThePreviousFile() {
    QProcess full;
    full.setWorkingDirectory(LIFT_SOURCE_DIR);
    full.setStandardOutputFile("/dev/full");
    full.start(LIFT_LIFTC, {"print", kMatmul});
    QVERIFY(full.waitForFinished(60000));
    QCOMPARE(full.exitCode(), 2);
    QVERIFY2(full.readAllStandardError().contains("cannot write to standard output"), "no message");

    QTemporaryDir dir;
    QString target = dir.filePath("prev.lift");
    QByteArray previous = "// the user's file, which a failed write must not touch\n";
    {
      QFile f(target);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(previous);
    }
    QProcess limited;
    limited.setWorkingDirectory(LIFT_SOURCE_DIR);
    limited.setChildProcessModifier([] {
      struct rlimit lim {
        1024, 1024
      };
      ::setrlimit(RLIMIT_FSIZE, &lim);
    });
    limited.start(LIFT_LIFTC,
                  {"derive", "resources/derivations/matmul_tiled_local.derivation", "-o", target});
    QVERIFY(limited.waitForFinished(120000));
    QCOMPARE(limited.exitStatus(), QProcess::NormalExit);
    QCOMPARE(limited.exitCode(), 2);
    QVERIFY2(limited.readAllStandardError().contains("cannot write"), "no message");
    QFile f(target);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), previous);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"prev.lift"});

    Run missing = liftc({"derive", "resources/derivations/vecsum_listing_5_8.derivation", "-o",
                         dir.filePath("no/such/x.lift")});
    QCOMPARE(missing.code, 2);
    QVERIFY2(missing.err.contains("cannot write"), qPrintable(missing.err));
  }

  // -o naming a device or FIFO was replaced by the renamed temporary: as root, `-o /dev/null`
  // turned /dev/null into a regular file. Now it is refused and left as it is.
  void writingOverADeviceOrFifoIsRefused() {
    QTemporaryDir dir;
    QString fifo = dir.filePath("out.fifo");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    Run r = liftc({"derive", "resources/derivations/vecsum_listing_5_8.derivation", "-o", fifo});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("it is not a regular file"), qPrintable(r.err));
    struct stat st {};
    QCOMPARE(::stat(fifo.toLocal8Bit().constData(), &st), 0);
    QVERIFY(S_ISFIFO(st.st_mode));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::System), QStringList{"out.fifo"});
  }
};

QTEST_APPLESS_MAIN(TestLiftcRules)
#include "tst_liftc_rules.moc"
