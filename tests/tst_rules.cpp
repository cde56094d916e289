// Example tests of the rule library, one or more per rule: the rule applied at a location gives
// the expected program (alpha-equal), preserves the meaning (interpreter on random inputs), and
// does not apply where it must not, with the expected reason. Also the registry (names,
// families, at least 80 rules, every rule with an example here), locations and path-copying,
// parameters, the engine's per-location view, and the strategy combinators and syntax.
#include <QtTest/QtTest>

#include <set>

#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "rewrite/Engine.h"
#include "rewrite/Equivalence.h"
#include "rewrite/LiftRules.h"
#include "rewrite/Strategy.h"

using namespace lift;
using namespace lift::rewrite;

namespace {

const char* kHeader = R"(size N = 4, M = 4, K = 4;
userfun add(float x, float y) -> float { return x + y; }
userfun mult(float x, float y) -> float { return x * y; }
userfun neg(float x) -> float { return -x; }
userfun sq(float x) -> float { return x * x; }
userfun mult4(float4 x, float4 y) -> float4 { return x * y; }
)";

struct Example {
  const char* rule;
  const char* program;  // the program function (after the common header)
  const char* loc;
  const char* params;
  const char* expected;  // the program function after the rewrite
  const char* negProgram;
  const char* negLoc;
  const char* negParams;
  const char* reason;  // part of the reason the rule does not apply there
};

// clang-format off
const Example kExamples[] = {
    {"map-fusion", R"(fun f(x: [float]8*N) = map(neg) o map(sq) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(neg o sq) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) o mapSeq(sq) $ x)", "0", "", R"(different kinds)"},
    {"map-fusion-zip", R"(fun f(x: [float]8*N, y: [float]8*N) = map(add) $ zip(map(neg) $ x, y))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  map(fun(p => add(neg $ get(0, p), get(1, p)))) $ zip(x, y))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = map(add) $ zip(x, y))", "0", "", R"(none of the zipped)"},
    {"reduce-map-fusion", R"(fun f(x: [float]8*N) = reduce(add, 0.0f) o map(sq) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  reduce(fun((acc, x_1) => add(acc, sq(x_1))), 0.0f) $ x)",
     R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "", R"(not computed by map)"},
    {"reduce-seq-map-fusion", R"(fun f(x: [float]8*N) = reduceSeq(add, 0.0f) o mapSeq(sq) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  reduceSeq(fun((acc, x_1) => add(acc, sq(x_1))), 0.0f) $ x)",
     R"(fun f(x: [float]8*N) = reduceSeq(add, 0.0f) o gather(reverse) $ x)", "0", "", R"(not computed by)"},
    {"map-fission", R"(fun f(x: [float]8*N) = map(fun(v => neg(sq(v)))) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(fun(y => neg(y))) o map(fun(v => sq(v))) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(not a lambda)"},
    {"map-fission-zip", R"(fun f(x: [float]8*N) = map(fun(v => add(sq(v), v))) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(fun(q => add(get(1, q), get(0, q)))) $ zip(x, map(fun(v => sq(v))) $ x))",
     R"(fun f(x: [float]8*N) = map(fun(v => neg(sq(v)))) $ x)", "0", "", R"(only used in the part)"},
    // The function called in the body uses the element too (gemv's epilogue reads the row's y).
    {"map-fission-zip-closure",
     R"(fun f(x: [[float]4]8*N, y: [float]8*N) = map(fun(p => map(fun(a => add(a, get(1, p)))) o map(sq) $ get(0, p))) $ zip(x, y))",
     "0", "",
     R"(fun f(x: [[float]4]8*N, y: [float]8*N) =
  map(fun(q => map(fun(a => add(a, get(1, get(0, q))))) $ get(1, q))) $ zip(zip(x, y), map(map(sq) o get(0)) $ zip(x, y)))",
     R"(fun f(x: [float]8*N) = map(fun(v => add(sq(v), v))) $ x)", "0", "",
     R"(does not use the parameter (use map-fission-zip))"},
    {"reduce-map-fission", R"(fun f(x: [float]8*N) = reduce(fun((acc, v) => add(acc, sq(v))), 0.0f) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  reduce(fun((acc, y) => add(acc, y)), 0.0f) o map(fun(v => sq(v))) $ x)",
     R"(fun f(x: [float]8*N) = reduce(fun((acc, v) => add(acc, v)), 0.0f) $ x)", "0", "", R"(unchanged)"},
    {"split-join", R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "n=4",
     R"(fun f(x: [float]8*N) =
  join o map(fun(xs => map(neg) $ xs)) o split(4) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "n=3", R"(does not provably divide)"},
    {"split-join-seq", R"(fun f(x: [float]8*N) = mapSeq(neg) $ x)", "0", "n=2",
     R"(fun f(x: [float]8*N) =
  join o mapSeq(fun(xs => mapSeq(neg) $ xs)) o split(2) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "n=2", R"(applies to a call of mapSeq)"},
    {"join-split", R"(fun f(A: [[float]8]4*N) = map(map(neg)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  split(8) o map(neg) $ join(A))",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => reduce(add, 0.0f) $ r)) $ A)", "0", "", R"(not a map over)"},
    {"reduce-split-join", R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  join o map(reduce(add, 0.0f)) o split(8*N) $ x)",
     R"(fun f(x: [float]8*N) = partRed(add, 0.0f, 2) $ x)", "0", "", R"(applies to a call of reduce)"},
    {"split-zip", R"(fun f(x: [float]8*N, y: [float]8*N) = split(4) $ zip(x, y))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  map(fun(q => zip(get(0, q), get(1, q)))) $ zip(split(4) $ x, split(4) $ y))",
     R"(fun f(x: [float]8*N) = split(4) $ x)", "0", "", R"(not a zip)"},
    {"zip-split", R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(q => zip(get(0, q), get(1, q)))) $ zip(split(4) $ x, split(4) $ y))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  split(4) $ zip(x, y))",
     R"(fun f(A: [[float]8]4*N) = map(fun(q => zip(get(0, q), get(1, q)))) $ zip(A, A))", "0", "", R"(not every zipped array is split)"},
    {"zip-join", R"(fun f(A: [[float]8]4*N) = zip(join $ A, join $ A))", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  join o map(fun(q => zip(get(0, q), get(1, q)))) $ zip(A, A))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = zip(x, y))", "0", "", R"(not every zipped array is a join)"},
    {"reduce-partial", R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "m=4",
     R"(fun f(x: [float]8*N) =
  reduce(add, 0.0f) o partRed(add, 0.0f, 4) $ x)",
     R"(fun f(x: [float]8*N) = reduce(add, 1.0f) $ x)", "0", "m=4", R"(identity)"},
    {"scan-to-seq", R"(fun f(x: [float]8*N) = scan(add, 0.0f) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  scanSeq(add, 0.0f) $ x)",
     R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "", R"(applies to a call of scan)"},
    {"scan-split-chunks", R"(fun f(x: [float]8*N) = scan(add, 0.0f) $ x)", "0", "n=4",
     R"(fun f(x: [float]8*N) =
  join o map(fun(p => scan(add, get(0, p)) $ get(1, p))) $
    zip(scan(add, 0.0f) o join o map(reduce(add, 0.0f)) o split(4) $ x, split(4) $ x))",
     R"(fun f(x: [float]8*N) = scan(add, 1.0f) $ x)", "0", "n=4", R"(identity)"},
    {"scan-work-groups", R"(fun f(x: [float]1024*N) = scan(add, 0.0f) $ x)", "0", "v=1",
     R"(fun f(x: [float]1024*N) =
  join o mapWrg0(fun(p =>
    fun(xs =>
      join o mapLcl0(fun(q =>
        asScalar o toGlobal(mapSeq(id)) o asVector(4) o toPrivate(
          scanSeq(add, add(get(0, p), get(0, q)))
        ) o asScalar $ get(1, q)
      )) $ zip(
        fun(r =>
          toLocal(mapLcl0(fun(a => add(get(0, a), get(1, a))))) $ zip(
            get(0) o slide(256, 128) o pad(128, 0, 0.0f) $ r,
            r
          )
        ) o fun(r =>
          toLocal(mapLcl0(fun(a => add(get(0, a), get(1, a))))) $ zip(
            get(0) o slide(256, 64) o pad(64, 0, 0.0f) $ r,
            r
          )
        ) o fun(r =>
          toLocal(mapLcl0(fun(a => add(get(0, a), get(1, a))))) $ zip(
            get(0) o slide(256, 32) o pad(32, 0, 0.0f) $ r,
            r
          )
        ) o fun(r =>
          toLocal(mapLcl0(fun(a => add(get(0, a), get(1, a))))) $ zip(
            get(0) o slide(256, 16) o pad(16, 0, 0.0f) $ r,
            r
          )
        ) o fun(r =>
          toLocal(mapLcl0(fun(a => add(get(0, a), get(1, a))))) $ zip(
            get(0) o slide(256, 8) o pad(8, 0, 0.0f) $ r,
            r
          )
        ) o fun(r =>
          toLocal(mapLcl0(fun(a => add(get(0, a), get(1, a))))) $ zip(
            get(0) o slide(256, 4) o pad(4, 0, 0.0f) $ r,
            r
          )
        ) o fun(r =>
          toLocal(mapLcl0(fun(a => add(get(0, a), get(1, a))))) $ zip(
            get(0) o slide(256, 2) o pad(2, 0, 0.0f) $ r,
            r
          )
        ) o fun(r =>
          toLocal(mapLcl0(fun(a => add(get(0, a), get(1, a))))) $ zip(
            get(0) o slide(256, 1) o pad(1, 0, 0.0f) $ r,
            r
          )
        ) o get(0) o slide(256, 1) o pad(1, 0, 0.0f) o join o mapLcl0(
          toLocal(mapSeq(id)) o reduceSeq(add, 0.0f) o asScalar
        ) $ xs,
        xs
      )
    ) o toPrivate(mapLcl0(mapSeq(id))) o split(1) o asVector(4) $ get(1, p)
  )) $ zip(
    scanSeq(add, 0.0f) o join o mapWrg0(
      join o toGlobal(mapLcl0(mapSeq(id))) o split(1) o iterate(8,
        join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq(add, 0.0f)) o split(2)
      ) o join o mapLcl0(
        toLocal(mapSeq(id)) o reduceSeq(add, 0.0f) o asScalar o toPrivate(mapSeq(id))
      ) o split(1) o asVector(4)
    ) o split(1024) $ x,
    split(1024) $ x
  ))",
     R"(fun f(x: [float]1000*N) = scan(add, 0.0f) $ x)", "0", "v=1", R"(does not provably divide)"},
    {"partred-to-reduce", R"(fun f(x: [float]8*N) = join o map(fun(c => partRed(add, 0.0f, 4) $ c)) o split(4) $ x)", "0.1.0.0.0", "",
     R"(fun f(x: [float]8*N) =
  join o map(reduce(add, 0.0f)) o split(4) $ x)",
     R"(fun f(x: [float]8*N) = partRed(add, 0.0f, 4) $ x)", "0", "", R"(not the whole length)"},
    {"partred-split-join", R"(fun f(x: [float]8*N) = partRed(add, 0.0f, 2) $ x)", "0", "k=4",
     R"(fun f(x: [float]8*N) =
  join o map(partRed(add, 0.0f, 2)) o split(4) $ x)",
     R"(fun f(x: [float]8*N) = partRed(add, 0.0f, 4) $ x)", "0", "k=2", R"(not a multiple)"},
    {"partred-iterate", R"(fun f(x: [float]8*N) = partRed(add, 0.0f, 8) $ x)", "0", "r=2",
     R"(fun f(x: [float]8*N) =
  iterate(3, partRed(add, 0.0f, 2)) $ x)",
     R"(fun f(x: [float]8*N) = partRed(add, 0.0f, 8) $ x)", "0", "r=3", R"(not a power of 3)"},
    {"partred-reorder", R"(fun f(x: [float]8*N) = reduce(add, 0.0f) o partRed(add, 0.0f, 2) $ x)", "0.2", "s=2",
     R"(fun f(x: [float]8*N) =
  reduce(add, 0.0f) o partRed(add, 0.0f, 2) o gather(reorderStride(2)) $ x)",
     R"(fun f(x: [float]8*N) = partRed(add, 0.0f, 2) $ x)", "0", "s=2", R"(consumed directly by a reduction)"},
    {"reduce-reorder", R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "s=2",
     R"(fun f(x: [float]8*N) =
  reduce(add, 0.0f) o gather(reorderStride(2)) $ x)",
     R"(fun f(x: [float]8*N) = reduce(fun((a, b) => add(a, sq(b))), 0.0f) $ x)", "0", "s=2", R"(associative)"},
    {"iterate-merge", R"(fun f(x: [float]8*N) = iterate(1, map(neg)) o iterate(2, map(neg)) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  iterate(3, map(neg)) $ x)",
     R"(fun f(x: [float]8*N) = iterate(1, map(neg)) o iterate(2, map(sq)) $ x)", "0", "", R"(different functions)"},
    {"iterate-split", R"(fun f(x: [float]8*N) = iterate(3, map(neg)) $ x)", "0", "m=1",
     R"(fun f(x: [float]8*N) =
  iterate(2, map(neg)) o iterate(1, map(neg)) $ x)",
     R"(fun f(x: [float]8*N) = iterate(1, map(neg)) $ x)", "0", "m=1", R"(cannot be split)"},
    {"iterate-one", R"(fun f(x: [float]8*N) = iterate(1, map(neg)) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(neg) $ x)",
     R"(fun f(x: [float]8*N) = iterate(2, map(neg)) $ x)", "0", "", R"(not 1)"},
    {"iterate-zero", R"(fun f(x: [float]8*N) = iterate(0, map(neg)) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  x)",
     R"(fun f(x: [float]8*N) = iterate(2, map(neg)) $ x)", "0", "", R"(not 0)"},
    {"iterate-unroll", R"(fun f(x: [float]8*N) = iterate(2, map(neg)) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(neg) o map(neg) $ x)",
     R"(fun f(x: [float]8*N) = iterate(1, map(neg)) $ x)", "0", "", R"(unrolls 2 to 8)"},
    {"map-map-interchange", R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(a => map(fun(b => mult(a, b))) $ y)) $ x)", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  transpose o map(fun(b => map(fun(a => mult(a, b))) $ x)) $ y)",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => map(neg) $ r)) $ A)", "0", "", R"(depends on the outer)"},
    {"map-map-transpose", R"(fun f(A: [[float]8]4*N) = map(fun(r => map(neg) $ r)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  transpose o map(fun(r => map(neg) $ r)) $ transpose(A))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(a => map(fun(b => mult(a, b))) $ y)) $ x)", "0", "", R"(over its element)"},
    {"map-map-transpose-zip", R"(fun f(A: [[float]8]4*N, v: [float]8) = map(fun(r => map(mult) $ zip(r, v))) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N, v: [float]8) =
  transpose o map(fun(q =>
    map(fun(x => mult(x, get(1, q)))) $ get(0, q)
  )) $ zip(transpose(A), v))",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => map(neg) $ r)) $ A)", "0", "", R"(not a zip)"},
    {"map-reduce-interchange", R"(fun f(A: [[float]8]4*N) = map(fun(r => reduce(add, 0.0f) $ r)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  transpose o reduce(fun((acc, x) => map(add) $ zip(acc, x)), zeros([float]4*N)) $ transpose(A))",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => reduce(add, 0.0f) $ map(neg) $ r)) $ A)", "0", "", R"(not a reduction reduce)"},
    {"map-reduce-interchange-zip", R"(fun f(A: [[float]8]4*N, v: [float]4*N) = map(fun(p => reduce(add, get(0, p)) $ get(1, p))) $ zip(v, A))", "0", "",
     R"(fun f(A: [[float]8]4*N, v: [float]4*N) =
  transpose o reduce(fun((acc, x) => map(add) $ zip(acc, x)), v) $ transpose(A))",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => reduce(add, 0.0f) $ r)) $ A)", "0", "", R"(does not start from one component)"},
    {"transpose-transpose-id", R"(fun f(A: [[float]8]4*N) = transpose o transpose $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  A)",
     R"(fun f(A: [[float]8]4*N) = transpose $ A)", "0", "", R"(not a transpose)"},
    {"id-transpose-transpose", R"(fun f(A: [[float]8]4*N) = id $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  transpose $ transpose(A))",
     R"(fun f(x: [float]8*N) = id $ x)", "0", "", R"(two-dimensional)"},
    {"map-split-transpose", R"(fun f(A: [[float]8]4*N) = map(split(2)) o transpose $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  transpose o map(transpose) o split(2) $ A)",
     R"(fun f(A: [[float]8]4*N) = map(split(2)) $ A)", "0", "", R"(not a transpose)"},
    {"map-transpose-split", R"(fun f(A: [[float]8]4*N) = map(transpose) o split(2) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  transpose o map(split(2)) $ transpose(A))",
     R"(fun f(T: [[[float]2]4]4*N) = map(transpose) $ T)", "0", "", R"(not a split)"},
    {"transpose-map-split", R"(fun f(A: [[float]8]4*N) = transpose o map(split(2)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  map(transpose) o split(2) $ transpose(A))",
     R"(fun f(A: [[float]8]4*N) = transpose $ A)", "0", "", R"(not a map of split)"},
    {"split-transpose", R"(fun f(A: [[float]8]4*N) = split(2) o transpose $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  map(transpose) o transpose o map(split(2)) $ A)",
     R"(fun f(A: [[float]8]4*N) = split(2) $ A)", "0", "", R"(not a transpose)"},
    {"map-transpose-transpose-map-transpose", R"(fun f(T: [[[float]2]4]4*N) = map(transpose) o transpose o map(transpose) $ T)", "0", "",
     R"(fun f(T: [[[float]2]4]4*N) =
  transpose o map(transpose) $ transpose(T))",
     R"(fun f(T: [[[float]2]4]4*N) = map(transpose) o transpose $ T)", "0", "", R"(not computed by a map of transpose)"},
    {"transpose-map-join", R"(fun f(T: [[[float]2]4]4*N) = transpose o map(join) $ T)", "0", "",
     R"(fun f(T: [[[float]2]4]4*N) =
  join o map(transpose) $ transpose(T))",
     R"(fun f(A: [[float]8]4*N) = transpose $ A)", "0", "", R"(not a map of join)"},
    {"transpose-map-map", R"(fun f(A: [[float]8]4*N) = transpose o map(map(neg)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  map(map(neg)) $ transpose(A))",
     R"(fun f(A: [[float]8]4*N) = transpose o map(fun(r => reduce(add, 0.0f) $ r)) $ A)", "0", "", R"(not a map of a map)"},
    {"map-map-transpose-commute", R"(fun f(A: [[float]8]4*N) = map(map(neg)) o transpose $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  transpose o map(map(neg)) $ A)",
     R"(fun f(A: [[float]8]4*N) = map(map(neg)) $ A)", "0", "", R"(not a transpose)"},
    {"join-map-map", R"(fun f(A: [[float]8]4*N) = join o map(map(neg)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  map(neg) $ join(A))",
     R"(fun f(A: [[float]8]4*N) = join $ A)", "0", "", R"(not a map of a map)"},
    {"map-join", R"(fun f(A: [[float]8]4*N) = map(neg) o join $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  join o map(fun(xs => map(neg) $ xs)) $ A)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(not a join)"},
    {"split-map", R"(fun f(x: [float]8*N) = split(4) o map(neg) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(fun(xs => map(neg) $ xs)) o split(4) $ x)",
     R"(fun f(x: [float]8*N) = split(4) $ x)", "0", "", R"(not a map)"},
    {"map-map-split", R"(fun f(x: [float]8*N) = map(map(neg)) o split(4) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  split(4) o map(neg) $ x)",
     R"(fun f(A: [[float]8]4*N) = map(map(neg)) $ A)", "0", "", R"(not a split)"},
    {"map-gather-commute", R"(fun f(x: [float]8*N) = map(neg) o gather(reverse) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  gather(reverse) o map(neg) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(not a gather)"},
    {"gather-map-commute", R"(fun f(x: [float]8*N) = gather(reverse) o map(neg) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(neg) o gather(reverse) $ x)",
     R"(fun f(x: [float]8*N) = gather(reverse) $ x)", "0", "", R"(not a map)"},
    {"map-scatter-commute", R"(fun f(x: [float]8*N) = map(neg) o scatter(reverse) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  scatter(reverse) o map(neg) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(not a scatter)"},
    {"scatter-map-commute", R"(fun f(x: [float]8*N) = scatter(reverse) o map(neg) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(neg) o scatter(reverse) $ x)",
     R"(fun f(x: [float]8*N) = scatter(reverse) $ x)", "0", "", R"(not a map)"},
    {"join-split-id", R"(fun f(x: [float]8*N) = join o split(4) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  x)",
     R"(fun f(A: [[float]8]4*N) = join $ A)", "0", "", R"(not a split)"},
    {"split-join-id", R"(fun f(A: [[float]8]4*N) = split(8) o join $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  A)",
     R"(fun f(A: [[float]8]4*N) = split(4) o join $ A)", "0", "", R"(differs from the length)"},
    {"asscalar-asvector-id", R"(fun f(x: [float]8*N) = asScalar o asVector(4) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  x)",
     R"(fun f(v: [float4]N) = asScalar $ v)", "0", "", R"(not an asVector)"},
    {"asvector-asscalar-id", R"(fun f(v: [float4]N) = asVector(4) o asScalar $ v)", "0", "",
     R"(fun f(v: [float4]N) =
  v)",
     R"(fun f(v: [float4]N) = asVector(2) o asScalar $ v)", "0", "", R"(differs from the width)"},
    {"gather-scatter-id", R"(fun f(x: [float]8*N) = gather(reverse) o scatter(reverse) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  x)",
     R"(fun f(x: [float]8*N) = gather(reverse) o scatter(reorderStride(2)) $ x)", "0", "", R"(index functions differ)"},
    {"scatter-gather-id", R"(fun f(x: [float]8*N) = scatter(reorderStride(2)) o gather(reorderStride(2)) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  x)",
     R"(fun f(x: [float]8*N) = scatter(reverse) $ x)", "0", "", R"(not a gather)"},
    {"reverse-reverse-id", R"(fun f(x: [float]8*N) = gather(reverse) o gather(reverse) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  x)",
     R"(fun f(x: [float]8*N) = gather(reorderStride(2)) $ x)", "0", "", R"(not reverse)"},
    {"id-removal", R"(fun f(x: [float]8*N) = map(neg) o id $ x)", "0.1", "",
     R"(fun f(x: [float]8*N) =
  map(neg) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(applies to a call of id)"},
    {"map-id-removal", R"(fun f(A: [[float]8]4*N) = map(map(id)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  A)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(not the identity)"},
    {"inline-lambda", R"(fun f(x: [float]8*N) = fun(t => map(neg) $ t) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(neg) $ x)",
     R"(fun f(x: [float]8*N) = fun(t => map(add) $ zip(t, t)) $ map(neg) $ x)", "0", "", R"(computed 2 times)"},
    {"inline-lambda", R"(fun f(x: [float]8*N) = fun(t => map(neg) $ t) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  map(neg) $ x)",
     R"(fun f(x: [float]8*N, y: [float]8*N) = fun(t => mapGlb0(fun(a => reduceSeq(add, 0.0f) $ t)) $ x) $ mapGlb0(neg) $ y)", "0", "",
     R"(inlined would run inside the mapGlb that uses t)"},
    {"eta-reduction", R"(fun f(x: [float]8*N) = map(fun(v => neg(v))) $ x)", "0.0.0", "",
     R"(fun f(x: [float]8*N) =
  map(neg) $ x)",
     R"(fun f(x: [float]8*N) = map(fun(v => add(v, v))) $ x)", "0.0.0", "", R"(does not pass)"},
    {"eta-expansion", R"(fun f(A: [[float]8]4*N) = map(transpose) o split(2) $ A)", "0.0.0", "",
     R"(fun f(A: [[float]8]4*N) =
  map(fun(x => transpose(x))) o split(2) $ A)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0.0.0", "", R"(only patterns)"},
    {"get-tuple", R"(fun f(x: [float]8*N, y: [float]8*N) = get(0, tuple(x, y)))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  x)",
     R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(p => get(0, p))) $ zip(x, y))", "0.0.0.0", "", R"(not a tuple)"},
    {"map-get-zip", R"(fun f(x: [float]8*N, y: [float]8*N) = map(get(1)) $ zip(x, y))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  y)",
     R"(fun f(x: [float]8*N, y: [float]8*N) = map(get(1)) $ map(fun(p => tuple(get(1, p), get(0, p)))) $ zip(x, y))", "0", "", R"(not a zip)"},
    {"add-id", R"(fun f(x: [float]8*N) = map(neg) $ x)", "0.1", "",
     R"(fun f(x: [float]8*N) =
  map(neg) $ id(x))",
     R"(fun f(x: [float]8*N) = map(neg) $ id $ x)", "0.1", "", R"(already copied)"},
    {"add-id", R"(fun f(A: [[float]4]8*N) = reduceSeq(fun((acc, r) => mapSeq(fun(p => add(get(0, p), get(1, p)))) $ zip(acc, r)), zeros([float]4)) $ A)", "0.1", "",
     R"(fun f(A: [[float]4]8*N) =
  reduceSeq(
    fun((acc, r) =>
      mapSeq(fun(p => add(get(0, p), get(1, p)))) $ zip(acc, r)
    ),
    id(zeros([float]4))
  ) $ A)",
     R"(fun f(x: [float]8*N) = map(neg) $ zeros([float]8*N))", "0.1", "", R"(only as the initial value of a reduction)"},
    {"implement-id", R"(fun f(A: [[float]8]4*N) = id $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  map(fun(y => id(y))) $ A)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(applies to a call of id)"},
    {"implement-id-deep", R"(fun f(A: [[float]8]4*N) = id $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  map(fun(y => map(id) $ y)) $ A)",
     R"(fun f(x: [float]8*N) = map(fun(v => id $ v)) $ x)", "0.0.0.0", "", R"(id already copies as a whole)"},
    {"add-id-for-current-value-in-reduce", R"(fun f(x: [float]8*N) = reduceSeq(fun((acc, v) => add(acc, sq(v))), 0.0f) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  reduceSeq(fun((acc, v) => fun(y => add(acc, sq(y))) $ id(v)), 0.0f) $ x)",
     R"(fun f(x: [float]8*N) = reduceSeq(fun((acc, v) => fun(y => add(acc, sq(y))) $ id(v)), 0.0f) $ x)", "0", "", R"(already copied)"},
    {"add-id-for-current-value-in-reduce", R"(fun f(x: [float]8*N) = reduceSeq(fun((acc, v) => add(acc, sq(v))), 0.0f) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  reduceSeq(fun((acc, v) => fun(y => add(acc, sq(y))) $ id(v)), 0.0f) $ x)",
     R"(fun f(x: [float]8*N) = reduceSeq(add, 0.0f) $ x)", "0", "", R"(not a lambda of two parameters)"},
    {"add-id-before-map-lcl", R"(fun f(A: [[float]8]4*N) = join o mapWrg0(fun(r => mapLcl0(neg) $ r)) $ A)", "0.1.0.0.0", "",
     R"(fun f(A: [[float]8]4*N) =
  join o mapWrg0(fun(r => mapLcl0(neg) $ id(r))) $ A)",
     R"(fun f(A: [[float]8]4*N) = join o mapWrg0(fun(r => mapLcl0(neg) $ id $ r)) $ A)", "0.1.0.0.0", "", R"(already copied)"},
    {"add-id-for-map-wrg-param", R"(fun f(A: [[float]8]4*N) = join o mapWrg0(fun(r => mapLcl0(neg) $ r)) $ A)", "0.1", "",
     R"(fun f(A: [[float]8]4*N) =
  join o mapWrg0(fun(y => fun(r => mapLcl0(neg) $ r) $ id(y))) $ A)",
     R"(fun f(T: [[[float]8]4]4*N) = mapWrg1(fun(rs => mapWrg0(fun(r => mapLcl0(neg) $ r)) $ rs)) $ T)", "0", "", R"(contains another mapWrg)"},
    {"add-id-after-reduce", R"(fun f(x: [float]8*N) = reduceSeq(add, 0.0f) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  mapSeq(id) $ reduceSeq(add, 0.0f) $ x)",
     R"(fun f(x: [float]8*N) = mapSeq(id) $ reduceSeq(add, 0.0f) $ x)", "0.1", "", R"(already copied)"},
    {"map-to-glb", R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "dim=0",
     R"(fun f(x: [float]8*N) =
  mapGlb0(neg) $ x)",
     R"(fun f(A: [[float]8]4*N) = mapGlb0(fun(r => map(neg) $ r)) $ A)", "0.0.0.0", "dim=0", R"(already mapped)"},
    {"map-to-wrg", R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "dim=0",
     R"(fun f(x: [float]8*N) =
  mapWrg0(neg) $ x)",
     R"(fun f(A: [[float]8]4*N) = mapGlb0(fun(r => map(neg) $ r)) $ A)", "0.0.0.0", "dim=0", R"(nested in global maps)"},
    {"map-to-lcl", R"(fun f(A: [[float]8]4*N) = mapWrg0(fun(r => map(neg) $ r)) $ A)", "0.0.0.0", "dim=0",
     R"(fun f(A: [[float]8]4*N) =
  mapWrg0(fun(r => mapLcl0(neg) $ r)) $ A)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "dim=0", R"(nested inside a mapWrg0)"},
    {"map-to-lcl", R"(fun f(A: [[float]8]4*N) = join o mapWrg0(fun(r => reduceSeq(fun((acc, v) => map(add) $ zip(acc, v)), zeros([float]8)) $ split(8) $ r)) $ A)", "0.1.0.0.0.0.0.0", "dim=0",
     R"(fun f(A: [[float]8]4*N) =
  join o mapWrg0(fun(r => reduceSeq(fun((acc, v) => mapLcl0(add) $ zip(acc, v)), zeros([float]8)) $ split(8) $ r)) $ A)",
     R"(fun f(A: [[float]8]4*N) = join o mapWrg0(fun(r => mapLcl0(fun(v => reduceSeq(fun((acc, w) => map(add) $ zip(acc, w)), zeros([float]1)) $ split(1) $ r)) $ r)) $ A)", "0.1.0.0.0.0.0.0.0.0.0", "dim=0", R"(sequential loop of one local thread)"},
    {"map-to-seq", R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  mapSeq(neg) $ x)",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => mapGlb0(neg) $ r)) $ A)", "0", "", R"(parallel maps)"},
    {"reduce-to-seq", R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  reduceSeq(add, 0.0f) $ x)",
     R"(fun f(x: [float]8*N) = reduceSeq(add, 0.0f) $ x)", "0", "", R"(applies to a call of reduce)"},
    {"reduce-to-tree", R"(fun f(x: [float]8*N, y: [float]8*N) = join o mapWrg0(fun(c => reduce(add, 0.0f) o map(mult) $ c)) o split(8) $ zip(x, y))",
     "0.1.0.0.0", "threads=4",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  join o mapWrg0(
    iterate(2, join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq(add, 0.0f)) o split(2)) o join o
    mapLcl0(toLocal(mapSeq(id)) o reduceSeq(fun((acc, x_1) => add(acc, mult(x_1))), 0.0f)) o
    split(2) o reorderStride(4)
  ) o split(8) $ zip(x, y))",
     R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "threads=4", R"(not inside a mapWrg0)"},
    {"map-seq-unroll", R"(fun f(v: [float]4) = mapSeq(neg) $ v)", "0", "",
     R"(fun f(v: [float]4) =
  mapSeqUnroll(neg) $ v)",
     R"(fun f(x: [float]8*N) = mapSeq(neg) $ x)", "0", "", R"(not a constant)"},
    {"reduce-seq-unroll", R"(fun f(v: [float]4) = reduceSeq(add, 0.0f) $ v)", "0", "",
     R"(fun f(v: [float]4) =
  reduceSeqUnroll(add, 0.0f) $ v)",
     R"(fun f(x: [float]8*N) = reduceSeq(add, 0.0f) $ x)", "0", "", R"(not a constant)"},
    {"to-global", R"(fun f(x: [float]8*N) = mapGlb0(neg) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  toGlobal(mapGlb0(neg)) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(wraps an OpenCL map)"},
    {"to-local", R"(fun f(A: [[float]8]4*N) = mapWrg0(fun(r => mapLcl0(neg) $ r)) $ A)", "0.0.0.0", "",
     R"(fun f(A: [[float]8]4*N) =
  mapWrg0(fun(r => toLocal(mapLcl0(neg)) $ r)) $ A)",
     R"(fun f(x: [float]8*N) = mapGlb0(neg) $ x)", "0", "", R"(only used inside a mapWrg)"},
    {"to-private", R"(fun f(A: [[float]8]4*N) = mapGlb0(fun(r => mapSeq(neg) $ r)) $ A)", "0.0.0.0", "",
     R"(fun f(A: [[float]8]4*N) =
  mapGlb0(fun(r => toPrivate(mapSeq(neg)) $ r)) $ A)",
     R"(fun f(x: [float]8*N) = mapSeq(neg) $ x)", "0", "", R"(inside a parallel map)"},
    {"to-private", R"(fun f(A: [[float]8]4*N) = mapWrg0(fun(r => mapLcl0(neg) $ r)) $ A)", "0.0.0.0", "",
     R"(fun f(A: [[float]8]4*N) =
  mapWrg0(fun(r => toPrivate(mapLcl0(neg)) $ r)) $ A)",
     R"(fun f(A: [[float]8]4*N) = mapGlb0(fun(r => map(neg) $ r)) $ A)", "0.0.0.0", "", R"(wraps a mapSeq, a mapLcl or a user function)"},
    {"vectorize-map", R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "n=4",
     R"(fun f(x: [float]8*N) =
  asScalar o map(vectorize(4, neg)) o asVector(4) $ x)",
     R"(fun f(x: [float]8*N, y: [float]8*N) = map(add) $ zip(x, y))", "0", "n=4", R"(not a user function of one argument)"},
    {"vectorize-map-zip", R"(fun f(x: [float]8*N, y: [float]8*N) = map(add) $ zip(x, y))", "0", "n=4",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  asScalar o map(vectorize(4, add)) $ zip(asVector(4) $ x, asVector(4) $ y))",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "n=4", R"(not a zip)"},
    {"vectorize-reduce", R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "n=4",
     R"(fun f(x: [float]8*N) =
  reduce(add, 0.0f) o asScalar o reduce(vectorize(4, add), (float4)0.0f) o asVector(4) $ x)",
     R"(fun f(x: [float]8*N) = reduce(mult, 0.0f) $ x)", "0", "n=4", R"(identity)"},
    {"dot-builtin", R"(fun f(a: [float4]N, b: [float4]N) = reduceSeq(add, 0.0f) o asScalar o mapSeq(mult4) $ zip(a, b))", "0", "",
     R"(fun f(a: [float4]N, b: [float4]N) =
  reduceSeq(add, 0.0f) o mapSeq(fun(p => dot(get(0, p), get(1, p)))) $ zip(a, b))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = reduceSeq(add, 0.0f) o mapSeq(mult) $ zip(x, y))", "0", "", R"(not an asScalar)"},
    {"reorder-both-sides", R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "s=2",
     R"(fun f(x: [float]8*N) =
  scatter(reorderStride(2)) o map(neg) o gather(reorderStride(2)) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "s=3", R"(does not provably divide)"},
    {"gather-reorder-stride", R"(fun f(x: [float]8*N) = gather(reorderStride(2)) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  reorderStride(2) $ x)",
     R"(fun f(x: [float]8*N) = gather(reverse) $ x)", "0", "", R"(not reorderStride)"},
    {"slide-tiling", R"(fun f(x: [float]8*N) = slide(3, 1) o pad(1, 1, clamp) $ x)", "0", "v=4",
     R"(fun f(x: [float]8*N) =
  join o map(slide(3, 1)) o slide(6, 4) o pad(1, 1, clamp) $ x)",
     R"(fun f(x: [float]8*N) = slide(3, 1) o pad(1, 1, clamp) $ x)", "0", "v=3", R"(does not provably divide)"},
    {"stencil-tiling", R"(fun f(x: [float]8*N) = map(fun(nbh => reduce(add, 0.0f) $ nbh)) o slide(3, 1) o pad(1, 1, clamp) $ x)", "0", "v=4",
     R"(fun f(x: [float]8*N) =
  join o map(map(reduce(add, 0.0f)) o slide(3, 1)) o slide(6, 4) o pad(1, 1, clamp) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "v=4", R"(not a slide)"},
    {"slide-promotion", R"(fun f(T: [[[float]2]4]8*N) = slide(3, 1) o map(join) $ T)", "0", "",
     R"(fun f(T: [[[float]2]4]8*N) =
  map(map(join)) o slide(3, 1) $ T)",
     R"(fun f(T: [[[float]2]4]8*N) = slide(3, 1) o map(transpose) $ T)", "0", "", R"(not a map(join))"},
    {"slide-swap", R"(fun f(T: [[[float]8]4]8*N) = slide(3, 1) o map(map(slide(2, 2))) $ T)", "0", "",
     R"(fun f(T: [[[float]8]4]8*N) =
  map(map(map(slide(2, 2)))) o slide(3, 1) $ T)",
     R"(fun f(T: [[[float]8]4]8*N) = slide(3, 1) o map(map(split(2))) $ T)", "0", "", R"(not a map(map(slide)))"},
    {"transpose-swap", R"(fun f(T: [[[[[float]2]3]4]2]8*N) = map(map(map(transpose))) o map(transpose) $ T)", "0", "",
     R"(fun f(T: [[[[[float]2]3]4]2]8*N) =
  map(transpose) o map(map(map(transpose))) $ T)",
     R"(fun f(T: [[[[[float]2]3]4]2]8*N) = map(map(map(transpose))) o map(map(transpose)) $ T)", "0", "", R"(not a map(transpose))"},
    {"slide-transpose-swap", R"(fun f(T: [[[[float]8]3]4]2*N) = map(map(map(slide(3, 1)))) o map(transpose) $ T)", "0", "",
     R"(fun f(T: [[[[float]8]3]4]2*N) =
  map(transpose) o map(map(map(slide(3, 1)))) $ T)",
     R"(fun f(T: [[[[float]8]3]4]2*N) = map(map(map(slide(3, 1)))) $ T)", "0", "", R"(not a map(transpose))"},
    {"slide-transpose-reordering", R"(fun f(T: [[[float]8]4]2*N) = map(slide(3, 1)) o map(transpose) $ T)", "0", "",
     R"(fun f(T: [[[float]8]4]2*N) =
  map(map(transpose)) o map(transpose) o map(map(slide(3, 1))) $ T)",
     R"(fun f(T: [[[float]8]4]2*N) = map(slide(3, 1)) $ T)", "0", "", R"(not a map(transpose))"},
    {"tile-slide-2d", R"(fun f(x: [[float]4*N]4*M) = slide2D(3, 1) o pad2D(1, 1, clamp) $ x)", "0", "v=4",
     R"(fun f(x: [[float]4*N]4*M) =
  map(join) o join o map(transpose) o map(map(slide2D(3, 1))) o slide2D(6, 4) o pad2D(1, 1, clamp) $ x)",
     R"(fun f(x: [[float]4*N]4*M) = slide2D(3, 1, 2, 1) o pad2D(1, 1, clamp) $ x)", "0", "v=4", R"(not a slide2D(n, s))"},
    {"tile-2d-stencils", R"(fun f(x: [[float]4*N]4*M) = map(map(fun(w => reduce(add, 0.0f) o join $ w))) o slide2D(3, 1) o pad2D(1, 1, clamp) $ x)", "0", "v=4",
     R"(fun f(x: [[float]4*N]4*M) =
  map(join) o join o map(transpose) o map(map(fun(tile => map(map(fun(w => reduce(add, 0.0f) o join $ w))) o slide2D(3, 1) $ tile))) o slide2D(6, 4) o pad2D(1, 1, clamp) $ x)",
     R"(fun f(x: [[float]4*N]4*M) = map(map(fun(w => reduce(add, 0.0f) o join $ w))) o slide2D(3, 1) o pad2D(1, 1, clamp) $ x)", "0", "v=3", R"(rows: the tile step 3 does not provably divide)"},
    // ----- issue 16: map-seq-slide -----
    {"map-seq-slide", R"(fun f(x: [float]8*N) = map(fun(w => reduce(add, 0.0f) $ w)) o slide(3, 1) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  mapSeqSlide(3, 1, reduce(add, 0.0f)) $ x)",
     R"(fun f(x: [float]8*N) = map(fun(w => reduce(add, 0.0f) $ w)) o slide(N, 1) $ x)", "0", "", R"(must be constants)"},
    {"slide-split", R"(fun f(x: [float]8*N) = slide(4, 4) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  split(4) $ x)",
     R"(fun f(x: [float]8*N) = slide(3, 1) $ x)", "0", "", R"(overlap)"},
    {"size-multiple", R"(fun f(x: [float]N) = map(neg) $ x)", "0", "var=N,k=4",
     R"(fun f(x: [float]4*N) =
  map(neg) $ x)",
     R"(fun f(x: [float]N) = map(neg) $ x)", "0", "var=Q,k=4", R"(no size 'Q')"},
    {"register-blocking-1d", R"(fun f(A: [[float]4*K]4*M, B: [[float]4*N]4*K) = map(fun(rowA => map(fun(colB => reduce(add, 0.0f) o map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A)", "0", "k=2",
     R"(fun f(A: [[float]4*K]4*M, B: [[float]4*N]4*K) =
  join o map(fun(xs =>
    transpose o map(fun(colB =>
      transpose o reduce(
        fun((acc, x) =>
          map(fun(p =>
            add(get(0, p), mult(get(1, p), get(1, x)))
          )) $ zip(acc, get(0, x))
        ),
        zeros([float]2)
      ) $ zip(transpose(xs), colB)
    )) $ transpose(B)
  )) o split(2) $ A)",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => map(neg) $ r)) $ A)", "0", "k=2", R"(step 2 of 8)"},
    {"register-blocking-2d", R"(fun f(A: [[float]4*K]4*M, B: [[float]4*N]4*K) = map(fun(rowA => map(fun(colB => reduce(add, 0.0f) o map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A)", "0", "k=2,l=2",
     R"(fun f(A: [[float]4*K]4*M, B: [[float]4*N]4*K) =
  join o map(fun(xs =>
    transpose o join o map(
      map(fun(y => transpose(y))) o transpose o reduce(
        fun((acc, x) =>
          map(fun(p =>
            map(fun(p_1 =>
              add(get(0, p_1), mult(get(1, p_1), get(1) $ get(1, p)))
            )) $ zip(get(0, p), get(0) $ get(1, p))
          )) $ zip(acc, x)
        ),
        zeros([[float]2]2)
      ) o transpose o map(fun(colB => zip(transpose(xs), colB)))
    ) o split(2) $ transpose(B)
  )) o split(2) $ A)",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => map(neg) $ r)) $ A)", "0", "k=2,l=2", R"(step 2 of 12)"},
    {"tiling", R"(fun f(A: [[float]4*K]4*M, B: [[float]4*N]4*K) = map(fun(rowA => map(fun(colB => reduce(add, 0.0f) o map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A)", "0", "x=2,y=2",
     R"(fun f(A: [[float]4*K]4*M, B: [[float]4*N]4*K) =
  join o map(fun(xs =>
    transpose o join o map(fun(xs_1 =>
      transpose o map(fun(rowA =>
        map(fun(colB =>
          reduce(add, 0.0f) o map(mult) $ zip(rowA, colB)
        )) $ xs_1
      )) $ xs
    )) o split(2) $ transpose(B)
  )) o split(2) $ A)",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => map(neg) $ r)) $ A)", "0", "x=2,y=2", R"(step 2 of 4)"},
    {"tile-reduction", R"(fun f(A: [[float]4*K]2*M, B: [[float]4*K]2*N) = map(fun(a => map(fun(b => reduce(add, 0.0f) o map(mult) $ zip(a, b))) $ B)) $ A)", "0", "k=4",
     R"(fun f(A: [[float]4*K]2*M, B: [[float]4*K]2*N) =
  join o reduce(
    fun((acc, tiles) =>
      map(fun((accRow, a) =>
        map(fun((c, b) =>
          join o map(fun(s => reduce(add, s) o map(mult) $ zip(a, b))) $ c
        )) $ zip(accRow, get(1, tiles))
      )) $ zip(acc, get(0, tiles))
    ),
    zeros([[[float]1]2*N]2*M)
  ) $ zip(transpose o map(split(4)) $ A, transpose o map(split(4)) $ B))",
     R"(fun f(A: [[float]4*K]2*M, B: [[float]4*K]2*N) = map(fun(a => map(fun(b => reduce(add, 0.0f) o map(mult) $ zip(a, b))) $ B)) $ A)", "0", "k=3", R"(does not provably divide)"},
    {"tile-reduction", R"(fun f(A: [[float]4*K]2*M, B: [[float]4*K]2*N) = map(fun(a => map(fun(b => reduce(fun((acc, p) => add(acc, mult(p))), 0.0f) $ zip(b, a))) $ B)) $ A)", "0", "k=2",
     R"(fun f(A: [[float]4*K]2*M, B: [[float]4*K]2*N) =
  join o reduce(
    fun((acc, tiles) =>
      map(fun((accRow, a) =>
        map(fun((c, b) =>
          join o map(fun(s => reduce(fun((acc_1, p) => add(acc_1, mult(p))), s) $ zip(b, a))) $ c
        )) $ zip(accRow, get(1, tiles))
      )) $ zip(acc, get(0, tiles))
    ),
    zeros([[[float]1]2*N]2*M)
  ) $ zip(transpose o map(split(2)) $ A, transpose o map(split(2)) $ B))",
     R"(fun f(A: [[float]4*K]2*M, B: [[float]4*K]2*N, z: float) = map(fun(a => map(fun(b => reduce(add, z) o map(mult) $ zip(a, b))) $ B)) $ A)", "0", "k=2", R"(not a constant)"},
    {"tile-reduction-blocked", R"(fun f(A: [[float]4*K]2*M, B: [[float]4*K]4*N) = map(fun(a => map(fun(b => reduce(add, 0.0f) o map(mult) $ zip(a, b))) $ B)) $ A)", "0", "k=4,x=2,y=4,blocks=strided",
     R"(fun f(A: [[float]4*K]2*M, B: [[float]4*K]4*N) =
  map(split(1) o join o transpose) o join o transpose o map(transpose) o join o reduce(
    fun((acc, tiles) =>
      map(fun((accRow, as) =>
        map(fun((blk, bs) =>
          join o reduce(
            fun((blk2, ab) =>
              map(fun((blkRow, a) =>
                map(fun((c, b) => add(c, mult(a, b)))) $ zip(blkRow, get(1, ab))
              )) $ zip(blk2, get(0, ab))
            ),
            blk
          ) $ zip(transpose(as), transpose(bs))
        )) $ zip(accRow, transpose o split(N) $ get(1, tiles))
      )) $ zip(acc, transpose o split(M) $ get(0, tiles))
    ),
    zeros([[[[float]4]2]N]M)
  ) $ zip(transpose o map(split(4)) $ A, transpose o map(split(4)) $ B))",
     R"(fun f(A: [[float]4*K]2*M, B: [[float]4*K]4*N) = map(fun(a => map(fun(b => reduce(add, 0.0f) o map(mult) $ zip(a, b))) $ B)) $ A)", "0", "k=4,x=4,y=4", R"(block rows 4 do not provably divide)"},
    {"finish-tiling", R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "k=4",
     R"(fun f(x: [float]8*N) =
  reduce(add, 0.0f) o join o map(reduce(add, 0.0f)) o split(4) $ x)",
     R"(fun f(x: [float]8*N) = reduce(add, 1.0f) $ x)", "0", "k=4", R"(step 1 of 3)"},
    {"move-transpose-inside-tiling", R"(fun f(A: [[float]8]8*N) = map(fun(t => split(2) $ transpose(t))) o split(4) o transpose $ A)", "0", "",
     R"(fun f(A: [[float]8]8*N) =
  transpose o map(transpose) o split(2) o map(split(4)) $ A)",
     R"(fun f(A: [[float]8]4*N) = map(fun(t => split(2) $ t)) o split(2) $ A)", "0", "", R"(step 1 of 4)"},
    {"dot-vectorisation", R"(fun f(x: [float]8*N, y: [float]8*N) = reduceSeq(add, 0.0f) o mapSeq(mult) $ zip(x, y))", "0", "n=4",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  reduceSeq(add, 0.0f) o
  mapSeq(fun(p => dot(get(0, p), get(1, p)))) $ zip(asVector(4) $ x, asVector(4) $ y))",
     R"(fun f(x: [float]8*N) = reduceSeq(add, 0.0f) $ x)", "0", "n=4", R"(step 1 of 2)"},
    {"vectorize-lanes", R"(fun f(A: [[float]8]4*N, B: [[float]8*M]8) = map(fun(r => map(fun(c => reduce(add, 0.0f) o map(mult) $ zip(r, c))) $ transpose(B))) $ A)", "0.0.0.0", "n=4",
     R"(userfun add_vv4(float4 x, float4 y) -> float4 { return x + y; }
userfun mult_sv4(float x, float4 y) -> float4 { return x * y; }
fun f(A: [[float]8]4*N, B: [[float]8*M]8) =
  map(fun(r =>
    join o map(transpose o split(4) o asScalar) o map(fun(c =>
      reduce(add_vv4, (float4)0.0f) o map(mult_sv4) $ zip(r, c)
    )) o transpose o map(asVector(4)) $ B
  )) $ A)",
     R"(fun f(A: [[float]8]4*N, B: [[float]8*M]8) = map(fun(r => map(fun(c => reduce(add, 0.0f) o map(mult) $ zip(r, c))) $ transpose(B))) $ A)", "0.0.0.0", "n=3", R"(does not provably divide)"},
    {"userfun-fusion", R"(fun f(x: [float]8*N) = map(fun(v => add(v, sq(v)))) $ x)", "0.0.0.0", "",
     R"(userfun add_sq(float x, float x_) -> float { return x + (x_ * x_); }
fun f(x: [float]8*N) =
  map(fun(v => add_sq(v, v))) $ x)",
     R"(fun f(x: [float]8*N) = map(fun(v => add(v, v))) $ x)", "0.0.0.0", "", R"(no argument of)"},
    // The product's arguments as one tuple (after reduce-map-fusion of a dot product).
    {"userfun-fusion-lanes", R"(fun f(x: [float]8*N, y: [float]8*N) = reduceSeq(fun((acc, p) => add(acc, mult(p))), 0.0f) $ zip(x, y))", "0.0.0.0", "",
     R"(userfun add_mult(float x, float x_, float y_) -> float { return x + (x_ * y_); }
fun f(x: [float]8*N, y: [float]8*N) =
  reduceSeq(fun((acc, p) => add_mult(acc, get(0, p), get(1, p))), 0.0f) $ zip(x, y))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = reduceSeq(fun((acc, p) => add(acc, get(0, p))), 0.0f) $ zip(x, y))", "0.0.0.0", "", R"(no argument of)"},
    // Lane-wise: vectorize(n, f) of vectorize(n, g) (the row's vectors of a GEMV on a CPU).
    {"userfun-fusion-lanes", R"(fun f(x: [float]8*N, y: [float]8*N) = asScalar o reduceSeq(fun((acc, p) => vectorize(4, add)(acc, vectorize(4, mult) $ p)), (float4)0.0f) $ zip(asVector(4) $ x, asVector(4) $ y))", "0.1.0.0.0", "",
     R"(userfun add_mult(float x, float x_, float y_) -> float { return x + (x_ * y_); }
fun f(x: [float]8*N, y: [float]8*N) =
  asScalar o reduceSeq(
    fun((acc, p) =>
      vectorize(4, add_mult)(acc, get(0, p), get(1, p))
    ),
    (float4)0.0f
  ) $ zip(asVector(4) $ x, asVector(4) $ y))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = asScalar o reduceSeq(fun((acc, p) => vectorize(4, add)(acc, get(0, p))), (float4)0.0f) $ zip(asVector(4) $ x, asVector(4) $ y))", "0.1.0.0.0", "", R"(lane-wise call of the same width)"},
    {"map-hoist", R"(fun f(A: [[float]8]4*N, B: [[float]8]4*N) = map(fun(a => map(fun(b => reduce(add, 0.0f) o map(mult) $ zip(gather(reverse) $ a, b))) $ B)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N, B: [[float]8]4*N) =
  map(fun(a_h =>
    map(fun(b =>
      reduce(add, 0.0f) o map(mult) $ zip(a_h, b)
    )) $ B
  )) o map(fun(a => gather(reverse) $ a)) $ A)",
     R"(fun f(x: [float]8*N) = map(fun(v => add(v, v))) $ x)", "0", "", R"(used 2 times)"},
    {"partred-map-reduce", R"(fun f(x: [float]8*N) = partRed(add, 0.0f, 4) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  join o map(reduce(add, 0.0f)) o split(4) $ x)",
     R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "", R"(applies to a call of partRed)"},
    {"reduce-single", R"(fun f(x: [float]8*N) = map(fun(c => reduce(add, 0.0f) $ c)) o split(1) $ x)", "0.0.0.0", "",
     R"(fun f(x: [float]8*N) =
  map(fun(c => c)) o split(1) $ x)",
     R"(fun f(x: [float]8*N) = reduce(add, 0.0f) $ x)", "0", "", R"(not 1)"},
    // md_hom (seed 001): to and from nests of map and reduce, views, decomposition.
    {"mdhom-to-map-reduce", R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (++, add)) $ pair_mv(A, v))", "0", "",
     R"(fun f(A: [[float]8]4*N, v: [float]8) =
  join o map(fun(row => reduce(add, 0.0f) o map(mult) $ zip(row, v))) $ A)",
     R"(fun f(A: [[float]8]4*N, y: [float]8) = map(fun(r => md_hom(mult, (add)) $ pair_vv(r, y))) $ A)", "0.0.0.0", "",
     R"(reduces every dimension)"},
    // md_dot, as the program's result: the reduction's array of one element.
    {"mdhom-to-map-reduce", R"(fun f(x: [float]8*N, y: [float]8*N) = md_hom(mult, (add)) $ pair_vv(x, y))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  reduce(add, 0.0f) o map(mult) $ zip(x, y))",
     R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (add, ++)) $ pair_mv(A, v))", "0", "", R"(outside the ++ dimension 2)"},
    {"mdhom-to-map-reduce", R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) = md_hom(mult, (++, ++, add)) $ pair_mm(A, B))", "0", "",
     R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) =
  map(join) o map(fun(rowA => map(fun(colB => reduce(add, 0.0f) o map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A)",
     R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (add, ++)) $ pair_mv(A, v))", "0", "", R"(outside the ++ dimension 2)"},
    {"mdhom-to-map-reduce", R"(fun f(T: [[[float]4]2]4*N) = md_hom(sq, (++, add, add)) $ T)", "0", "",
     R"(fun f(T: [[[float]4]2]4*N) =
  join o map(fun(x => reduce(add, 0.0f) o join o map(fun(y => reduce(add, 0.0f) o map(sq) $ y)) $ x)) $ T)",
     R"(fun f(A: [[float]8]4*N) = md_hom(sq, (++, fun((a, b) => add(a, sq(b))))) $ A)", "0", "", R"(not a known associative)"},
    {"map-reduce-to-mdhom", R"(fun f(A: [[float]8]4*N, v: [float]8) = join o map(fun(row => reduce(add, 0.0f) o map(mult) $ zip(row, v))) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N, v: [float]8) =
  md_hom(mult, (++, add)) $ pair_mv(A, v))",
     R"(fun f(A: [[float]8]4*N) = map(map(neg)) $ A)", "0", "", R"(no dimension is reduced)"},
    {"map-reduce-to-mdhom", R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) = map(fun(rowA => map(fun(colB => reduce(add, 0.0f) o map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) =
  md_hom(mult, (++, ++, ++, add)) o map(map(split(8))) $ pair_mm(A, B))",
     R"(fun f(x: [float]8*N) = reduce(add, 1.0f) o map(neg) $ x)", "0", "", R"(not from its operator's identity)"},
    // md_gemm's nest as mdhom-to-map-reduce writes it: the join of the dot products' arrays of one
    // element outside the maps; not a join that merges two of the maps' dimensions.
    {"map-reduce-to-mdhom", R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) = map(join) o map(fun(rowA => map(fun(colB => reduce(add, 0.0f) o map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) =
  md_hom(mult, (++, ++, add)) $ pair_mm(A, B))",
     R"(fun f(T: [[[[float]2]3]4]N) = map(join) o map(fun(a => map(fun(b => map(fun(c => reduce(add, 0.0f) $ c)) $ b)) $ a)) $ T)", "0", "",
     R"(does not join the reductions' arrays of one element)"},
    {"map-reduce-to-mdhom", R"(fun f(x: [float]8*N, y: [float]8*N) = reduce(add, 0.0f) o map(mult) $ zip(x, y))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  md_hom(mult, (++, add)) o split(8*N) $ pair_vv(x, y))",
     R"(fun f(A: [[float]8]4*N, v: [float]8) = join o map(fun(row => reduce(add, 0.0f) o map(mult) $ zip(v, row))) $ A)", "0", "", R"(does not iterate over the element of dimension 1)"},
    {"mdhom-view-to-zip", R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (++, add)) $ pair_mv(A, v))", "0.1", "",
     R"(fun f(A: [[float]8]4*N, v: [float]8) =
  md_hom(mult, (++, add)) o map(fun(row => zip(row, v))) $ A)",
     R"(fun f(x: [float]8*N, y: [float]8*N) = zip(x, y))", "0", "", R"(applies to a call of pair_vv)"},
    {"mdhom-view-to-zip", R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) = pair_mm(A, B))", "0", "",
     R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) =
  map(fun(rowA => map(fun(colB => zip(rowA, colB))) $ transpose(B))) $ A)",
     R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (++, add)) $ pair_mv(A, v))", "0", "", R"(applies to a call of pair_vv)"},
    {"mdhom-split", R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (++, add)) $ pair_mv(A, v))", "0", "dim=2,n=4",
     R"(fun f(A: [[float]8]4*N, v: [float]8) =
  md_hom(mult, (++, add, add)) o map(split(4)) $ pair_mv(A, v))",
     R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (++, add)) $ pair_mv(A, v))", "0", "dim=2,n=3", R"(does not provably divide the length 8 of dimension 2)"},
    {"mdhom-split", R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (++, add)) $ pair_mv(A, v))", "0", "dim=1,n=2",
     R"(fun f(A: [[float]8]4*N, v: [float]8) =
  join o md_hom(mult, (++, ++, add)) o split(2) $ pair_mv(A, v))",
     R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (++, add)) $ pair_mv(A, v))", "0", "dim=3,n=2", R"(has dimensions 1 to 2, not 3)"},
    {"mdhom-split", R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) = md_hom(mult, (++, ++, add)) $ pair_mm(A, B))", "0", "dim=2,n=2",
     R"(fun f(A: [[float]8]4*N, B: [[float]4*M]8) =
  map(join) o md_hom(mult, (++, ++, ++, add)) o map(split(2)) $ pair_mm(A, B))",
     R"(fun f(A: [[float]8]4*N, v: [float]8) = join o map(fun(row => reduce(add, 0.0f) o map(mult) $ zip(row, v))) $ A)", "0", "dim=1,n=2", R"(applies to a call of md_hom)"},
    {"mdhom-split-strided", R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (++, add)) $ pair_mv(A, v))", "0", "dim=2,n=4",
     R"(fun f(A: [[float]8]4*N, v: [float]8) =
  md_hom(mult, (++, add, add)) o map(split(4)) o map(gather(reorderStride(2))) $ pair_mv(A, v))",
     R"(fun f(A: [[float]8]4*N, v: [float]8) = md_hom(mult, (++, add)) $ pair_mv(A, v))", "0", "dim=1,n=2", R"(combined by ++)"},
    // Lift's zip and tuple clean-up, fission, interchange, vectorisation and macro rules (issue 17).
    {"flatten-zips", R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(p => add(get(0, get(0, p)), mult(get(1, get(0, p)), get(1, p))))) $ zip(zip(x, y), x))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  map(fun(q => add(get(0, q), mult(get(1, q), get(2, q))))) $ zip(x, y, x))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(p => add(get(0, p), get(1, p)))) $ zip(x, y))", "0", "", R"(none of the zipped arrays is a zip)"},
    {"remove-duplicate-zip-arg", R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(p => add(get(0, p), mult(get(1, p), get(2, p))))) $ zip(x, y, x))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  map(fun(q => add(get(0, q), mult(get(1, q), get(0, q))))) $ zip(x, y))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(p => add(get(0, p), get(1, p)))) $ zip(x, y))", "0", "", R"(no array is zipped twice)"},
    {"tuple-inline", R"(fun f(x: [float]8*N, y: [float]8*N) = fun(t => map(add) $ zip(get(0, t), get(1, t))) $ tuple(map(neg) $ x, y))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  map(add) $ zip(map(neg) $ x, y))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = fun(t => map(add) $ zip(get(0, t), get(0, t))) $ tuple(map(neg) $ x, y))", "0", "", R"(computed 2 times)"},
    {"tuple-map", R"(fun f(x: [float]8*N, y: [float]8*N) = fun(t => map(add) $ zip(get(0, t), get(1, t))) $ tuple(map(neg) $ x, map(sq) $ y))", "0.1", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  fun(t => map(add) $ zip(get(0, t), get(1, t))) $ unzip(map(fun(p => tuple(neg(get(0, p)), sq(get(1, p))))) $ zip(x, y)))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = fun(t => map(add) $ zip(get(0, t), get(1, t))) $ tuple(map(neg) $ x, y))", "0.1", "", R"(component 1 of the tuple is not computed by map)"},
    {"map-fusion-in-zip", R"(fun f(x: [float]8*N, y: [float]8*N) = map(add) $ zip(map(neg) $ x, map(sq) $ y))", "0.1", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  map(add) $ map(fun(p => tuple(neg(get(0, p)), sq(get(1, p))))) $ zip(x, y))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = map(add) $ zip(map(neg) $ x, y))", "0.1", "", R"(component 1 of the zip is not computed by map)"},
    {"reduce-fusion-in-zip", R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(p => add(get(0, p), get(1, p)))) $ zip(reduce(add, 0.0f) $ x, reduce(mult, 1.0f) $ y))", "0.1", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  map(fun(p => add(get(0, p), get(1, p)))) $ reduce(fun((acc, v) => tuple(add(get(0, acc), get(0, v)), mult(get(1, acc), get(1, v)))), tuple(0.0f, 1.0f)) $ zip(x, y))",
     R"(fun f(x: [float]8*N, y: [float]4*N) = map(fun(p => add(get(0, p), get(1, p)))) $ zip(reduce(add, 0.0f) $ x, reduce(mult, 1.0f) $ y))", "0.1", "", R"(different lengths)"},
    {"fuse-zip-tuple", R"(fun f(x: [float]8*N, y: [float]8*N) = fun(t => map(add) $ zip(get(0, t), get(1, t))) $ tuple(map(neg) $ x, y))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  map(add) $ zip(map(neg) $ x, y))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = fun(t => map(add) $ zip(get(0, t), get(0, t))) $ tuple(x, y))", "0", "", R"(zips no tuple of all 2 components)"},
    {"extract-from-map", R"(fun f(A: [[float]8]4*N, v: [float]8) = map(fun(r => zip(r, map(neg) $ v))) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N, v: [float]8) =
  fun(y => map(fun(r => zip(r, y))) $ A) $ map(neg) $ v)",
     R"(fun f(A: [[float]8]4*N) = map(fun(r => zip(r, map(neg) $ r))) $ A)", "0", "", R"(every argument of the body's call uses the element)"},
    {"map-fission-zip-outside", R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(p => add(neg(get(0, p)), get(1, p)))) $ zip(x, y))", "0", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  map(fun(z => add(get(0, z), get(1, z)))) $ zip(map(neg) $ x, y))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = map(fun(p => add(neg(get(0, p)), get(0, p)))) $ zip(x, y))", "0", "", R"(no function is applied)"},
    {"tuple-fission", R"(fun f(x: [float]8*N, y: [float]8*N) = fun(t => map(add) $ zip(get(0, t), get(1, t))) $ tuple(map(neg) $ x, map(sq) $ y))", "0.1", "",
     R"(fun f(x: [float]8*N, y: [float]8*N) =
  fun(t => map(add) $ zip(get(0, t), get(1, t))) $ (fun(p => tuple(map(neg) $ get(0, p), map(sq) $ get(1, p))) $ tuple(x, y)))",
     R"(fun f(x: [float]8*N, y: [float]8*N) = fun(t => map(add) $ zip(get(0, t), get(1, t))) $ tuple(x, map(sq) $ y))", "0.1", "", R"(component 0 of the tuple is not a call)"},
    {"transpose-map-transpose-reorder", R"(fun f(T: [[[float]2]4]8*N) = map(fun(a => gather(reverse) $ transpose(a))) o transpose $ T)", "0", "",
     R"(fun f(T: [[[float]2]4]8*N) =
  map(transpose) o transpose o map(map(gather(reverse))) $ T)",
     R"(fun f(T: [[[float]2]4]8*N) = map(fun(a => gather(reverse) $ a)) o transpose $ T)", "0", "", R"(transposed element)"},
    {"reorder-transpose", R"(fun f(A: [[float]8]4*N) = transpose o scatter(reverse) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  map(scatter(reverse)) o transpose $ A)",
     R"(fun f(A: [[float]8]4*N) = transpose o gather(reverse) $ A)", "0", "", R"(not a scatter)"},
    {"map-map-transpose-zip-outside", R"(fun f(A: [[float]8]4*N, v: [float]4*N) = map(fun(p => map(fun(a => add(a, get(1, p)))) $ get(0, p))) $ zip(A, v))", "0", "",
     R"(fun f(A: [[float]8]4*N, v: [float]4*N) =
  transpose o map(fun(y => map(fun(q => add(get(0, q), get(1, q)))) $ zip(y, v))) o transpose $ A)",
     R"(fun f(A: [[float]8]4*N, v: [float]4*N) = map(fun(p => map(fun(a => add(a, get(0, get(0, p))))) $ get(0, p))) $ zip(A, v))", "0", "", R"(used outside the inner map's input)"},
    {"map-reduce-partial-reduce", R"(fun f(A: [[[float]4]2]4*N) = map(fun(r => reduceSeq(add, 0.0f) o join o map(partRed(add, 0.0f, 4)) $ r)) $ A)", "0", "",
     R"(fun f(A: [[[float]4]2]4*N) =
  transpose o reduceSeq(fun((acc, c) => join o map(fun(p => partRed(add, get(0, p), 4) $ get(1, p))) $ zip(acc, c)), zeros([float]4*N)) $ transpose(A))",
     R"(fun f(A: [[[float]4]2]4*N) = map(fun(r => reduceSeq(add, 0.0f) o join o map(partRed(mult, 0.0f, 4)) $ r)) $ A)", "0", "", R"(different functions)"},
    {"vectorize-to-address-space", R"(fun f(x: [float]8*N) = mapGlb0(toGlobal(neg)) $ x)", "0", "n=4",
     R"(fun f(x: [float]8*N) =
  asScalar o mapGlb0(toGlobal(vectorize(4, neg))) o asVector(4) $ x)",
     R"(fun f(x: [float]8*N) = mapGlb0(neg) $ x)", "0", "n=4", R"(not toGlobal, toLocal or toPrivate)"},
    {"partial-reduce-vectorize", R"(fun f(x: [float]8*N) = reduce(add, 0.0f) o partRed(add, 0.0f, 2) $ x)", "0.2", "n=4",
     R"(fun f(x: [float]8*N) =
  reduce(add, 0.0f) o asScalar o partRed(vectorize(4, add), (float4)0.0f, 2) o asVector(4) $ x)",
     R"(fun f(x: [float]8*N) = partRed(add, 0.0f, 2) $ x)", "0", "n=4", R"(consumed directly by a reduction)"},
    {"interchange", R"(fun f(A: [[float]8]4*N) = map(fun(r => reduce(add, 0.0f) $ r)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  transpose o reduce(fun((acc, x) => map(add) $ zip(acc, x)), zeros([float]4*N)) $ transpose(A))",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(no map or reduction to interchange with)"},
    {"userfun-composition-to-private", R"(fun f(x: [float]8*N) = mapGlb0(fun(v => add(sq(v), neg(v)))) $ x)", "0.0.0.0", "",
     R"(fun f(x: [float]8*N) =
  mapGlb0(fun(v => add(toPrivate(sq) $ v, toPrivate(neg) $ v))) $ x)",
     R"(fun f(x: [float]8*N) = mapGlb0(fun(v => add(v, v))) $ x)", "0.0.0.0", "", R"(no argument of the user function is computed by a user function)"},
    {"map-composed-with-reduce-as-sequential", R"(fun f(x: [float]8*N) = map(neg) o reduce(add, 0.0f) $ x)", "0", "",
     R"(fun f(x: [float]8*N) =
  mapSeq(neg) o reduce(add, 0.0f) $ x)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "", R"(not computed by a reduction)"},
    {"reshape-map-map", R"(fun f(A: [[float]8]4*N) = map(map(neg)) $ A)", "0", "n=4",
     R"(fun f(A: [[float]8]4*N) =
  split(8) o join o map(fun(xs => map(neg) $ xs)) o split(4) o join $ A)",
     R"(fun f(x: [float]8*N) = map(neg) $ x)", "0", "n=4", R"(step 1 of 2)"},
    // ----- issue 17 (lift17w): Lift's mapWarp, mapLane, mapAtomWrg, mapAtomLcl -----
    {"map-to-warp", R"(fun f(A: [[[float]8]4]4*N) = mapWrg0(fun(r => map(fun(w => map(neg) $ w)) $ r)) $ A)", "0.0.0.0", "",
     R"(fun f(A: [[[float]8]4]4*N) =
  mapWrg0(fun(r => mapWarp(fun(w => map(neg) $ w)) $ r)) $ A)",
     R"(fun f(A: [[float]8]4*N) = map(fun(w => map(neg) $ w)) $ A)", "0", "", R"(nested inside a mapWrg)"},
    {"map-to-warp", R"(fun f(A: [[[float]8]4]4*N) = mapWrg0(fun(r => map(fun(w => map(neg) $ w)) $ r)) $ A)", "0.0.0.0", "",
     R"(fun f(A: [[[float]8]4]4*N) =
  mapWrg0(fun(r => mapWarp(fun(w => map(neg) $ w)) $ r)) $ A)",
     R"(fun f(A: [[float]8]4*N) = mapWrg0(fun(r => map(neg) $ r)) $ A)", "0.0.0.0", "", R"(no map for the lanes)"},
    {"map-to-lane", R"(fun f(A: [[[float]8]4]4*N) = mapWrg0(fun(r => mapWarp(fun(w => map(neg) $ w)) $ r)) $ A)", "0.0.0.0.0.0.0", "",
     R"(fun f(A: [[[float]8]4]4*N) =
  mapWrg0(fun(r => mapWarp(fun(w => mapLane(neg) $ w)) $ r)) $ A)",
     R"(fun f(A: [[[float]8]4]4*N) = mapWrg0(fun(r => map(fun(w => map(neg) $ w)) $ r)) $ A)", "0.0.0.0.0.0.0", "", R"(nested inside a mapWarp)"},
    {"map-wrg-to-atomic", R"(fun f(A: [[float]8]4*N) = mapWrg0(fun(r => mapLcl0(neg) $ r)) $ A)", "0", "",
     R"(fun f(A: [[float]8]4*N) =
  mapAtomWrg0(fun(r => mapLcl0(neg) $ r)) $ A)",
     R"(fun f(T: [[[float]8]4]4*N) = mapWrg1(fun(rs => mapWrg0(fun(r => mapLcl0(neg) $ r)) $ rs)) $ T)", "0.0.0.0", "", R"(must be the outermost map)"},
    {"map-lcl-to-atomic", R"(fun f(A: [[float]8]4*N) = mapWrg0(fun(r => mapLcl0(neg) $ r)) $ A)", "0.0.0.0", "",
     R"(fun f(A: [[float]8]4*N) =
  mapWrg0(fun(r => mapAtomLcl0(neg) $ r)) $ A)",
     R"(fun f(T: [[[float]8]4]4*N) = mapWrg0(fun(r => mapLcl1(fun(s => mapLcl0(neg) $ s)) $ r)) $ T)", "0.0.0.0.0.0.0", "", R"(inside a map over work-items)"},
    // ----- end issue 17 (lift17w) -----
};
// clang-format on

TypedProgram program(const std::string& fun) {
  return TypedProgram::check(lang::parseProgram(std::string(kHeader) + fun + "\n", "<example>"));
}

RewriteStep stepFor(const char* rule, const char* loc, const char* params) {
  std::string spec = std::string(rule) + "@" + loc;
  if (*params) spec += std::string(":") + params;
  return RewriteStep::parse(spec);
}

}  // namespace

class TestRules : public QObject {
  Q_OBJECT
 private slots:
  // ----- the registry ------------------------------------------------------------------------
  void registryHasAtLeast80Rules() {
    const RuleRegistry& reg = RuleRegistry::instance();
    QVERIFY2(reg.size() >= 80, qPrintable(QString("only %1 rules").arg(reg.size())));
    std::set<Family> families;
    for (const Rule* r : reg.rules()) families.insert(r->family);
    QVERIFY(families.size() >= 12);
  }

  void rulesAreWellFormedData() {
    for (const Rule* r : RuleRegistry::instance().rules()) {
      QVERIFY2(!r->description.empty(), r->name.c_str());
      QVERIFY2(!r->lhs.empty() && !r->rhs.empty(), r->name.c_str());
      QVERIFY2(r->display().find(" => ") != std::string::npos, r->name.c_str());
      QVERIFY2(r->description.find('\n') == std::string::npos, r->name.c_str());
      for (char c : r->name)
        QVERIFY2((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-', r->name.c_str());
      ParamValues defaults;
      QCOMPARE(QString::fromStdString(r->completeParams(defaults)), QString());
      QCOMPARE(defaults.values().size(), r->params.size());
      QCOMPARE(RuleRegistry::instance().find(r->name), r);
    }
  }

  void everyRuleHasAnExample() {
    std::set<std::string> covered;
    for (auto& e : kExamples) covered.insert(e.rule);
    for (const Rule* r : RuleRegistry::instance().rules())
      QVERIFY2(covered.count(r->name),
               qPrintable(QString("no example test for rule %1").arg(r->name.c_str())));
  }

  // Every rule's Lift names are rules of Lift; every rule of Lift is present here or has a reason
  // for being left out, never both (docs/RULES.md lists the reasons).
  void liftCorrespondenceIsComplete() {
    for (const Rule* r : RuleRegistry::instance().rules())
      for (const std::string& n : liftNamesOf(*r))
        QVERIFY2(findLiftRule(n), qPrintable(QString("%1 names '%2', not a rule of Lift (a name two Lift "
                                                     "files share is written FILE.name)")
                                                 .arg(r->name.c_str(), n.c_str())));
    for (const LiftRule& l : liftRules()) {
      bool present = !rulesCorrespondingTo(l).empty();
      QString name = QString::fromStdString(l.qualifiedName());
      QVERIFY2(present || !l.absentReason.empty(),
               qPrintable(name + ": no rule corresponds to it and no reason says why"));
      QVERIFY2(!present || l.absentReason.empty(),
               qPrintable(name + ": a rule corresponds to it, so it needs no reason for being left out"));
    }
  }

  void suggestionsForTypos() {
    auto s = RuleRegistry::instance().suggestions("map-fuson");
    QVERIFY(!s.empty());
    QCOMPARE(QString::fromStdString(s[0]), QString("map-fusion"));
    try {
      RewriteStep::parse("split-jion@0:n=4");
      QFAIL("expected an error");
    } catch (const LiftError& e) {
      QVERIFY(std::string(e.what()).find("did you mean split-join") != std::string::npos);
    }
  }

  // ----- the examples ------------------------------------------------------------------------
  void examples_data() {
    QTest::addColumn<int>("index");
    for (int i = 0; i < static_cast<int>(std::size(kExamples)); ++i)
      QTest::newRow(QString("%1 #%2").arg(kExamples[i].rule).arg(i).toUtf8().constData()) << i;
  }

  void examples() {
    QFETCH(int, index);
    const Example& ex = kExamples[index];
    TypedProgram p = program(ex.program);
    RewriteResult r = applyRewrite(p, stepFor(ex.rule, ex.loc, ex.params));
    QVERIFY2(r, r.message.c_str());
    TypedProgram expected = program(ex.expected);
    QVERIFY2(ir::alphaEqual(ir::Fun(r.program->main()), ir::Fun(expected.main())),
             qPrintable(QString("got\n%1\nexpected\n%2")
                            .arg(lang::printProgram(r.program->program).c_str(), ex.expected)));
    EquivalenceReport eq = checkEquivalence(p.program, r.program->program);
    QVERIFY2(eq, eq.message.c_str());

    TypedProgram neg = program(ex.negProgram);
    RewriteResult n = applyRewrite(neg, stepFor(ex.rule, ex.negLoc, ex.negParams));
    QVERIFY2(!n, qPrintable(QString("%1 applied where it must not").arg(ex.rule)));
    QVERIFY2(n.message.find(ex.reason) != std::string::npos,
             qPrintable(QString("reason '%1' does not contain '%2'").arg(n.message.c_str(), ex.reason)));
  }

  // ----- locations ---------------------------------------------------------------------------
  void locationsParseAndPrint() {
    QCOMPARE(QString::fromStdString(Location::parse("0.1.12")->toString()), QString("0.1.12"));
    QVERIFY(!Location::parse(""));
    QVERIFY(!Location::parse("0..1"));
    QVERIFY(!Location::parse("0.a"));
    QVERIFY(!Location::parse("-1"));
    Location l = *Location::parse("0.1");
    QVERIFY(l.isPrefixOf(*Location::parse("0.1.2")));
    QCOMPARE(QString::fromStdString((*Location::parse("0.1.2")).relativeTo(l).toString()), QString("2"));
  }

  void locationsResolveEveryNode() {
    TypedProgram p = TypedProgram::check(lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/matmul.lift"));
    for (auto& ln : allLocations(p.main())) {
      Resolved r = resolve(p.main(), ln.loc);
      QVERIFY(r);
      QCOMPARE(r.node.id(), ln.node.id());
      QCOMPARE(r.ancestors.size(), ln.loc.depth());
    }
    std::string why;
    QVERIFY(!resolve(p.main(), *Location::parse("0.7"), &why));
    QVERIFY(why.find("does not exist") != std::string::npos);
  }

  void rewriteKeepsUntouchedNodeIds() {
    TypedProgram p = TypedProgram::check(lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/matmul.lift"));
    // Fission of the inner map: only the path from the body to it is rebuilt.
    Location at = *Location::parse("0.0.0.0");
    RewriteResult r = applyRewrite(p, RewriteStep::parse("map-fission@0.0.0.0"));
    QVERIFY(r);
    std::set<ir::NodeId> before;
    for (auto& ln : allLocations(p.main())) before.insert(ln.node.id());
    // A sibling of the path keeps its node: the input A of the outer map.
    QCOMPARE(resolve(r.program->main(), *Location::parse("0.1")).node.id(),
             resolve(p.main(), *Location::parse("0.1")).node.id());
    // The transpose(B) input of the inner map, off the path, is kept (now one level deeper).
    QCOMPARE(resolve(r.program->main(), *Location::parse("0.0.0.0.1.1")).node.id(),
             resolve(p.main(), *Location::parse("0.0.0.0.1")).node.id());
    // So is the reduction in the map's body (it moved into the new outer map's lambda).
    QVERIFY(before.count(resolve(r.program->main(), *Location::parse("0.0.0.0.0.0.0")).node.id()) == 0);
    // Nodes on the path are new.
    QVERIFY(!before.count(resolve(r.program->main(), at).node.id()));
    QVERIFY(!before.count(resolve(r.program->main(), Location::body()).node.id()));
    QCOMPARE(r.replaced.id(), resolve(p.main(), at).node.id());
  }

  // ----- the engine --------------------------------------------------------------------------
  void rulesAtGivesPreviewsAndReasons() {
    TypedProgram p = program("fun f(x: [float]8*N) = map(neg) o map(sq) $ x");
    auto at = rulesAt(p, Location::body());
    bool sawFusion = false, sawReason = false;
    for (auto& ra : at) {
      if (ra.rule->name == "map-fusion") {
        sawFusion = true;
        QVERIFY(ra.applies);
        QVERIFY(ra.preview);
        QVERIFY(checkEquivalence(p.program, ra.preview->program));
      }
      if (ra.rule->name == "reduce-partial") {
        sawReason = true;
        QVERIFY(!ra.applies);
        QVERIFY(!ra.reason.empty());
      }
    }
    QVERIFY(sawFusion && sawReason);
    // Parameter alternatives are offered.
    for (auto& ra : at)
      if (ra.rule->name == "split-join") {
        QVERIFY(ra.applies);
        QVERIFY(!ra.alternatives.empty());
      }
  }

  void enumerationMatchesApplication() {
    TypedProgram p = TypedProgram::check(lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/matmul.lift"));
    auto steps = enumerateRewrites(p);
    QVERIFY(steps.size() > 10);
    for (auto& s : steps) {
      RewriteResult r = applyRewrite(p, s);
      QVERIFY2(r, r.message.c_str());
      // The spec round-trips.
      QCOMPARE(RewriteStep::parse(s.spec()), s);
    }
  }

  void applyErrorsSayWhat() {
    TypedProgram p = program("fun f(x: [float]8*N) = map(neg) $ x");
    RewriteResult r = applyRewrite(p, RewriteStep::parse("map-fusion@0.5"));
    QCOMPARE(r.error, RewriteError::NoSuchLocation);
    r = applyRewrite(p, RewriteStep::parse("map-fusion@0.0"));
    QCOMPARE(r.error, RewriteError::WrongNodeKind);
    r = applyRewrite(p, RewriteStep::parse("split-join@0:n=3"));
    QCOMPARE(r.error, RewriteError::DoesNotApply);
    QVERIFY(r.message.find("does not provably divide") != std::string::npos);
    QVERIFY_EXCEPTION_THROWN(RewriteStep::parse("split-join@0:k=3"), LiftError);
    QVERIFY_EXCEPTION_THROWN(RewriteStep::parse("split-join@0:n=0"), LiftError);
    QVERIFY_EXCEPTION_THROWN(RewriteStep::parse("map-to-glb@0:dim=3"), LiftError);
    QVERIFY_EXCEPTION_THROWN(RewriteStep::parse("map-fusion"), LiftError);
    QVERIFY_EXCEPTION_THROWN(RewriteStep::parse("map-fusion@x"), LiftError);
  }

  void symbolicParameters() {
    TypedProgram p = TypedProgram::check(
        lang::parseProgram(std::string(kHeader) + "fun f(x: [float]N*M) = map(neg) $ x\n", "<sym>"));
    RewriteResult r = applyRewrite(p, RewriteStep::parse("split-join@0:n=M"));
    QVERIFY2(r, r.message.c_str());
    EquivalenceReport eq = checkEquivalence(p.program, r.program->program);
    QVERIFY2(eq, eq.message.c_str());
    // A size where a rule needs a constant (rounds of a tree, work-items) is a bad parameter,
    // not a crash.
    TypedProgram q = program("fun f(x: [float]8*N) = reduce(add, 0.0f) o partRed(add, 0.0f, 4) $ x");
    RewriteResult bad = applyRewrite(q, RewriteStep::parse("partred-iterate@0.2:r=N"));
    QVERIFY(!bad);
    QCOMPARE(bad.error, RewriteError::BadParameters);
    QVERIFY2(bad.message.find("must be a constant integer here, got 'N'") != std::string::npos,
             bad.message.c_str());
    RewriteResult one =
        applyRewrite(q, RewriteStep::parse("partred-iterate@0.2:r=1"));  // looped forever once
    QVERIFY(!one);
    QVERIFY2(one.message.find("at least 2 elements") != std::string::npos, one.message.c_str());
  }

  // ----- strategies --------------------------------------------------------------------------
  void strategiesCompose() {
    TypedProgram p = program("fun f(x: [float]8*N) = map(neg) o map(sq) o map(neg) o map(sq) $ x");
    StrategyResult r = runStrategy(parseStrategy("normalise(map-fusion)"), p);
    QVERIFY2(r, r.reason.c_str());
    QCOMPARE(r.state->steps(), 3);
    QVERIFY(checkEquivalence(p.program, r.state->program()));
    // Every recorded step replays.
    TypedProgram cur = p;
    for (auto& s : r.state->trace()) {
      auto rr = applyRewrite(cur, s);
      QVERIFY2(rr, rr.message.c_str());
      cur = *rr.program;
    }
    QVERIFY(ir::alphaEqual(ir::Fun(cur.main()), ir::Fun(r.state->program().main)));

    // Left choice, try, sequence, fail.
    QVERIFY(!runStrategy(parseStrategy("fail"), p));
    QVERIFY(runStrategy(parseStrategy("try(reduce-partial)"), p));
    QVERIFY(runStrategy(parseStrategy("reduce-partial <+ map-fusion"), p));
    QVERIFY(!runStrategy(parseStrategy("map-fusion ; reduce-partial"), p));
    StrategyResult seq = runStrategy(parseStrategy("seq(map-fusion, map-fusion)"), p);
    QVERIFY(seq);
    QCOMPARE(seq.state->steps(), 2);
    // Traversals.
    StrategyResult td = runStrategy(parseStrategy("topDown(map-to-seq)"), p);
    QVERIFY(td);
    QCOMPARE(td.state->trace()[0].loc.toString(), std::string("0"));
    StrategyResult bu = runStrategy(parseStrategy("bottomUp(map-to-seq)"), p);
    QVERIFY(bu);
    QVERIFY(bu.state->trace()[0].loc.depth() > 1);
    StrategyResult all = runStrategy(parseStrategy("normalise(map-to-seq)"), p);
    QVERIFY(all);
    QCOMPARE(all.state->steps(), 4);
    QVERIFY(runStrategy(parseStrategy("one(map-to-seq)"), p));
    QVERIFY(runStrategy(parseStrategy("argument(0, map-to-seq)"), p));
    QVERIFY(runStrategy(parseStrategy("split-join(n=2)"), p));
    QVERIFY(!runStrategy(parseStrategy("split-join(n=3)"), p));
  }

  void repeatHasALimit() {
    TypedProgram p = program("fun f(x: [float]8*N) = map(neg) $ x");
    StrategyLimits lim;
    lim.maxSteps = 5;
    TypedProgram q = program("fun f(x: [float]8*N) = reduce(add, 0.0f) $ x");
    StrategyResult r = runStrategy(parseStrategy("repeat(reduce-reorder)"), q, Location::body(), lim);
    QVERIFY(r);
    QVERIFY(r.state->steps() <= 5);
    QVERIFY(!r.state->stopReason().empty());
  }

  void strategySyntaxErrors() {
    QVERIFY_EXCEPTION_THROWN(parseStrategy("repeat(map-fuson)"), LiftError);
    QVERIFY_EXCEPTION_THROWN(parseStrategy("repeat(map-fusion"), LiftError);
    QVERIFY_EXCEPTION_THROWN(parseStrategy("split-join(q=2)"), LiftError);
    try {
      parseStrategy("topDown(map-fuson)");
      QFAIL("expected an error");
    } catch (const LiftError& e) {
      QVERIFY(std::string(e.what()).find("did you mean map-fusion") != std::string::npos);
    }
    QCOMPARE(QString::fromStdString(parseStrategy("repeat(topDown(map-fusion))").text()),
             QString("repeat(topDown(map-fusion))"));
  }

  void strategyIndicesAreBounded() {
    // Indices past the bound are refused by the parser, pointing at the number (they used to
    // overflow `i + 1` and crash, or leak "stoi").
    for (const char* text : {"argument(2147483647, id)", "argument(999999, id)", "argument(99999999999, id)",
                             "child(2147483648, id)", "at(0.99999999999, id)"}) {
      try {
        parseStrategy(text);
        QFAIL(text);
      } catch (const LiftError& e) {
        std::string msg = e.what();
        QVERIFY2(msg.find("too large") != std::string::npos || msg.find("bad location") != std::string::npos,
                 msg.c_str());
        QVERIFY2(msg.find("stoi") == std::string::npos, msg.c_str());
        QVERIFY2(e.diagnostic().loc.col > 1, msg.c_str());
      }
    }
    // The largest indices parse and fail cleanly where there is no such child.
    TypedProgram p = program("fun f(x: [float]8*N) = map(neg) $ x");
    QVERIFY(!runStrategy(parseStrategy("argument(999998, id)"), p));
    QVERIFY(!runStrategy(parseStrategy("child(999999, id)"), p));
    QVERIFY(!runStrategy(parseStrategy("at(999999.999999, id)"), p));
  }

  void operatorAlgebra() {
    // partial reductions need associativity and an identity
    TypedProgram p = program("fun f(x: [float]8*N) = reduce(fun((a, b) => add(b, a)), 0.0f) $ x");
    QVERIFY(applyRewrite(p, RewriteStep::parse("reduce-partial@0:m=2")));
    TypedProgram q = program("fun f(x: [float]8*N) = reduce(fun((a, b) => add(a, sq(b))), 0.0f) $ x");
    QVERIFY(!applyRewrite(q, RewriteStep::parse("reduce-partial@0:m=2")));
    TypedProgram m =
        program("fun f(A: [[float]8]4*N) = reduce(fun((a, b) => map(add) $ zip(a, b)), zeros([float]8)) $ A");
    RewriteResult r = applyRewrite(m, RewriteStep::parse("reduce-partial@0:m=2"));
    QVERIFY2(r, r.message.c_str());
    QVERIFY(checkEquivalence(m.program, r.program->program));
  }
};

QTEST_APPLESS_MAIN(TestRules)
#include "tst_rules.moc"
