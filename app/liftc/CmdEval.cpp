// liftc eval FILE.lift [--size N=16[,M=8]]... [--seed S] [--small] [--show K]: runs the
// reference interpreter on random inputs and prints the sizes used, the program's type, the
// output's type, its first values and a summary (count, sum, min, max per scalar kind).
//
// Sizes not given take the program's defaults (`size N = 1024;`), or, for sizes without a
// default or with --small, small valid values the interpreter chooses. Every size is checked
// against the constraints of the program's types before anything runs. A program that
// type-checks only for some sizes (its divisibility conditions cannot be proven for all)
// still runs at sizes where it does, with a note.
//
// The interpreter has a budget (--max-applications, about 15 s by default): a run whose counted
// cost or whose inputs and result exceed it is refused before anything is allocated, and one
// whose cost could not be counted stops when it is spent; both say to use --small or --size.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "app/liftc/Command.h"
#include "app/liftc/Options.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/interp/Sizes.h"
#include "core/interp/WorkCount.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"

namespace lift::liftc {
namespace {

// Count, sum, min and max of the scalars of one kind.
struct Summary {
  size_t count = 0;
  double sum = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  size_t nans = 0;
};

void summarise(const interp::Value& v, std::map<ScalarKind, Summary>& out) {
  auto add = [&](ScalarKind k, interp::Scalar s) {
    Summary& sm = out[k];
    ++sm.count;
    double x = interp::scalarToDouble(k, s);
    if (std::isnan(x)) {
      ++sm.nans;
      return;
    }
    sm.sum += x;
    sm.min = std::min(sm.min, x);
    sm.max = std::max(sm.max, x);
  };
  switch (v.kind()) {
    case interp::Value::Kind::Scalar:
      add(v.scalarKind(), v.bits());
      return;
    case interp::Value::Kind::Vector:
      for (interp::Scalar s : v.lanes()) add(v.scalarKind(), s);
      return;
    case interp::Value::Kind::Tuple:
    case interp::Value::Kind::Array:
      if (v.isFlat()) {
        for (interp::Scalar s : v.flatData()) add(v.flatKind(), s);
        return;
      }
      for (size_t i = 0; i < v.size(); ++i) summarise(v.at(i), out);
      return;
  }
}

std::string number(double x) { return fmt::format("{:.6g}", x); }

// The interpreter makes about 1.5 million function applications a second on one core.
constexpr uint64_t kDefaultMaxApplications = 20'000'000;
// Bytes of the inputs and the result (a value takes at least 8 bytes a scalar in the
// interpreter, more than the element size countWork counts) within the default budget.
constexpr double kMaxBytesPerApplicationBudget = 50;

struct EvalArgs {
  std::string file;
  arith::Env sizes;
  uint64_t seed = 1;
  size_t show = 16;
  bool small = false;
  uint64_t maxApplications = kDefaultMaxApplications;  // 0: no budget
};

std::string sizesText(const ir::Program& p, const arith::Env& sizes) {
  std::string out;
  for (auto& s : p.sizes) out += fmt::format("{}{}={}", out.empty() ? "" : ",", s.name, sizes.at(s.name));
  return out.empty() ? "no sizes" : out;
}

const char* const kBudgetHint =
    "run it at small sizes with --small, choose them with --size, or raise the budget with "
    "--max-applications N (0: none)";

// Refuses, before any input is allocated, a run the interpreter's budget cannot pay for.
void checkBudget(const ir::Program& p, const arith::Env& sizes, uint64_t maxApplications) {
  if (maxApplications == 0) return;
  interp::WorkCount work;
  try {
    work = interp::countWork(p, sizes);
  } catch (const LiftError&) {
    return;  // not counted: the interpreter's own limit stops it
  }
  double maxBytes = kMaxBytesPerApplicationBudget * static_cast<double>(maxApplications);
  if (work.applications > static_cast<double>(maxApplications))
    throw LiftError(fmt::format(
        "at {} the interpreter would make about {:.3g} function applications, more than its budget of {}: {}",
        sizesText(p, sizes), work.applications, maxApplications, kBudgetHint));
  if (work.bytes() > maxBytes)
    throw LiftError(
        fmt::format("at {} the inputs and the result take {}, more than the interpreter's budget "
                    "of {}: {}",
                    sizesText(p, sizes), interp::siPrefixed(work.bytes(), "B"),
                    interp::siPrefixed(maxBytes, "B"), kBudgetHint));
}

int runEval(const EvalArgs& args) {
  const std::string& file = args.file;
  ir::Program p = lang::parseFile(file);
  std::optional<ir::TypeInfo> info;
  std::optional<Diagnostic> notForAllSizes;
  try {
    info = ir::typeCheck(p);
  } catch (const LiftError& e) {
    notForAllSizes = e.diagnostic();
    notForAllSizes->severity = Diagnostic::Severity::Warning;
  }

  const arith::Env& given = args.sizes;
  checkSizeNames(given, p);
  uint64_t seed = args.seed;
  size_t show = args.show;

  interp::SizeHint hint;
  hint.fixed = given;
  hint.useDefaults = !args.small;
  hint.perInputElement = true;
  arith::Env sizes = interp::chooseSizes(p, hint);
  if (notForAllSizes) {
    // Valid at these sizes (chooseSizes checked): say why it is not valid at all of them.
    std::fprintf(stderr,
                 "%s\nnote: the program type-checks only for some sizes; running at sizes where it does\n",
                 notForAllSizes->format().c_str());
    info = ir::typeCheck(interp::specialize(p, sizes));
  }

  std::printf("program: %s (%s)\n", p.name.c_str(), file.c_str());
  std::printf("type:    %s\n", info->signature().c_str());
  std::string sizeLine;
  for (auto& s : p.sizes) {
    const char* origin = given.count(s.name)                  ? "given"
                         : hint.useDefaults && s.defaultValue ? "default"
                                                              : "chosen";
    sizeLine += fmt::format("{}{}={} ({})", sizeLine.empty() ? "" : ", ", s.name, sizes.at(s.name), origin);
  }
  std::printf("sizes:   %s\n", sizeLine.empty() ? "none" : sizeLine.c_str());
  std::fflush(stdout);

  checkBudget(p, sizes, args.maxApplications);
  std::vector<interp::Value> inputs = interp::randomInputs(p, sizes, seed);
  std::string inputLine;
  for (size_t i = 0; i < inputs.size(); ++i)
    inputLine +=
        fmt::format("{}{}: {}", i ? ", " : "", p.main->params()[i]->name(), inputs[i].type().toString());
  std::printf("inputs:  %s (random, seed %llu)\n", inputLine.empty() ? "none" : inputLine.c_str(),
              static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  size_t inputScalars = 0;
  for (auto& v : inputs) inputScalars += v.scalarCount();
  bool anyDefault = false;
  for (auto& s : p.sizes)
    anyDefault = anyDefault || (!given.count(s.name) && hint.useDefaults && s.defaultValue);
  if (anyDefault && inputScalars > (size_t(1) << 20))
    std::fprintf(stderr,
                 "note: the program's default sizes give %zu input values; the interpreter may take a while "
                 "(--small or --size choose smaller sizes)\n",
                 inputScalars);

  auto start = std::chrono::steady_clock::now();
  interp::InterpOptions opts;
  opts.maxApplications = args.maxApplications;
  interp::Value out;
  try {
    out = interp::interpret(p, inputs, sizes, opts);
  } catch (const interp::InterpError& e) {
    if (e.kind() != interp::InterpError::Kind::Limit) throw;
    Diagnostic d = e.diagnostic();
    d.message += fmt::format(" at {}: {}", sizesText(p, sizes), kBudgetHint);
    throw LiftError(d);
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  std::printf("output:  %s\n", out.type().toString().c_str());
  std::printf("values:  %s\n", out.toString(show).c_str());
  std::map<ScalarKind, Summary> summaries;
  summarise(out, summaries);
  for (auto& [kind, s] : summaries) {
    std::string line = fmt::format("{} {}{}", s.count, scalarName(kind), s.count == 1 ? "" : "s");
    if (s.count > s.nans)
      line += fmt::format(": sum {}, min {}, max {}", number(s.sum), number(s.min), number(s.max));
    if (s.nans) line += fmt::format(" ({} NaN)", s.nans);
    std::printf("summary: %s\n", line.c_str());
  }
  std::printf("time:    %.1f ms in the interpreter\n", ms);
  return kExitOk;
}

const CommandRegistration registration(Command{
    "eval", "run the interpreter on random inputs", [](CLI::App& cmd) {
      auto args = std::make_shared<EvalArgs>();
      addProgramArgument(cmd, args->file);
      addSizeOption(cmd, args->sizes);
      cmd.add_option("--seed", args->seed, "the seed of the random inputs (default 1)")
          ->check(integerIn(0, std::numeric_limits<int64_t>::max()));
      cmd.add_flag("--small", args->small, "the smallest valid sizes instead of the program's defaults");
      cmd.add_option("--max-applications", args->maxApplications,
                     fmt::format("the interpreter's budget in function applications (default {}, about 15 s; "
                                 "0: none)",
                                 kDefaultMaxApplications))
          ->check(integerIn(0, std::numeric_limits<int64_t>::max()));
      cmd.add_option("--show", args->show, "how many output values to print (default 16)")
          ->check(integerIn(1));
      return [args] { return runEval(*args); };
    }});

}  // namespace
}  // namespace lift::liftc
