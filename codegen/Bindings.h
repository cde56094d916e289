// What the lambda parameters in scope stand for while the code generator walks the program,
// and the types of expressions under those bindings. A parameter is bound to a view of its
// argument, or, when the argument computes something and the parameter is used once where the
// lambda's body is evaluated, to the argument itself, computed at that use. The only unit of
// code generation that asks codegen/Typing for types.
#pragma once

#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "codegen/View.h"
#include "core/ir/IR.h"

namespace lift::codegen {

// An argument of a function application: an expression not evaluated yet, or a view.
struct Arg {
  ir::Expr expr;
  View view;
};
Arg viewArg(View v);
std::vector<Arg> exprArgs(const std::vector<ir::Expr>& es);

class Bindings {
 public:
  struct Binding {
    View view;
    ir::Expr lazy;  // evaluated at its single use
  };
  // What bind() replaced, for unbind().
  using Saved = std::vector<std::pair<const ir::ParamNode*, std::optional<Binding>>>;
  // Gives the view of an argument, evaluating it if need be.
  using ReadArg = std::function<View(Arg&)>;

  explicit Bindings(const ir::Program& program) : prog_(program) {}

  // Binds the parameters of l to args (tuple arguments spread over several parameters).
  Saved bind(const ir::LambdaNode& l, std::vector<Arg>& args, ir::NodeId site, const ReadArg& readArg);
  void unbind(const Saved& saved);
  void set(const ir::ParamNode* p, Binding b) { env_[p] = std::move(b); }
  // The binding of p (an unbound parameter is an internal error).
  Binding& at(const ir::ParamNode* p);
  const Binding* find(const ir::ParamNode* p) const;

  // Types under the current bindings.
  Type typeOfExpr(const ir::Expr& e);
  Type typeOfArg(const Arg& a);
  Type typeOfApplication(const ir::Fun& f, const std::vector<Arg>& args);
  Type typeOfApply(const ir::Fun& f, const std::vector<Type>& args);
  // The type of e with parameter p of type pType (a destination pushed through e).
  Type typeWith(const ir::Expr& e, const ir::ParamNode* p, Type pType);

 private:
  Type paramType(const ir::ParamNode* p);

  const ir::Program& prog_;
  std::unordered_map<const ir::ParamNode*, Binding> env_;
};

}  // namespace lift::codegen
