// The typing rule of every pattern, declared once: the result type of a pattern applied to
// arguments of given types (docs/LANGUAGE.md writes each rule down). The type checker adds its
// verification (divisibility and other facts about lengths that need proof, the OpenCL nesting of
// parallel maps) and located diagnostics; the code generator re-types each use with the same
// rules; neither has its own copy. A rule that cannot give a type says why instead of asserting.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/ir/IR.h"

namespace lift::ir {

// The result of a typing rule: the result type, or why the application has none.
class InferredType {
 public:
  // Whom a failure is about: the data the pattern is applied to (an error at the call), or the
  // pattern's own parameters (an error at the pattern: a factor that is not positive, say).
  enum class Blame { Arguments, Parameters };

  static InferredType ok(Type t, std::vector<Type> iterations = {});
  static InferredType fail(Blame blame, std::string reason);

  explicit operator bool() const { return static_cast<bool>(type_); }
  Type type() const { return type_; }
  Blame blame() const { return blame_; }
  const std::string& reason() const { return reason_; }
  // iterate with a count it types one iteration at a time: the n + 1 types flowing between the
  // iterations (the input, after one iteration, ..., the result). Empty otherwise.
  const std::vector<Type>& iterations() const { return iterations_; }

 private:
  Type type_;
  Blame blame_ = Blame::Arguments;
  std::string reason_;
  std::vector<Type> iterations_;
};

// Types nested function `fun` of the pattern (params().funs[fun]: 0 is map's f, reduce's
// operator, iterate's body, ...; md_hom's combine operators follow its f) applied to arguments of
// the given types. It may throw; the exception passes through the rule.
using NestedTyping = std::function<Type(const std::vector<Type>& args, size_t fun)>;

// The result type of pattern p applied to arguments of types `args`.
InferredType inferPatternType(const PatternNode& p, const std::vector<Type>& args, const NestedTyping& typeF);

// The symbolic length an iterate's body is typed with when its count is symbolic (or too large to
// type one iteration at a time): the body must turn it into itself, a constant fraction or a
// constant multiple of it. Lengths that involve it are not known values.
arith::Expr iterateBodyLength(const PatternNode& iterate);

// How diagnostics name the pattern: "split 4", "mapGlb0", "get 1" (the graph labels patterns
// with more detail: ProgramGraph.h's patternLabel).
std::string diagnosticLabel(const PatternNode& p);

}  // namespace lift::ir
