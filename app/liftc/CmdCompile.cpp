// liftc compile FILE.lift: generates the OpenCL kernel of a lowered program and prints it.
// --size NAME=VALUE[,...] specialises the program to those sizes first (the kernel then has
// constants where the size variables were); --indices lists every memory access with its raw
// and simplified index instead of the kernel; --no-simplify-indices, --no-barrier-elim,
// --no-cfg-simplify, --no-unroll and --no-fma turn the optimisations off one by one.
#include <cstdio>

#include <fmt/format.h>

#include "app/liftc/Command.h"
#include "codegen/Compiler.h"
#include "core/interp/Sizes.h"
#include "core/lang/Parser.h"

namespace lift::liftc {
namespace {

arith::Env parseSizes(const std::vector<std::string>& specs, const ir::Program& p) {
  arith::Env env;
  for (const std::string& spec : specs) {
    size_t start = 0;
    while (start <= spec.size()) {
      size_t end = spec.find(',', start);
      if (end == std::string::npos) end = spec.size();
      std::string item = spec.substr(start, end - start);
      size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 >= item.size())
        throw LiftError(fmt::format("--size: expected NAME=VALUE, got '{}'", item));
      std::string name = item.substr(0, eq), value = item.substr(eq + 1);
      if (!p.findSize(name)) throw LiftError(fmt::format("--size: the program has no size '{}'", name));
      char* rest = nullptr;
      long long v = std::strtoll(value.c_str(), &rest, 10);
      if (!rest || *rest || v < 1)
        throw LiftError(fmt::format("--size: {} must be a positive integer, got '{}'", name, value));
      env[name] = v;
      start = end + 1;
    }
  }
  return env;
}

int runCompile(const Args& args) {
  if (args.positional.size() != 1)
    throw LiftError("usage: liftc compile FILE.lift [--size N=...] [--indices]");
  ir::Program p = lang::parseFile(args.positional[0]);
  arith::Env sizes = parseSizes(args.all("--size"), p);
  if (!sizes.empty()) {
    // Sizes not given keep their symbolic names; the given ones must make the program valid.
    arith::Env check = sizes;
    for (auto& s : p.sizes)
      if (!check.count(s.name)) check[s.name] = s.defaultValue ? *s.defaultValue : 0;
    bool complete = true;
    for (auto& [n, v] : check) complete = complete && v > 0;
    if (complete)
      if (auto problem = interp::sizeProblem(p, check)) throw LiftError(*problem);
    p = interp::specialize(p, sizes);
  }
  codegen::CompileOptions o;
  o.simplifyIndices = !args.has("--no-simplify-indices");
  o.barrierElimination = !args.has("--no-barrier-elim");
  o.cfgSimplification = !args.has("--no-cfg-simplify");
  o.unrolling = !args.has("--no-unroll");
  o.fusedMultiplyAdd = !args.has("--no-fma");
  codegen::CompiledKernel k = codegen::compileKernel(p, o);
  if (!args.has("--indices")) {
    std::fputs(k.source.c_str(), stdout);
    return kExitOk;
  }
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
  return kExitOk;
}

const CommandRegistration registration(Command{
    "compile",
    "compile FILE.lift [--size N=...] [--indices] [--no-simplify-indices] [--no-barrier-elim] "
    "[--no-cfg-simplify] "
    "[--no-unroll] [--no-fma]   print the OpenCL kernel",
    {"--indices", "--no-simplify-indices", "--no-barrier-elim", "--no-cfg-simplify", "--no-unroll",
     "--no-fma"},
    {"--size"},
    &runCompile});

}  // namespace
}  // namespace lift::liftc
