// The typed syntax tree of a user-function body (the small C subset of core/cfun/CFun.h).
//
// The parser resolves every name, computes every type and makes every implicit conversion an
// explicit `Convert` node, so the evaluator (CFunEval) and the OpenCL printer (CFunPrinter)
// never reason about C's conversion rules again. Values live in a flat frame of scalar slots:
// a float takes one slot, a float4 four, a tuple the sum of its components. Every variable
// and every expression node owns a fixed range of slots, assigned once by the parser, so
// evaluating a body allocates nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/cfun/CFun.h"
#include "core/types/Type.h"

namespace lift::cfun {

// One scalar slot. Which member is live follows from the static type of the slot.
union Scalar {
  float f;
  double d;
  int32_t i;
  bool b;
};

// A position in the .lift file (1-based; 0 = unknown).
struct Loc {
  int line = 0;
  int col = 0;
};

struct BuiltinFunction;  // core/cfun/CFunBuiltins.h

enum class UnaryOp : uint8_t { Neg, Plus, Not, BitNot };
// clang-format off
enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div, Mod, Shl, Shr, BitAnd, BitOr, BitXor,
  Lt, Le, Gt, Ge, Eq, Ne, LogAnd, LogOr,
};
// clang-format on

struct Expr;
using ExprPtr = std::unique_ptr<const Expr>;

// An expression node. Which fields are meaningful depends on `kind` (listed per kind below).
struct Expr {
  enum class Kind : uint8_t {
    Literal,     // text (as written), value: the scalar (type is scalar)
    Var,         // var: index into Body::vars
    Unary,       // unaryOp, operands[0]
    Binary,      // binaryOp, operands[0..1] (already converted to a common type)
    Cond,        // operands: condition, then, else
    Call,        // builtin, operands: the arguments (converted to the parameter types)
    Component,   // operands[0] (a vector), lanes: selected lanes; text: ".xy" as written
    Field,       // operands[0] (a tuple), lanes[0]: the field index (`t._1`)
    VectorCons,  // operands: components (scalars or vectors, summing to the width); (float4)(a, b)
    TupleCons,   // operands: the fields; (Tuple2_float_int){a, b}
    Convert,     // operands[0] converted to `type`; `implicit` when C inserts it silently
  };
  Kind kind;
  Type type;
  Loc loc;
  uint32_t slot = 0;  // first frame slot of this node's value
  // Facts about `type` the evaluator needs on every step, computed once (see setType):
  uint32_t numSlots = 0;                // slotCount(type) (not "slots": a Qt keyword)
  uint8_t width = 0;                    // scalars 1, vectors their width, tuples 0
  ScalarKind scalar = ScalarKind::Int;  // scalars and vectors: the kind of their scalars
  uint32_t offset = 0;                  // Field: the field's first slot within the tuple
  std::string text;
  Scalar value{};
  int var = -1;
  UnaryOp unaryOp = UnaryOp::Neg;
  BinaryOp binaryOp = BinaryOp::Add;
  const BuiltinFunction* builtin = nullptr;
  std::vector<int> lanes;
  bool implicit = false;
  std::vector<ExprPtr> operands;
};

enum class AssignOp : uint8_t { Set, Add, Sub, Mul, Div, Mod, Shl, Shr, And, Or, Xor, Inc, Dec };

struct Stmt;
using StmtPtr = std::unique_ptr<const Stmt>;

struct Stmt {
  enum class Kind : uint8_t {
    Block,   // body
    Decl,    // var, exprs[0]: initialiser converted to the variable's type (absent: zero)
    Assign,  // assignOp; exprs[0]: target (as written); exprs[1]: the right-hand side of a
             // compound assignment (`+=`, ...) as written, null for `=`, `++` and `--`;
             // exprs[2]: the value stored, converted to the target type (for `=` it is the
             // right-hand side); targetSlots: the frame slots written, in order
    Expr,    // exprs[0], evaluated for nothing (a call statement)
    If,      // exprs[0]: condition; body[0]: then; body[1]: else (optional)
    For,     // body[0]: init (optional), exprs[0]: condition (optional), body[1]: step
             // (optional), body[2]: loop body
    While,   // exprs[0]: condition, body[0]: loop body
    Return,  // exprs[0]: the value converted to the return type
    Break,
    Continue,
  };
  Kind kind;
  Loc loc;
  int var = -1;
  AssignOp assignOp = AssignOp::Set;
  std::vector<ExprPtr> exprs;
  std::vector<StmtPtr> body;  // Block: statements; If/For/While: see above (null = absent)
  std::vector<uint32_t> targetSlots;
  bool postfix = true;     // ++/--: `i++` rather than `++i` (printing only)
  bool declGroup = false;  // Block: the declarators of one declaration (`int i = 0, j = 1`),
                           // in the enclosing scope
};

struct Variable {
  std::string name;
  Type type;
  uint32_t slot = 0;
  uint32_t numSlots = 0;  // slotCount(type) (not "slots": a Qt keyword)
  bool isParam = false;
  bool isConst = false;
  Loc loc;
};

// A parsed, checked body. Immutable once built; shared by every user of the user function.
struct Body {
  std::vector<Variable> vars;  // parameters first, in order, then every local declaration
  size_t paramCount = 0;
  Type returnType;
  StmtPtr block;             // the outermost block
  uint32_t frameSize = 0;    // slots needed by one evaluation
  uint32_t paramSlots = 0;   // slots taken by the parameters (they come first)
  uint32_t resultSlots = 0;  // slotCount(returnType)
  std::string file;
  std::string text;  // the source text, as given to parseBody
  Loc start;         // where `text` starts in the file
};

// ----- type helpers shared by parser, evaluator and printer ----------------------------------

// Number of scalar slots a value of type t takes (scalar 1, vector width, tuple the sum).
// Precondition: t is a scalar, vector or tuple (possibly nested).
uint32_t slotCount(Type t);
// Slot offset of field `k` inside a tuple value.
uint32_t fieldOffset(Type tuple, size_t k);
// Sets e.type and the facts derived from it (numSlots, width, scalar).
void setType(Expr& e, Type t);
// The C struct name Lift uses for a tuple type: Tuple2_float_int; nested tuples nest the name.
std::string tupleStructName(Type tuple);
// OpenCL C spelling of a scalar, vector or tuple type.
std::string cTypeName(Type t);

// A diagnostic at `loc` (a position in the .lift file inside the body), with the body's source
// line and a caret under the column.
Diagnostic bodyDiagnostic(const std::string& file, const std::string& text, Loc start, Loc loc,
                          std::string message);

}  // namespace lift::cfun
