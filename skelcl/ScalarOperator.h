// ScalarOperator: the host's side of an associative user function with its identity, shared by
// Reduce and Scan — the identity, given as C text ("0", "1.5f"), checked and kept as a value and
// as a literal of the .lift language; the function applied to two values on the host (the
// devices' results combined) by core/cfun's interpreter; and device buffers filled with the
// identity (a part padded to whole chunks).
#pragma once

#include <CL/opencl.hpp>

#include <memory>
#include <string>

#include "codegen/runtime/HostArray.h"
#include "core/cfun/CFunAst.h"
#include "core/ir/IR.h"

namespace lift::skelcl {

class ScalarOperator {
 public:
  ScalarOperator() = default;
  // Throws LiftError (naming `what`) when `identity` is no finite literal of `type`.
  ScalarOperator(const std::string& what, runtime::ScalarType type, const std::string& identity);

  // The function to apply on the host: the user function of a compiled skeleton's program.
  void setFunction(std::shared_ptr<const ir::UserFunDef> f) { function_ = std::move(f); }

  runtime::ScalarType type() const { return type_; }
  cfun::Scalar identity() const { return identity_; }
  // The identity as a literal of the .lift language.
  const std::string& identityLiteral() const { return identityLiteral_; }

  // f(a, b) on the host.
  cfun::Scalar combine(cfun::Scalar a, cfun::Scalar b) const;
  // Enqueues filling `bytes` bytes of `buffer` from byte `from` with the identity.
  void fillWithIdentity(const cl::CommandQueue& queue, const cl::Buffer& buffer, size_t from,
                        size_t bytes) const;

 private:
  runtime::ScalarType type_ = runtime::ScalarType::Float;
  cfun::Scalar identity_{};
  std::string identityLiteral_;
  std::shared_ptr<const ir::UserFunDef> function_;
};

}  // namespace lift::skelcl
