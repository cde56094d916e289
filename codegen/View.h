// Views (CGO 2017, section 5.3, Figure 5 left): how a value of the program is found in memory.
// Data-layout patterns generate no code; each one wraps the view of its argument, and the
// chain is consumed (ViewConsumer) into a flat index when a user function reads or writes an
// element. The same views describe destinations: writing through join(dest) splits the index.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/CAst.h"
#include "codegen/Memory.h"
#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"
#include "core/types/Type.h"

namespace lift::codegen {

class ViewNode;
using View = std::shared_ptr<const ViewNode>;

class ViewNode {
 public:
  enum class Kind : uint8_t {
    Mem,        // a memory, typed as the array nest it stores (mem)
    Value,      // a C expression holding a scalar, vector or tuple value (value)
    Literal,    // a constant; every element of an array literal is `text`
    Access,     // element a of parent
    Split,      // parent [T]m viewed as [[T]a]m/a
    Join,       // parent [[T]a]m viewed as [T]a*m
    Transpose,  // parent [[T]m]n viewed as [[T]n]m
    Reindex,    // element i of parent taken from position fn(i) (or its inverse)
    Slide,      // windows of size a, step b
    Pad,        // a elements before, b after (mode, text for the constant)
    AsVector,   // parent [S]n viewed as [S a]n/a
    AsScalar,   // parent [S a]n viewed as [S]n*a
    Lanes,      // a vector value viewed as the array of its lanes
    Zip,        // parents viewed as an array of tuples
    Tuple,      // parents viewed as a tuple
    Get,        // component `index` of a tuple
    Retype,     // the same data under another type (unzip and its inverse)
    Map,        // a map whose function only rearranges data: element k is parent with a := k
    Tag,        // marks accesses made through it (reads of a reduction's old accumulator)
    // issue 16: an array computed from its indices (the array generators), never stored:
    // element (i, j, ...) of its `index` dimensions is the call text(i, j, ..., lengths...)
    // or, where text is empty, the index expression a with its variable b := i.
    Generated,
  };

  Kind kind = Kind::Mem;
  Type type;
  std::vector<View> parents;
  arith::Expr a, b;
  ir::IndexFun fn;
  bool inverse = false;
  int index = 0;
  const Memory* mem = nullptr;
  c::ExprP value;
  std::string text;
  ir::PadMode padMode = ir::PadMode::Clamp;

  const View& parent() const { return parents.at(0); }
};

namespace view {

View mem(const Memory* m, Type t);
View value(c::ExprP e, Type t);
View literal(std::string text, Type t);
View access(const View& v, arith::Expr i);
View split(const View& v, arith::Expr n);
View join(const View& v);
View transpose(const View& v);
// gather(f): element i read from fn(i); with `inverse`, from fn^-1(i) (scatter seen as a read).
View reindex(const View& v, const ir::IndexFun& f, bool inverse);
View slide(const View& v, arith::Expr size, arith::Expr step);
View pad(const View& v, arith::Expr left, arith::Expr right, ir::PadMode mode, std::string value);
View asVector(const View& v, int width);
View asScalar(const View& v);
View lanes(const View& v);
View zip(std::vector<View> vs);
View tuple(std::vector<View> vs);
View get(const View& v, int k);
View retype(const View& v, Type t);
View map(const View& inner, arith::Expr var, Type t);
View tag(const View& v, int tag);
// issue 16: the generated arrays of type t: by the user function `fn` of `dims` dimensions, or
// the index expression e of the variable i.
View generated(std::string fn, int dims, Type t);
View generatedIndex(arith::Expr e, arith::Expr i, Type t);

// The index function f(i) of an array of length n, and the inverse permutation.
arith::Expr applyIndexFun(const ir::IndexFun& f, arith::Expr i, arith::Expr n);
ir::IndexFun inverseIndexFun(const ir::IndexFun& f, arith::Expr n);

// The memories a view reads from (for decisions such as unrolling over private arrays).
void memoriesOf(const View& v, std::vector<const Memory*>& out);
// A human-readable rendering for debugging: "split(2, access(l_id, mem(x)))".
std::string describe(const View& v);

}  // namespace view
}  // namespace lift::codegen
