// Vectorisation of user functions whose body is a lane-wise arithmetic expression.
#include "codegen/Vectorization.h"

#include <fmt/format.h>

#include "core/ir/CFunAst.h"
#include "core/ir/CFunBuiltins.h"
#include "core/ir/CFunPrinter.h"

namespace lift::codegen {

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

bool canVectorize(const ir::UserFunDef& f) {
  if (!f.body || !f.returnType.isScalar()) return false;
  ScalarKind k = f.returnType.scalarKind();
  if (k == ScalarKind::Bool) return false;
  for (auto& [n, t] : f.params)
    if (!t.isScalar() || t.scalarKind() != k) return false;
  const auto& stmts = f.body->block->body;
  if (stmts.size() != 1 || stmts[0]->kind != cfun::Stmt::Kind::Return) return false;
  return laneWise(*stmts[0]->exprs.at(0), k);
}

std::string printVectorized(const ir::UserFunDef& f, const std::string& name, int width) {
  std::string type = fmt::format("{}{}", Type::scalar(f.returnType.scalarKind()).openclName(), width);
  std::string s = fmt::format("{} {}(", type, name);
  for (size_t i = 0; i < f.params.size(); ++i)
    s += fmt::format("{}{} {}", i ? ", " : "", type, f.params[i].first);
  return s + ") { " + cfun::printStatements(*f.body, 0) + " }";
}

}  // namespace lift::codegen
