// See QuickSizes.h.
#include "views/QuickSizes.h"

#include <algorithm>

#include "codegen/Evaluation.h"
#include "core/interp/WorkCount.h"

namespace lift::views {

arith::Env quickSizes(const ir::Program& p) {
  arith::Env declared = codegen::runSizes(p);
  for (int shift = 0; shift < 31; ++shift) {
    arith::Env sizes;
    for (auto& [name, value] : declared) sizes[name] = std::max<int64_t>(1, value >> shift);
    try {
      if (interp::countWork(p, sizes).applications <= kQuickWork) return sizes;
    } catch (const LiftError&) {  // not valid at these sizes (split 128 of 64, ...): halve again
    }
  }
  return codegen::runSizes(p, {}, /*small=*/true);
}

}  // namespace lift::views
