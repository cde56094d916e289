// The text of an exported .cl file: the kernel under a comment that says how to launch it — its
// NDRange (global and local size, as expressions of the size variables and at the sizes given)
// and those sizes — so that the file can be run without the app. A program of several kernels
// gives each under its own such comment, in the order they run in one queue.
#pragma once

#include <QString>

#include "codegen/CompiledProgram.h"
#include "core/arith/ArithExpr.h"

namespace lift::views {

// `sizes`: every size variable (codegen::runSizes), or empty when they are not known.
QString kernelFileText(const codegen::CompiledProgram& program, const arith::Env& sizes);

}  // namespace lift::views
