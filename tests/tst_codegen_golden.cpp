// Golden tests of code generation: the structure of the kernels of the CGO 2017 paper (the
// partial dot product of Figure 7 and the matrix transposition of Figure 6) and of the
// best-found matmul of CASES 2016 (Listing 4), checked on what matters — loops, local arrays,
// double buffering, barriers, the form of the indices — rather than on whitespace. Also the
// barrier rules (a case that keeps a barrier and cases that drop it), provenance and the index
// report.
#include <QtTest/QtTest>

#include <regex>

#include "codegen/Compiler.h"
#include "codegen/LoweringCheck.h"
#include "core/lang/Parser.h"

using namespace lift;

namespace {

codegen::CompiledKernel compile(const std::string& path, const codegen::CompileOptions& o = {}) {
  return codegen::compileKernel(lang::parseFile(LIFT_SOURCE_DIR "/" + path), o);
}

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}

int countRegex(const std::string& s, const std::string& re) {
  std::regex r(re);
  return static_cast<int>(std::distance(std::sregex_iterator(s.begin(), s.end(), r), std::sregex_iterator()));
}

// The source without its user functions (everything before the kernel).
std::string kernelBody(const codegen::CompiledKernel& k) { return k.source.substr(k.source.find("kernel ")); }

// Lines of the kernel body: text between "[...]" of every array access.
std::vector<std::string> subscripts(const std::string& s) {
  std::vector<std::string> out;
  std::regex r("\\[([^\\]]*)\\]");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), r); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

bool hasDivMod(const std::string& s) {
  return s.find('/') != std::string::npos || s.find('%') != std::string::npos;
}

}  // namespace

class TestCodegenGolden : public QObject {
  Q_OBJECT

 private slots:
  // What cannot become one kernel whatever the sizes is a LoweringError (the explorer drops such
  // mappings); a problem of the sizes is a plain LiftError.
  void structuralErrorsAreLoweringErrors() {
    QVERIFY_THROWS_EXCEPTION(codegen::LoweringError, compile("resources/examples/dot.lift"));
    try {
      compile("tests/data/codegen/bad_private.lift");
      QFAIL("bad_private.lift compiled without constant sizes");
    } catch (const codegen::LoweringError& e) {
      QFAIL(e.what());
    } catch (const LiftError& e) {
      QVERIFY2(std::string(e.what()).find("no constant size") != std::string::npos, e.what());
    }
  }

  void dotProductLikeFigure7() {
    auto k = compile("resources/examples/lowlevel/dot.lift");
    std::string body = kernelBody(k);
    // The signature: global inputs, the output, the size.
    QVERIFY(body.find("const global float* restrict x") != std::string::npos);
    QVERIFY(body.find("const global float* restrict y") != std::string::npos);
    QVERIFY(body.find("global float* restrict out") != std::string::npos);
    QVERIFY(body.find("int N") != std::string::npos);
    // One work-group loop, run once per work-group (the NDRange has one group per chunk).
    QCOMPARE(count(body, "get_group_id(0)"), 1);
    QCOMPARE(count(body, "for (int wg_id"), 0);
    // Local temporary arrays: 64 partial sums, then two buffers of 32 for the iteration.
    QCOMPARE(countRegex(body, "local float tmp[0-9]+\\[64\\];"), 1);
    QCOMPARE(countRegex(body, "local float tmp[0-9]+\\[32\\];"), 2);
    // Private accumulators, no private arrays.
    QCOMPARE(countRegex(body, "\\n  float acc[0-9]+;"), 2);
    // Iterate: one loop of six iterations with double buffering (pointer swap) and a size
    // that halves.
    QCOMPARE(count(body, "for (int iter = 0; iter < 6; iter += 1)"), 1);
    QVERIFY(body.find("src = dst;") != std::string::npos);
    QVERIFY(std::regex_search(body, std::regex("dst = \\(dst == tmp[0-9]+\\) \\? tmp[0-9]+ : tmp[0-9]+;")));
    QVERIFY(body.find("size = size/2;") != std::string::npos);
    // Control flow: the first mapLcl runs once per work-item (no loop, no if), the one in the
    // iteration is guarded, the last one too; the reductions of two elements are loops.
    QCOMPARE(count(body, "for (int l_id"), 0);
    QCOMPARE(count(body, "if (get_local_id(0) < size/2)"), 1);
    QCOMPARE(count(body, "if (get_local_id(0) < 1)"), 1);
    QCOMPARE(count(body, "for (int i = 0; i < 2; i += 1)"), 2);
    // Barriers only where needed: after the first mapLcl (its results are read by other
    // work-items in the iteration) and in each iteration; none after the last mapLcl.
    QCOMPARE(count(body, "barrier("), 2);
    size_t lastBarrier = body.rfind("barrier(");
    QVERIFY(lastBarrier < body.find("if (get_local_id(0) < 1)"));
    // No division or modulo in any index.
    for (auto& e : k.indices) QVERIFY2(!hasDivMod(e.simplified), e.simplified.c_str());
    for (auto& s : subscripts(body)) QVERIFY2(!hasDivMod(s), s.c_str());
    // The paper's index of the first memory access (Figure 5).
    bool found = false;
    for (auto& e : k.indices)
      if (e.buffer == "x") {
        QCOMPARE(QString::fromStdString(e.simplified), QString("128*wg_id + 2*l_id + i"));
        found = true;
      }
    QVERIFY(found);
    // The launch: N groups of 64.
    QCOMPARE(k.launch.dims, 1);
    QCOMPARE(QString::fromStdString(arith::toString(k.launch.global[0])), QString("64*N"));
    QCOMPARE(QString::fromStdString(arith::toString(k.launch.local.at(0))), QString("64"));
    QCOMPARE(k.launch.localMemoryBytes.value(), int64_t(4 * (64 + 32 + 32)));
  }

  void transpositionLikeFigure6() {
    auto k = compile("resources/examples/lowlevel/transpose.lift");
    std::string body = kernelBody(k);
    const codegen::IndexEntry* read = nullptr;
    for (auto& e : k.indices)
      if (e.buffer == "x" && !e.write) read = &e;
    QVERIFY(read);
    // Simplified: l_id*M + wg_id (the row length M times the column index, plus the row).
    QCOMPARE(QString::fromStdString(read->simplified), QString("l_id*M + wg_id"));
    QVERIFY(!hasDivMod(read->simplified));
    // Raw: as the views build it (Figure 6, line 1), with divisions and modulos.
    QVERIFY(hasDivMod(read->raw));
    QVERIFY(read->raw.size() > 3 * read->simplified.size());
    for (auto& s : subscripts(body)) QVERIFY2(!hasDivMod(s), s.c_str());
    // Without simplification the kernel keeps the raw form.
    codegen::CompileOptions raw;
    raw.simplifyIndices = false;
    auto r = compile("resources/examples/lowlevel/transpose.lift", raw);
    QVERIFY(kernelBody(r).find(read->raw) != std::string::npos);
  }

  void bestMatmulLikeListing4() {
    auto k = compile("resources/examples/lowlevel/matmul_best.lift");
    std::string body = kernelBody(k);
    // Two-dimensional global threads, the K loop, float4 loads and the dot built-in.
    QCOMPARE(count(body, "get_global_id(0)"), 1);
    QCOMPARE(count(body, "get_global_id(1)"), 1);
    QCOMPARE(count(body, "for (int i = 0; i < K; i += 1)"), 1);
    QCOMPARE(count(body, "dot(vload4("), 4);
    // The 2 x 2 accumulator tile is unrolled into four private variables.
    QVERIFY(std::regex_search(body, std::regex("float acc[0-9]+_0, acc[0-9]+_1, acc[0-9]+_2, acc[0-9]+_3;")));
    QVERIFY(!std::regex_search(body, std::regex("float [a-z]+[0-9_]*\\[")));
    QCOMPARE(count(body, "barrier("), 0);
    for (auto& s : subscripts(body)) QVERIFY2(!hasDivMod(s), s.c_str());
    QCOMPARE(k.launch.dims, 2);
    QVERIFY(k.launch.local.empty());
  }

  // The GPU matmul (GPGPU 2016): the accumulator of the work-group-level reduction over the K
  // tiles is split over the work-items by mapLcl1/mapLcl0 and kept in private memory, each
  // work-item's 4 x 4 register block in 16 scalars for the whole K loop; only the tiles of A
  // and B are in local memory; two barriers per K step (after the copies, before the next).
  void tiledMatmulPrivateAccumulator() {
    auto k = compile("resources/examples/lowlevel/matmul_tiled_gpu.lift");
    std::string body = kernelBody(k);
    std::string accs = "float acc[0-9]+_0";
    for (int i = 1; i < 16; ++i) accs += ", acc[0-9]+_" + std::to_string(i);
    QVERIFY(std::regex_search(body, std::regex(accs + ";")));
    QVERIFY(!std::regex_search(body, std::regex("\\n  float [a-z]+[0-9_]*\\[")));  // no private array
    QCOMPARE(countRegex(body, "local float tmp[0-9]+\\[1024\\];"), 2);
    QCOMPARE(count(body, "local float"), 2);  // no local accumulator
    QCOMPARE(countRegex(body, "acc[0-9]+_[0-9]+ = 0.0f;"), 16);
    // The 16 columns of a K tile are a loop (its accumulator is private, its input is not): 16
    // multiply-adds per iteration.
    QCOMPARE(countRegex(body, "acc[0-9]+_[0-9]+ = multAndSumUp\\(acc[0-9]+_[0-9]+, tmp"), 16);
    QVERIFY(body.find("for (int j = 0; j < 16; j += 1)") != std::string::npos);
    QCOMPARE(countRegex(body, "out\\[[^\\]]*\\] = acc[0-9]+_[0-9]+;"), 16);
    QCOMPARE(count(body, "barrier("), 2);
    size_t loop = body.find("for (int i = 0; i < K; i += 1)");
    QVERIFY(loop != std::string::npos);
    size_t b1 = body.find("barrier("), b2 = body.find("barrier(", b1 + 1);
    QVERIFY(b1 > loop);
    QVERIFY(body.find("multAndSumUp(", loop) > b1);  // the tiles are complete before they are read
    QVERIFY(body.find("multAndSumUp(", b2) == std::string::npos);  // the last one ends the step
    QVERIFY(body.find("out[") > b2);
    // Coalesced: neighbouring work-items (l_id) read neighbouring elements of A and B and write
    // neighbouring elements of C.
    QCOMPARE(countRegex(body, "= A\\[[^\\]]* \\+ l_id\\];"), 1);
    QCOMPARE(countRegex(body, "= B\\[[^\\]]* \\+ l_id\\];"), 1);
    QCOMPARE(countRegex(body, "out\\[[^\\]]* \\+ l_id( \\+ [0-9]+)?\\] = "), 16);
    QCOMPARE(k.launch.local.size(), size_t(2));
    QCOMPARE(arith::toString(k.launch.local[0]), std::string("16"));
    QCOMPARE(arith::toString(k.launch.local[1]), std::string("16"));

    // With vectorised copies: one vload4 of A and one of B per work-item and K step, into
    // local float4 arrays; the rest unchanged.
    auto v = kernelBody(compile("resources/examples/lowlevel/matmul_tiled_gpu_vec.lift"));
    QCOMPARE(countRegex(v, "local float4 tmp[0-9]+\\[256\\];"), 2);
    QCOMPARE(count(v, "= vload4("), 2);
    QCOMPARE(countRegex(v, "vload4\\([^;]* \\+ l_id, B\\);"), 1);
    QVERIFY(std::regex_search(v, std::regex(accs + ";")));
    QCOMPARE(count(v, "barrier("), 2);

    // 8 x 8 register blocks (128 x 128 tiles of C, K tiles of 16): 64 scalar accumulators; each
    // K tile in a loop over groups of 4 columns, per group the float4 of A of each of the 8 rows
    // and 8 float4s of B loaded into private registers (40 local loads, 16 distinct float4s, per
    // 256 multiply-adds, unrolled); two vload4 copies per work-item and tile with no barrier
    // between them, two barriers per K step, no division or modulo in the compute phase, the
    // results written as 16 float4s.
    auto e = kernelBody(compile("resources/examples/lowlevel/matmul_tiled_gpu_8x8.lift"));
    std::string accs64 = "float acc[0-9]+_0";
    for (int i = 1; i < 64; ++i) accs64 += ", acc[0-9]+_" + std::to_string(i);
    QVERIFY(std::regex_search(e, std::regex(accs64 + ";")));
    QVERIFY(!std::regex_search(e, std::regex("\\n  float [a-z]+[0-9_]*\\[")));  // no private array
    QVERIFY(std::regex_search(e, std::regex("\\n  float4 prv[0-9]+_0, [^;]*prv[0-9]+_7;")));
    QCOMPARE(countRegex(e, "local float4 tmp[0-9]+\\[512\\];"), 2);
    QCOMPARE(count(e, "= vload4("), 2);
    QCOMPARE(countRegex(e, "vload4\\([^;]* \\+ l_id, B\\);"), 1);
    QCOMPARE(countRegex(e, "acc[0-9]+_[0-9]+ = 0.0f;"), 64);
    QCOMPARE(countRegex(e,
                        "acc[0-9]+_[0-9]+ = multAndSumUp\\(acc[0-9]+_[0-9]+, prv[0-9]+_[0-7]\\.s[0-3], "
                        "prv[0-9]+_[0-9]+\\);"),
             64 * 4);
    QCOMPARE(countRegex(e, "prv[0-9]+_[0-7] = tmp[0-9]+\\[[^\\]]*\\];"), 8);
    QCOMPARE(countRegex(e, "prv[0-9]+_[0-9]+ = tmp[0-9]+\\[[^\\]]*\\]\\.s[0-3];"), 32);
    QCOMPARE(countRegex(e, "vstore4\\(\\(float4\\)\\([^;]* \\+ l_id( \\+ [0-9]+)?, out\\);"), 16);
    QCOMPARE(count(e, "barrier("), 2);
    size_t eLoop = e.find("for (int i = 0; i < K; i += 1)");
    QVERIFY(eLoop != std::string::npos);
    size_t e1 = e.find("barrier("), e2 = e.find("barrier(", e1 + 1);
    QVERIFY(e1 > eLoop && e.find("= vload4(", eLoop) < e1);
    QVERIFY(e.find("prv", e1) < e2 && e.find("multAndSumUp(", e2) == std::string::npos);
    std::string compute = std::regex_replace(e.substr(e1, e2 - e1), std::regex("//[^\\n]*"), "");
    QVERIFY2(compute.find('/') == std::string::npos && compute.find('%') == std::string::npos,
             compute.c_str());
    QCOMPARE(
        arith::toString(compile("resources/examples/lowlevel/matmul_tiled_gpu_8x8.lift").launch.local[0]),
        std::string("16"));

    // The 4 x 4 tiles of tiled_matmul_private.lift: one private scalar per work-item, initialised
    // from zeros by each work-item for itself.
    auto t = kernelBody(compile("tests/data/codegen/tiled_matmul_private.lift"));
    QCOMPARE(countRegex(t, "\\n  float acc[0-9]+;"), 1);
    QCOMPARE(count(t, "local float"), 2);
    QCOMPARE(countRegex(t, "acc[0-9]+ = 0.0f;"), 1);
    QCOMPARE(count(t, "barrier("), 2);
    // The same program with the accumulator in local memory (tiled_matmul.lift) keeps it there,
    // zeroed by every work-item and fenced: three local arrays, three barriers.
    auto l = kernelBody(compile("tests/data/codegen/tiled_matmul.lift"));
    QCOMPARE(count(l, "local float"), 3);
    QCOMPARE(count(l, "barrier("), 3);
  }

  // A barrier is kept where other work-items read the results (dot product, first mapLcl) and
  // dropped: between element-wise mapLcl (R1), between independent zip branches (R2), at the
  // end of the work-group (R3).
  void barrierRules() {
    auto dot = kernelBody(compile("resources/examples/lowlevel/dot.lift"));
    size_t first = dot.find("// mapLcl0");
    size_t iterate = dot.find("// iterate");
    QVERIFY(dot.find("barrier(CLK_LOCAL_MEM_FENCE);", first) < iterate);

    auto r1 = kernelBody(compile("tests/data/codegen/local_dynamic.lift"));
    size_t a = r1.find("// mapLcl0"), b = r1.find("// mapLcl0", a + 1);
    QVERIFY(b != std::string::npos);
    QVERIFY(r1.substr(a, b - a).find("barrier(") == std::string::npos);

    auto r2 = kernelBody(compile("tests/data/codegen/barrier_zip.lift"));
    QCOMPARE(count(r2, "barrier("), 1);
    size_t c1 = r2.find("// mapLcl0"), c2 = r2.find("// mapLcl0", c1 + 1), c3 = r2.find("// mapLcl0", c2 + 1);
    QVERIFY(r2.substr(c1, c2 - c1).find("barrier(") == std::string::npos);
    QVERIFY(r2.substr(c2, c3 - c2).find("barrier(") != std::string::npos);
    QVERIFY(r2.substr(c3).find("barrier(") == std::string::npos);

    // Elimination off: every mapLcl that writes shared memory is followed by a barrier.
    codegen::CompileOptions off;
    off.barrierElimination = false;
    QCOMPARE(count(kernelBody(compile("tests/data/codegen/barrier_zip.lift", off)), "barrier("), 3);
    QCOMPARE(count(kernelBody(compile("resources/examples/lowlevel/dot.lift", off)), "barrier("), 3);
  }

  // A work-group-level reduction without a mapLcl in its function runs in every work-item, each
  // with its own private accumulator (not a shared one that all of them update at once).
  void redundantWorkGroupReductionIsPrivate() {
    auto body = kernelBody(compile("tests/data/codegen/wg_redundant_reduce.lift"));
    QVERIFY2(std::regex_search(body, std::regex("acc[0-9]+ = add\\(acc[0-9]+, gtmp[0-9]+\\[")), body.c_str());
    QVERIFY2(!std::regex_search(body, std::regex("tmp[0-9]+\\[0\\] = add\\(")), body.c_str());
  }

  void readableOutput() {
    auto k = compile("resources/examples/lowlevel/dot.lift");
    // One comment line per pattern, the seeds' names, indentation by two spaces.
    QVERIFY(k.source.find("// mapWrg0") != std::string::npos);
    QVERIFY(k.source.find("// reduceSeq") != std::string::npos);
    QVERIFY(k.source.find("// iterate 6") != std::string::npos);
    QVERIFY(k.source.find("int wg_id = get_group_id(0);") != std::string::npos);
    QVERIFY(k.source.find("int l_id = get_local_id(0);") != std::string::npos);
    QVERIFY(k.source.find("\n      int l_id = get_local_id(0);") != std::string::npos);
    // User functions once each, before the kernel.
    QCOMPARE(count(k.source, "float add(float x, float y)"), 1);
    QCOMPARE(count(k.source, "float multAndSumUp("), 1);
    // No redundant parentheses in indices.
    for (auto& s : subscripts(kernelBody(k))) QVERIFY2(s.find('(') == std::string::npos, s.c_str());
  }

  void provenanceAndIndexReport() {
    ir::Program p = lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/lowlevel/dot.lift");
    auto k = codegen::compileKernel(p);
    int lines = static_cast<int>(std::count(k.source.begin(), k.source.end(), '\n'));
    QCOMPARE(static_cast<int>(k.lineNodes.size()), lines);
    // Every statement of the kernel body comes from a node of the program that has a location.
    int located = 0;
    for (auto n : k.lineNodes)
      if (n && p.locationOf(n).known()) ++located;
    QVERIFY(located > 20);
    // Every access names its buffer, its node and the line it is on.
    QVERIFY(!k.indices.empty());
    for (auto& e : k.indices) {
      QVERIFY(!e.buffer.empty());
      QVERIFY(e.node != 0);
      QVERIFY(e.line >= 1 && e.line <= lines);
      QVERIFY(!k.linesOf(e.node).empty());
      QVERIFY(arith::simplify(e.rawExpr) == e.simplifiedExpr);
    }
  }
};

QTEST_GUILESS_MAIN(TestCodegenGolden)
#include "tst_codegen_golden.moc"
