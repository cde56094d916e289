// Instantiating a CompiledKernel (or a CompiledProgram's sequence of kernels) at concrete sizes:
// the runtime's launch description (buffers with their element counts, size arguments, local
// memory, NDRange), and the conversion of interpreter values into the kernel's input buffers and
// expected outputs, so that a kernel can be run and checked against the interpreter.
#pragma once

#include <functional>
#include <vector>

#include "codegen/CompiledKernel.h"
#include "codegen/CompiledProgram.h"
#include "codegen/runtime/KernelLaunch.h"
#include "core/arith/ArithExpr.h"
#include "core/interp/Value.h"

namespace lift::codegen {

// The launch of `k` with the size variables set to `sizes`. Inputs without data are generated
// by the runtime from the launch's seed; scalar inputs are 1 unless set (setInputs).
// Temporaries are inout buffers (their contents do not matter). Throws LiftError when a size
// is missing, or when a buffer, local array or NDRange would be empty or negative.
runtime::KernelLaunch instantiate(const CompiledKernel& k, const arith::Env& sizes);
// The same for a sequence: a launch with KernelLaunch::sequence (a single kernel: as above).
runtime::KernelLaunch instantiate(const CompiledProgram& p, const arith::Env& sizes);

// A buffer's contents and the key that identifies them (KernelArg::dataKey; 0: none).
struct KeyedArray {
  runtime::HostArray array;
  uint64_t key = 0;
};
// Where setInputs and setExpected take a buffer's contents from: the program input's index (-1
// for the result), the tuple path and scalar type of the buffer. Without one, hostArrayOf of
// the value, unkeyed; a caller sharing arrays among launches (a search's prepared reference)
// gives its own.
using ArraySource =
    std::function<KeyedArray(int input, const std::vector<int>& path, runtime::ScalarType type)>;

// Sets the data of the input buffers and scalar arguments from the program's input values
// (as the interpreter takes them), and the expected contents of the outputs from its result.
void setInputs(runtime::KernelLaunch& launch, const CompiledKernel& k,
               const std::vector<interp::Value>& inputs, const ArraySource& source = {});
void setExpected(runtime::KernelLaunch& launch, const CompiledKernel& k, const interp::Value& result,
                 const ArraySource& source = {});
// The same for a launch of a CompiledProgram (instantiate above).
void setInputs(runtime::KernelLaunch& launch, const CompiledProgram& p,
               const std::vector<interp::Value>& inputs, const ArraySource& source = {});
void setExpected(runtime::KernelLaunch& launch, const CompiledProgram& p, const interp::Value& result,
                 const ArraySource& source = {});

// The scalars of a value in the layout of the kernel's buffers (row-major), converted to `type`;
// `path` selects the part of a tuple-typed value one buffer stores (KernelParam::path).
runtime::HostArray hostArrayOf(const interp::Value& v, runtime::ScalarType type,
                               const std::vector<int>& path = {});

// The runtime's element type of a scalar or vector type; throws LiftError for others (bool).
runtime::ElementType elementTypeOf(Type t);

}  // namespace lift::codegen
