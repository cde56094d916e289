// View consumption (CGO 2017, Figure 5 right): a view chain is walked from the value being
// accessed down to its memory with an array stack (indices, the outermost on top) and a tuple
// stack (components); each view rewrites the stacks, and the memory turns the indices into one
// flat index (leaving out the dimensions of a per-work-item private memory that l_id selects).
// Vector accesses through asVector/asScalar become vload/vstore where the lanes are
// provably contiguous, lane-wise accesses otherwise.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/CAst.h"
#include "codegen/View.h"

namespace lift::codegen {

// Where a view chain ends for one access.
struct ResolvedAccess {
  enum class Kind : uint8_t {
    Memory,     // mem at element elemIndex, scalar offset `sub` inside the element
    Value,      // a C value (members for the tuple components and lanes already applied)
    Literal,    // the constant `literal`
    Composite,  // a tuple spread over several views: access its components one by one
  };
  Kind kind = Kind::Memory;
  const Memory* mem = nullptr;
  arith::Expr elemIndex;  // raw
  arith::Expr sub;        // raw, in scalars
  bool folded = false;    // the lanes of a vector access were folded into the index (asVector)
  c::ExprP value;
  std::string literal;
  Type literalType;
  // Constant padding met on the way, outermost first: outside [lo, hi) the value is `text`.
  std::vector<std::pair<c::Guard, std::string>> guards;
  std::vector<int> tags;
  int arity = 0;
};

// A per-work-item private memory (Memory::lclDims) accessed at an index that is not the
// accessing work-item's own l_id: the element lives in another work-item's registers.
struct SliceError {
  const Memory* mem = nullptr;
  ir::NodeId node = 0;  // the access (0: unknown)
  std::string message;
};

// The name of the local id of dimension d: l_id, l_id_1, l_id_2.
std::string localIdName(int d);

// Consumes `v` for an access of `width` lanes (1 for scalars); `lane` is added to the index
// where asVector folds the lanes of the access into scalar positions (null: none).
ResolvedAccess consume(const View& v, int width, arith::Expr lane);

// Reads a scalar or vector value of type t (a tuple is read component-wise and assembled).
// `tags` receives the tags met on the way (may be null).
c::ExprP readValue(const View& v, Type t, ir::NodeId node, std::vector<int>* tags = nullptr);

// How one scalar or vector is stored at a destination.
struct WriteTarget {
  enum class Kind : uint8_t {
    Assign,   // lhs = value;
    Store,    // vstoreW(value, ...) with lhs the access
    PerLane,  // lanes[k] = value.sk for every lane
  };
  Kind kind = Kind::Assign;
  c::ExprP lhs;
  std::vector<c::ExprP> lanes;
};
WriteTarget writeTarget(const View& dest, Type t, ir::NodeId node);

// ".s0" ... ".sf": the member selecting lane k of a vector.
std::string laneName(int k);

// The lane variable used to test vector accesses for contiguity.
arith::Expr laneVar(int width);

}  // namespace lift::codegen
