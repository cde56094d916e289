// liftc compile FILE.lift: generates the OpenCL kernel of a lowered program and prints it (a
// program that needs several kernels: each, after a comment line naming it, kernel i of n, and
// its NDRange).
// --size NAME=VALUE[,...] specialises the program to those sizes first (the kernel then has
// constants where the size variables were); --indices lists every memory access with its raw
// and simplified index instead of the kernel; --no-simplify-indices, --no-barrier-elim,
// --no-cfg-simplify, --no-unroll and --no-fma turn the optimisations off one by one;
// --vector-local-loads and --unroll N turn the tuning switches on. --local X[,Y[,Z]] and
// --global X[,Y[,Z]] generate for that NDRange (as `liftc run` and the explorer do: with a
// --local of 1, a work-group's mapLcl become loops of its one work-item).
#include <cstdio>
#include <tuple>

#include <fmt/format.h>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "codegen/ProgramCompiler.h"
#include "core/lang/Parser.h"

namespace lift::liftc {
namespace {

struct CompileArgs {
  std::string file;
  arith::Env sizes;
  bool indices = false;
  std::vector<int64_t> global, local;
  codegen::CompileOptions options;
};

int runCompile(const CompileArgs& args) {
  // Sizes not given keep their symbolic names; the given ones must make the program valid.
  ir::Program p = specializeGivenSizes(lang::parseFile(args.file), args.sizes);
  codegen::CompileOptions options = args.options;
  for (int64_t g : args.global) options.globalSize.push_back(arith::cst(g));
  for (int64_t l : args.local) options.localSize.push_back(arith::cst(l));
  codegen::CompiledProgram compiled = codegen::compileProgram(p, options);
  noteStreamKNotApplied("compile", options, compiled);
  notePrefetchPartsNotApplied("compile", options, compiled);
  if (options.maxRegisters > 0)
    std::fprintf(stderr,
                 "liftc compile: note: --max-registers %d does not change the source: the cap acts when the "
                 "kernel is built (on NVIDIA, as `.maxnreg %d` in its PTX), as in `liftc run` and the app\n",
                 options.maxRegisters, options.maxRegisters);
  if (!args.indices) {
    std::fputs(compiled.source().c_str(), stdout);
    return kExitOk;
  }
  for (size_t i = 0; i < compiled.stages.size(); ++i) {
    const codegen::CompiledKernel& k = compiled.stages[i].kernel;
    if (!compiled.singleKernel())
      std::printf("%s// ----- %s\n", i ? "\n" : "", compiled.stageTitle(i).c_str());
    size_t wb = 6, wr = 9;
    for (auto& e : k.indices) {
      wb = std::max(wb, e.buffer.size());
      wr = std::max(wr, e.raw.size());
    }
    std::printf("%s\n", fmt::format("{:>4}  {:<5}  {:<{}}  {:<{}}  {}", "line", "kind", "buffer", wb,
                                    "raw index", wr, "simplified index")
                            .c_str());
    for (auto& e : k.indices)
      std::printf("%s\n", fmt::format("{:>4}  {:<5}  {:<{}}  {:<{}}  {}", e.line, e.write ? "write" : "read",
                                      e.buffer, wb, e.raw, wr, e.simplified)
                              .c_str());
  }
  return kExitOk;
}

const CommandRegistration registration(Command{
    "compile", "print the OpenCL kernel of a lowered program", [](CLI::App& cmd) {
      auto args = std::make_shared<CompileArgs>();
      addProgramArgument(cmd, args->file);
      addSizeOption(cmd, args->sizes);
      cmd.add_flag("--indices", args->indices,
                   "list every memory access with its raw and simplified index instead of the kernel");
      for (auto [name, help, switchedOff] :
           {std::tuple{"--no-simplify-indices", "do not simplify the indices",
                       &codegen::CompileOptions::simplifyIndices},
            std::tuple{"--no-barrier-elim", "keep every barrier",
                       &codegen::CompileOptions::barrierElimination},
            std::tuple{"--no-cfg-simplify", "do not simplify the control flow",
                       &codegen::CompileOptions::cfgSimplification},
            std::tuple{"--no-unroll", "do not unroll loops", &codegen::CompileOptions::unrolling},
            std::tuple{"--no-fma", "no fused multiply-adds", &codegen::CompileOptions::fusedMultiplyAdd}})
        cmd.add_flag_callback(
            name, [args, off = switchedOff] { args->options.*off = false; }, help);
      addCodegenTuningOptions(cmd, args->options);
      addNDRangeOption(cmd, "--global", args->global, "the global size to generate for");
      addNDRangeOption(cmd, "--local", args->local, "the local (work-group) size to generate for");
      return [args] { return runCompile(*args); };
    }});

}  // namespace
}  // namespace lift::liftc
