// The evaluation pipeline (codegen/Evaluation.h) as the application and the explorer call it:
// statuses for each stage, a reference prepared once from the original program and shared by
// its low-level variants, OpenBLAS bindings found by trial, sizes for running, throughput.
#include <QtTest/QtTest>

#include <atomic>
#include <filesystem>

#include "codegen/BlasReference.h"
#include "codegen/Evaluation.h"
#include "codegen/ReferenceCache.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/KernelRunner.h"
#include "codegen/runtime/Worker.h"
#include "core/lang/Parser.h"

using namespace lift;

namespace {

ir::Program example(const std::string& path) {
  return lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/" + path);
}

}  // namespace

class TestEvaluation : public QObject {
  Q_OBJECT

  QTemporaryDir cacheDir_;
  std::unique_ptr<runtime::KernelRunner> runner_;

 private slots:
  void initTestCase() {
    QVERIFY(cacheDir_.isValid());
    auto cache = std::make_shared<runtime::BuildCache>(cacheDir_.path().toStdString());
    runner_ = std::make_unique<runtime::KernelRunner>(runtime::Device::find("cpu"), cache);
  }

  void evaluatesAndValidates() {
    ir::Program p = example("lowlevel/matmul.lift");
    codegen::EvaluationRequest req;
    req.sizes = {{"M", 16}, {"N", 8}, {"K", 32}};
    req.run.repetitions = 3;
    codegen::Evaluation e = codegen::evaluate(p, req, *runner_);
    QVERIFY2(e.ok(), e.summary().c_str());
    QVERIFY(e.validated());
    QCOMPARE(QString(codegen::toString(e.validatedBy)), QString("interpreter"));
    QVERIFY2(e.validationText.rfind("ok against the interpreter", 0) == 0, e.validationText.c_str());
    QCOMPARE(e.global, (std::vector<uint64_t>{16, 8}));
    QCOMPARE(e.flops, 2.0 * 16 * 8 * 32);
    QVERIFY(e.computeBound);
    QCOMPARE(e.run.timesMs.size(), size_t(3));
    QVERIFY(e.run.medianMs > 0);
    QVERIFY(qFuzzyCompare(e.gflops, e.flops / (e.run.medianMs * 1e6)));
    QVERIFY(e.throughputText().find("GFLOP/s") != std::string::npos);
    QVERIFY(e.kernel && !e.kernel->source.empty());
    QVERIFY(e.summary().rfind("ok: median", 0) == 0);
  }

  // The explorer's way: inputs, expected outputs and work from the original (high-level)
  // program, shared by variants compiled for different NDRanges.
  void sharedReference() {
    ir::Program original = example("matmul.lift");
    ir::Program lowered = example("lowlevel/matmul.lift");
    codegen::EvaluationRequest req;
    req.sizes = {{"M", 16}, {"N", 16}, {"K", 8}};
    req.run.repetitions = 1;
    codegen::PreparedReference ref = codegen::prepareReference(original, req);
    QCOMPARE(QString(codegen::toString(ref.source)), QString("interpreter"));
    QVERIFY(ref.expected);
    QCOMPARE(ref.inputs.size(), size_t(2));
    for (std::vector<int64_t> global : {std::vector<int64_t>{}, {4, 8}}) {
      codegen::EvaluationRequest variant = req;
      variant.global = global;
      codegen::Evaluation e = codegen::evaluate(lowered, variant, *runner_, &ref);
      QVERIFY2(e.ok() && e.validated(), e.summary().c_str());
      QCOMPARE(e.referenceMs, 0.0);  // nothing computed again
      QCOMPARE(e.flops, 2.0 * 16 * 16 * 8);
      if (!global.empty()) QCOMPARE(e.global, (std::vector<uint64_t>{4, 8}));
    }
    // Through the worker, the reference's arrays cross the pipe once: the second variant's
    // request carries their keys only.
    runtime::WorkerClient worker(
        {.liftcPath = LIFT_LIFTC, .device = "cpu", .cacheDir = std::filesystem::path()});
    codegen::EvaluationRequest big = req;
    big.sizes = {{"M", 64}, {"N", 64}, {"K", 64}};
    codegen::PreparedReference bigRef = codegen::prepareReference(original, big);
    uint64_t sent[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
      codegen::Evaluation e = codegen::evaluate(lowered, big, worker, &bigRef);
      QVERIFY2(e.ok() && e.validated(), e.summary().c_str());
      sent[i] = worker.lastRequestBytes();
    }
    QVERIFY2(sent[0] > 3 * 64 * 64 * 4 && sent[1] < 16 * 1024,
             qPrintable(QString("%1 then %2 bytes").arg(sent[0]).arg(sent[1])));
    // A reference for other sizes is refused, not silently used.
    codegen::EvaluationRequest other = req;
    other.sizes["K"] = 16;
    codegen::Evaluation e = codegen::evaluate(lowered, other, *runner_, &ref);
    QCOMPARE(QString(codegen::toString(e.status)), QString("reference-failed"));
  }

  // A reference kept on disk (ReferenceCache.h) comes back with the same inputs and expected
  // outputs, validates a kernel as the fresh one does, and is kept only under its own key: other
  // sizes, another seed, another reference choice or another program miss; a damaged file misses
  // and is removed; the directory keeps at most its byte limit, the least recently used going.
  void referenceCacheKeepsReferences() {
    QTemporaryDir dir;
    ir::Program original = example("matmul.lift");
    ir::Program lowered = example("lowlevel/matmul.lift");
    codegen::EvaluationRequest req;
    req.sizes = {{"M", 16}, {"N", 16}, {"K", 8}};
    req.seed = 7;
    req.run.repetitions = 1;
    codegen::ReferenceCache cache(dir.filePath("refs").toStdString());
    QVERIFY(!cache.load(original, req));
    codegen::PreparedReference fresh = codegen::prepareReference(original, req);
    QVERIFY(cache.store(original, req, fresh));
    std::optional<codegen::PreparedReference> kept = cache.load(original, req);
    QVERIFY(kept);
    QCOMPARE(kept->inputs.size(), fresh.inputs.size());
    for (size_t i = 0; i < fresh.inputs.size(); ++i)
      QCOMPARE(QString::fromStdString(kept->inputs[i].toString(1 << 20)),
               QString::fromStdString(fresh.inputs[i].toString(1 << 20)));
    QVERIFY(kept->expected);
    QCOMPARE(QString::fromStdString(kept->expected->toString(1 << 20)),
             QString::fromStdString(fresh.expected->toString(1 << 20)));
    QCOMPARE(kept->description, fresh.description);
    QCOMPARE(kept->source, fresh.source);
    QCOMPARE(kept->work.flops, fresh.work.flops);
    codegen::prepareBuffers(*kept);
    codegen::Evaluation e = codegen::evaluate(lowered, req, *runner_, &*kept);
    QVERIFY2(e.ok() && e.validated(), e.summary().c_str());

    codegen::EvaluationRequest otherSizes = req, otherSeed = req, otherChoice = req;
    otherSizes.sizes["K"] = 16;
    otherSeed.seed = 8;
    otherChoice.reference.kind = codegen::ReferenceChoice::Kind::Interpreter;
    QVERIFY(!cache.load(original, otherSizes));
    QVERIFY(!cache.load(original, otherSeed));
    QVERIFY(!cache.load(original, otherChoice));
    QVERIFY(!cache.load(lowered, req));
    QVERIFY(cache.fileOf(original, req) != cache.fileOf(original, otherSeed));

    // Damaged: cut short.
    std::filesystem::path file = cache.fileOf(original, req);
    std::filesystem::resize_file(file, std::filesystem::file_size(file) / 2);
    QVERIFY(!cache.load(original, req));
    QVERIFY(!std::filesystem::exists(file));

    // The byte limit: room for one reference of these sizes; the older one goes.
    codegen::ReferenceCache small(dir.filePath("small").toStdString(), 4000);
    QVERIFY(small.store(original, req, fresh));
    codegen::PreparedReference second = codegen::prepareReference(original, otherSeed);
    QVERIFY(small.store(original, otherSeed, second));
    QVERIFY(small.load(original, otherSeed));
    QVERIFY(!std::filesystem::exists(small.fileOf(original, req)));
    // Larger than the limit: not kept.
    codegen::ReferenceCache tiny(dir.filePath("tiny").toStdString(), 100);
    QVERIFY(!tiny.store(original, req, fresh));
  }

  void statuses() {
    codegen::EvaluationRequest req;
    req.sizes = {{"M", 8}, {"N", 8}, {"K", 8}};
    codegen::Evaluation hl = codegen::evaluate(example("matmul.lift"), req, *runner_);
    QCOMPARE(QString(codegen::toString(hl.status)), QString("compile-failed"));
    QVERIFY(hl.diagnostic && hl.diagnostic->loc.line > 0);

    codegen::EvaluationRequest missing;
    missing.sizes = {{"M", 8}};
    codegen::Evaluation m = codegen::evaluate(example("lowlevel/matmul.lift"), missing, *runner_);
    QCOMPARE(QString(codegen::toString(m.status)), QString("invalid-sizes"));

    std::atomic<bool> cancel{true};
    codegen::EvaluationRequest cancelled = req;
    cancelled.cancel = &cancel;
    codegen::Evaluation c = codegen::evaluate(example("lowlevel/matmul.lift"), cancelled, *runner_);
    QCOMPARE(QString(codegen::toString(c.status)), QString("cancelled"));

    codegen::EvaluationRequest none = req;
    none.reference = codegen::ReferenceChoice::parse("none");
    codegen::Evaluation n = codegen::evaluate(example("lowlevel/matmul.lift"), none, *runner_);
    QVERIFY2(n.ok(), n.summary().c_str());
    QVERIFY(!n.validated());
    QVERIFY(n.summary().find("not validated") != std::string::npos);
  }

  void blasBindings() {
    std::string why;
    if (!codegen::blasAvailable(&why)) QSKIP(why.c_str());
    ir::Program expert = example("lowlevel/matmul_expert.lift");
    auto b = codegen::bindBlas(expert, codegen::BlasRoutine::Sgemm, &why);
    QVERIFY2(b, why.c_str());
    QVERIFY(b->transB && !b->transA && !b->transC);
    QCOMPARE(b->describe(expert), std::string("sgemm A x B^T"));
    QCOMPARE(b->nominalFlops(expert, {{"M", 4}, {"N", 8}, {"K", 2}}), 2.0 * 8 * 16 * 8);

    ir::Program gemv = example("gemv.lift");
    auto g = codegen::bindBlas(gemv, codegen::BlasRoutine::Sgemv, &why);
    QVERIFY2(g, why.c_str());
    QCOMPARE(g->describe(gemv), std::string("sgemv alpha * A x x + beta * y"));

    QVERIFY(!codegen::bindBlas(example("lowlevel/reduce.lift"), codegen::BlasRoutine::Sasum, &why));
    QVERIFY2(why.find("does not compute sasum") != std::string::npos, why.c_str());
    QVERIFY(!codegen::bindBlas(example("lowlevel/transpose.lift"), codegen::BlasRoutine::Sgemm, &why));
    QVERIFY2(why.find("two matrix inputs") != std::string::npos, why.c_str());
    // Constant sizes too large to check at: refused at once with a message, not minutes of
    // interpreting (liftc run --reference sgemm on a program lowered for 1024³ seemed to hang).
    ir::Program big = lang::parseFile(LIFT_SOURCE_DIR "/tests/data/matmul_lowered_1024.lift");
    QElapsedTimer t;
    t.start();
    QVERIFY(!codegen::bindBlas(big, codegen::BlasRoutine::Sgemm, &why));
    QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
    QVERIFY2(why.find("too large at its smallest sizes") != std::string::npos, why.c_str());
    QVERIFY2(why.find("size variables") != std::string::npos, why.c_str());

    // Beyond the interpreter's budget, `auto` takes the routine the name suggests.
    codegen::EvaluationRequest req;
    req.sizes = {{"M", 4}, {"N", 8}, {"K", 2}};
    req.interpreterBudget = 0;
    req.run.repetitions = 1;
    codegen::Evaluation e = codegen::evaluate(expert, req, *runner_);
    QVERIFY2(e.ok() && e.validated(), e.summary().c_str());
    QCOMPARE(QString(codegen::toString(e.validatedBy)), QString("openblas"));
    QCOMPARE(e.flops, 2.0 * 8 * 16 * 8);  // nominal, not the kernel's 36/32 of it
    QCOMPARE(e.work.flops, 36.0 * 4 * 8 * 2);
  }

  void names() {
    using codegen::BlasRoutine;
    QCOMPARE(codegen::blasRoutineSuggestedBy("matmul_best"), std::optional(BlasRoutine::Sgemm));
    QCOMPARE(codegen::blasRoutineSuggestedBy("partialDot"), std::optional(BlasRoutine::Sdot));
    QCOMPARE(codegen::blasRoutineSuggestedBy("gemv"), std::optional(BlasRoutine::Sgemv));
    QCOMPARE(codegen::blasRoutineSuggestedBy("asum"), std::optional(BlasRoutine::Sasum));
    QCOMPARE(codegen::blasRoutineSuggestedBy("vecSum"), std::nullopt);
    for (const char* n : {"auto", "interpreter", "none", "sgemm", "sgemv", "sdot", "sasum", "sscal"})
      QCOMPARE(codegen::ReferenceChoice::parse(n).name(), std::string(n));
    QVERIFY_THROWS_EXCEPTION(LiftError, codegen::ReferenceChoice::parse("dgemm"));
  }

  void sizesForRunning() {
    ir::Program mm = example("lowlevel/matmul.lift");
    QCOMPARE(codegen::runSizes(mm), (arith::Env{{"M", 1024}, {"N", 1024}, {"K", 1024}}));
    QCOMPARE(codegen::runSizes(mm, {{"K", 64}}), (arith::Env{{"M", 1024}, {"N", 1024}, {"K", 64}}));
    arith::Env small = codegen::runSizes(mm, {}, true);
    QVERIFY(small.at("M") <= 16 && small.at("K") <= 16);
    // Without defaults: a moderate index space.
    ir::Program one = lang::parseProgram(
        "size N;\nuserfun f(float x) -> float { return x; }\nfun p(x: [float]N) = mapGlb0(f) $ x\n",
        "t.lift");
    QCOMPARE(codegen::runSizes(one).at("N"), int64_t(1) << 20);
    QVERIFY_THROWS_EXCEPTION(LiftError, codegen::runSizes(mm, {{"M", 0}}));
  }
};

QTEST_GUILESS_MAIN(TestEvaluation)
#include "tst_evaluation.moc"
