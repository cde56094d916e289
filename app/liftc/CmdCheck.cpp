// liftc check FILE.lift: parses and type-checks a program and prints its type,
// "([[float]K]M, [[float]N]K) -> [[float]N]M". With --types, also the type of every parameter
// and of the result of every call, one per line: "LINE:COL: WHAT: TYPE".
#include <cstdio>

#include <fmt/format.h>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"

namespace lift::liftc {
namespace {

struct CheckArgs {
  std::string file;
  bool types = false;
};

int runCheck(const CheckArgs& args) {
  ir::Program p = lang::parseFile(args.file);
  ir::TypeInfo info = ir::typeCheck(p);
  std::printf("%s\n", info.signature().c_str());
  if (args.types) {
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
    "check", "type-check a program; print its type", [](CLI::App& cmd) {
      auto args = std::make_shared<CheckArgs>();
      addProgramArgument(cmd, args->file);
      cmd.add_flag("--types", args->types,
                   "also the type of every parameter and call, one a "
                   "line: LINE:COL: WHAT: TYPE");
      return [args] { return runCheck(*args); };
    }});

}  // namespace
}  // namespace lift::liftc
