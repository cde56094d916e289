// Memory: one buffer, array or variable the generated kernel stores values in — a kernel input
// or output, a temporary in global, local or private memory, or a pointer that iterate swaps
// between two buffers. Memories hold scalars or vectors only: tuples are stored component-wise
// (one memory per component), so a kernel's buffers are always plain OpenCL arrays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/AddressSpace.h"
#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"
#include "core/types/Type.h"

namespace lift::codegen {

struct Memory {
  enum class Role : uint8_t {
    Input,      // a program input (kernel parameter, read only)
    Output,     // the program's result (kernel parameter)
    Temporary,  // produced and consumed inside the kernel
    Pointer,    // iterate's swapped pointer: names one of two buffers
  };

  int id = 0;
  std::string name;
  AddressSpace space = AddressSpace::Global;
  Role role = Role::Temporary;
  Type elemType;          // scalar or vector
  arith::Expr count;      // elements (for a pointer: of the largest buffer it may name)
  ir::NodeId node = 0;    // the node that made it (for provenance)
  int component = -1;     // outputs: which component of a tuple result (-1: the whole result)
  std::vector<int> path;  // inputs, outputs: the tuple components (outermost first) it stores
  int input = -1;         // inputs: index of the program input

  // Local memory whose size is not a constant: a `local T*` kernel argument sized at launch.
  bool dynamicLocal = false;
  // Private array whose every access has a constant index: emitted as one variable per element.
  bool scalarized = false;
  // A pointer to it exists (iterate's buffers): it must stay an array.
  bool addressTaken = false;
  // Bytes the declaration aligns the array to (vector reads of a scalar array); 0: its type's.
  int alignment = 0;
  // Per-work-item private memory: a value a work-group's mapLcl spread over its work-items,
  // stored in private memory. For each array dimension of the value (outermost first), the
  // dimension of the mapLcl whose l_id selects it, or -1. Those dimensions are not stored: each
  // work-item holds only its own slice (`count` counts the slice), and every access must index
  // them with the accessing work-item's own l_id (ViewConsumer checks it). Empty: an ordinary
  // memory.
  std::vector<int> lclDims;
  // issue 17 (lift17w): mapAtomWrg's counter of work-group indices (global, one int), which the
  // runtime zeroes before each launch (KernelParam::Kind::Counter).
  bool taskCounter = false;
  // Local memory laid out with this many unused elements after each row of its innermost
  // dimension (LocalPadding.h); `count` includes them.
  int rowPadding = 0;

  bool isParameter() const {
    return role == Role::Input || role == Role::Output ||
           (role == Role::Temporary && (space == AddressSpace::Global || dynamicLocal));
  }
  // A single private value: declared as a variable, not as an array — unless a pointer to it
  // exists (iterate reads it or swaps it through `src`/`dst`): then an array of one element, so
  // that the pointer code is the same for every length.
  bool isPrivateScalar() const {
    return space == AddressSpace::Private && count.isCst() && count.value() == 1 && !addressTaken;
  }
};

}  // namespace lift::codegen
