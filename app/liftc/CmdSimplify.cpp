// liftc simplify EXPR [--range VAR=LO:HI]...: simplifies an integer expression with the
// ArithExpr simplifier and prints it in C syntax (one line, parseable by the same command).
#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <set>

#include "app/liftc/Command.h"
#include "core/arith/ArithExpr.h"
#include "core/support/Diagnostic.h"

namespace lift::liftc {
namespace {

using arith::Expr;

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Column (1-based) of the first whole-word occurrence of `name` in text[from, to).
int wordColumn(const std::string& text, const std::string& name, size_t from, size_t to) {
  for (size_t p = text.find(name, from); p != std::string::npos && p < to; p = text.find(name, p + 1)) {
    bool before = p == 0 || !(std::isalnum(static_cast<unsigned char>(text[p - 1])) || text[p - 1] == '_');
    size_t e = p + name.size();
    bool after = e >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_');
    if (before && after) return static_cast<int>(p) + 1;
  }
  return static_cast<int>(from) + 1;
}

class RangeParser {
 public:
  explicit RangeParser(const std::vector<std::string>& specs) : specs_(specs) {
    for (auto& s : specs) {
      auto eq = s.find('=');
      if (eq != std::string::npos) names_.insert(s.substr(0, eq));
    }
  }

  std::map<std::string, Expr> run() {
    for (auto& spec : specs_) one(spec);
    return vars_;
  }

 private:
  const std::vector<std::string>& specs_;
  std::set<std::string> names_;
  std::map<std::string, Expr> vars_;
  static constexpr const char* kFile = "<range>";

  [[noreturn]] static void fail(const std::string& spec, int col, const std::string& msg) {
    throw LiftError(makeDiagnostic(kFile, spec, 1, col, msg));
  }

  // Parses spec[from, to) as an expression, reporting errors at columns of the whole spec.
  Expr bound(const std::string& spec, const std::string& var, size_t from, size_t to) {
    std::string part = spec.substr(from, to - from);
    Expr e;
    try {
      e = arith::parse(part, vars_, kFile);
    } catch (const LiftError& err) {
      int col = err.diagnostic().loc.col > 0 ? err.diagnostic().loc.col : 1;
      fail(spec, static_cast<int>(from) + col, err.diagnostic().message);
    }
    for (Expr v : arith::variables(e)) {
      const std::string& n = arith::varName(v);
      if (names_.count(n) && !vars_.count(n)) {
        fail(spec, wordColumn(spec, n, from, to),
             n == var ? fmt::format("the range of '{}' refers to '{}' itself", var, n)
                      : fmt::format("'{}' is used in the range of '{}' before its own --range", n, var));
      }
    }
    return e;
  }

  void one(const std::string& spec) {
    auto eq = spec.find('=');
    auto colon = eq == std::string::npos ? std::string::npos : spec.find(':', eq + 1);
    if (eq == std::string::npos || colon == std::string::npos)
      fail(spec, static_cast<int>(spec.size()) + 1,
           fmt::format("malformed --range '{}': expected VAR=LO:HI (HI may be empty)", spec));
    std::string name = spec.substr(0, eq);
    if (!isIdentifier(name))
      fail(spec, 1, fmt::format("malformed --range '{}': '{}' is not a variable name", spec, name));
    if (vars_.count(name)) fail(spec, 1, fmt::format("--range given twice for '{}'", name));
    auto blank = [&](size_t a, size_t b) { return spec.find_first_not_of(" \t", a) >= b; };
    if (blank(eq + 1, colon))
      fail(spec, static_cast<int>(eq) + 2, fmt::format("missing lower bound in --range '{}'", spec));
    Expr lo = bound(spec, name, eq + 1, colon);
    Expr hi;
    if (!blank(colon + 1, spec.size())) {
      hi = bound(spec, name, colon + 1, spec.size());
      // A range that is empty for every value of the size variables is an error; one that is
      // empty only for small sizes (i=0:N/16 when N < 16) is accepted: no value of the variable
      // exists there, so every simplification holds vacuously.
      if (arith::provablyLessEqual(hi, lo))
        fail(spec, static_cast<int>(colon) + 2,
             fmt::format("empty range for '{}': upper bound {} is not above lower bound {}", name,
                         arith::toString(hi), arith::toString(lo)));
    }
    vars_[name] = arith::var(name, lo, hi);
  }
};

struct SimplifyArgs {
  std::vector<std::string> expression, ranges;
};

int runSimplify(const SimplifyArgs& args) {
  std::string text;
  for (auto& p : args.expression) text += (text.empty() ? "" : " ") + p;
  auto vars = RangeParser(args.ranges).run();
  Expr e = arith::parse(text, vars, "<expr>");
  std::printf("%s\n", arith::toString(e).c_str());
  return kExitOk;
}

const CommandRegistration kSimplify(Command{
    "simplify", "simplify an integer expression and print it in C syntax", [](CLI::App& cmd) {
      auto args = std::make_shared<SimplifyArgs>();
      cmd.add_option("EXPR", args->expression, "the expression (several arguments are joined by spaces)")
          ->required()
          ->type_name("");
      cmd.add_option("--range", args->ranges,
                     "the range of a variable, LO <= VAR < HI (HI may be empty: no upper bound); the bounds "
                     "may use the variables of earlier --range options (repeatable)")
          ->type_name("VAR=LO:HI");
      return [args] { return runSimplify(*args); };
    }});

}  // namespace
}  // namespace lift::liftc
