// Semantic property test of every rule: wherever a rule applies — in the example programs (also
// with their sizes made multiples so that split rules apply), in random programs, in programs
// reached by random walks from those, and in a few programs written to reach rare rules — the
// result is well-typed and the interpreter gives the same result before and after, on random
// inputs at two sizes. Reports how many (rule, program) pairs it checked; fails when a rule
// was never checked. At most kPerRule pairs per rule keep the run short.
#include <QtTest/QtTest>

#include <filesystem>
#include <map>

#include "core/interp/WorkCount.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "rewrite/Engine.h"
#include "rewrite/Equivalence.h"
#include "rewrite/RandomProgram.h"
#include "rewrite/RandomWalk.h"

using namespace lift;
using namespace lift::rewrite;

namespace {

constexpr int kPerRule = 20;
constexpr int kRandomPrograms = 40;

const char* kHeader = R"(size N = 4, M = 4, K = 4;
userfun add(float x, float y) -> float { return x + y; }
userfun mult(float x, float y) -> float { return x * y; }
userfun neg(float x) -> float { return -x; }
userfun sq(float x) -> float { return x * x; }
userfun mult4(float4 x, float4 y) -> float4 { return x * y; }
)";

// Programs that reach rules the examples and random programs rarely reach.
const char* kSeeds[] = {
    // userfun-fusion-lanes: a product taking its arguments as a tuple, and lane-wise.
    "fun f(x: [float]8*N, y: [float]8*N) = reduceSeq(fun((acc, p) => add(acc, mult(p))), 0.0f) $ zip(x, y)",
    "fun f(x: [float]8*N, y: [float]8*N) = asScalar o reduceSeq(fun((acc, p) => vectorize(4, add)(acc, "
    "vectorize(4, mult) $ p)), (float4)0.0f) $ zip(asVector(4) $ x, asVector(4) $ y)",
    "fun f(x: [float]8*N, y: [float]8*N) = map(fun(q => zip(get(0, q), get(1, q)))) $ zip(split(4) $ x, "
    "split(4) $ y)",
    "fun f(x: [float]8*N) = iterate(1, map(neg)) o iterate(2, map(neg)) o iterate(0, map(sq)) $ x",
    "fun f(A: [[float]8]4*N, v: [float]8) = map(fun(r => map(mult) $ zip(r, v))) $ A",
    "fun f(A: [[float]8]4*N, v: [float]4*N) = map(fun(p => reduce(add, get(0, p)) $ get(1, p))) $ zip(v, A)",
    "fun f(A: [[float]8]4*N) = map(split(2)) o transpose o transpose o map(split(2)) $ A",
    "fun f(A: [[float]8]4*N) = map(transpose) o split(2) o split(8) o join $ A",
    "fun f(A: [[float]8]4*N) = transpose o map(map(neg)) o map(map(sq)) o transpose $ A",
    "fun f(T: [[[float]2]4]4*N) = transpose o map(join) o map(transpose) o transpose o map(transpose) $ T",
    "fun f(x: [float]8*N, v: [float4]2*N) = zip(asScalar o asVector(4) $ x, asScalar o asVector(2) o "
    "asScalar $ v)",
    "fun f(x: [float]8*N, y: [float]8*N) = map(get(1)) $ zip(get(0, tuple(x, y)), join o slide(4, 4) $ y)",
    "fun f(A: [[float]4*K]4*M, B: [[float]4*N]4*K) = map(fun(rowA => map(fun(colB => reduce(add, 0.0f) o "
    "map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A",
    "fun f(A: [[float]8]8*N) = map(fun(t => split(2) $ transpose(t))) o split(4) o transpose $ A",
    "fun f(a: [float4]N, b: [float4]N) = reduceSeq(add, 0.0f) o asScalar o mapSeq(mult4) $ zip(a, b)",
    "fun f(A: [[float]8]4*N) = mapWrg0(fun(r => map(neg) $ r)) o mapGlb0(fun(r => mapSeq(sq) $ r)) $ A",
    "fun f(x: [float]8*N) = map(neg) o scatter(reverse) o gather(reverse) o scatter(reverse) o "
    "scatter(reorderStride(2)) o gather(reorderStride(2)) $ x",
    "fun f(x: [float]8*N, y: [float]8*N) = reduceSeq(add, 0.0f) o mapSeq(mult) $ zip(x, y)",
    "fun f(x: [float]8*N) = map(fun(v => add(v, sq(v)))) $ x",
    // the work-group scan (tiles of 1024 elements at least).
    "fun f(x: [float]1024*N) = scan(add, 0.0f) $ x",
    // scans: the chunked decomposition and its lowering, also of a scan fed by a map.
    "fun f(x: [float]8*N) = map(neg) o scan(add, 0.0f) $ x",
    "fun f(x: [float]8*N) = scan(add, 0.0f) o map(sq) $ x",
    // reduce-to-tree: a work-group's reduction, with and without a map fused into its first round.
    "fun f(x: [float]64*N, y: [float]64*N) = join o mapWrg0(fun(c => reduce(add, 0.0f) o map(mult) $ c)) o "
    "split(64) $ zip(x, y)",
    "fun f(A: [[float]32]N) = join o mapWrg0(fun(r => reduce(add, 0.0f) $ r)) $ A",
    // reduce-map-fission where the operator's body applies a lambda that uses the accumulator.
    "fun f(x: [float]8*N) = reduceSeq(fun((acc, v) => fun(w => add(acc, w)) $ sq(v)), 0.0f) $ x",
    // Copies of a work-group's share and of a local map's input (the copy rules of tiled kernels).
    "fun f(A: [[float]8]4*N) = join o mapWrg0(fun(r => mapLcl0(neg) $ r)) o id $ A",
    // tile-reduction-blocked of a fused dot product whose zip takes the column first.
    "fun f(A: [[float]4*K]4*M, B: [[float]4*K]2*N) = map(fun(a => map(fun(b => reduce(fun((acc, p) => "
    "add(acc, mult(p))), 0.0f) $ zip(b, a))) $ B)) $ A",
    // tile-reduction of a fused dot product whose zip takes the column first.
    "fun f(A: [[float]4*K]2*M, B: [[float]4*K]2*N) = map(fun(a => map(fun(b => reduce(fun((acc, p) => "
    "add(acc, "
    "mult(p))), 0.0f) $ zip(b, a))) $ B)) $ A",
    // issue 16: map-seq-slide over map and mapSeq, windows overlapping and not.
    "fun f(x: [float]8*N) = map(fun(w => reduce(add, 0.0f) $ w)) o slide(3, 1) $ x",
    "fun f(x: [[float]4]8*N) = mapSeq(fun(w => map(neg) o join $ w)) o slide(2, 3) $ x",
    // Lift's 2-D stencil rules: the reorderings of slide, map(join) and transposes, and 2-D tiling.
    "fun f(T: [[[float]2]4]8*N) = slide(3, 1) o map(join) $ T",
    "fun f(T: [[[float]8]4]8*N) = slide(3, 1) o map(map(slide(2, 2))) $ T",
    "fun f(T: [[[[[float]2]3]4]2]2*N) = map(map(map(transpose))) o map(transpose) $ T",
    "fun f(T: [[[[float]8]3]4]2*N) = map(map(map(slide(3, 1)))) o map(transpose) $ T",
    "fun f(T: [[[float]8]4]2*N) = map(slide(3, 1)) o map(transpose) $ T",
    "fun f(x: [[float]4*N]4*M) = map(map(fun(w => reduce(add, 0.0f) o join $ w))) o slide2D(3, 1) o "
    "pad2D(1, 1, clamp) $ x",
    // md_hom (seed 001) beyond the examples: a lambda as scalar function, a plain 3-D input with two
    // reduced dimensions, a reduction outside a ++ dimension, and a nest that is an md_hom.
    "fun f(A: [[float]8]4*N, v: [float]8) = md_hom(fun(p => mult(get(0, p), get(1, p))), (++, add)) $ "
    "pair_mv(A, v)",
    "fun f(T: [[[float]4]2]4*N) = md_hom(sq, (++, add, add)) $ T",
    "fun f(T: [[[float]4]2]4*N) = md_hom(sq, (add, ++, add)) $ T",
    "fun f(T: [[[float]4]2]4*N) = join o map(fun(x => reduce(add, 0.0f) o join o map(fun(y => reduce(add, "
    "0.0f) o map(sq) $ y)) $ x)) $ T",
    // Lift's zip and tuple clean-up, fission, interchange, vectorisation and macro rules (issue 17).
    "fun f(x: [float]8*N, y: [float]8*N) = "
    "map(fun(p => add(get(0, get(0, p)), mult(get(1, get(0, p)), get(1, p))))) $ zip(zip(x, y), x)",
    "fun f(x: [float]8*N, y: [float]8*N) = "
    "map(fun(p => add(get(0, p), mult(get(1, p), get(2, p))))) $ zip(x, y, x)",
    "fun f(x: [float]8*N, y: [float]8*N) = "
    "fun(t => map(add) $ zip(get(0, t), get(1, t))) $ tuple(map(neg) $ x, map(sq) $ y)",
    "fun f(x: [float]8*N, y: [float]8*N) = map(add) $ zip(map(neg) $ x, map(sq) $ y)",
    "fun f(x: [float]8*N, y: [float]8*N) = "
    "map(fun(p => add(get(0, p), get(1, p)))) $ zip(reduce(add, 0.0f) $ x, reduce(mult, 1.0f) $ y)",
    "fun f(x: [float]8*N) = map(neg) o reduce(add, 0.0f) $ x",
    "fun f(A: [[float]8]4*N, v: [float]8) = map(fun(r => zip(r, map(neg) $ v))) $ A",
    "fun f(x: [float]8*N, y: [float]8*N) = map(fun(p => add(neg(get(0, p)), get(1, p)))) $ zip(x, y)",
    "fun f(T: [[[float]2]4]8*N) = map(fun(a => gather(reverse) $ transpose(a))) o transpose $ T",
    "fun f(A: [[float]8]4*N) = transpose o scatter(reverse) $ A",
    "fun f(A: [[float]8]4*N, v: [float]4*N) = "
    "map(fun(p => map(fun(a => add(a, get(1, p)))) $ get(0, p))) $ zip(A, v)",
    "fun f(A: [[[float]4]2]4*N) = "
    "map(fun(r => reduceSeq(add, 0.0f) o join o map(partRed(add, 0.0f, 4)) $ r)) $ A",
    "fun f(x: [float]8*N) = mapGlb0(toGlobal(neg)) $ x",
    "fun f(x: [float]8*N) = reduce(add, 0.0f) o partRed(add, 0.0f, 2) $ x",
    "fun f(x: [float]8*N) = mapGlb0(fun(v => add(sq(v), neg(v)))) $ x",
    // ----- issue 17 (lift17w): warp maps and atomic work distribution -----
    "fun f(A: [[[float]8]4]4*N) = mapWrg0(fun(r => map(fun(w => map(neg) $ w)) $ r)) $ A",
    "fun f(A: [[[float]8]4]4*N) = mapWrg0(fun(r => mapWarp(fun(w => map(neg) $ w)) $ r)) $ A",
    "fun f(A: [[float]8]4*N) = mapWrg0(fun(r => mapLcl0(neg) $ r)) $ A",
    "fun f(T: [[[float]8]4]4*N) = mapWrg1(fun(rs => mapWrg0(fun(r => mapLcl0(neg) o mapLcl1(sq) $ r)) $ rs)) "
    "$ T",
    // ----- end issue 17 (lift17w) -----
};

// The interpreter work (function applications) a program may cost at its smallest sizes.
constexpr double kMaxApplications = 2e5;

std::vector<std::pair<std::string, TypedProgram>> programs() {
  std::vector<std::pair<std::string, TypedProgram>> out;
  for (auto* dir : {"/resources/examples", "/resources/examples/lowlevel"}) {
    std::vector<std::filesystem::path> files;
    for (auto& e : std::filesystem::directory_iterator(std::string(LIFT_SOURCE_DIR) + dir))
      if (e.path().extension() == ".lift") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (auto& f : files) {
      TypedProgram p = TypedProgram::check(lang::parseFile(f.string()));
      // Programs whose smallest valid sizes already cost the interpreter more than a moment (the
      // 64x64 and 128x128 tiles of matmul_tiled_gpu*) would make every rule's check take seconds;
      // their kernels are checked against the interpreter by tst_codegen_run instead.
      std::vector<arith::Env> smallest = chooseSizeSets(p.program, 1);
      if (smallest.empty() || interp::countWork(p.program, smallest[0]).applications > kMaxApplications)
        continue;
      out.emplace_back(f.filename().string(), p);
      // Every size a multiple of 4, so that split, vectorisation and tiling rules apply.
      TypedProgram all = p;
      for (auto& s : p.program.sizes) {
        RewriteResult r = applyRewrite(all, RewriteStep::parse("size-multiple@0:var=" + s.name + ",k=4"));
        if (r) all = *r.program;
      }
      out.emplace_back(f.filename().string() + " (sizes x4)", all);
    }
  }
  for (size_t i = 0; i < std::size(kSeeds); ++i)
    out.emplace_back("seed " + std::to_string(i), TypedProgram::check(lang::parseProgram(
                                                      std::string(kHeader) + kSeeds[i] + "\n", "<seed>")));
  for (int s = 1; s <= kRandomPrograms; ++s)
    out.emplace_back("random " + std::to_string(s), TypedProgram::check(randomProgram(s)));
  // Programs further along: short unchecked walks from each (the walks are checked elsewhere).
  size_t base = out.size();
  for (size_t i = 0; i < base; ++i) {
    RandomWalkOptions o;
    o.steps = 6;
    o.seed = 1000 + i;
    o.check = false;
    RandomWalkResult w = randomWalk(out[i].second, o);
    if (w.ok && !w.steps.empty()) out.emplace_back(out[i].first + " (walked)", w.final);
  }
  return out;
}

}  // namespace

class TestRuleProperties : public QObject {
  Q_OBJECT
 private slots:
  void everyRulePreservesMeaningWhereverItApplies() {
    std::map<std::string, int> checked, found;
    int pairs = 0;
    auto progs = programs();
    EnumerateOptions eo;
    eo.includeMacros = true;
    eo.allParameterChoices = true;
    for (auto& [name, p] : progs) {
      for (const RewriteStep& s : enumerateRewrites(p, eo)) {
        ++found[s.rule->name];
        if (checked[s.rule->name] >= kPerRule) continue;
        RewriteResult r = applyRewrite(p, s);
        QVERIFY2(r,
                 qPrintable(QString("%1 in %2: %3").arg(s.spec().c_str(), name.c_str(), r.message.c_str())));
        EquivalenceReport eq = checkEquivalence(p.program, r.program->program);
        QVERIFY2(eq.equal, qPrintable(QString("%1 in %2: %3\nbefore:\n%4\nafter:\n%5")
                                          .arg(s.spec().c_str(), name.c_str(), eq.message.c_str(),
                                               lang::printProgram(p.program).c_str(),
                                               lang::printProgram(r.program->program).c_str())));
        if (eq.runs == 0) continue;  // no common valid sizes: not counted
        ++checked[s.rule->name];
        ++pairs;
      }
    }
    QString report;
    std::vector<std::string> missing;
    for (const Rule* r : RuleRegistry::instance().rules()) {
      report += QString("  %1 %2 (of %3 places found)\n")
                    .arg(r->name.c_str(), -40)
                    .arg(checked[r->name])
                    .arg(found[r->name]);
      if (checked[r->name] == 0) missing.push_back(r->name);
    }
    qInfo("checked %d (rule, program) pairs over %zu programs, each on random inputs at 2 sizes:\n%s", pairs,
          progs.size(), qPrintable(report));
    QString miss;
    for (auto& m : missing) miss += QString::fromStdString(m) + " ";
    QVERIFY2(missing.empty(), qPrintable("rules never checked: " + miss));
  }
};

QTEST_APPLESS_MAIN(TestRuleProperties)
#include "tst_rule_properties.moc"
