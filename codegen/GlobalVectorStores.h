// Vector writes of global memory (CompileOptions::vectorGlobalStores, issue 14): within one block
// of statements, the four writes `out[b] = x; ... out[b+3] = w;` of a scalar global array, with b
// a multiple of 4 for every value of its variables, become one write
// `((global float4*)out)[b/4] = (float4)(x, y, z, w);` where the last of them was. A matmul
// work-item's register block holds a column of four rows in each float4 accumulator, so its
// results leave as scalar writes four floats apart; grouped, each row of four columns is one
// 128-bit store. Only unguarded writes whose values read nothing the statements between them
// write, in blocks whose statements between the writes only declare variables or write the
// same array.
#pragma once

#include "codegen/CAst.h"

namespace lift::codegen {

// Rewrites the kernel body; returns how many vector writes it introduced.
int vectorizeGlobalStores(c::Block& body);

}  // namespace lift::codegen
