// Kernels through the isolated worker process (`liftc worker`): results, build errors, a kernel
// that never ends killed at its timeout, a crashing worker reported and replaced, cancellation,
// concurrent callers, and the protocol's round trip.
#include <QtTest/QtTest>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "codegen/runtime/Device.h"
#include "codegen/runtime/Worker.h"
#include "codegen/runtime/WorkerProtocol.h"

using namespace lift;
using namespace lift::runtime;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const ElementType kFloat{ScalarType::Float, 1};

KernelLaunch vectorAdd(int n) {
  KernelLaunch l;
  l.source = readFile(LIFT_SOURCE_DIR "/tests/data/vector_add.cl");
  l.kernelName = "vector_add";
  l.sourceName = "vector_add.cl";
  l.args = {KernelArg::input("a", kFloat, n), KernelArg::input("b", kFloat, n),
            KernelArg::output("c", kFloat, n), KernelArg::scalarInt("n", n)};
  l.global = {static_cast<uint64_t>(n)};
  l.materializeInputs();
  std::vector<float> c(n);
  for (int i = 0; i < n; ++i) c[i] = l.args[0].data->floats()[i] + l.args[1].data->floats()[i];
  l.args[2].expected = HostArray(c);
  return l;
}

KernelLaunch hangLoop() {
  KernelLaunch l;
  l.source = readFile(LIFT_SOURCE_DIR "/tests/data/hang_loop.cl");
  l.sourceName = "hang_loop.cl";
  l.kernelName = "hang";
  l.args = {KernelArg::output("out", kFloat, 4), KernelArg::scalarInt("n", 4)};
  l.global = {4};
  return l;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

class TestWorker : public QObject {
  Q_OBJECT

  QTemporaryDir cacheDir_;
  std::unique_ptr<WorkerClient> worker_;

  WorkerOptions options() {
    WorkerOptions o;
    o.liftcPath = LIFT_LIFTC;
    o.device = "0";
    o.cacheDir = cacheDir_.path().toStdString();
    return o;
  }

 private slots:
  void initTestCase() {
    QVERIFY(cacheDir_.isValid());
    QVERIFY(!readFile(LIFT_SOURCE_DIR "/tests/data/hang_loop.cl").empty());
    worker_ = std::make_unique<WorkerClient>(options());
  }

  void startsAndReportsItsDevice() {
    DeviceInfo d = worker_->start();
    QCOMPARE(d.index, 0);
    QCOMPARE(d.name, Device::all()[0].info().name);
    QVERIFY(worker_->pid() > 0);
    QCOMPARE(worker_->start().name, d.name);  // already running: the same worker
    QCOMPARE(worker_->startCount(), 1);
  }

  void runsAKernel() {
    KernelLaunch l = vectorAdd(512);
    RunResult r = worker_->run(l);
    QVERIFY2(r.ok(), r.summary().c_str());
    QCOMPARE(r.outputs.size(), size_t(1));
    QCOMPARE(r.outputs[0].data, *l.args[2].expected);
    QCOMPARE(r.timesMs.size(), size_t(5));
    QVERIFY(r.minMs > 0 && r.minMs <= r.medianMs && r.medianMs <= r.maxMs);
    // RunOptions::stopAboveMs crosses the protocol: a kernel slower than it is timed once.
    RunOptions once;
    once.stopAboveMs = 1e-9;
    RunResult slow = worker_->run(l, once);
    QVERIFY2(slow.ok(), slow.summary().c_str());
    QCOMPARE(slow.timesMs.size(), size_t(1));
    // The same kernel again comes from the worker's memory cache.
    QCOMPARE(worker_->run(l).buildSource, BuildSource::MemoryCache);
  }

  void seededInputsMatchInTheWorker() {
    // Inputs left to the seed are generated identically on both sides.
    KernelLaunch l = vectorAdd(256);
    l.args[0].data.reset();
    l.args[1].data.reset();
    RunResult r = worker_->run(l);
    QVERIFY2(r.ok(), r.summary().c_str());
  }

  void wrongResultsAndBuildErrorsComeBack() {
    KernelLaunch l = vectorAdd(128);
    l.args[2].expected->floats()[9] += 1.0f;
    RunResult r = worker_->run(l);
    QCOMPARE(r.status, RunStatus::WrongResult);
    QCOMPARE(r.validation.firstMismatch, int64_t(9));

    l = vectorAdd(128);
    l.source = "__kernel void vector_add(__global float* a) {\n  a[0] = nope;\n}\n";
    r = worker_->run(l);
    QCOMPARE(r.status, RunStatus::BuildFailed);
    QCOMPARE(r.diagnostic.loc.line, 2);
    QVERIFY(r.diagnostic.sourceLine.find("nope") != std::string::npos);
    QVERIFY(!r.buildLog.empty());

    l = vectorAdd(100);
    l.local = {8};
    r = worker_->run(l);
    QCOMPARE(r.status, RunStatus::LaunchFailed);
    QCOMPARE(r.clError, std::string("CL_INVALID_WORK_GROUP_SIZE"));
  }

  void aHangIsKilledAtTheTimeout() {
    int startsBefore = worker_->startCount();
    RunOptions o;
    o.timeoutMs = 3000;
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = worker_->run(hangLoop(), o);
    double s = secondsSince(t0);
    QCOMPARE(r.status, RunStatus::Timeout);
    QVERIFY2(r.message.find("3.0 s") != std::string::npos, r.message.c_str());
    QVERIFY2(s >= 2.9 && s < 30, std::to_string(s).c_str());
    // The next request runs in a fresh worker.
    RunResult next = worker_->run(vectorAdd(64));
    QVERIFY2(next.ok(), next.summary().c_str());
    QCOMPARE(worker_->startCount(), startsBefore + 1);
  }

  void aCrashIsReportedAndTheWorkerRestarted() {
    for (int sig : {SIGSEGV, SIGABRT}) {
      worker_->start();
      pid_t before = worker_->pid();
      RunResult r = worker_->crashForTesting(sig);
      QCOMPARE(r.status, RunStatus::Crashed);
      QVERIFY2(r.message.find(sig == SIGSEGV ? "SIGSEGV" : "SIGABRT") != std::string::npos,
               r.message.c_str());
      QVERIFY2(r.message.find("crashing on request") != std::string::npos, r.message.c_str());  // its stderr
      RunResult next = worker_->run(vectorAdd(64));
      QVERIFY2(next.ok(), next.summary().c_str());
      QVERIFY(worker_->pid() != before);
    }
  }

  // Arrays of a megabyte or more go beside the pipe, through shared memory: the frame holds
  // their ids only, the results are the same, a wrong result is still caught, and a new worker
  // (after a crash) gets them again.
  void bigArraysGoThroughSharedMemory() {
    const int n = 1 << 20;  // 4 MiB a buffer
    KernelLaunch l = vectorAdd(n);
    RunResult r = worker_->run(l);
    QVERIFY2(r.ok(), r.summary().c_str());
    QCOMPARE(r.outputs[0].data, *l.args[2].expected);
    QVERIFY2(worker_->lastRequestBytes() < 16 * 1024, std::to_string(worker_->lastRequestBytes()).c_str());
    QCOMPARE(worker_->lastSharedBytes(), uint64_t(3 * n * sizeof(float)));  // a, b and c's expected
    KernelLaunch wrong = l;
    wrong.source =
        "__kernel void vector_add(__global const float* a, __global const float* b, "
        "__global float* c, int n) { int i = get_global_id(0); if (i < n) c[i] = a[i] - b[i]; }\n";
    QCOMPARE(worker_->run(wrong).status, RunStatus::WrongResult);
    // Kept arrays are not sent at all; after a crash they go beside the pipe again.
    l.args[0].dataKey = 201;
    l.args[1].dataKey = 202;
    QVERIFY(worker_->run(l).ok());
    QVERIFY(worker_->run(l).ok());
    QCOMPARE(worker_->lastSharedBytes(), uint64_t(n * sizeof(float)));  // only the expected output
    QCOMPARE(worker_->crashForTesting(SIGSEGV).status, RunStatus::Crashed);
    RunResult again = worker_->run(l);
    QVERIFY2(again.ok(), again.summary().c_str());
    QCOMPARE(worker_->lastSharedBytes(), uint64_t(3 * n * sizeof(float)));
    // Small arrays stay in the frame.
    QVERIFY(worker_->run(vectorAdd(64)).ok());
    QCOMPARE(worker_->lastSharedBytes(), uint64_t(0));
  }

  // Keyed arrays cross the pipe once: the worker keeps those of its last request, and a new
  // worker (after a crash) gets them again.
  void keyedArraysAreSentOnce() {
    KernelLaunch l = vectorAdd(1 << 16);
    l.args[0].dataKey = 101;
    l.args[1].dataKey = 102;
    l.args[2].expectedKey = 103;
    RunResult first = worker_->run(l);
    QVERIFY2(first.ok(), first.summary().c_str());
    uint64_t full = worker_->lastRequestBytes();
    QVERIFY(full > 3 * (uint64_t(1) << 16) * 4);
    RunResult second = worker_->run(l);
    QVERIFY2(second.ok(), second.summary().c_str());
    QVERIFY2(worker_->lastRequestBytes() < 16 * 1024, std::to_string(worker_->lastRequestBytes()).c_str());
    QCOMPARE(second.outputs[0].data, *l.args[2].expected);
    // A wrong result with a kept expected array is still caught.
    KernelLaunch wrong = l;
    wrong.source =
        "__kernel void vector_add(__global const float* a, __global const float* b, "
        "__global float* c, int n) { int i = get_global_id(0); if (i < n) c[i] = a[i] - b[i]; }\n";
    RunResult bad = worker_->run(wrong);
    QCOMPARE(bad.status, RunStatus::WrongResult);
    QVERIFY(worker_->lastRequestBytes() < 16 * 1024);
    // After a crash the new worker holds nothing: the arrays are sent again.
    QCOMPARE(worker_->crashForTesting(SIGSEGV).status, RunStatus::Crashed);
    RunResult third = worker_->run(l);
    QVERIFY2(third.ok(), third.summary().c_str());
    QCOMPARE(worker_->lastRequestBytes(), full);
  }

  void aWorkerKilledWhileIdleIsReplaced() {
    worker_->start();
    QCOMPARE(::kill(worker_->pid(), SIGKILL), 0);
    QTest::qWait(100);
    RunResult r = worker_->run(vectorAdd(64));
    QVERIFY2(r.ok(), r.summary().c_str());
  }

  void cancelStopsTheRequestInFlight() {
    RunOptions o;
    o.timeoutMs = 60'000;
    RunResult r;
    auto t0 = std::chrono::steady_clock::now();
    std::thread job([&] { r = worker_->run(hangLoop(), o); });
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    worker_->cancel();
    job.join();
    QCOMPARE(r.status, RunStatus::Cancelled);
    QVERIFY(secondsSince(t0) < 20);
    RunResult next = worker_->run(vectorAdd(64));
    QVERIFY2(next.ok(), next.summary().c_str());
  }

  // A cancel() while the request is still starting its worker (a second or more) cancels it: the
  // request forgets only the cancels made before it began.
  void cancelWhileTheWorkerStartsStopsTheRequest() {
    WorkerClient fresh(options());
    RunOptions o;
    o.timeoutMs = 60'000;
    RunResult r;
    auto t0 = std::chrono::steady_clock::now();
    std::thread job([&] { r = fresh.run(hangLoop(), o); });
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    fresh.cancel();
    job.join();
    QCOMPARE(r.status, RunStatus::Cancelled);
    QVERIFY(secondsSince(t0) < 20);
  }

  void servesConcurrentCallers() {
    std::vector<RunResult> results(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] { results[t] = worker_->run(vectorAdd(64 * (t + 1))); });
    for (auto& th : threads) th.join();
    for (auto& r : results) QVERIFY2(r.ok(), r.summary().c_str());
  }

  void badDeviceOrExecutableIsAnError() {
    WorkerOptions o = options();
    o.device = "no-such-device-xyz";
    WorkerClient bad(o);
    try {
      bad.start();
      QFAIL("expected an error");
    } catch (const LiftError& e) {
      QVERIFY2(std::string(e.what()).find("unknown OpenCL device 'no-such-device-xyz'") != std::string::npos,
               e.what());
    }
    o = options();
    o.liftcPath = "/nonexistent/liftc";
    WorkerClient missing(o);
    QVERIFY_THROWS_EXCEPTION(LiftError, missing.run(vectorAdd(16)));
  }

  void findsLiftc() {
    // Tests live in build/tests, liftc in build/app.
    std::string found = WorkerClient::findLiftc();
    QVERIFY(!found.empty());
    QCOMPARE(QFileInfo(QString::fromStdString(found)).canonicalFilePath(),
             QFileInfo(LIFT_LIFTC).canonicalFilePath());
  }

  void protocolRoundTrip() {
    KernelLaunch l = vectorAdd(8);
    l.local = {4};
    l.buildOptions = "-cl-mad-enable";
    l.maxRegisters = 96;
    l.args.push_back(KernelArg::local("scratch", 64));
    l.args.push_back(KernelArg::scalarDouble("alpha", 2.5));
    RunOptions o;
    o.repetitions = 9;
    o.timeoutMs = 1234;
    wire::Writer w;
    wire::put(w, l);
    wire::put(w, o);
    std::string bytes = w.take();
    wire::Reader r(bytes);
    KernelLaunch l2 = wire::getKernelLaunch(r);
    RunOptions o2 = wire::getRunOptions(r);
    QVERIFY(r.atEnd());
    QCOMPARE(l2.source, l.source);
    QCOMPARE(l2.buildOptions, l.buildOptions);
    QCOMPARE(l2.maxRegisters, 96);
    QCOMPARE(l2.local, l.local);
    QCOMPARE(l2.args.size(), l.args.size());
    QCOMPARE(*l2.args[0].data, *l.args[0].data);
    QCOMPARE(*l2.args[2].expected, *l.args[2].expected);
    QCOMPARE(l2.args[4].localBytes, uint64_t(64));
    QCOMPARE(l2.args[5].floatValue, 2.5);
    QCOMPARE(o2.repetitions, 9);
    QCOMPARE(o2.timeoutMs, 1234.0);

    RunResult x;
    x.status = RunStatus::LaunchFailed;
    x.clError = "CL_INVALID_WORK_GROUP_SIZE";
    x.clErrorCode = -54;
    x.diagnostic = makeDiagnostic("k.cl", "a\nbc\n", 2, 2, "boom");
    x.setTimes({3, 1, 2});
    x.outputs.push_back({2, "c", HostArray(std::vector<int32_t>{1, 2, 3})});
    wire::Writer w2;
    wire::put(w2, x);
    bytes = w2.take();
    wire::Reader r2(bytes);
    RunResult y = wire::getRunResult(r2);
    QCOMPARE(y.status, x.status);
    QCOMPARE(y.clError, x.clError);
    QCOMPARE(y.diagnostic.format(), x.diagnostic.format());
    QCOMPARE(y.medianMs, 2.0);
    QCOMPARE(y.outputs[0].data, x.outputs[0].data);

    // Keyed arrays: sent whole the first time, as their key when the worker holds them.
    KernelLaunch k = vectorAdd(64);
    k.args[0].dataKey = 7;
    k.args[2].expectedKey = 9;
    std::unordered_set<uint64_t> held = {7};
    wire::Writer wk;
    wire::put(wk, k, &held);
    std::string keyed = wk.take();
    wire::Writer wf;
    wire::put(wf, k);
    QCOMPARE(wf.take().size() - keyed.size(),
             size_t(1 + 8 + 64 * 4));  // the array: its type, length and data
    std::unordered_map<uint64_t, HostArray> kept = {{7, *k.args[0].data}};
    wire::Reader rk(keyed);
    KernelLaunch k2 = wire::getKernelLaunch(rk, &kept);
    QCOMPARE(*k2.args[0].data, *k.args[0].data);
    QCOMPARE(k2.args[0].dataKey, uint64_t(7));
    QCOMPARE(k2.args[2].expectedKey, uint64_t(9));
    QVERIFY(kept.empty());  // moved into the launch
    std::unordered_map<uint64_t, HostArray> back = wire::takeKeyedArrays(k2);
    QCOMPARE(back.size(), size_t(2));
    QCOMPARE(wire::keyedArrays(k), (std::unordered_set<uint64_t>{7, 9}));
    wire::Reader missing(keyed);
    std::unordered_map<uint64_t, HostArray> none;
    QVERIFY_THROWS_EXCEPTION(wire::WireError, wire::getKernelLaunch(missing, &none));

    // Truncated payloads are refused, not misread.
    std::string half = bytes.substr(0, bytes.size() / 2);
    wire::Reader cut(half);
    QVERIFY_THROWS_EXCEPTION(wire::WireError, wire::getRunResult(cut));
  }

  void cleanupTestCase() {
    pid_t pid = worker_->pid();
    worker_.reset();  // ends the worker
    if (pid > 0) QVERIFY(::kill(pid, 0) != 0);
  }
};

QTEST_GUILESS_MAIN(TestWorker)
#include "tst_worker.moc"
