// liftc's command-line layer shared by the subcommands (see Options.h).
#include "app/liftc/Options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "codegen/runtime/RegisterCap.h"
#include "core/interp/Sizes.h"
#include "core/support/Diagnostic.h"

namespace lift::liftc {

void badArgument(const std::string& option, const std::string& message) {
  throw CLI::ValidationError(option, message);
}

void badUsage(const std::string& message) { throw CLI::ValidationError(message); }

CLI::Option* addProgramArgument(CLI::App& cmd, std::string& into, const std::string& what) {
  return cmd.add_option("FILE.lift", into, what)->required()->type_name("");
}

namespace {

// The value as typed, shortened for a message.
std::string shown(const std::string& s) { return s.size() > 40 ? s.substr(0, 40) + "..." : s; }

}  // namespace

CLI::Validator integerIn(int64_t min, int64_t max) {
  std::string expected = min == 0   ? "a non-negative integer"
                         : min == 1 ? "a positive integer"
                                    : fmt::format("an integer of at least {}", min);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits) return fmt::format("expected {}, got '{}'", expected, shown(text));
        size_t first = text.find_first_not_of('0');
        if (first != std::string::npos && text.size() - first > 18)
          return fmt::format("{} is too large (at most {})", shown(text), max);
        int64_t v = first == std::string::npos ? 0 : std::stoll(text);
        if (v < min) return fmt::format("expected {}, got '{}'", expected, text);
        if (v > max) return fmt::format("{} is too large (at most {})", text, max);
        return {};
      },
      min == 1 ? "POSITIVE" : "INTEGER");
}

CLI::Option* addSizeOption(CLI::App& cmd, arith::Env& into, const std::string& example,
                           const std::string& name) {
  return cmd
      .add_option_function<std::vector<std::string>>(
          name,
          [&into, example, name](const std::vector<std::string>& items) {
            for (const std::string& item : items) {
              try {
                interp::parseSizeList(item, into, example);
              } catch (const LiftError& e) {
                badArgument(name, e.diagnostic().message);
              }
            }
          },
          fmt::format("sizes of the program, e.g. N={0} or N={0},M=8 (repeatable); each from 1 to {1}",
                      example, interp::kMaxSize))
      ->type_name("NAME=VALUE[,...]");
}

void checkSizeNames(const arith::Env& sizes, const ir::Program& p) {
  for (auto& [name, value] : sizes) {
    if (p.findSize(name)) continue;
    std::string names;
    for (auto& s : p.sizes) names += (names.empty() ? "" : ", ") + s.name;
    badArgument("--size", fmt::format("the program has no size '{}' (its sizes: {})", name,
                                      names.empty() ? "none" : names));
  }
}

ir::Program specializeGivenSizes(const ir::Program& p, const arith::Env& sizes) {
  checkSizeNames(sizes, p);
  if (sizes.empty()) return p;
  arith::Env check = sizes;
  for (auto& s : p.sizes)
    if (!check.count(s.name)) check[s.name] = s.defaultValue ? *s.defaultValue : 0;
  bool complete = true;
  for (auto& [n, v] : check) complete = complete && v > 0;
  if (complete)
    if (auto problem = interp::sizeProblem(p, check)) throw LiftError(*problem);
  return interp::specialize(p, sizes);
}

ir::Program withoutGivenSizes(ir::Program p, const arith::Env& sizes) {
  std::erase_if(p.sizes, [&](const ir::SizeDecl& d) { return sizes.count(d.name) > 0; });
  return p;
}

CLI::Option* addNDRangeOption(CLI::App& cmd, const std::string& name, std::vector<int64_t>& into,
                              const std::string& help) {
  return cmd
      .add_option_function<std::string>(
          name,
          [&into, name](const std::string& text) {
            into.clear();
            size_t start = 0;
            while (true) {
              size_t end = text.find(',', start);
              std::string item =
                  text.substr(start, end == std::string::npos ? std::string::npos : end - start);
              std::string why = item;
              if (!integerIn(1, interp::kMaxSize)(why).empty() || into.size() == 3)
                badArgument(name, fmt::format("expected one to three positive integers X[,Y[,Z]], got '{}'",
                                              shown(text)));
              into.push_back(std::stoll(item));
              if (end == std::string::npos) return;
              start = end + 1;
            }
          },
          help)
      ->type_name("X[,Y[,Z]]");
}

namespace {

const char* kDeviceHelp =
    "the OpenCL device: its index or a part of its name or type as `liftc devices` lists them (e.g. 0, cpu, "
    "NVIDIA)";

CLI::Validator deviceName() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "expected a device index or name (see liftc devices), got ''" : "";
      },
      "DEVICE");
}

}  // namespace

CLI::Option* addDeviceOption(CLI::App& cmd, std::string& into) {
  return cmd.add_option("--device", into, kDeviceHelp)->check(deviceName())->type_name("D");
}

CLI::Option* addDeviceOption(CLI::App& cmd, std::vector<std::string>& into) {
  return cmd.add_option("--device", into, std::string(kDeviceHelp) + " (repeatable: one worker each)")
      ->check(deviceName())
      ->type_name("D");
}

CLI::Option* addReferenceOption(CLI::App& cmd, codegen::ReferenceChoice& into) {
  return cmd
      .add_option_function<std::string>(
          "--reference",
          [&into](const std::string& text) {
            try {
              into = codegen::ReferenceChoice::parse(text);
            } catch (const LiftError& e) {
              badArgument("--reference", e.diagnostic().message);
            }
          },
          "where the expected outputs come from: auto (default), interpreter, none, or an OpenBLAS routine "
          "(sgemm, sgemv, sdot, sasum, sscal)")
      ->type_name("R");
}

void noteStreamKNotApplied(const char* command, const codegen::CompileOptions& options,
                           const codegen::CompiledProgram& program) {
  if (options.streamK <= 0) return;
  for (auto& s : program.stages)
    if (s.kernel.launch.streamKGroups > 0) return;
  std::fprintf(
      stderr,
      "liftc %s: note: --stream-k %d does not apply: it needs a loop over K tiles inside the mapWrgs "
      "that adds into accumulators starting at zero (acc = f(acc, ...) with f returning acc + ...), "
      "constant sizes (%s), and a tile count that is not a multiple of %d (whole waves of work-groups "
      "leave nothing to share); the kernel is the one without it\n",
      command, options.streamK,
      std::strcmp(command, "compile") == 0
          ? "give them with --size"
          : "written in the program, as the search's kernels have them: --size here sets run-time values",
      options.streamK);
}

void notePrefetchPartsNotApplied(const char* command, const codegen::CompileOptions& options,
                                 const codegen::CompiledProgram& program) {
  if (options.prefetchParts <= 1 || !options.registerPrefetch) return;
  for (auto& s : program.stages)
    if (s.kernel.loopsInParts > 0) return;
  std::fprintf(stderr,
               "liftc %s: note: --prefetch-parts %d does not apply: it needs a loop over tiles whose next "
               "tiles go through registers (--prefetch) and whose step computes in one loop of a constant "
               "trip count that %d divides; the kernel is the one without it\n",
               command, options.prefetchParts, options.prefetchParts);
}

void addCodegenTuningOptions(CLI::App& cmd, codegen::CompileOptions& into) {
  cmd.add_flag(
      "--vector-local-loads", into.vectorLocalLoads,
      "read four consecutive elements of a local array as one float4 where the index is a multiple of 4");
  cmd.add_flag("--double-buffer", into.doubleBuffering,
               "two local buffers for the tiles a loop copies, the next copied while the current is used");
  cmd.add_flag(
      "--vector-stores", into.vectorGlobalStores,
      "write four consecutive elements of a global array as one float4 where the index is a multiple of 4");
  CLI::Option* prefetch = cmd.add_flag(
      "--prefetch", into.registerPrefetch,
      "double buffering (implied) with the next tiles loaded into registers before the computation "
      "and stored to local memory after it");
  cmd.add_option(
         "--prefetch-parts", into.prefetchParts,
         "with --prefetch: each step cut into N parts along its loop over k, each loading its share of "
         "the next tiles before its steps and storing it after, so fewer are held at once (1: one part; "
         "where the step is not one loop of a constant trip count that N divides, the kernel is the "
         "one without it)")
      ->type_name("N")
      ->check(integerIn(1, 16))
      ->needs(prefetch);
  cmd.add_option("--pad-local", into.localPadding,
                 "N unused elements after each row of a local tile of two or more dimensions, against bank "
                 "conflicts (0: none)")
      ->type_name("N")
      ->check(integerIn(0, 64));
  cmd.add_option(
         "--stream-k", into.streamK,
         "stream-K for a K-tiled reduction: whole waves of N tiles one work-group a tile, then N "
         "work-groups share the K steps of the tiles left, a tile split between work-groups summed in "
         "global memory; N best the work-groups the device runs at once (0: one work-group a tile)")
      ->type_name("N")
      ->check(integerIn(0, 1 << 20));
  cmd.add_option(
         "--max-registers", into.maxRegisters,
         "at most N registers a work-item (16 to 255), where the device's compiler takes a cap (NVIDIA: "
         "`.maxnreg N` in the kernel's PTX; other devices build without it); 0: the compiler chooses")
      ->type_name("N")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (std::string why = integerIn(0, runtime::kMaxRegisterCap)(text); !why.empty()) return why;
            int v = std::stoi(text);
            if (!runtime::isRegisterCap(v))
              return fmt::format("{} is too few (0, or at least {})", v, runtime::kMinRegisterCap);
            return {};
          },
          ""));
  cmd.add_flag("--cse-indices", into.indexCse,
               "repeated index subexpressions as const int temporaries, each declared once in the outermost "
               "scope where its variables are defined");
  cmd.add_option("--unroll", into.innerLoopUnroll,
                 "`#pragma unroll N` on the innermost sequential loops of a constant trip count (1: none)")
      ->type_name("N")
      ->check(integerIn(1, 1024));
  cmd.add_option(
         "--unroll-tiles", into.tileLoopUnroll,
         "`#pragma unroll N` on the loops over K tiles, the outermost sequential loops with a barrier "
         "inside (1: none)")
      ->type_name("N")
      ->check(integerIn(1, 16));
}

}  // namespace lift::liftc
