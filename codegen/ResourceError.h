// ResourceError: the kernel needs more memory than a work-group or a work-item can have (local
// memory, a private array) at these sizes and parameters. Unlike a LoweringError, other values may
// fit, so the explorer counts it as a resource constraint, not as a failed compilation.
#pragma once

#include "core/support/Diagnostic.h"

namespace lift::codegen {

class ResourceError : public LiftError {
 public:
  using LiftError::LiftError;
};

}  // namespace lift::codegen
