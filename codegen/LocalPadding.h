// Padding of local tiles against bank conflicts (CompileOptions::localPadding, issue 14). A local
// array of two or more dimensions (a tile, or one array per work-item replicated over a mapLcl)
// is laid out with `pad` unused elements after each of its rows, so that work-items reading or
// writing down a column of a tile whose row length is a multiple of the number of banks reach
// different banks. The padding is a layout of the memory, not a change of the program: every
// access goes through the memory's view, whose consumption (ViewConsumer) steps from one row to
// the next by the row length plus the padding, and the array is declared that much larger.
#pragma once

#include "codegen/MemoryAllocator.h"
#include "codegen/View.h"

namespace lift::codegen {

// Pads the rows of the local memories of v (a view as MemoryAllocator::allocate returns it) by
// `pad` elements where they can be: constant lengths, at least two dimensions. Returns how many
// memories it padded.
int padLocalRows(const View& v, MemoryAllocator& memories, int pad);
// Lays the memories of v out without padding again (iterate's buffers, whose pointers are
// swapped between values of different lengths).
void unpadLocalRows(const View& v, MemoryAllocator& memories);

}  // namespace lift::codegen
