// The sizes an example opens at: its declared sizes (`size N = 1048576;`, chosen for a GPU)
// halved together until the program's work is small enough that a run on the CPU device, checked
// by the interpreter, takes seconds. The declared sizes stay one click away (SizeFields).
#pragma once

#include "core/arith/ArithExpr.h"
#include "core/ir/IR.h"

namespace lift::views {

// Interpreter applications (interp::WorkCount::applications) of a quick run: half the budget up
// to which a run is validated by the interpreter (codegen::kDefaultInterpreterBudget).
constexpr double kQuickWork = 2.5e6;

// The declared sizes (codegen::runSizes) halved together until the work is at most kQuickWork
// and the program is valid at them; the smallest valid sizes when no halving is. Throws
// LiftError when the program has no valid sizes.
arith::Env quickSizes(const ir::Program& p);

}  // namespace lift::views
