// Splitting a low-level program into a sequence of kernels where one kernel cannot compute it:
// where, on the chain of compositions of the program's body, a function that is not
// element-wise consumes the result of a mapGlb or mapWrg (through data-layout patterns only),
// synchronisation across work-groups is needed, and OpenCL has none inside a kernel; the end of
// a kernel is one. `reduceSeq(add, 0) o join o mapWrg0(partial sums) o split(n) $ x` becomes
// kernel 1, `join o mapWrg0(partial sums) o split(n) $ x` (the per-work-group results into a
// global temporary), then kernel 2, `reduceSeq(add, 0) $ tmp` (001, section 3: the second
// kernel combines the first one's per-work-group results). Where the chain ends in a zip that a
// parallel map consumes, an array of the zip that a sequential reduction or scan over a whole
// array makes is computed by earlier kernels too: a chunked scan, `join o mapGlb0(scan each
// chunk from its offset) $ zip(scanSeq(add, 0) $ chunk totals, chunks)`, is three kernels (the
// totals; their scan, by one work-item; the chunks' scans). A parallel map that reads whole
// elements which the previous one's nested parallel map spread over other work-items is cut
// too: a split GEMV, `join o mapGlb1(reduceSeq(add, 0) o join) o mapGlb1(join o mapGlb0(chunk's
// sum) o split(c))`, is kernel 1, each row's partial sums by a 2-D grid, then kernel 2, each
// row's sum of them. Each part is a program of its own,
// compiled by the single-kernel generator; a program that needs no split is one part, itself.
#pragma once

#include <vector>

#include "core/ir/IR.h"
#include "core/types/Type.h"

namespace lift::codegen {

// Where a part's input comes from, or where its result goes.
struct StageValue {
  enum class Kind : uint8_t {
    ProgramInput,   // input `index` of the whole program
    Temporary,      // the value made by an earlier part (`index` numbers the temporaries)
    ProgramResult,  // the whole program's result (only the last part's)
  };
  Kind kind = Kind::ProgramInput;
  int index = 0;
};

struct ProgramPart {
  ir::Program program;             // compiled on its own; its inputs are `inputs`, in order
  std::vector<StageValue> inputs;  // one per parameter of program.main
  StageValue result;               // a Temporary for every part but the last
};

struct ProgramSplit {
  std::vector<ProgramPart> parts;  // in the order they run
  std::vector<Type> temporaries;   // the types of the values passed between parts
  // Per temporary: whether a reduction or scan (reduceSeq, scanSeq, a mapWrg whose function
  // reduces: work-groups reducing it, or a parallel map reducing each of its elements that a
  // nested parallel map spread: a split GEMV's partial sums) consumes it or makes it from a
  // whole array, i.e. the split
  // finishes a reduction or scan of per-work-group or per-work-item results on the device
  // (otherwise another parallel map or a function reads it whole).
  std::vector<bool> reducedTemporaries;
};

// The parts of `p`, in order: one part (p itself) when it needs no split; otherwise parts named
// NAME_1, NAME_2, ... Type errors of `p` pass through (LiftError).
ProgramSplit splitIntoKernels(const ir::Program& p);

}  // namespace lift::codegen
