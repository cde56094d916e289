// Whether a user function's body is one lane-wise arithmetic expression (see Vectorizable.h).
#include "core/ir/Vectorizable.h"

#include "core/cfun/CFunAst.h"
#include "core/cfun/CFunBuiltins.h"

namespace lift::ir {

namespace {

bool laneWise(const cfun::Expr& e, ScalarKind k) {
  using EK = cfun::Expr::Kind;
  switch (e.kind) {
    case EK::Literal:
    case EK::Var:
      break;
    case EK::Unary:
      if (e.unaryOp != cfun::UnaryOp::Neg && e.unaryOp != cfun::UnaryOp::Plus) return false;
      break;
    case EK::Binary:
      switch (e.binaryOp) {
        case cfun::BinaryOp::Add:
        case cfun::BinaryOp::Sub:
        case cfun::BinaryOp::Mul:
        case cfun::BinaryOp::Div:
          break;
        default:
          return false;
      }
      break;
    case EK::Call: {
      using S = cfun::BuiltinFunction::Sig;
      S sig = e.builtin->sig;
      if (sig != S::Float1 && sig != S::Float2 && sig != S::Float3 && sig != S::Gen1 && sig != S::Gen2 &&
          sig != S::Gen3)
        return false;
      break;
    }
    case EK::Convert:
      if (!e.implicit) return false;
      // A literal converted to the vector's scalar type is broadcast as it is.
      if (e.operands.at(0)->kind == EK::Literal) return e.type.isScalar() && e.type.scalarKind() == k;
      break;
    default:
      return false;
  }
  if (!e.type.isScalar() || e.type.scalarKind() != k) return false;
  for (auto& o : e.operands)
    if (!laneWise(*o, k)) return false;
  return true;
}

}  // namespace

bool canVectorize(const UserFunDef& f) {
  if (!f.body || !f.returnType.isScalar()) return false;
  ScalarKind k = f.returnType.scalarKind();
  if (k == ScalarKind::Bool) return false;
  for (auto& [n, t] : f.params)
    if (!t.isScalar() || t.scalarKind() != k) return false;
  const auto& stmts = f.body->block->body;
  if (stmts.size() != 1 || stmts[0]->kind != cfun::Stmt::Kind::Return) return false;
  return laneWise(*stmts[0]->exprs.at(0), k);
}

}  // namespace lift::ir
