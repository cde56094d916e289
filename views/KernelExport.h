// The text of an exported .cl file: the kernel under a comment that says how to launch it — its
// NDRange (global and local size, as expressions of the size variables and at the sizes given)
// and those sizes — so that the file can be run without the app.
#pragma once

#include <QString>

#include "codegen/CompiledKernel.h"
#include "core/arith/ArithExpr.h"

namespace lift::views {

// `sizes`: every size variable (codegen::runSizes), or empty when they are not known.
QString kernelFileText(const codegen::CompiledKernel& kernel, const arith::Env& sizes);

}  // namespace lift::views
