// The generated kernel before it is printed: OpenCL C statements and expressions in which every
// memory access stays structured (memory, raw and simplified index, IR node). Passes after
// generation still change how accesses print (private arrays become scalars), the printer
// chooses raw or simplified indices, and the index report lists the accesses in print order.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "codegen/Memory.h"
#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"

namespace lift::codegen::c {

// One read or write of a memory.
struct Access {
  enum class Form : uint8_t {
    Element,     // mem[i]                           (i: element index)
    Lane,        // mem[i].sK                        (a constant lane of a vector element)
    ScalarCast,  // ((q S*)mem)[i]                   (i: scalar offset into a vector memory)
    VLoad,       // vloadW(i, mem) / vstoreW(v, i, mem)            (i: index in vectors)
    VLoadAt,     // vloadW(0, (q S*)mem + i) / vstoreW(v, 0, ...)  (i: scalar offset)
    Swizzle,     // mem[i].sKL..  (`width` lanes from `lane` of a vector element)
    VectorCast,  // ((q SW*)mem)[i]                  (i: index in vectors of a scalar memory)
  };
  const Memory* mem = nullptr;
  Form form = Form::Element;
  arith::Expr raw;         // as built by view consumption
  arith::Expr simplified;  // the same index simplified with the ranges of the variables
  int width = 1;           // VLoad, VLoadAt, VectorCast: vector width
  int lane = 0;            // Lane
  bool write = false;
  ir::NodeId node = 0;    // the node whose code performs the access
  std::vector<int> tags;  // view tags met on the way (reads of a reduction's old accumulator)
};

// The value is read only when lo <= index < hi (pad with a constant): otherwise the pad value.
struct Guard {
  arith::Expr index, lo, hi;
};

struct Expr;
using ExprP = std::shared_ptr<const Expr>;

struct Expr {
  enum class Kind : uint8_t {
    Text,        // text, printed as is (a literal, a variable, a parameter)
    Access,      // access
    Call,        // text(ops...); text "+" and two ops: (ops[0] + ops[1])
    Member,      // ops[0] followed by text (".s2", "._1")
    VectorCons,  // (text)(ops...)     text: the vector type
    TupleCons,   // (text){ops...}     text: the struct type
    Guarded,     // guards ? ops[0] : ops[1]
  };
  Kind kind = Kind::Text;
  std::string text;
  std::vector<ExprP> ops;
  std::shared_ptr<const c::Access> access;
  std::vector<Guard> guards;
};

ExprP text(std::string t);
ExprP access(c::Access a);
ExprP call(std::string fn, std::vector<ExprP> args);
ExprP member(ExprP e, std::string field);
ExprP vectorCons(std::string type, std::vector<ExprP> lanes);
ExprP tupleCons(std::string type, std::vector<ExprP> fields);
ExprP guarded(std::vector<Guard> guards, ExprP inside, ExprP outside);

struct Stmt;
using StmtP = std::unique_ptr<Stmt>;
using Block = std::vector<StmtP>;

struct Stmt {
  enum class Kind : uint8_t {
    Scope,    // { body }
    Decl,     // text name = rhs;  (rhs optional)
    Assign,   // lhs = rhs;        (lhs: an Access expression or a Text variable)
    Store,    // vstoreW(rhs, ...) (lhs: an Access of form VLoad or VLoadAt, write)
    For,      // for (int text = init; cond; step) body
    If,       // if (cond) body
    Barrier,  // barrier(text);
    Comment,  // // text
    Line,     // text, printed as is (pointer swaps, size updates)
  };
  Kind kind = Kind::Line;
  ir::NodeId node = 0;
  // For, If, Scope of a parallel map: that map; Barrier after a mapLcl: that mapLcl, whose
  // writes it orders (BarrierElimination may remove it). Null otherwise.
  const ir::PatternNode* pattern = nullptr;
  std::string text;
  std::string name;
  std::string init, cond, step;
  int64_t trips = 0;  // For of a sequential loop: its trip count when constant (0: not known)
  // For of a parallel map whose work-items all run the same constant number of iterations: that
  // number and the stride (the work-items sharing the map); 0: not known.
  int64_t parallelTrips = 0, parallelStride = 0;
  int unroll = 0;  // For: printed after `#pragma unroll N` (0: no pragma)
  ExprP lhs, rhs;
  Block body;
};

// Copies that rewrite as they copy: every access through `access`, every guard's bounds through
// `index` (the passes that move code: DoubleBuffering.h, StreamK.h).
using AccessMap = std::function<Access(const Access&)>;
using IndexMap = std::function<arith::Expr(arith::Expr)>;
ExprP rewrite(const ExprP& e, const AccessMap& access, const IndexMap& index);
StmtP clone(const Stmt& s, const AccessMap& access, const IndexMap& index);
// A copy as it is.
StmtP clone(const Stmt& s);

// `a + b` (printed in parentheses): a Call whose text is "+".
ExprP sum(ExprP a, ExprP b);

// Visits every expression of the statements (pre-order, in print order).
void forEachExpr(const Block& b, const std::function<void(const Expr&)>& f);
void forEachExpr(const Expr& e, const std::function<void(const Expr&)>& f);
// Visits every access of the statements (pre-order).
void forEachAccess(const Block& b, const std::function<void(const Access&)>& f);
// Whether a text of the statements (loop headers, conditions, text expressions, lines) names
// `var` as a word: uses that an access map cannot rewrite.
bool namesInText(const Block& b, const std::string& var);
// Whether the statements contain a statement of one of `kinds`, at any depth.
bool contains(const Block& b, std::initializer_list<Stmt::Kind> kinds);
// Whether the expression reads a memory (has an access in it).
bool readsMemory(const ExprP& e);

}  // namespace lift::codegen::c
