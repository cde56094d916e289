// Work counts (core/interp/WorkCount.h): the flops and bytes of the examples at concrete sizes
// (matmul 2MNK, dot 2N, gemv 2MN + 3M, ...), the low-level variants' executed operations
// (iterate unrolled, vectorized functions, the dot pattern), user-function bodies with loops
// and branches, and the compute-bound decision.
#include <QtTest/QtTest>

#include <chrono>

#include "core/interp/WorkCount.h"
#include "core/lang/Parser.h"

using namespace lift;

namespace {

ir::Program example(const std::string& path) {
  return lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/" + path);
}

interp::WorkCount count(const std::string& path, const arith::Env& sizes) {
  return interp::countWork(example(path), sizes);
}

// One user function `f` mapped over N floats: its body's flops per call.
interp::WorkCount mapped(const std::string& userfun) {
  std::string text = "size N = 16;\n" + userfun + "\nfun p(x: [float]N) = mapGlb0(f) $ x\n";
  return interp::countWork(lang::parseProgram(text, "test.lift"), {{"N", 16}});
}

}  // namespace

class TestWorkCount : public QObject {
  Q_OBJECT

 private slots:
  void highLevelExamples() {
    const double M = 8, N = 16, K = 32;
    auto mm = count("matmul.lift", {{"M", 8}, {"N", 16}, {"K", 32}});
    QCOMPARE(mm.flops, 2 * M * N * K);
    QCOMPARE(mm.bytesRead, 4 * (M * K + K * N));
    QCOMPARE(mm.bytesWritten, 4 * M * N);
    QVERIFY(mm.exact);
    QVERIFY(mm.computeBound());

    auto dot = count("dot.lift", {{"N", 1024}});
    QCOMPARE(dot.flops, 2 * 1024.0);
    QCOMPARE(dot.bytes(), 8 * 1024.0 + 4);
    QVERIFY(!dot.computeBound());

    // fabs counts as one operation: asum is 2N.
    QCOMPARE(count("asum.lift", {{"N", 1024}}).flops, 2 * 1024.0);
    QCOMPARE(count("scal.lift", {{"N", 1024}}).flops, 1024.0);

    // gemv: 2MN for A x, then alpha * ax + beta * y (3 per row).
    auto gemv = count("gemv.lift", {{"M", 64}, {"N", 32}});
    QCOMPARE(gemv.flops, 2 * 64.0 * 32 + 3 * 64);
    QCOMPARE(gemv.bytesRead, 4 * (64.0 * 32 + 32 + 64 + 2));
    QVERIFY(!gemv.computeBound());
  }

  void lowLevelExamples() {
    QCOMPARE(count("lowlevel/matmul.lift", {{"M", 8}, {"N", 16}, {"K", 32}}).flops, 2 * 8.0 * 16 * 32);
    QCOMPARE(count("lowlevel/gemv.lift", {{"M", 64}, {"N", 32}}).flops, 2 * 64.0 * 32 + 3 * 64);

    // The sizes count blocks: A is 2M x 4K. The dot pattern on float4 is 7 operations, plus the
    // add of its result: 8 per 4 elements of K, so exactly 2 (2M)(2N)(4K).
    const double M = 4, N = 8, K = 2;
    auto best = count("lowlevel/matmul_best.lift", {{"M", 4}, {"N", 8}, {"K", 2}});
    QCOMPARE(best.flops, 2 * (2 * M) * (2 * N) * (4 * K));
    // The expert kernel sums each float4 product with reduceSeq(add, 0.0f) (4 adds, one with
    // the initial zero) and adds the tile to the accumulator: 36 per tile of 32 useful ones.
    auto expert = count("lowlevel/matmul_expert.lift", {{"M", 4}, {"N", 8}, {"K", 2}});
    QCOMPARE(expert.flops, 36 * M * N * K);

    // Partial dot: per chunk of 128 pairs 64 threads each reduce 2 pairs (2 x 2 flops), then
    // iterate6 halves 64 partial sums with reduceSeq(add, 0.0f) over pairs: 64 + 32 + ... + 2.
    auto dot = count("lowlevel/dot.lift", {{"N", 16}});
    QCOMPARE(dot.flops, 16 * (256.0 + 126));
    QCOMPARE(dot.bytesWritten, 16 * 4.0);
    // The reduction: iterate7 over 128 elements: 128 + 64 + ... + 2 additions per chunk.
    QCOMPARE(count("lowlevel/reduce.lift", {{"N", 16}}).flops, 16 * 254.0);
    QCOMPARE(count("lowlevel/asum.lift", {{"N", 16}}).flops, 16 * 128 * 2.0);
    // vectorize(4, mult): one multiplication per lane.
    auto vm = count("lowlevel/vecmult.lift", {{"N", 64}});
    QCOMPARE(vm.flops, 64 * 4.0);
    QCOMPARE(vm.userFunCalls, 64 * 4.0);
    QCOMPARE(vm.bytes(), 3 * 64 * 4 * 4.0);
    QCOMPARE(count("lowlevel/stencil3.lift", {{"N", 100}}).flops, 3 * 100.0);

    auto tr = count("lowlevel/transpose.lift", {{"M", 8}, {"N", 16}});
    QCOMPARE(tr.flops, 0.0);
    QCOMPARE(tr.bytes(), 2 * 4 * 8.0 * 16);
    QVERIFY(!tr.computeBound());
  }

  void perFunction() {
    auto gemv = count("gemv.lift", {{"M", 64}, {"N", 32}});
    QCOMPARE(gemv.functions.size(), size_t(3));
    for (auto& f : gemv.functions) {
      if (f.name == "mult" || f.name == "add") {
        QCOMPARE(f.calls, 64.0 * 32);
        QCOMPARE(f.flopsPerCall, 1.0);
      } else {
        QCOMPARE(f.name, std::string("scaleAdd"));
        QCOMPARE(f.calls, 64.0);
        QCOMPARE(f.flopsPerCall, 3.0);
      }
    }
    QCOMPARE(gemv.userFunCalls, 2 * 64.0 * 32 + 64);
    QVERIFY(gemv.applications >= gemv.userFunCalls);
  }

  void bodies() {
    // Straight-line arithmetic, per lane of vectors.
    QCOMPARE(mapped("userfun f(float x) -> float { return x * x + 1.0f; }").flops, 16 * 2.0);
    QCOMPARE(mapped("userfun f(float x) -> float { float4 v = (float4)(x); return dot(v * v, v); }").flops,
             16 * (4.0 + 7));
    QCOMPARE(mapped("userfun f(float x) -> float { return fma(x, x, x) + sqrt(x); }").flops, 16 * 4.0);
    QCOMPARE(mapped("userfun f(float x) -> float { return -x; }").flops, 0.0);
    // Integer arithmetic is counted apart.
    auto ints = mapped("userfun f(float x) -> float { int i = 3; i = i * 2 + 1; return x + i; }");
    QCOMPARE(ints.flops, 16 * 1.0);
    QCOMPARE(ints.intOps, 16 * 2.0);
    // A loop with a constant trip count: 4 iterations of 2 flops; the int compare and
    // increment per iteration and the final compare.
    auto loop = mapped(
        "userfun f(float x) -> float { float s = 0.0f; for (int i = 0; i < 4; i++) { s = s * x + 1.0f; } "
        "return s; }");
    QCOMPARE(loop.flops, 16 * 8.0);
    QCOMPARE(loop.intOps, 16 * 9.0);
    QVERIFY(loop.exact);
    auto stepped = mapped(
        "userfun f(float x) -> float { float s = x; for (int i = 10; i > 0; i -= 3) s += x; return s; }");
    QCOMPARE(stepped.flops, 16 * 4.0);  // i = 10, 7, 4, 1
    // Branches of different cost and data-dependent loops make an estimate, and say why.
    auto branch = mapped("userfun f(float x) -> float { if (x > 0.0f) return x * x * x; return x; }");
    QVERIFY(!branch.exact);
    QCOMPARE(branch.flops, 16 * 3.0);  // the compare and the costlier branch
    QVERIFY(branch.inexactReason.find("if") != std::string::npos);
    QVERIFY(branch.summary().find("estimate") != std::string::npos);
    auto loopy = mapped("userfun f(float x) -> float { while (x < 1.0f) x = x * 2.0f; return x; }");
    QVERIFY(!loopy.exact);
    QVERIFY(loopy.inexactReason.find("while") != std::string::npos);
  }

  // Counting is structural: the largest sizes cost as little as the smallest.
  void fastAtLargeSizes() {
    auto start = std::chrono::steady_clock::now();
    auto mm = count("lowlevel/matmul.lift", {{"M", 8192}, {"N", 8192}, {"K", 8192}});
    QCOMPARE(mm.flops, 2 * 8192.0 * 8192 * 8192);
    auto dot = count("lowlevel/dot.lift", {{"N", 1 << 20}});
    QCOMPARE(dot.flops, (1 << 20) * 382.0);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    QVERIFY2(ms < 1000, qPrintable(QString("%1 ms").arg(ms)));
  }

  void invalidSizes() {
    // A size without a value, and one the types do not allow (split 128 of 100 elements).
    QVERIFY_THROWS_EXCEPTION(LiftError, count("dot.lift", {}));
    ir::Program chunks = lang::parseProgram(
        "size N;\nuserfun add(float a, float b) -> float { return a + b; }\n"
        "fun p(x: [float]N) = join o mapGlb0(toGlobal(mapSeq(id)) o reduceSeq(add, 0.0f)) o split(128) $ x\n",
        "chunks.lift");
    QVERIFY_THROWS_EXCEPTION(LiftError, interp::countWork(chunks, {{"N", 100}}));
    QCOMPARE(interp::countWork(chunks, {{"N", 256}}).flops, 256.0);
  }

  void summaryText() {
    QCOMPARE(interp::siPrefixed(2147483648.0, "FLOP"), std::string("2.147 GFLOP"));
    QCOMPARE(interp::siPrefixed(12, "B"), std::string("12 B"));
    QCOMPARE(interp::siPrefixed(1500, "B"), std::string("1.5 kB"));
    auto mm = count("matmul.lift", {{"M", 1024}, {"N", 1024}, {"K", 1024}});
    QCOMPARE(mm.summary(), std::string("2.147 GFLOP, 12.58 MB moved, 171 flop/byte"));
    QCOMPARE(mm.gflopsPerSecond(1000), 2.147483648);
  }
};

QTEST_GUILESS_MAIN(TestWorkCount)
#include "tst_workcount.moc"
