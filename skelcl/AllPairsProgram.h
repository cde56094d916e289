// AllPairsProgram: the .lift programs of an AllPairs skeleton with a general row function f,
// given in the .lift language as user-function definitions and a lambda of two parameters
// ("fun((a, b) => ...)", a a row of A: [A]D, b a column of B: [B]D) whose result is one element of
// C, a scalar R or a one-element array [R]1 (what reduce gives). For A: [[A]D]N and B: [[B]M]D the
// high-level program, the one a result store keys its kernels by, is the language's
//   allPairs(f)(A, transpose(B))      = map(fun(a => map(fun(b => F)) $ transpose(B))) $ A
// (F: f's body; core/ir/Prelude.h) and the kernel's program, one work-item per element of C, the
// same nest around the parsed parameters and body
//   mapGlb1(fun(a => join o mapGlb0(fun(b => toGlobal(mapSeq(id)) $ F)) $ transpose(B))) $ A
// (a scalar R: mapGlb0(fun(b => toGlobal(id) $ F)), no join) with F lowered by rewriting:
// reductions of maps fused (reduce-map-fusion, map-fusion), then every map, reduce and scan
// sequential (map-to-seq, reduce-to-seq, scan-to-seq). SkelCL's zip-reduce form is the row function
// fun((a, b) => reduce(reduced, z) o map(zipped) $ zip(a, b)) (zipReduceRowFunction), which lowers
// to the kernel the zip-reduce skeleton always had. Errors in the definitions or the row function
// (parse, type check, compilation) are LiftErrors located in the text the caller gave.
#pragma once

#include <string>

#include "codegen/CompiledKernel.h"
#include "core/ir/IR.h"
#include "skelcl/UserFunction.h"

namespace lift::skelcl {

// The OpenCL names of C's, A's and B's elements ("float", "int", "double").
struct AllPairsTypes {
  std::string result, left, right;
};

// User-function definitions and a row function, as the general AllPairs takes them.
struct AllPairsFunction {
  std::string definitions;  // "userfun mult(float x, float y) -> float { return x * y; } ..."
  std::string rowFunction;  // "fun((a, b) => reduce(add, 0.0f) o map(mult) $ zip(a, b))"
};

struct AllPairsProgram {
  std::string searchText;  // the high-level program (StoredKernels' key, what `liftc explore` takes)
  ir::Program search;      // searchText parsed
  std::string kernelText;  // the kernel's program before F is lowered (printed)
  ir::Program kernel;      // lowered
  codegen::CompiledKernel compiled;  // the kernel's program compiled
  bool scalarResult = false;         // f gives R (else [R]1)
};

// Builds and checks both programs. `what` names the skeleton in messages and is the programs'
// file name. Throws LiftError (located in `f.definitions` or `f.rowFunction`, their files named
// "<what> definitions" and "<what> row function") when they do not parse or type-check, f does
// not take two parameters (the language's allPairs says so) or gives neither R nor [R]1, or the
// kernel does not compile.
AllPairsProgram makeAllPairsProgram(const std::string& what, const AllPairsFunction& f,
                                    const AllPairsTypes& types);

// SkelCL's zip-reduce form as a row function: the user functions renamed zipped and reduced
// (SkelCL programs tend to call both `func`), `identity` a .lift literal.
AllPairsFunction zipReduceRowFunction(UserFunction zip, UserFunction reduce, const std::string& identity);

}  // namespace lift::skelcl
