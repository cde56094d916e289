// liftc's command-line layer shared by the subcommands (on CLI11): the program argument, the
// integer, size, NDRange and device options, and usage errors. Every usage error is a
// CLI::ParseError whose message names the option (or argument) and what is wrong with it; liftc
// prints it with the command's usage line and exits with status 2.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "codegen/Evaluation.h"
#include "core/arith/ArithExpr.h"
#include "core/interp/SizeList.h"
#include "core/ir/IR.h"

namespace lift::liftc {

// A usage error found after parsing (an option's value does not fit the program, two options
// that exclude each other): "OPTION: MESSAGE".
[[noreturn]] void badArgument(const std::string& option, const std::string& message);
// A usage error that belongs to no single option.
[[noreturn]] void badUsage(const std::string& message);

// The required positional argument FILE.lift (a program).
CLI::Option* addProgramArgument(CLI::App& cmd, std::string& into, const std::string& what = "the program");

// A decimal integer in [min, max] (at most 18 digits, no sign, no spaces): "expected a positive
// integer, got 'x'", "expected a non-negative integer ...", "... is too large (at most MAX)".
CLI::Validator integerIn(int64_t min, int64_t max = std::numeric_limits<int32_t>::max());

// --size NAME=VALUE[,NAME=VALUE...] (or another option `name` of the same syntax), repeatable, parsed into
// `into` by interp::parseSizeList as the command line is parsed (a name given twice across the repeats is an
// error too). `example` is the value the message for a malformed item suggests.
CLI::Option* addSizeOption(CLI::App& cmd, arith::Env& into, const std::string& example = "16",
                           const std::string& name = "--size");
// The sizes given must be sizes of the program: "--size: the program has no size 'Q' (its
// sizes: N, M)".
void checkSizeNames(const arith::Env& sizes, const ir::Program& p);
// The program at the sizes given with --size (checked by checkSizeNames): those size variables
// become constants, the others keep their names. When every size then has a value (given or
// declared, `size N = 1024;`), the program must be valid at them: a located LiftError otherwise
// (split 4 of a length 6). No sizes: the program as it is.
ir::Program specializeGivenSizes(const ir::Program& p, const arith::Env& sizes);
// `p` without the declarations of the sizes given: constants in a program made by
// specializeGivenSizes and rewritten (the result of `liftc rewrite` and `liftc derive --size`).
ir::Program withoutGivenSizes(ir::Program p, const arith::Env& sizes);

// An NDRange option (--global, --local): X[,Y[,Z]], one to three positive integers.
CLI::Option* addNDRangeOption(CLI::App& cmd, const std::string& name, std::vector<int64_t>& into,
                              const std::string& help);

// --device D: an OpenCL device as `liftc devices` lists them, by index or by a part of its
// name or type ("cpu", "NVIDIA"); resolved by runtime::Device::find.
CLI::Option* addDeviceOption(CLI::App& cmd, std::string& into);
// The same, repeatable (one worker per device).
CLI::Option* addDeviceOption(CLI::App& cmd, std::vector<std::string>& into);

// --reference auto|interpreter|none|sgemm|sgemv|sdot|sasum|sscal: where the expected outputs of a
// run come from (codegen::ReferenceChoice::parse).
CLI::Option* addReferenceOption(CLI::App& cmd, codegen::ReferenceChoice& into);

// The code generator's tuning switches, off by default: --vector-local-loads, --unroll N,
// --unroll-tiles N, --prefetch, --prefetch-parts N and the others of codegen::CompileOptions's second group.
void addCodegenTuningOptions(CLI::App& cmd, codegen::CompileOptions& into);

// A note on standard error when --stream-k was asked for and no kernel of `program` has the shape
// it needs (the kernel is the same as without it).
void noteStreamKNotApplied(const char* command, const codegen::CompileOptions& options,
                           const codegen::CompiledProgram& program);
// The same for --prefetch-parts N: no step of `program` was cut into N parts.
void notePrefetchPartsNotApplied(const char* command, const codegen::CompileOptions& options,
                                 const codegen::CompiledProgram& program);

}  // namespace lift::liftc
