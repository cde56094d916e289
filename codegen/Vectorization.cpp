// The vector versions of user functions whose body is a lane-wise arithmetic expression.
#include "codegen/Vectorization.h"

#include <fmt/format.h>

#include "core/cfun/CFunAst.h"
#include "core/cfun/CFunPrinter.h"

namespace lift::codegen {

std::string printVectorized(const ir::UserFunDef& f, const std::string& name, int width,
                            const cfun::PrintOptions& options) {
  std::string type = fmt::format("{}{}", Type::scalar(f.returnType.scalarKind()).openclName(), width);
  std::string s = fmt::format("{} {}(", type, name);
  for (size_t i = 0; i < f.params.size(); ++i)
    s += fmt::format("{}{} {}", i ? ", " : "", type, f.params[i].first);
  return s + ") { " + cfun::printStatements(*f.body, 0, options) + " }";
}

}  // namespace lift::codegen
