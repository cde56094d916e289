// Ablation of code generation: each switch (index simplification, barrier elimination,
// control-flow simplification, unrolling, vector reads of local memory, unroll pragmas) changes
// the kernel, and disabling index
// simplification makes it longer (CGO 2017, section 7: the unsimplified matmul kernel reached
// megabytes).
#include <QtTest/QtTest>

#include <fmt/format.h>

#include <fstream>
#include <functional>

#include "codegen/BarrierElimination.h"
#include "codegen/Compiler.h"
#include "codegen/PrefetchParts.h"
#include "core/interp/Sizes.h"
#include "core/lang/Parser.h"

using namespace lift;

namespace {

std::string compile(const std::string& example, void (*tweak)(codegen::CompileOptions&) = nullptr) {
  codegen::CompileOptions o;
  if (tweak) tweak(o);
  std::string dir = example.rfind("tests/", 0) == 0 ? "/" : "/resources/examples/lowlevel/";
  ir::Program p = lang::parseFile(LIFT_SOURCE_DIR + dir + example);
  return codegen::compileKernel(p, o).source;
}

// The example (a low-level one, or a path from the source directory's tests/) at its declared
// sizes (as constants), compiled with `streamK` work-groups and `tweak`.
codegen::CompiledKernel streamK(const std::string& example, int groups, const std::string& from = "",
                                const std::string& to = "",
                                const std::function<void(codegen::CompileOptions&)>& tweak = {}) {
  std::string dir = example.rfind("tests/", 0) == 0 ? "/" : "/resources/examples/lowlevel/";
  std::string path = LIFT_SOURCE_DIR + dir + example;
  ir::Program p = lang::parseFile(path);
  if (!from.empty()) {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t at = text.find(from);
    if (at == std::string::npos) throw std::runtime_error("no '" + from + "' in " + example);
    p = lang::parseProgram(text.replace(at, from.size(), to), path);
  }
  interp::SizeHint hint;
  hint.useDefaults = true;
  codegen::CompileOptions o;
  o.streamK = groups;
  if (tweak) tweak(o);
  return codegen::compileKernel(interp::specialize(p, interp::chooseSizes(p, hint)), o);
}

codegen::c::StmtP stmt(codegen::c::Stmt::Kind kind, std::vector<codegen::c::StmtP> body = {}) {
  auto s = std::make_unique<codegen::c::Stmt>();
  s->kind = kind;
  for (auto& b : body) s->body.push_back(std::move(b));
  return s;
}

int barriers(const codegen::c::Block& b) {
  int n = 0;
  for (auto& s : b) n += (s->kind == codegen::c::Stmt::Kind::Barrier) + barriers(s->body);
  return n;
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

class TestCodegenAblation : public QObject {
  Q_OBJECT

 private slots:
  void indexSimplificationMakesKernelsShorter_data() {
    QTest::addColumn<QString>("example");
    for (const char* e :
         {"dot.lift", "transpose.lift", "matmul_best.lift", "matmul_expert.lift", "stencil3.lift"})
      QTest::newRow(e) << e;
  }
  void indexSimplificationMakesKernelsShorter() {
    QFETCH(QString, example);
    std::string on = compile(example.toStdString());
    std::string off =
        compile(example.toStdString(), [](codegen::CompileOptions& o) { o.simplifyIndices = false; });
    QVERIFY(on != off);
    QVERIFY2(off.size() > on.size(), qPrintable(QString("%1 vs %2 bytes").arg(off.size()).arg(on.size())));
  }

  void barrierEliminationRemovesBarriers() {
    std::string on = compile("dot.lift");
    std::string off = compile("dot.lift", [](codegen::CompileOptions& o) { o.barrierElimination = false; });
    QVERIFY(on != off);
    QVERIFY(count(off, "barrier(") > count(on, "barrier("));
  }

  // The generator emits an iteration's barrier even where one precedes it; the pass after
  // elimination drops it when the preceding statement, or a block it ends, is a barrier.
  void repeatedBarriersDropped() {
    using K = codegen::c::Stmt::Kind;
    std::vector<codegen::c::StmtP> inScope, inLoop;
    inScope.push_back(stmt(K::Barrier));
    inLoop.push_back(stmt(K::Barrier));
    codegen::c::Block b;
    b.push_back(stmt(K::Barrier));
    b.push_back(stmt(K::Barrier));  // dropped
    b.push_back(stmt(K::Scope, std::move(inScope)));
    b.push_back(stmt(K::Barrier));  // dropped: the scope ends with one
    b.push_back(stmt(K::For, std::move(inLoop)));
    b.push_back(stmt(K::Barrier));  // kept: the loop may not run
    codegen::dropRepeatedBarriers(b);
    QCOMPARE(b.size(), size_t(4));
    QCOMPARE(barriers(b), 4);
    QCOMPARE(int(b.back()->kind), int(K::Barrier));
  }

  void controlFlowSimplificationRemovesLoops() {
    std::string on = compile("dot.lift");
    std::string off = compile("dot.lift", [](codegen::CompileOptions& o) { o.cfgSimplification = false; });
    QVERIFY(on != off);
    QCOMPARE(count(on, "for (int wg_id"), 0);
    QCOMPARE(count(off, "for (int wg_id"), 1);
    QCOMPARE(count(on, "for (int l_id"), 0);
    QCOMPARE(count(off, "for (int l_id"), 3);
    QVERIFY(count(on, "if (get_local_id(0)") == 2);
    QCOMPARE(count(off, "if (get_local_id(0)"), 0);
    // Without it the kernel does not rely on the NDRange.
    QVERIFY(on.find("reqd_work_group_size(64, 1, 1)") != std::string::npos);
    QVERIFY(off.find("reqd_work_group_size") == std::string::npos);
  }

  void unrollingTurnsPrivateArraysIntoVariables() {
    std::string on = compile("matmul_best.lift");
    std::string off = compile("matmul_best.lift", [](codegen::CompileOptions& o) { o.unrolling = false; });
    QVERIFY(on != off);
    QVERIFY(on.find("acc1_0") != std::string::npos);
    QVERIFY(off.find("float acc1[4];") != std::string::npos);
    QVERIFY(count(off, "for (int") > count(on, "for (int"));
  }

  // The B tile's four columns of a work-item, read as one float4 from the 16-byte aligned
  // array; the A tile (already float4) and the copies (they write the arrays) keep theirs.
  void vectorLocalLoadsReadFourColumnsAtOnce() {
    const char* file = "tests/data/codegen/matmul_lanes_local_tiles.lift";
    std::string off = compile(file);
    std::string on = compile(file, [](codegen::CompileOptions& o) { o.vectorLocalLoads = true; });
    QCOMPARE(count(off, "(local float4*)"), 0);
    QCOMPARE(count(on, "float4 lvec1 = ((local float4*)tmp2)[4*j + l_id];"), 1);
    QCOMPARE(count(on, "local float tmp2[64] __attribute__((aligned(16)));"), 1);
    QCOMPARE(count(on, "lvec1.s"), 8);
    QCOMPARE(count(on, "tmp2[4*j"), 0);
    QCOMPARE(count(on, "tmp1["), count(off, "tmp1["));
    // No local array is read in groups of four in the other kernels: nothing changes there.
    QCOMPARE(compile("matmul_best.lift", [](codegen::CompileOptions& o) { o.vectorLocalLoads = true; }),
             compile("matmul_best.lift"));
  }

  // The innermost sequential loop of a constant trip count gets the pragma (at most its trip
  // count); loops with a barrier or another loop inside and loops of unknown length do not.
  void unrollPragmaOnInnermostConstantLoops() {
    const char* file = "tests/data/codegen/matmul_lanes_local_tiles.lift";
    QCOMPARE(count(compile(file), "#pragma unroll"), 0);
    std::string on = compile(file, [](codegen::CompileOptions& o) { o.innerLoopUnroll = 8; });
    QCOMPARE(count(on, "#pragma unroll"), 1);
    size_t at = on.find("#pragma unroll 4\n");
    QVERIFY(at != std::string::npos);
    size_t loop = on.find_first_not_of(' ', at + std::string("#pragma unroll 4\n").size());
    QCOMPARE(on.substr(loop, 30), std::string("for (int j = 0; j < 4; j += 1)"));
    // The K loop (over K tiles: not a constant) and the copies' loops have none.
    QCOMPARE(count(on, "for (int i = 0; i < K"), 1);
    QCOMPARE(
        count(compile(file, [](codegen::CompileOptions& o) { o.innerLoopUnroll = 2; }), "#pragma unroll 2"),
        1);
  }

  // Stream-K: the tiled matmuls' whole waves of tiles run a work-group a tile, and the last
  // wave's tiles are shared by that many work-groups (at most one a step); a tile split between
  // work-groups is summed through a global buffer and a zeroed counter a tile. Not where the tiles
  // fill whole waves, not where splitting the loop would change the result (an accumulator not
  // updated by `acc + e`), not without a K-tiled reduction, and not with the option off.
  void streamKOnlySplitsAdditiveTileLoops() {
    struct Example {
      const char* file;
      int64_t tiles;
    };
    for (Example e : {Example{"matmul_tiled_gpu.lift", 256}, Example{"matmul_tiled_gpu_8x8.lift", 64},
                      Example{"matmul_tiled_gpu_float4.lift", 256}}) {
      codegen::CompiledKernel k = streamK(e.file, 3);
      int64_t whole = e.tiles / 3 * 3;
      QVERIFY2(count(k.source,
                     fmt::format("// stream-K: {} tiles a work-group each, then 3 work-groups share the ",
                                 whole)) == 1,
               e.file);
      QVERIFY2(count(k.source, fmt::format("if (get_group_id(0) < {}) {{", whole)) == 1, e.file);
      QVERIFY2(count(k.source, "atomic_inc(&sk_count") == 1, e.file);
      QCOMPARE(k.launch.streamKGroups, static_cast<int>(whole + 3));
      QCOMPARE(k.launch.global.size(), k.launch.local.size());
      QVERIFY(k.launch.global[0] == arith::cst(whole + 3) * k.launch.local[0]);
      for (size_t d = 1; d < k.launch.global.size(); ++d) QVERIFY(k.launch.global[d] == k.launch.local[d]);
      int counters = 0, parts = 0;
      for (auto& prm : k.params) {
        counters += prm.kind == codegen::KernelParam::Kind::Counter;
        parts += prm.kind == codegen::KernelParam::Kind::Temporary && prm.name.rfind("sk_part", 0) == 0;
      }
      QCOMPARE(counters, 1);
      QVERIFY(parts >= 1);
      // More work-groups than tiles: all of them shared, at most one work-group a step.
      codegen::CompiledKernel many = streamK(e.file, 1 << 20);
      QVERIFY2(count(many.source, "// stream-K: ") == 1 && count(many.source, "tiles a work-group each") == 0,
               e.file);
      QVERIFY(many.launch.global[0].isCst() && many.launch.local[0].isCst());
      QVERIFY(many.launch.global[0].value() / many.launch.local[0].value() < (1 << 20));
      // Whole waves (the tile counts are powers of two): nothing to share.
      QCOMPARE(streamK(e.file, 4).source, streamK(e.file, 0).source);
      QCOMPARE(streamK(e.file, 0).source.find("stream-K"), std::string::npos);
    }
    // `acc * 0.5f + x * y` does not split: the same kernel as without the option.
    const char* from = "return acc + x * y;";
    const char* to = "return acc * 0.5f + x * y;";
    QCOMPARE(streamK("matmul_tiled_gpu.lift", 3, from, to).source,
             streamK("matmul_tiled_gpu.lift", 0, from, to).source);
    // `x * y + acc` does.
    QVERIFY(streamK("matmul_tiled_gpu.lift", 3, from, "return x * y + acc;").source.find("stream-K") !=
            std::string::npos);
    QCOMPARE(streamK("dot.lift", 3).source, streamK("dot.lift", 0).source);
    QCOMPARE(streamK("matmul_best.lift", 3).source, streamK("matmul_best.lift", 0).source);
  }

  // A stream-K kernel has two loops over K tiles that copy into the same local tiles, one for
  // the whole waves of tiles and one for the shared steps: both double-buffered, the tiles
  // doubled once. The parts of a shared tile are kept lane by lane, as scalars.
  void streamKDoubleBuffersBothLoopsAndKeepsPartsInLanes() {
    const char* file = "tests/data/codegen/matmul_lanes_local_tiles.lift";
    auto db = [](codegen::CompileOptions& o) { o.doubleBuffering = true; };
    codegen::CompiledKernel plain = streamK(file, 0, "", "", db);
    codegen::CompiledKernel k = streamK(file, 3, "", "", db);
    QVERIFY(count(k.source, "tiles a work-group each, then 3 work-groups share the ") == 1);
    QCOMPARE(count(plain.source, "// double-buffered: the first tiles"), 1);
    QCOMPARE(count(k.source, "// double-buffered: the first tiles"), 2);
    for (const char* tile : {"local float4 tmp1[32];", "local float tmp2[128];"}) {
      QCOMPARE(count(plain.source, tile), 1);
      QCOMPARE(count(k.source, tile), 1);
    }
    const codegen::KernelParam* parts = nullptr;
    for (auto& prm : k.params)
      if (prm.name.rfind("sk_part", 0) == 0) parts = &prm;
    QVERIFY(parts && parts->elemType == Type::float_());
    for (const char* lane : {".s0;", ".s1;", ".s2;", ".s3;"})
      QVERIFY(count(k.source, fmt::format("] = acc1_0{}", lane)) == 1);
    QVERIFY(count(k.source, "acc1_0.s3 = (acc1_0.s3 + sk_part1[") == 1);
    // Without double buffering, each loop keeps its two barriers a step.
    codegen::CompiledKernel single = streamK(file, 3);
    QCOMPARE(count(single.source, "// double-buffered"), 0);
    QCOMPARE(count(single.source, "local float4 tmp1[16];"), 1);
  }

  // The loop over K tiles copies each pair of tiles into the other half of arrays twice as large
  // while the current pair is used: the first pair before the loop, one barrier a step; the
  // tiled kernels of the examples too; a kernel without such a loop is unchanged.
  void doubleBufferingHalvesTheBarriersOfTheTileLoop() {
    const char* file = "tests/data/codegen/matmul_lanes_local_tiles.lift";
    auto on = [](codegen::CompileOptions& o) { o.doubleBuffering = true; };
    std::string off = compile(file);
    std::string db = compile(file, on);
    QCOMPARE(count(off, "local float4 tmp1[16];"), 1);
    QCOMPARE(count(db, "local float4 tmp1[32];"), 1);
    QCOMPARE(count(db, "local float tmp2[128];"), 1);
    QCOMPARE(count(off, "barrier("), 2);
    QCOMPARE(count(db, "barrier("), 2);  // one before the loop, one in it
    size_t loop = db.find("for (int i = 0; i < K; i += 1) {");
    QVERIFY(loop != std::string::npos);
    QCOMPARE(count(db.substr(0, loop), "barrier("), 1);
    QCOMPARE(count(db, "if (i + 1 < K) {"), 1);
    QCOMPARE(count(db, "tmp2[64*((i + 1)%2) + "), 1);
    QVERIFY(count(db, "%2) + 4*l_id_1 + j") > 0);
    QVERIFY(compile("matmul_tiled_gpu_8x8.lift", on) != compile("matmul_tiled_gpu_8x8.lift"));
    QCOMPARE(compile("dot.lift", on), compile("dot.lift"));
  }

  // With the register prefetch, the next tiles' global loads go into private values before the
  // computation and those values into the other buffers after it; still one barrier a step, and
  // a kernel without a tile loop is unchanged. No branch in the loop: with K unknown to the
  // kernel, the last step loads its own tiles again (the next index clamped) and stores them
  // into the buffer no step reads any more.
  void registerPrefetchLoadsBeforeAndStoresAfterTheComputation() {
    const char* file = "tests/data/codegen/matmul_lanes_local_tiles.lift";
    std::string db = compile(file, [](codegen::CompileOptions& o) { o.doubleBuffering = true; });
    std::string pf = compile(file, [](codegen::CompileOptions& o) { o.registerPrefetch = true; });
    QVERIFY(pf != db);
    QCOMPARE(count(pf, "barrier("), 2);
    QCOMPARE(count(pf, "if (i + 1 < K) {"), 0);
    QCOMPARE(count(pf, "int i_next = min(i + 1, K - 1);"), 1);
    size_t loop = pf.find("for (int i = 0; i < K; i += 1) {");
    size_t reads = pf.find("// reduceSeq", loop);
    QVERIFY(loop != std::string::npos && reads != std::string::npos);
    std::string before = pf.substr(loop, reads - loop), after = pf.substr(reads);
    // Loads of A and B into registers before, at the clamped index; no local writes there.
    QVERIFY(count(before, "float4 pf1;") == 1);
    QVERIFY(count(before, "(A[") > 0 && count(before, " = B[") > 0);
    QVERIFY(count(before, "*i_next") > 0);
    QCOMPARE(count(before, "tmp1["), 0);
    QCOMPARE(count(before, "tmp2["), 0);
    // The stores from the registers after, into the other halves (i + 1, never the clamped
    // index: in the last step that is the half being read).
    QVERIFY(count(after, "((i + 1)%2) + ") >= 2);
    QCOMPARE(count(after, "i_next"), 0);
    QVERIFY(count(after, "] = pf1;") == 1);
    QCOMPARE(compile("dot.lift", [](codegen::CompileOptions& o) { o.registerPrefetch = true; }),
             compile("dot.lift"));
  }

  // With the number of K tiles a constant, the loop stops a step early and the last step
  // follows it without loads: no branch in either, the last step's reads of its half and a
  // barrier after it.
  void registerPrefetchRunsTheLastStepOfAConstantLoopAfterIt() {
    ir::Program p = lang::parseFile(LIFT_SOURCE_DIR "/tests/data/codegen/matmul_lanes_local_tiles.lift");
    p = interp::specialize(p, {{"M", 64}, {"N", 64}, {"K", 256}});
    codegen::CompileOptions o;
    o.registerPrefetch = true;
    std::string pf = codegen::compileKernel(p, o).source;
    QCOMPARE(count(pf, "if (i + 1 < "), 0);
    QCOMPARE(count(pf, "i_next"), 0);
    size_t loop = pf.find("for (int i = 0; i < 255; i += 1) {");
    size_t last = pf.find("// the last step: no next tiles");
    QVERIFY(loop != std::string::npos && last != std::string::npos && loop < last);
    QCOMPARE(count(pf, "barrier("), 3);  // before the loop, in it, after the last step
    std::string step = pf.substr(last);
    QCOMPARE(count(step, "int i = 255;"), 1);
    QCOMPARE(count(step, " = pf"), 0);
    QCOMPARE(count(step, "(A["), 0);
    QVERIFY(count(step, "(i%2) + ") > 0);
    QCOMPARE(count(step, "barrier("), 1);
    // Two steps: a loop of one, then the last.
    ir::Program two = interp::specialize(
        lang::parseFile(LIFT_SOURCE_DIR "/tests/data/codegen/matmul_lanes_local_tiles.lift"),
        {{"M", 64}, {"N", 64}, {"K", 2}});
    std::string pair = codegen::compileKernel(two, o).source;
    QCOMPARE(count(pair, "for (int i = 0; i < 1; i += 1) {"), 1);
    QCOMPARE(count(pair, "int i = 1;"), 1);
  }

  // `#pragma unroll N` on the loops over K tiles, the outermost loops with a barrier inside: not on
  // the K tile's own loop or the copies' loops (no barrier inside), at most the trip count where
  // that is a constant, none on a loop of one step, and a kernel without such a loop unchanged.
  void tileLoopUnrollMarksTheLoopsOverTiles() {
    const char* file = "tests/data/codegen/matmul_lanes_local_tiles.lift";
    std::string on = compile(file, [](codegen::CompileOptions& o) { o.tileLoopUnroll = 2; });
    QCOMPARE(count(on, "#pragma unroll"), 1);
    QCOMPARE(count(on, "#pragma unroll 2\n      for (int i = 0; i < K; i += 1) {"), 1);
    std::string both = compile(file, [](codegen::CompileOptions& o) {
      o.tileLoopUnroll = 2;
      o.innerLoopUnroll = 8;
    });
    QCOMPARE(count(both, "#pragma unroll 2\n"), 1);
    QCOMPARE(count(both, "#pragma unroll 4\n"), 1);  // the K tile's loop of 4, as without the switch
    // Prefetching at constant sizes: the loop of the steps before the last.
    codegen::CompileOptions o;
    o.registerPrefetch = true;
    o.tileLoopUnroll = 4;
    auto at = [&](int64_t k) {
      ir::Program p = lang::parseFile(LIFT_SOURCE_DIR "/tests/data/codegen/matmul_lanes_local_tiles.lift");
      return codegen::compileKernel(interp::specialize(p, {{"M", 64}, {"N", 64}, {"K", k}}), o).source;
    };
    QCOMPARE(count(at(256), "#pragma unroll 4\n      for (int i = 0; i < 255; i += 1) {"), 1);
    QCOMPARE(count(at(4), "#pragma unroll 3\n      for (int i = 0; i < 3; i += 1) {"), 1);
    QCOMPARE(count(at(2), "#pragma unroll"), 0);  // one step before the last
    // Fewer work-groups than tiles: the work-groups' loops have barriers inside too, but are
    // parallel maps' loops; the loop over K tiles inside them gets the pragma.
    codegen::CompileOptions few;
    few.tileLoopUnroll = 2;
    few.globalSize = {arith::cst(8), arith::cst(8)};
    few.localSize = {arith::cst(4), arith::cst(4)};
    std::string looped =
        codegen::compileKernel(lang::parseFile(LIFT_SOURCE_DIR "/" + std::string(file)), few).source;
    QCOMPARE(count(looped, "wg_id += (int)get_num_groups(0)"), 1);
    QCOMPARE(count(looped, "#pragma unroll"), 1);
    QCOMPARE(count(looped, "#pragma unroll 2\n      for (int i = 0; i < K; i += 1) {"), 1);
    for (const char* plain : {"matmul_best.lift", "matmul_tiled_gpu.lift"})
      QCOMPARE(compile(plain, [](codegen::CompileOptions& x) { x.tileLoopUnroll = 2; }) == compile(plain),
               std::string(plain) == "matmul_best.lift");
  }

  // The prefetching step in parts (PrefetchParts.h): the loop along k cut into equal loops, each
  // with its share of every tile's next values loaded before it and stored after; every value
  // loaded and stored once, as in one part. Where the parts do not divide the loop, or without
  // the register prefetch, the kernel is the one of a single part.
  void prefetchPartsCutTheStepAlongK() {
    const char* file = "tests/data/codegen/matmul_lanes_local_tiles.lift";
    auto withParts = [&](int parts, bool prefetch = true) {
      codegen::CompileOptions o;
      o.registerPrefetch = prefetch;
      o.prefetchParts = parts;
      return codegen::compileKernel(lang::parseFile(LIFT_SOURCE_DIR "/" + std::string(file)), o).source;
    };
    std::string one = withParts(1), two = withParts(2), four = withParts(4);
    QCOMPARE(count(one, "part 1 of"), 0);
    QCOMPARE(count(two, "part 1 of 2: "), 1);
    QCOMPARE(count(two, "part 2 of 2: "), 1);
    // The K tile's loop of 4 steps, in the steps and the last step of run-time sizes' loop.
    QCOMPARE(count(one, "for (int j = 0; j < 4; j += 1) {"), 1);
    QCOMPARE(count(two, "for (int j = 0; j < 2; j += 1) {"), 1);
    QCOMPARE(count(two, "for (int j = 2; j < 4; j += 1) {"), 1);
    QCOMPARE(count(two, "for (int j = 0; j < 4; j += 1) {"), 0);
    for (int j = 0; j < 4; ++j)
      QCOMPARE(
          count(four, "for (int j = " + std::to_string(j) + "; j < " + std::to_string(j + 1) + "; j += 1) {"),
          1);
    // Ten staged values (two float4 of A, eight floats of B): each loaded and stored once, the A
    // values one a part and B's four a part in two parts.
    for (const std::string* k : {&one, &two, &four})
      for (int v = 1; v <= 10; ++v) {
        QCOMPARE(count(*k, " pf" + std::to_string(v) + " = "), 1);
        QCOMPARE(count(*k, "] = pf" + std::to_string(v) + ";"), 1);
      }
    size_t second = two.find("part 2 of 2: ");
    for (const char* first : {"pf1 = ", "pf3 = ", "pf6 = ", "= pf6;"}) QVERIFY(two.find(first) < second);
    for (const char* later : {"pf2 = ", "pf7 = ", "pf10 = ", "= pf2;"}) QVERIFY(two.find(later) > second);
    // Each part's stores after its loop: the first part's stores before the second part's loads.
    QVERIFY(two.find("= pf1;") > two.find("for (int j = 0; j < 2; j += 1) {"));
    QVERIFY(two.find("= pf1;") < two.find("pf2 = "));
    QCOMPARE(withParts(3), one);  // 3 does not divide 4
    QCOMPARE(withParts(8), one);  // more parts than steps
    QCOMPARE(withParts(2, false), withParts(1, false));
    QCOMPARE(compile("matmul_best.lift",
                     [](codegen::CompileOptions& o) {
                       o.registerPrefetch = true;
                       o.prefetchParts = 2;
                     }),
             compile("matmul_best.lift", [](codegen::CompileOptions& o) { o.registerPrefetch = true; }));
  }

  // Only a step whose computation is one sequential loop of a constant trip count, under scopes
  // that declare nothing but ints it does not change, is cut: a declaration of another type (an
  // accumulator set before the loop), an int the loop changes, a statement after the loop, a
  // barrier in it, or a trip count the parts do not divide leaves the step whole.
  void prefetchPartsLeaveOtherStepsWhole() {
    codegen::Memory tile;
    tile.name = "tmp";
    tile.space = codegen::AddressSpace::Local;
    tile.count = arith::cst(16);
    auto stmt = [](codegen::c::Stmt::Kind kind) {
      auto s = std::make_unique<codegen::c::Stmt>();
      s->kind = kind;
      return s;
    };
    auto assign = [&](codegen::c::ExprP lhs, std::string rhs) {
      auto a = stmt(codegen::c::Stmt::Kind::Assign);
      a->lhs = std::move(lhs);
      a->rhs = codegen::c::text(std::move(rhs));
      return a;
    };
    auto decl = [&](std::string type, std::string name, std::string value) {
      auto d = stmt(codegen::c::Stmt::Kind::Decl);
      d->text = std::move(type);
      d->name = std::move(name);
      d->rhs = codegen::c::text(std::move(value));
      return d;
    };
    auto loop = [&](int64_t trips, codegen::c::StmtP body) {
      auto l = stmt(codegen::c::Stmt::Kind::For);
      l->text = "j";
      l->init = "0";
      l->cond = fmt::format("j < {}", trips);
      l->step = "j += 1";
      l->trips = trips;
      l->body.push_back(std::move(body));
      return l;
    };
    auto staged = [&] {
      codegen::StagedCopy copy;
      for (int v = 1; v <= 2; ++v) {
        std::string name = fmt::format("pf{}", v);
        copy.loads.push_back(assign(codegen::c::text(name), fmt::format("A[{}]", v)));
        codegen::c::Access a;
        a.mem = &tile;
        a.write = true;
        a.raw = a.simplified = arith::cst(v);
        copy.stores.push_back(assign(codegen::c::access(a), name));
      }
      return copy;
    };
    // One loop under a scope that declares its id: cut.
    {
      codegen::c::Block compute;
      auto scope = stmt(codegen::c::Stmt::Kind::Scope);
      scope->body.push_back(decl("int", "l_id", "get_local_id(0)"));
      scope->body.push_back(loop(4, assign(codegen::c::text("acc"), "acc + 1.0f")));
      compute.push_back(std::move(scope));
      auto parts = codegen::interleaveInParts(staged(), compute, 2);
      QVERIFY(parts);
      QCOMPARE(parts->size(), size_t(10));  // per part: a note, a load, the scope, a note, a store
      QVERIFY(!codegen::interleaveInParts(staged(), compute, 3));
      QVERIFY(!codegen::interleaveInParts(staged(), compute, 8));
    }
    auto refused = [&](codegen::c::Block compute) {
      return !codegen::interleaveInParts(staged(), compute, 2);
    };
    {
      codegen::c::Block compute;
      compute.push_back(decl("float", "s", "0.0f"));
      compute.push_back(loop(4, assign(codegen::c::text("s"), "s + 1.0f")));
      QVERIFY(refused(std::move(compute)));
    }
    {
      codegen::c::Block compute;
      compute.push_back(decl("int", "c", "0"));
      compute.push_back(loop(4, assign(codegen::c::text("c"), "c + 1")));
      QVERIFY(refused(std::move(compute)));
    }
    {
      codegen::c::Block compute;
      compute.push_back(loop(4, assign(codegen::c::text("acc"), "acc + 1.0f")));
      compute.push_back(assign(codegen::c::text("out"), "acc"));
      QVERIFY(refused(std::move(compute)));
    }
    {
      codegen::c::Block compute;
      compute.push_back(loop(4, stmt(codegen::c::Stmt::Kind::Barrier)));
      QVERIFY(refused(std::move(compute)));
    }
  }

  // A register block's results leave as float4 rows: the four writes of out[b .. b+3] (b a
  // multiple of 4) become one, where the last of them was; a kernel without such writes is
  // unchanged.
  void vectorStoresWriteFourConsecutiveFloatsAtOnce() {
    // At constant sizes (as the explorer compiles), every row's offset is a multiple of 4.
    ir::Program p = lang::parseFile(LIFT_SOURCE_DIR "/tests/data/codegen/matmul_lanes_local_tiles.lift");
    p = interp::specialize(p, {{"M", 4}, {"N", 4}, {"K", 16}});
    codegen::CompileOptions o;
    std::string off = codegen::compileKernel(p, o).source;
    o.vectorGlobalStores = true;
    std::string on = codegen::compileKernel(p, o).source;
    int scalar = count(off, "out[");
    QVERIFY(scalar >= 16);
    QCOMPARE(count(on, "((global float4*)out)["), scalar / 4);
    QCOMPARE(count(on, "out["), 0);
    QVERIFY(count(on, "] = (float4)(vec1.s0, vec2.s0, vec3.s0, vec4.s0);") == 1);
    QCOMPARE(compile("dot.lift", [](codegen::CompileOptions& options) { options.vectorGlobalStores = true; }),
             compile("dot.lift"));
  }

  // Padded local rows: each tile's row is followed by the padding, in the declaration and in
  // every index of the tile (writes of the copies, reads of the computation); float4 reads stay
  // only where the padded rows keep them aligned; a kernel without local tiles is unchanged.
  void localPaddingLengthensTheRowsOfLocalTiles() {
    const char* file = "tests/data/codegen/matmul_lanes_local_tiles.lift";
    std::string off = compile(file);
    std::string on = compile(file, [](codegen::CompileOptions& o) { o.localPadding = 1; });
    QCOMPARE(count(off, "local float4 tmp1[16];"), 1);
    QCOMPARE(count(on, "local float4 tmp1[20];"), 1);
    QCOMPARE(count(on, "local float tmp2[68];"), 1);
    QCOMPARE(count(on, "tmp1[5*l_id_1 + l_id] = "), 1);
    QCOMPARE(count(on, "tmp2[17*l_id_1 + l_id] = "), 1);
    QCOMPARE(count(on, "tmp2[17*j + 4*l_id"), count(off, "tmp2[16*j + 4*l_id"));
    QCOMPARE(count(on, "tmp2[16*"), 0);
    auto vector1 = [](codegen::CompileOptions& o) {
      o.vectorLocalLoads = true;
      o.localPadding = 1;
    };
    auto vector4 = [](codegen::CompileOptions& o) {
      o.vectorLocalLoads = true;
      o.localPadding = 4;
    };
    QCOMPARE(count(compile(file, vector1), "(local float4*)"), 0);  // rows of 17 floats
    QCOMPARE(count(compile(file, vector4), "float4 lvec1 = ((local float4*)tmp2)[5*j + l_id];"), 1);
    QCOMPARE(compile("dot.lift", [](codegen::CompileOptions& o) { o.localPadding = 4; }),
             compile("dot.lift"));
  }

  // Index temporaries (IndexCse.h): matmul_best's repeated load indices are computed once an
  // iteration of the K loop, from 2*gl_id*K and 2*gl_id_1*K computed once a work-item outside
  // it, and the rows of the output's index once; a kernel whose indices repeat nothing is
  // unchanged, and so is every kernel without the switch or with unsimplified indices.
  void indexCseHoistsRepeatedSubexpressions() {
    auto cse = [](codegen::CompileOptions& o) { o.indexCse = true; };
    std::string off = compile("matmul_best.lift"), on = compile("matmul_best.lift", cse);
    QCOMPARE(count(off, "const int"), 0);
    QCOMPARE(count(on, "const int ix"), 7);
    QCOMPARE(count(on, "    const int ix1 = 4*gl_id*N;\n    const int ix2 = 2*gl_id*K;\n    // mapGlb1\n"),
             1);
    QCOMPARE(count(on, "const int ix3 = 2*gl_id_1*K;\n      for (int i = 0; i < K; i += 1) {\n"), 1);
    QCOMPARE(count(on, "const int ix4 = ix2 + i;"), 1);
    QCOMPARE(count(on, "const int ix7 = ix2 + i + K;"), 1);
    QCOMPARE(count(on, "2*gl_id*K"), 1);  // in its temporary's definition only
    QCOMPARE(count(on, "vload4(ix4, A)"), 2);
    QCOMPARE(count(on, "out[ix1 + 2*gl_id_1 + 2*N + 1] = acc1_3;"), 1);
    QCOMPARE(compile("transpose.lift", cse), compile("transpose.lift"));
    auto plain = [](codegen::CompileOptions& o) {
      o.indexCse = true;
      o.simplifyIndices = false;
    };
    QCOMPARE(compile("matmul_best.lift", plain),
             compile("matmul_best.lift", [](codegen::CompileOptions& o) { o.simplifyIndices = false; }));
  }

  void everySwitchChangesSomeKernel() {
    using Tweak = void (*)(codegen::CompileOptions&);
    const Tweak tweaks[] = {
        [](codegen::CompileOptions& o) { o.simplifyIndices = false; },
        [](codegen::CompileOptions& o) { o.barrierElimination = false; },
        [](codegen::CompileOptions& o) { o.cfgSimplification = false; },
        [](codegen::CompileOptions& o) { o.unrolling = false; },
        [](codegen::CompileOptions& o) { o.indexCse = true; },
    };
    for (Tweak t : tweaks) {
      bool changed = false;
      for (const char* e : {"dot.lift", "matmul_best.lift", "matmul_expert.lift"})
        changed = changed || compile(e) != compile(e, t);
      QVERIFY(changed);
    }
  }
};

QTEST_GUILESS_MAIN(TestCodegenAblation)
#include "tst_codegen_ablation.moc"
