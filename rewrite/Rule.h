// A rewrite rule as data (egg / MLIR style): a kebab-case name, a family, a one-line
// description, the display form `lhs => rhs`, typed parameters with defaults, and one function
// that either rewrites the node at a site or says why it does not apply. Match failure is a
// value (Outcome::fail with a reason), never an exception: the GUI shows the reason next to a
// greyed-out rule, `liftc rewrite` prints it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/IR.h"
#include "core/ir/TypeCheck.h"
#include "rewrite/Location.h"

namespace lift::rewrite {

struct TypedProgram;  // rewrite/Engine.h

// Rule families, after the Lift implementation's grouping (rewriting/rules/*.scala).
#define LIFT_RULE_FAMILIES(X)                                                                     \
  X(Fusion, "fusion", "Fuse two patterns into one, avoiding an intermediate array.")              \
  X(Fission, "fission", "Split one pattern into two (the inverse of fusion).")                    \
  X(SplitJoin, "split-join", "Add or remove a level of nesting with split and join.")             \
  X(Reduce, "reduce", "Restructure reductions: partial reductions, iteration, reordering.")       \
  X(Scan, "scan", "Restructure scans: chunks scanned from the scanned totals of the chunks.")     \
  X(Iterate, "iterate", "Merge, split and unroll iterations.")                                    \
  X(Interchange, "interchange", "Swap nested patterns, transposing the data.")                    \
  X(Transpose, "transpose", "Move transpositions, split and join past each other.")               \
  X(Simplification, "simplification", "Remove patterns that cancel out; inline functions.")       \
  X(Copy, "copy", "Insert and implement copies (id) to move data between memories.")              \
  X(OpenCL, "opencl", "Lower algorithmic patterns to OpenCL: threads, sequential loops, memory.") \
  X(Vectorisation, "vectorisation", "Use OpenCL vector types and vectorised functions.")          \
  X(Builtin, "builtin", "Use OpenCL built-in functions.")                                         \
  X(Coalescing, "coalescing", "Reorder accesses so neighbouring threads read neighbouring data.") \
  X(Stencil, "stencil", "Tile sliding windows (stencils).")                                       \
  X(Sizes, "sizes", "Specialise array lengths so that factors divide them provably.")             \
  X(MdHom, "mdh", "md_hom (001): to and from nests of map and reduce, and its decomposition.")    \
  X(Macro, "macro", "Optimisations made of many rules: tiling, register blocking.")

enum class Family : uint8_t {
#define LIFT_FAMILY_ENUM(E, name, doc) E,
  LIFT_RULE_FAMILIES(LIFT_FAMILY_ENUM)
#undef LIFT_FAMILY_ENUM
};

std::string_view familyName(Family f);
std::string_view familyDescription(Family f);
std::optional<Family> familyByName(std::string_view name);
std::vector<Family> allFamilies();

// ----- parameters ----------------------------------------------------------------------

enum class ParamKind : uint8_t {
  Factor,  // a positive length factor: an integer or an expression of the program's sizes ("4", "N")
  Count,   // a non-negative integer (iteration counts)
  Dim,     // an OpenCL dimension: 0, 1 or 2
  Width,   // an OpenCL vector width: 2, 3, 4, 8 or 16
  Name,    // a name (e.g. of a size variable)
};

struct ParamSpec {
  std::string name;  // "n"
  ParamKind kind = ParamKind::Factor;
  std::string description;           // "split factor (chunk size)"
  std::string defaultValue;          // "4"
  std::vector<std::string> allowed;  // empty: any value of the kind
};

// A parameter value a rule cannot use (a size expression where it needs a constant).
class ParamError : public LiftError {
 public:
  using LiftError::LiftError;
};

// Parameter values by name, as text ("n=4,m=2"). Rules read them through the typed getters.
class ParamValues {
 public:
  ParamValues() = default;
  ParamValues(std::initializer_list<std::pair<std::string, std::string>> v) : values_(v) {}
  // Parses "n=4,m=2" (the PARAMS of RULE@LOC:PARAMS). Throws LiftError on bad syntax.
  static ParamValues parse(std::string_view text);

  void set(const std::string& name, std::string value);
  bool has(std::string_view name) const;
  const std::string* find(std::string_view name) const;
  // The value as an integer. A factor may be a size expression ("N/4"); where a rule needs a
  // constant, such a value throws ParamError (the rewrite then fails with BadParameters).
  int64_t integer(std::string_view name) const;
  const std::string& text(std::string_view name) const;
  // A Factor value as an expression over the program's size variables.
  arith::Expr factor(std::string_view name, const ir::Program& program) const;
  bool empty() const { return values_.empty(); }
  const std::vector<std::pair<std::string, std::string>>& values() const { return values_; }
  std::string toString() const;  // "n=4,m=2"
  friend bool operator==(const ParamValues&, const ParamValues&) = default;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
};

// ----- where a rule is tried -----------------------------------------------------------

// One occurrence of a node in a type-checked program, with the path to it.
struct Site {
  const ir::Program* program = nullptr;
  const ir::TypeInfo* types = nullptr;
  const TypedProgram* typed = nullptr;  // program and types together (for macro rules)
  Location loc;
  ir::NodeRef node;
  std::vector<ir::NodeRef> ancestors;  // from the main function (first) to the parent (last)

  ir::Expr expr() const { return node.expr(); }
  ir::Fun fun() const { return node.fun(); }
  // The type of an expression of the program; the null type for nodes the checker did not see.
  // Inside the function of an iterate, whose lengths change from one iteration to the next, the
  // types are symbolic: the iterated input has length g*L for a fresh L, g the largest constant
  // dividing every iteration's length (so rules see what holds in every iteration).
  Type typeOf(const ir::Expr& e) const;
  // Symbolic types of the innermost enclosing iterate's function (computed on first use).
  mutable const ir::ExprNode* iterateCall = nullptr;
  mutable std::shared_ptr<const ir::TypeInfo> iterateTypes;
  mutable arith::Expr iterateLength;  // the fresh length variable L of those types
  // Whether e depends on the length that changes between the iterations of the enclosing
  // iterate (a rule must not build a type or a split factor from it).
  bool variesPerIteration(arith::Expr e) const;

  // Whether the site is inside the nested function of a pattern of kind k (e.g. in a mapWrg).
  // With dim >= 0, only patterns of that dimension count.
  bool insidePattern(ir::PatternKind k, int dim = -1) const;
  // Whether the site is inside any parallel map (mapGlb, mapWrg, mapLcl).
  bool insideParallelMap() const;
  // Whether the site is inside a sequential pattern's function (mapSeq, reduceSeq, ...).
  bool insideSequential() const;
};

// The result of trying a rule: the replacement node, or why it does not apply.
class Outcome {
 public:
  static Outcome fail(std::string reason) {
    Outcome o;
    o.reason_ = std::move(reason);
    return o;
  }
  static Outcome ok(ir::Expr e) {
    Outcome o;
    o.result_ = std::move(e);
    return o;
  }
  static Outcome ok(ir::Fun f) {
    Outcome o;
    o.result_ = std::move(f);
    return o;
  }
  // For rules that change the whole program (its sizes and input types), not one node.
  static Outcome ok(ir::Program p) {
    Outcome o;
    o.result_ = p.main->body();
    o.program_ = std::make_shared<const ir::Program>(std::move(p));
    return o;
  }
  explicit operator bool() const { return bool(result_); }
  const std::string& reason() const { return reason_; }
  const ir::NodeRef& result() const { return result_; }
  // The whole new program, for program-level rules (null for the others).
  const std::shared_ptr<const ir::Program>& program() const { return program_; }

 private:
  ir::NodeRef result_;
  std::shared_ptr<const ir::Program> program_;
  std::string reason_;
};

// ----- the rule ------------------------------------------------------------------------

enum class Target : uint8_t { Expr, Fun };

struct Rule {
  std::string name;  // kebab-case, unique: "map-fusion"
  Family family = Family::Simplification;
  std::string description;  // one line, for menus and `liftc rules`
  std::string lhs, rhs;     // display form: lhs => rhs
  std::vector<ParamSpec> params;
  Target target = Target::Expr;  // the kind of node the rule rewrites
  // For expression rules: the node must be a call of one of these patterns (empty: any node).
  // The engine skips other nodes without calling `apply`, which keeps enumeration fast.
  std::vector<ir::PatternKind> roots;
  // Rewrites the node at the site or says why not. `params` holds every parameter (defaults
  // filled in, values validated). The replacement must have the same type as the node.
  std::function<Outcome(const Site&, const ParamValues& params)> apply;
  // Optional: the parameter choices worth trying at a site, best first (e.g. the split factors
  // that divide the length). Without it the default values are tried.
  std::function<std::vector<ParamValues>(const Site&)> candidates;
  // Macro rules run a strategy and are slower to try; enumeration may skip them.
  bool macro = false;
  // The rule of the Lift implementation this one corresponds to, by its name in Lift's sources
  // ("mapFusion"; several separated by ", "; "FILE.name" where two of Lift's files use the name),
  // or "new" for a rule of this project. docs/RULES.md shows it; rewrite/LiftRules lists
  // Lift's rules and why those that none corresponds to are left out.
  std::string lift = "new";

  std::string display() const { return lhs + " => " + rhs; }
  const ParamSpec* param(std::string_view n) const;
  // Fills in defaults and validates names and values against the specs. Returns an error
  // message ("unknown parameter 'k' of split-join (it has: n)") or "" when valid.
  std::string completeParams(ParamValues& values) const;
};

// Validates one value for a parameter kind and its allowed list; "" if valid.
std::string validateParamValue(const ParamSpec& spec, const std::string& value);

}  // namespace lift::rewrite
