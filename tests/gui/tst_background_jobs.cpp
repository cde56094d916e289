// BackgroundJobs, the one helper every background task of the app runs on: results arrive on
// the owner's thread by a queued call, a cancelled (stale) job's result is dropped, a job can
// see that it is stale and stop, post() streams values before the end, and destroying the
// helper waits for its work; a job that throws is reported, not fatal.
#include <QtTest/QtTest>

#include <QThread>
#include <atomic>
#include <new>
#include <stdexcept>

#include "views/BackgroundJobs.h"

using namespace lift::views;

class TestBackgroundJobs : public QObject {
  Q_OBJECT

 private slots:
  void resultArrivesQueuedOnTheOwnersThread() {
    QObject owner;
    BackgroundJobs jobs(&owner);
    QThread* workThread = nullptr;
    QThread* deliverThread = nullptr;
    int got = 0;
    uint64_t id = jobs.start(
        [&] {
          workThread = QThread::currentThread();
          return 42;
        },
        [&](int v) {
          deliverThread = QThread::currentThread();
          got = v;
        });
    QCOMPARE(id, uint64_t(1));
    QVERIFY(jobs.busy());
    QCOMPARE(got, 0);  // never delivered inside start()
    jobs.wait();
    QVERIFY(!jobs.busy());
    QCOMPARE(got, 42);
    QVERIFY(workThread != QThread::currentThread());
    QCOMPARE(deliverThread, QThread::currentThread());
    QCOMPARE(jobs.start([] { return 0; }, [](int) {}), uint64_t(2));
    jobs.wait();
  }

  void cancelledResultIsDropped() {
    QObject owner;
    BackgroundJobs jobs(&owner);
    std::atomic<bool> release{false};
    QStringList delivered;
    jobs.start(
        [&] {
          while (!release) QThread::msleep(1);
          return QString("old");
        },
        [&](const QString& s) { delivered << s; });
    jobs.cancel();  // a newer request wins over the one in flight
    jobs.start([] { return QString("new"); }, [&](const QString& s) { delivered << s; });
    release = true;
    jobs.wait();
    QCOMPARE(delivered, QStringList{"new"});
  }

  void staleJobCanStopEarly() {
    QObject owner;
    BackgroundJobs jobs(&owner);
    std::atomic<bool> started{false};
    bool delivered = false;
    jobs.start(
        [&](const JobControl& job) {
          started = true;
          while (!job.stale()) QThread::msleep(1);
          return 1;
        },
        [&](int) { delivered = true; });
    while (!started) QThread::msleep(1);
    jobs.cancel();
    jobs.wait();
    QVERIFY(!delivered);
  }

  void postedValuesArriveInOrderBeforeTheResult() {
    QObject owner;
    BackgroundJobs jobs(&owner, 1);
    QList<int> seen;
    jobs.start(
        [&](const JobControl& job) {
          for (int i = 0; i < 5; ++i) job.post([&seen, i] { seen << i; });
          return 5;
        },
        [&](int last) { seen << last; });
    jobs.wait();
    QCOMPARE(seen, (QList<int>{0, 1, 2, 3, 4, 5}));
  }

  void destroyingWaitsAndDropsResults() {
    auto* owner = new QObject;
    auto* jobs = new BackgroundJobs(owner);
    std::atomic<bool> finished{false};
    bool delivered = false;
    jobs->start(
        [&] {
          QThread::msleep(100);
          finished = true;
          return 0;
        },
        [&](int) { delivered = true; });
    delete jobs;  // waits for the work
    QVERIFY(finished);
    delete owner;
    QCoreApplication::processEvents();
    QVERIFY(!delivered);
  }

  // An exception escaping a pool thread aborted the app (QUnhandledException, exit 134): a job
  // that throws anything is reported to the owner instead of its result, and the helper goes on.
  void aThrowingJobIsReportedNotFatal() {
    QObject owner;
    BackgroundJobs jobs(&owner);
    QStringList failures;
    jobs.onFailure([&](const QString& why) { failures << why; });
    bool delivered = false;
    jobs.start([]() -> int { throw std::bad_alloc(); }, [&](int) { delivered = true; });
    jobs.start([]() -> int { throw 42; }, [&](int) { delivered = true; });
    jobs.start([]() -> int { throw std::length_error("cannot create std::vector larger than max_size()"); },
               [&](int) { delivered = true; });
    jobs.wait();
    QVERIFY(!delivered);
    QCOMPARE(failures.size(), 3);
    failures.sort();
    QVERIFY2(failures[0].startsWith("Internal error: an unknown exception"), qPrintable(failures[0]));
    QVERIFY2(failures[1].startsWith("Out of memory") && !failures[1].contains("max_size"),
             qPrintable(failures[1]));
    QVERIFY2(failures[2].startsWith("Out of memory"), qPrintable(failures[2]));
    int got = 0;
    jobs.start([] { return 7; }, [&](int v) { got = v; });
    jobs.wait();
    QCOMPARE(got, 7);
  }
};

QTEST_MAIN(TestBackgroundJobs)
#include "tst_background_jobs.moc"
