// The array generators (KernelGenerator.h; issue 16, Lift's ArrayFromValue, ArrayFromGenerator
// and ArrayFrom(2D|3D)UserFunGenerator, SkelCL's IndexVector/IndexMatrix): views whose element
// is computed where it is read — the value itself, the index expression with the index put in,
// or the user function called with the indices and the lengths. Nothing is stored.
#include <fmt/format.h>

#include "codegen/KernelGenerator.h"

namespace lift::codegen {

using K = ir::PatternKind;

View KernelGenerator::generatedArray(const ir::PatternNode& p, std::vector<Arg>& args, ir::NodeId site) {
  const auto& ps = p.params();
  switch (p.pattern()) {
    case K::ArrayFromValue: {
      View v = readArg(args.at(0));
      arith::Expr n = ps.sizes.at(0);
      arith::Expr k = arith::var(fmt::format("map#{}", ++mapVars_), arith::cst(0), n);
      return view::map(v, k, Type::array(v->type, n));
    }
    case K::ArrayFromGenerator:
      return view::generatedIndex(ps.sizes.at(2), ps.sizes.at(1),
                                  Type::array(Type::scalar(ScalarKind::Int), ps.sizes.at(0)));
    default: {
      auto* u = ir::asUserFun(p.f());
      if (!u)
        fail(site, fmt::format("{}: the function must be a user function", ir::patternName(p.pattern())));
      Type t = u->def().returnType;
      if (t.isTuple()) useTuple(t);
      for (size_t d = ps.sizes.size(); d-- > 0;) t = Type::array(t, ps.sizes[d]);
      return view::generated(userFunName(u->def()), ir::generatorDims(p.pattern()), t);
    }
  }
}

}  // namespace lift::codegen
