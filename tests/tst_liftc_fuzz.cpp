// Fuzzing liftc's whole command lines (issue 19, part 7): mutants of valid lines of every
// command (programs, derivations, strategies, sizes and ranges, result stores, -o outputs) run
// as a user runs them, each checked by CommandLineFuzz.h's rules: no crash, no hang, exit 0 only
// for what may be valid, a message with every refusal, no C++ internals, read files unchanged,
// outputs written whole or not at all. Deterministic (fixed seed); LIFT_FUZZ_MUTANTS runs a longer
// campaign (docs/TESTING.md).
#include <QtTest/QtTest>

#include <QElapsedTimer>
#include <QTemporaryDir>

#include "CommandLineFuzz.h"
#include "rewrite/explore/ResultStore.h"

using namespace lift::test;

namespace {

// The arguments after -o and --flatten: files the line may write.
QStringList outputsOf(const QStringList& args, const QString& dir) {
  QStringList out;
  for (int i = 0; i < args.size(); ++i) {
    QString target;
    if ((args[i] == "-o" || args[i] == "--flatten") && i + 1 < args.size())
      target = args[i + 1];
    else if (args[i].startsWith("-o") && args[i].size() > 2)
      target = args[i].mid(2);
    else if (args[i].startsWith("--flatten="))
      target = args[i].mid(10);
    if (!target.isEmpty()) out << QFileInfo(QDir(dir), target).absoluteFilePath();
  }
  return out;
}

}  // namespace

class TestLiftcFuzz : public QObject {
  Q_OBJECT

 private slots:
  void wholeCommandLines() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    FuzzFolder folder(tmp.path());
    const QString src = LIFT_SOURCE_DIR;
    // The files the seeds read: copies, so that a changed byte is seen.
    auto copy = [&](const QString& from, const QString& name) {
      QFile::copy(src + "/" + from, folder.path(name));
      return name;
    };
    QString dot = copy("resources/examples/dot.lift", "dot.lift");
    QString mm = copy("resources/examples/matmul.lift", "matmul.lift");
    QString low = copy("resources/examples/lowlevel/dot.lift", "low.lift");
    QString deriv = "vecsum.derivation";
    {
      QFile::copy(src + "/resources/derivations/vecsum.lift", folder.path("vecsum.lift"));
      QFile d(folder.path(deriv));
      QVERIFY(d.open(QIODevice::WriteOnly));
      d.write("program: vecsum.lift\n1. map-to-wrg@0.1:dim=0\n2. reduce-partial@0.1.0.0.0:m=128\n");
    }
    QString store = "store.sqlite";
    { lift::explore::ResultStore s(folder.path(store).toStdString()); }
    QFile::copy(folder.path(store), folder.path("other.sqlite"));
    QFile(folder.path("out.lift")).open(QIODevice::WriteOnly);

    const QStringList files = {dot, mm, low, deriv, store, "other.sqlite", "vecsum.lift"};
    const QList<QStringList> seeds = {
        {"check", dot},
        {"check", mm, "--types"},
        {"print", dot, "--check"},
        {"eval", dot, "--size", "N=64", "--seed", "3", "--show", "4"},
        {"eval", mm, "--small", "--max-applications", "100000"},
        {"compile", low, "--size", "N=1024", "--no-fma"},
        {"compile", low, "--indices"},
        {"rules", dot},
        {"rules", mm, "--at", "0", "--all-params"},
        {"rewrite", dot, "--apply", "size-multiple@0:var=N,k=4", "-o", "out.lift"},
        {"rewrite", dot, "--strategy", "normalise(reduce-map-fusion <+ reduce-to-seq)"},
        {"derive", deriv, "--check"},
        {"derive", deriv, "-o", "out.lift", "--flatten", "flat.derivation"},
        {"simplify", "(N*4+x)/4", "--range", "x=0:4"},
        {"simplify", "a%(2*b)", "--range", "b=1:", "--range", "a=0:b"},
        {"results", "--db", store, "--top", "3"},
        {"results", "--check", store},
        {"results", "--merge", store, "other.sqlite", "-o", "merged.sqlite"},
    };
    const QMap<QString, QStringList> invalid = {
        {"--size", {"N=0", "N=2147483648", "N=-1", "N=", "N=4,N=8", "N= 4", "=4", "N=9223372036854775808"}},
        {"--seed", {"-1", "x", "99999999999999999999"}},
        {"--show", {"0", "-3", "many"}},
        {"--max-applications", {"-1", "1e9", ""}},
        {"--range", {"x=4:0:", "x", "=0:4", "x=0:4:8"}},
        {"--top", {"0", "-1", "ten"}},
        {"--at", {"9.9.9.9.9", "-1", "0..1", "x"}},
        {"--apply", {"no-such-rule@0", "size-multiple@9.9:var=N,k=4", "size-multiple@0:var=N,k=0"}},
        {"--strategy", {"try(", "no_such_strategy", "argument(2147483647, id)"}},
    };
    CommandLineMutator mutator(19, folder, invalid);
    FuzzCounts counts;
    QStringList failures;
    QElapsedTimer clock;
    clock.start();
    const int mutants = fuzzMutants(600);
    for (int i = 0; i < mutants; ++i) {
      const QStringList& seed = seeds[i % seeds.size()];
      CommandLine c = mutator.mutate(seed, files);
      QStringList outputs = outputsOf(c.args, tmp.path());
      QMap<QString, QByteArray> before = folder.snapshot();
      FuzzRun r = runProgram(LIFT_LIFTC, c.args, tmp.path(), 30000);
      QMap<QString, QByteArray> after = folder.snapshot();
      QString broken = checkRun(c, r, before, after, outputs, counts);
      if (!broken.isEmpty()) failures << QString("liftc %1: %2").arg(c.args.join(' ').left(300), broken);
      // A mutant's new files (an output it was allowed to write) do not carry over to the next.
      for (const QString& p : after.keys())
        if (!before.contains(p)) QFile::remove(p);
    }
    qInfo("%s in %.1f s", qPrintable(counts.summary()), clock.elapsed() / 1000.0);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 10).join('\n')));
  }
};

QTEST_GUILESS_MAIN(TestLiftcFuzz)
#include "tst_liftc_fuzz.moc"
