// liftc check FILE.lift: parses and type-checks a program and prints its type,
// "([[float]K]M, [[float]N]K) -> [[float]N]M". With --types, also the type of every parameter
// and of the result of every call, one per line: "LINE:COL: WHAT: TYPE".
#include <cstdio>

#include <fmt/format.h>

#include "app/liftc/Command.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"

namespace lift::liftc {
namespace {

int runCheck(const Args& args) {
  if (args.positional.size() != 1) throw LiftError("usage: liftc check FILE.lift");
  ir::Program p = lang::parseFile(args.positional[0]);
  ir::TypeInfo info = ir::typeCheck(p);
  std::printf("%s\n", info.signature().c_str());
  if (args.has("--types")) {
    ir::visitPreOrder(ir::Fun(p.main), [&](const ir::NodePath& path) {
      ir::Expr e = path.back().node.expr();
      if (!e || e->kind() == ir::ExprNode::Kind::Literal) return true;
      if (path.back().edge == ir::Edge::CallArg && e->kind() == ir::ExprNode::Kind::Param) return true;
      SourceLoc loc = p.locationOf(e->id());
      Type t = info.typeOf(e);
      if (!loc.known() || !t) return true;
      std::string what;
      if (auto* prm = ir::asParam(e)) {
        what = prm->name();
      } else {
        const ir::Fun& f = ir::asCall(e)->fun();
        if (auto* u = ir::asUserFun(f))
          what = u->def().name;
        else if (auto* pat = ir::asPattern(f))
          what = std::string(ir::patternName(pat->pattern()));
        else
          what = "lambda";
      }
      std::printf("%d:%d: %s: %s\n", loc.line, loc.col, what.c_str(), t.toString().c_str());
      return true;
    });
  }
  return kExitOk;
}

const CommandRegistration registration(Command{
    "check", "check FILE.lift [--types]   type-check; print the program's type", {"--types"}, {}, &runCheck});

}  // namespace
}  // namespace lift::liftc
