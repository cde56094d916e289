// The OpenCL runtime on the first device (PoCL on CPU machines): device enumeration, execution,
// timing, validation with poison, build errors with their line, the build cache in memory and
// on disk, named launch errors.
#include <QtTest/QtTest>

#include <fstream>
#include <sstream>

#include "codegen/runtime/BuildCache.h"
#include "codegen/runtime/ClError.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "codegen/runtime/RegisterCap.h"
#include "codegen/runtime/Validation.h"

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

// c = a + b over n floats, with the expected c from the generated inputs.
KernelLaunch vectorAdd(int n, const std::string& source) {
  KernelLaunch l;
  l.source = source;
  l.kernelName = "vector_add";
  l.sourceName = "vector_add.cl";
  l.args = {KernelArg::input("a", kFloat, n), KernelArg::input("b", kFloat, n),
            KernelArg::output("c", kFloat, n), KernelArg::scalarInt("n", n)};
  l.global = {static_cast<uint64_t>(n)};
  l.local = {16};
  l.seed = 7;
  l.materializeInputs();
  std::vector<float> c(n);
  for (int i = 0; i < n; ++i) c[i] = l.args[0].data->floats()[i] + l.args[1].data->floats()[i];
  l.args[2].expected = HostArray(c);
  return l;
}

}  // namespace

class TestRuntime : public QObject {
  Q_OBJECT

  QTemporaryDir cacheDir_;
  std::shared_ptr<BuildCache> cache_;
  std::unique_ptr<KernelRunner> runner_;
  std::string vectorAddSource_;

 private slots:
  void initTestCase() {
    QVERIFY(cacheDir_.isValid());
    cache_ = std::make_shared<BuildCache>(cacheDir_.path().toStdString());
    runner_ = std::make_unique<KernelRunner>(Device::find("0"), cache_);
    vectorAddSource_ = readFile(LIFT_SOURCE_DIR "/tests/data/vector_add.cl");
    QVERIFY(!vectorAddSource_.empty());
  }

  void enumeratesDevices() {
    const auto& all = Device::all();
    QVERIFY(!all.empty());
    const DeviceInfo& d = all[0].info();
    QCOMPARE(d.index, 0);
    QVERIFY(!d.name.empty());
    QVERIFY(!d.platformName.empty());
    QVERIFY(d.computeUnits >= 1);
    QVERIFY(d.globalMemBytes > 0);
    QVERIFY(d.localMemBytes > 0);
    QVERIFY(d.maxWorkGroupSize >= 1);
    QVERIFY(!d.maxWorkItemSizes.empty());
    QVERIFY(d.version.rfind("OpenCL", 0) == 0);
    QVERIFY(!d.describe().empty());
  }

  void findsDevicesByIndexAndName() {
    const DeviceInfo& first = Device::all()[0].info();
    QCOMPARE(Device::find("0").info().name, first.name);
    QCOMPARE(Device::find("").info().name, first.name);
    // A case-insensitive substring of the device name, and of the platform name.
    std::string part = first.name.substr(0, std::min<size_t>(first.name.size(), 5));
    for (auto& c : part) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    QCOMPARE(Device::find(part).info().index, first.index);
    QCOMPARE(Device::find(first.platformName).info().platformName, first.platformName);
    QCOMPARE(Device::find(first.platformVendor).info().platformVendor, first.platformVendor);
    // By type: the first device of that type.
    QCOMPARE(QString::fromStdString(Device::find(first.type).info().type).toLower(),
             QString::fromStdString(first.type).toLower());
  }

  void unknownDeviceIsAnError() {
    for (std::string spec : {"no-such-device-xyz", "99"}) {
      try {
        Device::find(spec);
        QFAIL("expected an error");
      } catch (const LiftError& e) {
        QVERIFY2(std::string(e.what()).find("unknown OpenCL device '" + spec + "'") != std::string::npos,
                 e.what());
        QVERIFY(std::string(e.what()).find(Device::all()[0].info().name) != std::string::npos);
      }
    }
  }

  void noPlatformIsAnError() {
    // The ICD loader reads its vendor list once per process, so ask a fresh liftc.
    QTemporaryDir empty;
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("OCL_ICD_VENDORS", empty.path());
    p.setProcessEnvironment(env);
    p.start(LIFT_LIFTC, {"devices"});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 2);
    QVERIFY2(p.readAllStandardError().contains("no OpenCL platform found"), "message");
  }

  void liftcListsDevices() {
    QProcess p;
    p.start(LIFT_LIFTC, {"devices"});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    QString out = p.readAllStandardOutput();
    QVERIFY(out.startsWith("0: "));
    QVERIFY(out.contains(QString::fromStdString(Device::all()[0].info().name)));
    QVERIFY(out.contains("max work-group size"));
  }

  void vectorAddIsValidated() {
    KernelLaunch l = vectorAdd(1000 / 16 * 16, vectorAddSource_);
    RunResult r = runner_->run(l);
    QVERIFY2(r.ok(), r.summary().c_str());
    QVERIFY(r.validation.checked);
    QVERIFY(r.validation.ok);
    QCOMPARE(r.outputs.size(), size_t(1));
    QCOMPARE(r.outputs[0].argIndex, 2u);
    QCOMPARE(r.outputs[0].data, *l.args[2].expected);
  }

  // A register cap is a `.maxnreg N` directive in each kernel entry of NVIDIA's PTX (the driver
  // ignores -cl-nv-maxrregcount), and nothing elsewhere: a capped kernel runs on the CPU device as
  // it is.
  void registerCapIsAPtxDirective() {
    KernelLaunch l = vectorAdd(256, vectorAddSource_);
    DeviceInfo nvidia, pocl;
    nvidia.platformVendor = "NVIDIA Corporation";
    pocl.platformVendor = "The pocl project";
    QVERIFY(takesRegisterCap(nvidia));
    QVERIFY(!takesRegisterCap(pocl));
    QCOMPARE(entryDirectiveFor(l, nvidia), std::string());
    l.maxRegisters = 128;
    QCOMPARE(entryDirectiveFor(l, nvidia), std::string(".maxnreg 128"));
    QCOMPARE(entryDirectiveFor(l, pocl), std::string());
    const std::string ptx =
        ".version 8.0\n.target sm_90\n.visible .entry a(\n\t.param .u64 a_param_0\n)\n.reqntid 16, 16, "
        "1\n{\n\tret;\n}\n"
        ".visible .entry b(\n\t.param .u64 b_param_0\n)\n{\n\tret;\n}\n";
    QCOMPARE(withEntryDirective(ptx, ".maxnreg 96"),
             std::string(
                 ".version 8.0\n.target sm_90\n.visible .entry a(\n\t.param .u64 a_param_0\n)\n.reqntid 16, "
                 "16, 1\n.maxnreg 96\n{\n\tret;\n}\n.visible .entry b(\n\t.param .u64 b_param_0\n)\n.maxnreg "
                 "96\n{\n\tret;\n}\n"));
    QCOMPARE(withEntryDirective("\x7f"
                                "ELF binary",
                                ".maxnreg 96"),
             std::string());
    RunResult r = runner_->run(l);
    QVERIFY2(r.ok() && r.validation.ok, r.summary().c_str());
  }

  // Keyed inputs stay on the device between runs; a launch with other keys, or the same key
  // for a buffer of another size, uploads its own.
  void keyedInputsAreReused() {
    for (int n : {256, 256, 512, 512}) {
      KernelLaunch l = vectorAdd(n, vectorAddSource_);
      l.args[0].dataKey = 1000 + n;
      l.args[1].dataKey = 2000;  // same key, other sizes: must not be reused across sizes
      RunResult r = runner_->run(l);
      QVERIFY2(r.ok() && r.validation.ok, r.summary().c_str());
      QCOMPARE(r.outputs[0].data, *l.args[2].expected);
    }
  }

  // Copies share their scalars until one is written; each then has its own, and moved-from
  // arrays are empty.
  void copiesShareUntilWritten() {
    HostArray a(std::vector<float>{1, 2, 3});
    HostArray b = a;
    QVERIFY(a.shared() && b.shared());
    QCOMPARE(static_cast<const HostArray&>(b).data(), static_cast<const HostArray&>(a).data());
    b.floats()[1] = 20;  // b gets scalars of its own
    QVERIFY(!a.shared() && !b.shared());
    QCOMPARE(a.floats()[1], 2.0f);
    QCOMPARE(b.floats()[1], 20.0f);
    QVERIFY(!(a == b));
    HostArray c = a;
    static_cast<float*>(c.data())[0] = 10;  // so does one written through data()
    QCOMPARE(a.at(0), 1.0);
    QCOMPARE(c.at(0), 10.0);
    HostArray d = a, e = std::move(d);
    QCOMPARE(e, a);
    QCOMPARE(d.size(), size_t(0));  // NOLINT(bugprone-use-after-move): a moved-from array is empty
    d.floats().push_back(5);        // and usable
    QCOMPARE(d.size(), size_t(1));
    QCOMPARE(HostArray().size(), size_t(0));  // the shared empty storage was not written
    HostArray ints(ScalarType::Int, 4);
    QCOMPARE(ints, HostArray(std::vector<int32_t>(4)));
  }

  void inputsAreSeededAndNeverZero() {
    KernelLaunch a = vectorAdd(64, vectorAddSource_), b = vectorAdd(64, vectorAddSource_);
    QCOMPARE(*a.args[0].data, *b.args[0].data);      // same seed, same inputs
    QVERIFY(!(*a.args[0].data == *a.args[1].data));  // different arguments differ
    for (float x : a.args[0].data->floats()) QVERIFY(x >= 0.5f && x < 1.5f);
    HostArray ints = HostArray::random(ScalarType::Int, 1000, 3);
    for (int x : ints.ints()) QVERIFY(x >= 1 && x <= 9);
  }

  void timingIsSane() {
    KernelLaunch l = vectorAdd(4096, vectorAddSource_);
    RunOptions o;
    o.warmups = 2;
    o.repetitions = 7;
    RunResult r = runner_->run(l, o);
    QVERIFY2(r.ok(), r.summary().c_str());
    QCOMPARE(r.timesMs.size(), size_t(7));
    QVERIFY(r.minMs > 0);
    QVERIFY(r.minMs <= r.medianMs);
    QVERIFY(r.medianMs <= r.maxMs);
    QVERIFY(r.kernelMsTotal >= 7 * r.minMs);
  }

  // A kernel slower than stopAboveMs is timed by its validated execution alone (a search's
  // slow candidates); one faster gets every repetition.
  void slowKernelIsTimedOnce() {
    KernelLaunch l = vectorAdd(4096, vectorAddSource_);
    RunOptions o;
    o.repetitions = 7;
    o.stopAboveMs = 1e-9;
    RunResult slow = runner_->run(l, o);
    QVERIFY2(slow.ok() && slow.validation.ok, slow.summary().c_str());
    QCOMPARE(slow.timesMs.size(), size_t(1));
    QCOMPARE(slow.medianMs, slow.timesMs.front());
    o.stopAboveMs = 1e9;
    RunResult fast = runner_->run(l, o);
    QVERIFY2(fast.ok(), fast.summary().c_str());
    QCOMPARE(fast.timesMs.size(), size_t(7));
  }

  void wrongKernelIsAWrongResult() {
    KernelLaunch l = vectorAdd(256, vectorAddSource_);
    // Element 37 is off by one.
    l.source =
        "__kernel void vector_add(__global const float* a, __global const float* b, __global float* c, int "
        "n) {\n"
        "  int i = get_global_id(0);\n"
        "  if (i < n) c[i] = a[i] + b[i] + (i == 37 ? 1.0f : 0.0f);\n"
        "}\n";
    RunResult r = runner_->run(l);
    QCOMPARE(r.status, RunStatus::WrongResult);
    QCOMPARE(r.validation.firstMismatch, int64_t(37));
    QCOMPARE(r.validation.mismatches, uint64_t(1));
    QCOMPARE(r.validation.argName, std::string("c"));
    QVERIFY(r.validation.maxRelError > 0.3);
    QVERIFY2(r.message.find("index 37") != std::string::npos, r.message.c_str());
  }

  void unwrittenOutputsAreCaughtByThePoison() {
    KernelLaunch l = vectorAdd(256, vectorAddSource_);
    // The last 16 elements are never written.
    l.source =
        "__kernel void vector_add(__global const float* a, __global const float* b, __global float* c, int "
        "n) {\n"
        "  int i = get_global_id(0);\n"
        "  if (i < n - 16) c[i] = a[i] + b[i];\n"
        "}\n";
    RunResult r = runner_->run(l);
    QCOMPARE(r.status, RunStatus::WrongResult);
    QCOMPARE(r.validation.firstMismatch, int64_t(240));
    QCOMPARE(r.validation.mismatches, uint64_t(16));
    QVERIFY(r.validation.unwritten);
    QVERIFY2(r.message.find("never written") != std::string::npos, r.message.c_str());

    // Without an expected array the poison alone catches it.
    l.args[2].expected.reset();
    r = runner_->run(l);
    QCOMPARE(r.status, RunStatus::WrongResult);
    QCOMPARE(r.validation.firstMismatch, int64_t(240));
    QVERIFY(r.outputs[0].data.isPoison(255));
  }

  void otherElementTypes() {
    // double, int and float4 buffers, and an inout buffer that every execution starts afresh.
    const int n = 64;
    KernelLaunch l;
    l.source =
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        "__kernel void k(__global const double* x, __global double* y, __global int* m, __global const "
        "float4* v,\n"
        "                __global float* s, __global int* acc, __local float* scratch, float scale) {\n"
        "  int i = get_global_id(0);\n"
        "  scratch[get_local_id(0)] = scale;\n"
        "  y[i] = 2.0 * x[i];\n"
        "  m[i] = i * 3;\n"
        "  s[i] = dot(v[i], (float4)(1.0f)) * scratch[get_local_id(0)];\n"
        "  acc[i] += 1;\n"
        "}\n";
    l.kernelName = "k";
    l.args = {KernelArg::input("x", {ScalarType::Double, 1}, n),
              KernelArg::output("y", {ScalarType::Double, 1}, n),
              KernelArg::output("m", {ScalarType::Int, 1}, n),
              KernelArg::input("v", *ElementType::parse("float4"), n),
              KernelArg::output("s", kFloat, n),
              KernelArg::inout("acc", {ScalarType::Int, 1}, n),
              KernelArg::local("scratch", 16 * sizeof(float)),
              KernelArg::scalarFloat("scale", 0.5f)};
    l.global = {n};
    l.local = {16};
    l.materializeInputs();
    QCOMPARE(l.args[3].data->size(), size_t(4 * n));
    std::vector<double> y(n);
    std::vector<int32_t> m(n), acc(n);
    std::vector<float> s(n);
    for (int i = 0; i < n; ++i) {
      y[i] = 2.0 * l.args[0].data->doubles()[i];
      m[i] = i * 3;
      const auto& v = l.args[3].data->floats();
      s[i] = (v[4 * i] + v[4 * i + 1] + v[4 * i + 2] + v[4 * i + 3]) * 0.5f;
      acc[i] = l.args[5].data->ints()[i] + 1;
    }
    l.args[1].expected = HostArray(y);
    l.args[2].expected = HostArray(m);
    l.args[4].expected = HostArray(s);
    l.args[5].expected = HostArray(acc);
    RunOptions o;
    o.warmups = 1;
    o.repetitions = 3;
    RunResult r = runner_->run(l, o);
    QVERIFY2(r.ok(), r.summary().c_str());
    QCOMPARE(r.outputs.size(), size_t(4));
    QCOMPARE(r.outputs[3].name, std::string("acc"));
    QCOMPARE(r.outputs[3].data, HostArray(acc));
  }

  void buildErrorCarriesLogAndLine() {
    KernelLaunch l = vectorAdd(64, vectorAddSource_);
    l.source =
        "__kernel void vector_add(__global const float* a, __global const float* b, __global float* c, int "
        "n) {\n"
        "  int i = get_global_id(0);\n"
        "  if (i < n) c[i] = a[i] + undeclared_thing;\n"
        "}\n";
    RunResult r = runner_->run(l);
    QCOMPARE(r.status, RunStatus::BuildFailed);
    QVERIFY(!r.buildLog.empty());
    QVERIFY2(r.buildLog.find("undeclared_thing") != std::string::npos, r.buildLog.c_str());
    QCOMPARE(r.diagnostic.loc.file, std::string("vector_add.cl"));
    QCOMPARE(r.diagnostic.loc.line, 3);
    QVERIFY(r.diagnostic.loc.col > 1);
    QVERIFY2(r.diagnostic.sourceLine.find("undeclared_thing;") != std::string::npos,
             r.diagnostic.sourceLine.c_str());
    QVERIFY2(r.message.find("vector_add.cl:3:") == 0, r.message.c_str());

    // The failure is remembered: asking again does not compile again.
    auto before = cache_->stats();
    QCOMPARE(runner_->run(l).status, RunStatus::BuildFailed);
    QCOMPARE(cache_->stats().compiles + cache_->stats().failures, before.compiles + before.failures);
  }

  void parsesBuildLogsOfSeveralDrivers() {
    auto pocl = parseBuildLog(
        "error: /root/.cache/pocl/kcache/tempfile_hSTGoZ.cl:3:10: use of undeclared identifier 'b'\n"
        "Device x failed to build the program\n");
    QVERIFY(pocl);
    QCOMPARE(pocl->line, 3);
    QCOMPARE(pocl->col, 10);
    QCOMPARE(pocl->message, std::string("use of undeclared identifier 'b'"));
    auto nvidia = parseBuildLog(
        "<kernel>:2:5: warning: unused variable 'x'\n<kernel>:7:12: error: expected ';' after expression\n");
    QVERIFY(nvidia);
    QCOMPARE(nvidia->line, 7);
    QCOMPARE(nvidia->col, 12);
    QCOMPARE(nvidia->message, std::string("expected ';' after expression"));
    auto bare = parseBuildLog("1:4: error: unknown type name 'flaot'\n");
    QVERIFY(bare);
    QCOMPARE(bare->line, 1);
    QCOMPARE(bare->col, 4);
    QVERIFY(!parseBuildLog("the compiler crashed\n"));
  }

  void cacheHitsInMemoryAndOnDisk() {
    QTemporaryDir dir;
    // A source no other test builds, so the first build really compiles.
    std::string source =
        vectorAddSource_ + "// " + std::to_string(QRandomGenerator::global()->generate64()) + "\n";
    DeviceContext ctx(Device::find("0"));
    {
      BuildCache cache(dir.path().toStdString());
      QCOMPARE(cache.build(ctx, source).source, BuildSource::Compiled);
      QCOMPARE(cache.build(ctx, source).source, BuildSource::MemoryCache);
      QCOMPARE(cache.build(ctx, source, "-cl-fast-relaxed-math").source,
               BuildSource::Compiled);  // options count
      QCOMPARE(cache.stats().compiles, uint64_t(2));
      QCOMPARE(cache.stats().memoryHits, uint64_t(1));
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);
    // A fresh cache object (as in a new process) loads the binary from disk.
    BuildCache fresh(dir.path().toStdString());
    BuiltProgram p = fresh.build(ctx, source);
    QCOMPARE(p.source, BuildSource::DiskCache);
    QCOMPARE(fresh.stats().compiles, uint64_t(0));
    QCOMPARE(fresh.build(ctx, source).source, BuildSource::MemoryCache);
    // And the program from disk runs.
    KernelRunner runner(Device::find("0"), std::make_shared<BuildCache>(dir.path().toStdString()));
    KernelLaunch l = vectorAdd(128, source);
    RunResult r = runner.run(l);
    QVERIFY2(r.ok(), r.summary().c_str());
    QCOMPARE(r.buildSource, BuildSource::DiskCache);
    QCOMPARE(runner.run(l).buildSource, BuildSource::MemoryCache);
  }

  void corruptDiskEntryIsRebuilt() {
    QTemporaryDir dir;
    std::string source =
        vectorAddSource_ + "// corrupt " + std::to_string(QRandomGenerator::global()->generate64());
    DeviceContext ctx(Device::find("0"));
    BuildCache(dir.path().toStdString()).build(ctx, source);
    for (const QString& f : QDir(dir.path()).entryList(QDir::Files)) {
      QFile file(dir.filePath(f));
      QVERIFY(file.open(QIODevice::ReadWrite));
      file.resize(file.size() / 2);
    }
    BuildCache again(dir.path().toStdString());
    QCOMPARE(again.build(ctx, source).source, BuildSource::Compiled);
  }

  void launchErrorsAreNamed() {
    // The local size does not divide the global size.
    KernelLaunch l = vectorAdd(100, vectorAddSource_);
    l.local = {16};
    RunResult r = runner_->run(l);
    QCOMPARE(r.status, RunStatus::LaunchFailed);
    QCOMPARE(r.clError, std::string("CL_INVALID_WORK_GROUP_SIZE"));
    QCOMPARE(r.clErrorCode, -54);
    QVERIFY2(r.message.find("CL_INVALID_WORK_GROUP_SIZE") != std::string::npos, r.message.c_str());
    QVERIFY2(r.message.find("not a multiple") != std::string::npos, r.message.c_str());

    // A kernel name the program lacks.
    l = vectorAdd(64, vectorAddSource_);
    l.kernelName = "vector_sub";
    r = runner_->run(l);
    QCOMPARE(r.status, RunStatus::LaunchFailed);
    QCOMPARE(r.clError, std::string("CL_INVALID_KERNEL_NAME"));

    // The wrong number of arguments.
    l = vectorAdd(64, vectorAddSource_);
    l.args.pop_back();
    r = runner_->run(l);
    QCOMPARE(r.status, RunStatus::LaunchFailed);
    QVERIFY2(r.message.find("takes 4 arguments") != std::string::npos, r.message.c_str());

    // A malformed description.
    l = vectorAdd(64, vectorAddSource_);
    l.global = {};
    QCOMPARE(runner_->run(l).status, RunStatus::LaunchFailed);
  }

  void tooMuchLocalMemoryIsOutOfResources() {
    KernelLaunch l;
    l.source =
        "__kernel void k(__global float* o, __local float* s) { s[0] = 1.0f; o[get_global_id(0)] = s[0]; }";
    l.kernelName = "k";
    l.args = {KernelArg::output("o", kFloat, 16),
              KernelArg::local("s", Device::find("0").info().localMemBytes + 1024)};
    l.global = {16};
    RunResult r = runner_->run(l);
    QCOMPARE(r.status, RunStatus::OutOfResources);
    QVERIFY2(r.message.find("local memory") != std::string::npos, r.message.c_str());
  }

  void errorNames() {
    QCOMPARE(std::string(clErrorName(-54)), std::string("CL_INVALID_WORK_GROUP_SIZE"));
    QCOMPARE(std::string(clErrorName(-5)), std::string("CL_OUT_OF_RESOURCES"));
    QCOMPARE(std::string(clErrorName(-11)), std::string("CL_BUILD_PROGRAM_FAILURE"));
    QCOMPARE(std::string(clErrorName(12345)), std::string("CL_UNKNOWN_ERROR"));
    QCOMPARE(describeClError(-46), std::string("CL_INVALID_KERNEL_NAME (-46)"));
    QVERIFY(isOutOfResources(-4));
    QVERIFY(!isOutOfResources(-54));
  }

  void validationTolerances() {
    Tolerance tol;
    // Floats: relative 1e-3, with an absolute floor near zero.
    QVERIFY(compareArrays(HostArray(std::vector<float>{1000.0f}), HostArray(std::vector<float>{1000.5f}), tol)
                .ok);
    QVERIFY(
        !compareArrays(HostArray(std::vector<float>{1000.0f}), HostArray(std::vector<float>{1002.0f}), tol)
             .ok);
    QVERIFY(
        compareArrays(HostArray(std::vector<float>{1e-6f}), HostArray(std::vector<float>{-2e-6f}), tol).ok);
    QVERIFY(!compareArrays(HostArray(std::vector<float>{NAN}), HostArray(std::vector<float>{1.0f}), tol).ok);
    QVERIFY(!compareArrays(HostArray(std::vector<float>{NAN}), HostArray(std::vector<float>{NAN}), tol).ok);
    // Doubles are held tighter.
    QVERIFY(
        !compareArrays(HostArray(std::vector<double>{1.0}), HostArray(std::vector<double>{1.0 + 1e-6}), tol)
             .ok);
    QVERIFY(
        compareArrays(HostArray(std::vector<double>{1.0}), HostArray(std::vector<double>{1.0 + 1e-12}), tol)
            .ok);
    // Ints are exact.
    auto r = compareArrays(HostArray(std::vector<int32_t>{1, 2, 3, 5}),
                           HostArray(std::vector<int32_t>{1, 2, 3, 4}), tol, "q");
    QVERIFY(!r.ok);
    QCOMPARE(r.firstMismatch, int64_t(3));
    QCOMPARE(r.maxRelError, 0.25);
    // Size mismatch.
    QVERIFY(
        !compareArrays(HostArray(std::vector<float>{1.0f}), HostArray(std::vector<float>{1.0f, 2.0f}), tol)
             .ok);
  }

  void elementTypes() {
    QCOMPARE(ElementType::parse("float4")->width, 4);
    QCOMPARE(ElementType::parse("int")->scalar, ScalarType::Int);
    QCOMPARE(ElementType::parse("double2")->bytes(), size_t(16));
    QCOMPARE(ElementType::parse("float3")->bytes(), size_t(16));
    QVERIFY(!ElementType::parse("float5"));
    QVERIFY(!ElementType::parse("half"));
    QCOMPARE(ElementType::parse("int16")->name(), std::string("int16"));
  }
};

QTEST_GUILESS_MAIN(TestRuntime)
#include "tst_runtime.moc"
