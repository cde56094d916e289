// The SQLite result store of the explorer: kernels and searches round-trip, one row per kernel
// (the same kernel stored twice is one row), best-first queries, CSV export, merging stores,
// bad files; and through `liftc explore` in a child process: a search killed with SIGKILL loses
// nothing it stored, the store stays intact, and the resumed search measures nothing again.
#include <QtTest/QtTest>

#include <sqlite3.h>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "LiftcProcess.h"
#include "core/support/Diagnostic.h"
#include "rewrite/explore/ResultStore.h"

using namespace lift;
using namespace lift::explore;

namespace {

KernelRecord kernel(const std::string& source, double ms, const std::string& status = "ok") {
  KernelRecord k;
  k.programHash = hashText("program " + source);
  k.startHash = "0123456789abcdef";
  k.program = "matmul";
  k.derivation = "register-blocking-1d@0:k=4\nmap-to-glb@0.1:dim=1";
  k.parameters = "k=4,local=1x1";
  k.strategy = "three-phase";
  k.phase = "parameters";
  k.device = "cpu (PoCL)";
  k.sizes = "K=32,M=32,N=32";
  k.sourceHash = hashText(source);
  k.launch = "global=8,8 local=1,1";
  k.status = status;
  k.medianMs = ms;
  k.minMs = ms * 0.9;
  k.maxMs = ms * 1.2;
  k.gflops = 65536 / (ms * 1e6);
  return k;
}

// A search of matmul.lift on the CPU device.
SearchRecord searchRecord(const std::string& strategy, uint64_t seed, const std::string& sizes) {
  SearchRecord sr;
  sr.program = "matmul.lift";
  sr.startHash = "0123456789abcdef";
  sr.strategy = strategy;
  sr.seed = seed;
  sr.device = "cpu (PoCL)";
  sr.sizes = sizes;
  return sr;
}

// Every column of a kernel record: a value of its own in each, so that two columns swapped on the
// way into or out of the store show.
KernelRecord everyColumn(int64_t searchId) {
  KernelRecord k = kernel("kernel void every() {}", 1.5);
  k.searchId = searchId;
  k.gbs = 2.25;
  k.maxRelErr = 3.5e-6;
  k.buildMs = 4.75;
  k.elapsedS = 5.5;
  k.message = "a message";
  k.createdAt = "2026-11-27T12:00:00Z";
  return k;
}

void expectSameKernel(const KernelRecord& a, const KernelRecord& b) {
  auto same = [](const std::string& x, const std::string& y) {
    QCOMPARE(QString::fromStdString(x), QString::fromStdString(y));
  };
  same(a.programHash, b.programHash);
  same(a.startHash, b.startHash);
  same(a.program, b.program);
  same(a.derivation, b.derivation);
  same(a.parameters, b.parameters);
  same(a.strategy, b.strategy);
  same(a.phase, b.phase);
  same(a.device, b.device);
  same(a.sizes, b.sizes);
  same(a.sourceHash, b.sourceHash);
  same(a.launch, b.launch);
  same(a.status, b.status);
  same(a.message, b.message);
  same(a.createdAt, b.createdAt);
  QCOMPARE(a.medianMs, b.medianMs);
  QCOMPARE(a.minMs, b.minMs);
  QCOMPARE(a.maxMs, b.maxMs);
  QCOMPARE(a.gflops, b.gflops);
  QCOMPARE(a.gbs, b.gbs);
  QCOMPARE(a.maxRelErr, b.maxRelErr);
  QCOMPARE(a.buildMs, b.buildMs);
  QCOMPARE(a.elapsedS, b.elapsedS);
}

}  // namespace

class TestResultStore : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString path(const char* name) { return dir_.filePath(name); }

 private slots:
  void kernelsRoundTrip() {
    ResultStore s(path("a.sqlite").toStdString());
    SearchRecord sr = searchRecord("three-phase", 7, "K=32,M=32,N=32");
    int64_t search = s.beginSearch(sr);
    QVERIFY(search > 0);
    KernelRecord k = kernel("kernel void a() {}", 1.5);
    k.searchId = search;
    int64_t id = s.addKernel(k, "kernel void a() {}");
    QVERIFY(id > 0);
    auto back = s.kernel(id);
    QVERIFY(back);
    QCOMPARE(QString::fromStdString(back->derivation), QString::fromStdString(k.derivation));
    QCOMPARE(back->medianMs, 1.5);
    QCOMPARE(back->searchId, search);
    QVERIFY(!back->createdAt.empty());
    QCOMPARE(QString::fromStdString(*s.source(k.sourceHash)), QString("kernel void a() {}"));
    // The same kernel again (same source, launch, device, sizes): no second row.
    QCOMPARE(s.addKernel(k, "kernel void a() {}"), id);
    QCOMPARE(s.count(), int64_t(1));
    s.finishSearch(search, "time-limit", 1, 1, 1.5);
    auto searches = s.searches();
    QCOMPARE(searches.size(), size_t(1));
    QCOMPARE(QString::fromStdString(searches[0].stopReason), QString("time-limit"));
    QCOMPARE(searches[0].seed, uint64_t(7));
  }

  // Every column of a kernel and of its search comes back as it went in: read back, and merged
  // into another store.
  void everyColumnRoundTrips() {
    ResultStore s(path("every.sqlite").toStdString());
    SearchRecord sr = searchRecord("evolution", 11, "K=64,M=32,N=16");
    sr.shard = "1/3";
    sr.limits = "budget=90s";
    sr.host = "a host";
    int64_t search = s.beginSearch(sr);
    s.finishSearch(search, "kernel-limit", 9, 8, 1.25);
    KernelRecord k = everyColumn(search);
    auto back = s.kernel(s.addKernel(k, "kernel void every() {}"));
    QVERIFY(back);
    expectSameKernel(*back, k);
    ResultStore merged(path("every-merged.sqlite").toStdString());
    QCOMPARE(merged.merge(path("every.sqlite").toStdString()), int64_t(1));
    std::vector<KernelRecord> ks = merged.kernels();
    QCOMPARE(ks.size(), size_t(1));
    expectSameKernel(ks[0], k);
    std::vector<SearchRecord> searches = merged.searches();
    QCOMPARE(searches.size(), size_t(1));
    const SearchRecord& m = searches[0];
    QCOMPARE(ks[0].searchId, m.id);
    for (auto [got, want] : {std::pair{m.program, sr.program},
                             {m.startHash, sr.startHash},
                             {m.strategy, sr.strategy},
                             {m.device, sr.device},
                             {m.sizes, sr.sizes},
                             {m.shard, sr.shard},
                             {m.limits, sr.limits},
                             {m.host, sr.host},
                             {m.stopReason, std::string("kernel-limit")},
                             {m.startedAt, s.searches()[0].startedAt},
                             {m.finishedAt, s.searches()[0].finishedAt}})
      QCOMPARE(QString::fromStdString(got), QString::fromStdString(want));
    QCOMPARE(m.seed, uint64_t(11));
    QCOMPARE(m.evaluated, int64_t(9));
    QCOMPARE(m.valid, int64_t(8));
    QCOMPARE(m.bestMs, 1.25);
  }

  void bestFirstAndFilters() {
    ResultStore s(path("b.sqlite").toStdString());
    s.addKernel(kernel("k1", 3.0));
    s.addKernel(kernel("k2", 1.0));
    s.addKernel(kernel("k3", 0.5, "wrong-result"));
    KernelRecord other = kernel("k4", 0.7);
    other.sizes = "K=64,M=64,N=64";
    s.addKernel(other);
    KernelQuery q;
    q.validOnly = true;
    q.bestFirst = true;
    q.sizes = "K=32,M=32,N=32";
    auto ks = s.kernels(q);
    QCOMPARE(ks.size(), size_t(2));
    QCOMPARE(ks[0].medianMs, 1.0);
    QCOMPARE(s.count(true), int64_t(3));
    QCOMPARE(s.count(), int64_t(4));
  }

  // The query the skeletons (skelcl/StoredKernel.h) and bench_kernels make: the fastest valid
  // kernel of one program, sizes and device, the first stored of equally fast ones.
  void bestKernelOfAProgramSizesAndDevice() {
    ResultStore s(path("best.sqlite").toStdString());
    const std::string start = "0123456789abcdef", sizes = "K=32,M=32,N=32", device = "cpu (PoCL)";
    QVERIFY(!s.bestKernel(start, sizes, device));
    s.addKernel(kernel("slow", 3.0));
    const int64_t fast = s.addKernel(kernel("fast", 1.0));
    s.addKernel(kernel("just as fast, stored later", 1.0));
    s.addKernel(kernel("wrong", 0.5, "wrong-result"));
    KernelRecord otherSizes = kernel("other sizes", 0.2), otherDevice = kernel("other device", 0.2),
                 otherProgram = kernel("other program", 0.2);
    otherSizes.sizes = "K=64,M=64,N=64";
    otherDevice.device = "gpu (NVIDIA CUDA)";
    otherProgram.startHash = "fedcba9876543210";
    for (const KernelRecord& k : {otherSizes, otherDevice, otherProgram}) s.addKernel(k);
    auto best = s.bestKernel(start, sizes, device);
    QVERIFY(best);
    QCOMPARE(best->id, fast);
    QCOMPARE(best->medianMs, 1.0);
    QCOMPARE(s.bestKernel(start, "K=64,M=64,N=64", device)->sourceHash, hashText("other sizes"));
    QCOMPARE(s.bestKernel("fedcba9876543210", sizes, device)->sourceHash, hashText("other program"));
    QVERIFY(!s.bestKernel(start, "K=16,M=16,N=16", device));
    QVERIFY(!s.bestKernel(start, sizes, "cpu (another platform)"));
    // Only invalid ones: none.
    ResultStore w(path("best-invalid.sqlite").toStdString());
    w.addKernel(kernel("wrong", 0.5, "wrong-result"));
    w.addKernel(kernel("timeout", 0.1, "timeout"));
    QVERIFY(!w.bestKernel(start, sizes, device));
  }

  void csvExport() {
    ResultStore s(path("c.sqlite").toStdString());
    KernelRecord k = kernel("k1", 2.0);
    k.message = "a, \"quoted\" message";
    s.addKernel(k);
    std::ostringstream out;
    s.exportCsv(out);
    std::string csv = out.str();
    QVERIFY(csv.rfind("id,search_id,program,program_hash", 0) == 0);
    QVERIFY(csv.find("\"a, \"\"quoted\"\" message\"") != std::string::npos);
    QVERIFY(csv.find("register-blocking-1d@0:k=4;map-to-glb@0.1:dim=1") != std::string::npos);
    int lines = 0;
    for (char c : csv) lines += c == '\n';
    QCOMPARE(lines, 2);
  }

  void mergeStores() {
    ResultStore a(path("m1.sqlite").toStdString());
    ResultStore b(path("m2.sqlite").toStdString());
    SearchRecord sr;
    sr.strategy = "random";
    sr.program = "matmul";
    sr.device = "cpu (PoCL)";
    sr.shard = "1/2";
    int64_t sb = b.beginSearch(sr);
    a.addKernel(kernel("k1", 1.0));
    KernelRecord k2 = kernel("k2", 2.0);
    k2.searchId = sb;
    b.addKernel(k2, "source of k2");
    b.addKernel(kernel("k1", 1.1));  // the same kernel as a's: kept once
    ResultStore c(path("m3.sqlite").toStdString());
    QCOMPARE(c.merge(path("m1.sqlite").toStdString()), int64_t(1));
    QCOMPARE(c.merge(path("m2.sqlite").toStdString()), int64_t(1));
    QCOMPARE(c.merge(path("m2.sqlite").toStdString()), int64_t(0));  // merging again adds nothing
    QCOMPARE(c.count(), int64_t(2));
    QCOMPARE(c.searches().size(), size_t(1));
    QCOMPARE(QString::fromStdString(*c.source(k2.sourceHash)), QString("source of k2"));
    auto ks = c.kernels();
    QCOMPARE(ks[1].searchId, c.searches()[0].id);
    QVERIFY_THROWS_EXCEPTION(LiftError, c.merge(path("m3.sqlite").toStdString()));
  }

  void notAStore() {
    std::ofstream(path("junk.sqlite").toStdString())
        << "this is not a database, just some text padding it out";
    try {
      ResultStore s(path("junk.sqlite").toStdString());
      QFAIL("expected an error");
    } catch (const LiftError& e) {
      QVERIFY2(std::string(e.what()).find("not a result store") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(LiftError, ResultStore("/nonexistent/dir/x.sqlite"));
  }

  // Reading never changes a file: a store opened read-only reads its kernels, and a file that is
  // not a store (text, one byte, empty, an unrelated SQLite database) is refused and left
  // byte-identical — liftc results exits 2 on it instead of replacing it with a new store.
  void readOnlyNeverChangesTheFile() {
    auto bytes = [](const QString& f) {
      QFile in(f);
      return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
    };
    QString good = path("ro.sqlite");
    {
      ResultStore s(good.toStdString());
      s.addKernel(kernel("kernel void a() {}", 1.5), "kernel void a() {}");
    }
    QByteArray before = bytes(good);
    {
      ResultStore r(good.toStdString(), ResultStore::Access::ReadOnly);
      QCOMPARE(r.count(), int64_t(1));
      QVERIFY_THROWS_EXCEPTION(LiftError, r.addKernel(kernel("kernel void b() {}", 2.0)));
    }
    QCOMPARE(bytes(good), before);
    // Nothing is left beside it either: a read of this WAL store (liftc results --db, --check, the
    // inputs of --merge) left "-shm" and "-wal" files behind.
    QVERIFY(ResultStore::integrityProblems(good.toStdString()).empty());
    QVERIFY(!QFile::exists(good + "-shm") && !QFile::exists(good + "-wal"));
    lift::test::LiftcRun listed = lift::test::runLiftc({"results", "--db", good});
    QCOMPARE(listed.code, 0);
    QVERIFY(!QFile::exists(good + "-shm") && !QFile::exists(good + "-wal"));
    // A merge refused for one of its inputs leaves the output as it was (it was opened, and so
    // changed, before the inputs were read).
    QString out = path("out.sqlite");
    QFile::copy(good, out);
    QByteArray outBefore = bytes(out);
    lift::test::LiftcRun refused =
        lift::test::runLiftc({"results", "--merge", good, path("missing.sqlite"), "-o", out});
    QCOMPARE(refused.code, 2);
    QCOMPARE(bytes(out), outBefore);
    QVERIFY(!QFile::exists(out + "-shm") && !QFile::exists(out + "-wal"));

    QString other = path("other.sqlite");
    {
      sqlite3* db = nullptr;
      QCOMPARE(sqlite3_open(other.toUtf8().constData(), &db), SQLITE_OK);
      QCOMPARE(sqlite3_exec(db, "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('mine');", nullptr,
                            nullptr, nullptr),
               SQLITE_OK);
      sqlite3_close(db);
    }
    std::ofstream(path("one.sqlite").toStdString()) << "x";
    std::ofstream(path("empty.sqlite").toStdString());
    std::ofstream(path("text.sqlite").toStdString())
        << "this is not a database, just some text padding it out";
    QStringList files = {path("one.sqlite"), path("empty.sqlite"), path("text.sqlite"), other};
    for (const QString& f : files) {
      QByteArray was = bytes(f);
      try {
        ResultStore r(f.toStdString(), ResultStore::Access::ReadOnly);
        QFAIL(qPrintable("no error for " + f));
      } catch (const LiftError& e) {
        QVERIFY2(std::string(e.what()).find("not a result store") != std::string::npos, e.what());
      }
      lift::test::LiftcRun r = lift::test::runLiftc({"results", "--db", f});
      QVERIFY2(r.code == 2, qPrintable(r.describe()));
      QVERIFY2(r.err.contains("not a result store"), qPrintable(r.describe()));
      QVERIFY2(!r.err.contains("error: error:"), qPrintable(r.describe()));  // the message said it twice
      QCOMPARE(bytes(f), was);
    }
    // Opened for writing (explore --db), someone else's database is refused too, not extended.
    QByteArray was = bytes(other);
    try {
      ResultStore w(other.toStdString());
      QFAIL("no error for a foreign SQLite database");
    } catch (const LiftError& e) {
      QVERIFY2(std::string(e.what()).find("not a result store") != std::string::npos, e.what());
    }
    QCOMPARE(bytes(other), was);
    lift::test::LiftcRun r = lift::test::runLiftc({"explore", "resources/examples/matmul.lift", "--size",
                                                   "M=8,N=8,K=8", "--max-kernels", "1", "--db", other});
    QVERIFY2(r.code == 2, qPrintable(r.describe()));
    QVERIFY2(r.err.contains("not a result store"), qPrintable(r.describe()));
    QVERIFY2(!r.err.contains("error: error:"), qPrintable(r.describe()));
    QCOMPARE(bytes(other), was);
  }

  // SQLite's integrity check: `liftc results --check` runs it (exit 0 and "ok" for a sound store,
  // exit 2 listing the problems of a damaged one), and reading a damaged store says that it is
  // damaged and how to check it, instead of listing what it can or a bare SQLite error.
  void integrityCheck() {
    QString good = path("sound.sqlite");
    {
      ResultStore s(good.toStdString());
      for (int i = 0; i < 300; ++i) {
        std::string src = "kernel void k" + std::to_string(i) + "() {}";
        s.addKernel(kernel(src, 1.0 + i), src);
      }
    }
    lift::test::LiftcRun ok = lift::test::runLiftc({"results", "--check", good});
    QVERIFY2(ok.code == 0, qPrintable(ok.describe()));
    QVERIFY2(ok.out.contains("ok (SQLite integrity check passed; 300 kernels"), qPrintable(ok.describe()));

    // A page of the file zeroed (a bad sector, a bad copy).
    QString damaged = path("damaged.sqlite");
    QVERIFY(QFile::copy(good, damaged));
    {
      QFile f(damaged);
      QVERIFY(f.open(QIODevice::ReadWrite));
      QByteArray header = f.read(100);
      int pageSize = (static_cast<unsigned char>(header[16]) << 8) | static_cast<unsigned char>(header[17]);
      qint64 pages = f.size() / pageSize;
      QVERIFY(pages > 4);
      QVERIFY(f.seek((pages - 2) * pageSize));
      f.write(QByteArray(pageSize, '\0'));
    }
    auto bytes = [](const QString& file) {
      QFile in(file);
      return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
    };
    QByteArray was = bytes(damaged);
    lift::test::LiftcRun check = lift::test::runLiftc({"results", "--check", damaged});
    QVERIFY2(check.code == 2, qPrintable(check.describe()));
    QVERIFY2(check.err.contains("is damaged: SQLite's integrity check found"), qPrintable(check.describe()));
    for (QStringList args :
         {QStringList{"results", "--db", damaged}, QStringList{"results", "--db", damaged, "--csv"},
          QStringList{"results", "--db", damaged, "--searches"}}) {
      lift::test::LiftcRun r = lift::test::runLiftc(args);
      QVERIFY2(r.code == 2, qPrintable(r.describe()));
      QVERIFY2(r.err.contains("is damaged") && r.err.contains("liftc results --check"),
               qPrintable(r.describe()));
      QVERIFY2(!r.err.contains("error: error:"), qPrintable(r.describe()));
      QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    }
    QCOMPARE(bytes(damaged), was);
    try {
      ResultStore r(damaged.toStdString(), ResultStore::Access::ReadOnly);
      QFAIL("no error for a damaged store");
    } catch (const LiftError& e) {
      QVERIFY2(std::string(e.what()).find("is damaged") != std::string::npos, e.what());
    }
    // Opened for writing, it is not checked whole (a search's store may be large), but what meets
    // the damage says so.
    try {
      ResultStore w(damaged.toStdString());
      w.kernels();
      w.exportCsv(std::cout);
      QFAIL("no error for a damaged store");
    } catch (const LiftError& e) {
      QVERIFY2(std::string(e.what()).find("is damaged") != std::string::npos, e.what());
    }

    std::ofstream(path("words.sqlite").toStdString())
        << "this is not a database, just some text padding it out";
    lift::test::LiftcRun text = lift::test::runLiftc({"results", "--check", path("words.sqlite")});
    QVERIFY2(text.code == 2, qPrintable(text.describe()));
    QVERIFY2(text.err.contains("not a result store (not an SQLite database)"), qPrintable(text.describe()));
    lift::test::LiftcRun missing = lift::test::runLiftc({"results", "--check", path("none.sqlite")});
    QVERIFY2(missing.code == 2 && missing.err.contains("no result store"), qPrintable(missing.describe()));
  }

  // A search killed mid-run keeps every kernel it stored; resuming measures nothing again.
  void survivesKilledSearchAndResumes() {
    QString db = path("killed.sqlite");
    QStringList args = {"explore",       QString(LIFT_SOURCE_DIR) + "/resources/examples/matmul.lift",
                        "--size",        "M=32,N=32,K=32",
                        "--max-kernels", "60",
                        "--db",          db,
                        "--strategy",    "three-phase",
                        "--seed",        "3"};
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CACHE_HOME", dir_.filePath("cache"));
    p.setProcessEnvironment(env);
    p.start(LIFT_LIFTC, args);
    QVERIFY(p.waitForStarted());
    // Wait until it has stored a few kernels, then kill it.
    int64_t stored = 0;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 120000 && p.state() == QProcess::Running) {
      QThread::msleep(200);
      try {
        ResultStore peek(db.toStdString());
        stored = peek.count();
      } catch (const LiftError&) {
      }
      if (stored >= 3) break;
    }
    QVERIFY2(p.state() == QProcess::Running, qPrintable(QString(p.readAllStandardError())));
    p.kill();  // SIGKILL: no chance to clean up
    p.waitForFinished();
    ResultStore after(db.toStdString());
    int64_t kept = after.count();
    QVERIFY2(kept >= stored, qPrintable(QString("%1 stored, %2 kept").arg(stored).arg(kept)));
    auto searches = after.searches();
    QCOMPARE(searches.size(), size_t(1));
    QVERIFY(searches[0].stopReason.empty());  // killed: never finished
    for (const KernelRecord& k : after.kernels()) QVERIFY(!k.status.empty());

    // Resume: the same deterministic search finds the stored kernels and measures two new ones.
    QProcess r;
    r.setProcessEnvironment(env);
    QStringList resume = args;
    resume[resume.indexOf("60")] = "2";
    r.start(LIFT_LIFTC, resume);
    QVERIFY(r.waitForFinished(300000));
    QString out = r.readAllStandardOutput();
    QVERIFY2(r.exitCode() == 0, qPrintable(out + r.readAllStandardError()));
    ResultStore resumed(db.toStdString());
    QVERIFY(resumed.count() >= kept + 2);
    auto all = resumed.searches();
    QCOMPARE(all.size(), size_t(2));
    std::set<std::string> first;
    KernelQuery q1;
    q1.searchId = all[0].id;
    for (const KernelRecord& k : resumed.kernels(q1)) first.insert(k.programHash + "|" + k.parameters);
    KernelQuery q2;
    q2.searchId = all[1].id;
    int64_t measuredNow = 0;
    for (const KernelRecord& k : resumed.kernels(q2)) {
      QVERIFY2(!first.count(k.programHash + "|" + k.parameters), "a stored kernel was measured again");
      measuredNow += k.status != "compile-failed";
    }
    QCOMPARE(measuredNow, int64_t(2));
    QRegularExpression before("stored before (\\d+)");
    auto m = before.match(out);
    QVERIFY2(m.hasMatch(), qPrintable(out));
    QVERIFY2(m.captured(1).toLongLong() >= kept, qPrintable(out));
  }
};

QTEST_GUILESS_MAIN(TestResultStore)
#include "tst_result_store.moc"
