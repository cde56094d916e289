// Prints a generated kernel as OpenCL C: pragmas, tuple structs, the user functions (each
// once), the kernel with its parameters and declarations, then the statements, indented, with
// a comment line per pattern. Records the node each line came from and every memory access
// (the index report) as it prints.
#pragma once

#include "codegen/CompiledKernel.h"
#include "codegen/KernelBuilder.h"

namespace lift::codegen {

struct PrintedKernel {
  std::string source;
  std::vector<ir::NodeId> lineNodes;
  std::vector<IndexEntry> indices;
};

// The kernel's text; `options` decide the form of indices (simplified or raw) and of user
// functions (fma).
PrintedKernel printKernel(const KernelModel& model, const std::vector<KernelParam>& params,
                          const CompileOptions& options, const std::string& header,
                          const std::string& attributes);

// The C type of a parameter as it appears in the signature: "const global float* restrict".
std::string parameterDeclaration(const KernelParam& p);

}  // namespace lift::codegen
