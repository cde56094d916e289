// Unrolling (CASES 2016, section 5.2): mapSeqUnroll and reduceSeqUnroll are always unrolled;
// with unrolling on, a mapSeq of a small constant length that reads or writes a private array,
// and a reduceSeq of one whose input is a private array, are unrolled too, so that every access
// to the array has a constant index (a reduceSeq's accumulator is the same in every iteration:
// a private accumulator alone keeps the loop, which a K-tile loop over a register block needs —
// unrolled, its loads are hoisted and the registers spent cost occupancy). Private
// arrays whose accesses all have constant indices then become one variable per element (GPUs
// keep variables in registers, private arrays in slow memory).
#pragma once

#include <vector>

#include "codegen/CAst.h"
#include "codegen/MemoryAllocator.h"
#include "core/ir/Pattern.h"

namespace lift::codegen {

// Longest loop unrolled by default, and longest unrolled at all.
constexpr int64_t kMaxUnrollDefault = 16;
constexpr int64_t kMaxUnroll = 1024;

// Whether a sequential loop of `kind` and length n is unrolled. `touchesPrivateArray`: the
// loop's input or output is (part of) a private array.
bool shouldUnroll(ir::PatternKind kind, arith::Expr n, bool touchesPrivateArray, bool enabled);

// Marks private arrays of constant size whose every access has a constant element index as
// scalarized (Memory::scalarized); the printer then names element k `name_k`.
void scalarizePrivateArrays(const c::Block& body, MemoryAllocator& memories);

}  // namespace lift::codegen
