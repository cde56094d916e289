// The Lift IR (CGO 2017, Figure 2): expressions (Literal, Param, FunCall) and function
// declarations (Lambda, Pattern, UserFun), both nodes (Node: kind and id). Nodes are immutable
// and shared; a rewrite rebuilds only the path to what it changed, so untouched nodes keep their
// stable ids (the GUI uses the ids to highlight what a rewrite changed and to link graph, kernel
// lines and indices).
// Types are not stored in nodes: the type checker returns them per node (TypeInfo).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/arith/ArithExpr.h"
#include "core/ir/Pattern.h"
#include "core/support/Diagnostic.h"
#include "core/types/Type.h"

namespace lift::cfun {
struct Body;  // the parsed body of a user function (a small C subset), see core/cfun/CFun.h
}

namespace lift::ir {

class Node;
class ExprNode;
class FunNode;
class LambdaNode;
class ParamNode;
using Expr = std::shared_ptr<const ExprNode>;
using Fun = std::shared_ptr<const FunNode>;
using Lambda = std::shared_ptr<const LambdaNode>;
using Param = std::shared_ptr<const ParamNode>;

using NodeId = uint64_t;
// A fresh id, unique in this process.
NodeId freshNodeId();

// ----- nodes -------------------------------------------------------------------------------

// What every node is: one closed set of kinds, expressions first, then function declarations.
enum class NodeKind : uint8_t { Literal, Param, Call, Lambda, Pattern, UserFun };

// The base of expressions and function declarations: a node's kind and its id. Analyses that
// walk both (parents, memos, the occurrences of a program) key on `const Node*` or the id.
class Node {
 public:
  virtual ~Node() = default;
  NodeKind nodeKind() const { return kind_; }
  NodeId id() const { return id_; }
  bool isExpr() const { return kind_ <= NodeKind::Call; }
  bool isFun() const { return !isExpr(); }

 protected:
  explicit Node(NodeKind k) : kind_(k), id_(freshNodeId()) {}

 private:
  NodeKind kind_;
  NodeId id_;
};

// ----- expressions ------------------------------------------------------------------------

class ExprNode : public Node {
 public:
  // The expression kinds of NodeKind, in the same order.
  enum class Kind : uint8_t { Literal, Param, Call };
  Kind kind() const { return static_cast<Kind>(nodeKind()); }

 protected:
  explicit ExprNode(Kind k) : Node(static_cast<NodeKind>(k)) {}
};

// A constant. A scalar literal ("0.0f", "1", "true"), a vector literal, or an array whose
// elements all equal the scalar `text` (Lift's Value with an array type, e.g. the zero tile
// that a register-blocked reduction starts from).
class LiteralNode : public ExprNode {
 public:
  static std::shared_ptr<const LiteralNode> make(std::string text, Type type);
  const std::string& text() const { return text_; }
  Type type() const { return type_; }
  LiteralNode(std::string text, Type type) : ExprNode(Kind::Literal), text_(std::move(text)), type_(type) {}

 private:
  std::string text_;
  Type type_;
};

// A parameter of a lambda or of the program. Identity matters: a Param node is the binder, and
// every use refers to the same node. `declaredType` is set for program inputs and for lambda
// parameters written with a type; otherwise the type checker infers it.
class ParamNode : public ExprNode {
 public:
  static Param make(std::string name, Type declaredType = {});
  const std::string& name() const { return name_; }
  Type declaredType() const { return declaredType_; }
  ParamNode(std::string name, Type t) : ExprNode(Kind::Param), name_(std::move(name)), declaredType_(t) {}

 private:
  std::string name_;
  Type declaredType_;
};

// f(args...). Patterns take their data as arguments: zip(a, b) is Call(Zip(2), a, b);
// reduce is Call(Reduce(f), init, array); a lambda with two parameters takes two arguments.
class CallNode : public ExprNode {
 public:
  static std::shared_ptr<const CallNode> make(Fun f, std::vector<Expr> args);
  const Fun& fun() const { return fun_; }
  const std::vector<Expr>& args() const { return args_; }
  CallNode(Fun f, std::vector<Expr> args)
      : ExprNode(Kind::Call), fun_(std::move(f)), args_(std::move(args)) {}

 private:
  Fun fun_;
  std::vector<Expr> args_;
};

// ----- function declarations ----------------------------------------------------------------

class FunNode : public Node {
 public:
  // The function kinds of NodeKind, in the same order.
  enum class Kind : uint8_t { Lambda, Pattern, UserFun };
  Kind kind() const { return static_cast<Kind>(static_cast<uint8_t>(nodeKind()) - kFirst); }

 protected:
  explicit FunNode(Kind k) : Node(static_cast<NodeKind>(static_cast<uint8_t>(k) + kFirst)) {}

 private:
  static constexpr uint8_t kFirst = static_cast<uint8_t>(NodeKind::Lambda);
};

// ExprNode::Kind and FunNode::Kind are the two halves of NodeKind, in its order.
static_assert(int(ExprNode::Kind::Call) == int(NodeKind::Call));
static_assert(int(FunNode::Kind::UserFun) + int(NodeKind::Lambda) == int(NodeKind::UserFun));

class LambdaNode : public FunNode {
 public:
  static Lambda make(std::vector<Param> params, Expr body);
  const std::vector<Param>& params() const { return params_; }
  const Expr& body() const { return body_; }
  LambdaNode(std::vector<Param> p, Expr b)
      : FunNode(Kind::Lambda), params_(std::move(p)), body_(std::move(b)) {}

 private:
  std::vector<Param> params_;
  Expr body_;
};

// Index functions for gather and scatter: element i of an array of length n is read from
// (gather) or written to (scatter) position f(i, n).
struct IndexFun {
  enum class Kind : uint8_t { Identity, Reverse, ReorderStride, Transpose, Shift };
  Kind kind = Kind::Identity;
  // ReorderStride: the stride s, i -> (i / (n/s)) + s * (i % (n/s))... see docs/LANGUAGE.md.
  // Transpose: rows and cols of the (flattened) matrix being transposed.
  // Shift: the amount k of the rotation i -> (i + k) % n (Lift's Shift), 0 <= k.
  arith::Expr a, b;
  friend bool operator==(const IndexFun&, const IndexFun&) = default;
};

enum class PadMode : uint8_t { Clamp, Mirror, Wrap, Constant };

// A built-in pattern with its static parameters (see core/ir/Pattern.h for the list).
class PatternNode : public FunNode {
 public:
  struct Params {
    std::vector<Fun> funs;           // nested functions: map's f, reduce's f, iterate's f, toLocal's f, ...
    std::vector<arith::Expr> sizes;  // split n; slide size, step; pad left, right; iterate n;
                                     // asVector / vectorize width; partRed m; reorderStride s
    int index = 0;                   // get's component, zip/tuple arity, map dimension (0..2)
    IndexFun indexFun;               // gather, scatter
    PadMode padMode = PadMode::Clamp;
    std::string padValue;  // PadMode::Constant
    // md_hom: per dimension (outermost first), whether it combines by concatenation (++); the
    // combine operators of the other dimensions are funs[1], funs[2], ... in order (funs[0] is f).
    std::vector<bool> concat;
  };
  static std::shared_ptr<const PatternNode> make(PatternKind k, Params p);
  PatternKind pattern() const { return pattern_; }
  const Params& params() const { return params_; }
  // Convenience accessors for the common parameters.
  const Fun& f() const { return params_.funs.at(0); }
  arith::Expr size(size_t i = 0) const { return params_.sizes.at(i); }
  int index() const { return params_.index; }
  PatternNode(PatternKind k, Params p) : FunNode(Kind::Pattern), pattern_(k), params_(std::move(p)) {}

 private:
  PatternKind pattern_;
  Params params_;
};

// A user function: typed scalar/vector/tuple parameters and a body in a small C subset that
// the interpreter executes and the code generator emits.
struct UserFunDef {
  std::string name;
  std::vector<std::pair<std::string, Type>> params;
  Type returnType;
  std::string bodyText;                    // the body as written, between the braces
  std::shared_ptr<const cfun::Body> body;  // parsed body
  SourceLoc loc;
};

class UserFunNode : public FunNode {
 public:
  static std::shared_ptr<const UserFunNode> make(std::shared_ptr<const UserFunDef> def);
  const UserFunDef& def() const { return *def_; }
  const std::shared_ptr<const UserFunDef>& defPtr() const { return def_; }
  explicit UserFunNode(std::shared_ptr<const UserFunDef> d) : FunNode(Kind::UserFun), def_(std::move(d)) {}

 private:
  std::shared_ptr<const UserFunDef> def_;
};

// Downcasts (nullptr when the node is of another kind).
const LiteralNode* asLiteral(const Expr& e);
const ParamNode* asParam(const Expr& e);
const CallNode* asCall(const Expr& e);
const LambdaNode* asLambda(const Fun& f);
const PatternNode* asPattern(const Fun& f);
const UserFunNode* asUserFun(const Fun& f);
// The pattern called by `e`, if e is a call of a pattern of kind k (or any pattern if k is null).
const PatternNode* calledPattern(const Expr& e, std::optional<PatternKind> k = std::nullopt);

// ----- programs ------------------------------------------------------------------------------

struct SizeDecl {
  std::string name;
  std::optional<int64_t> defaultValue;
  arith::Expr var;  // arith::sizeVar(name)
  SourceLoc loc;
};

// A whole program: size variables, user functions and the top-level function whose parameters
// are the typed inputs.
struct Program {
  std::string file;  // where it was read from ("" if built in memory)
  std::string name;  // the top-level function's name
  std::vector<SizeDecl> sizes;
  std::vector<std::shared_ptr<const UserFunDef>> userFuns;
  Lambda main;
  // Source positions of nodes (by id), filled by the parser; nodes a rewrite creates have none.
  std::shared_ptr<const std::unordered_map<NodeId, SourceLoc>> locations;
  // The text it was parsed from (null if built in memory): diagnostics about the program, e.g.
  // the type checker's, show the offending line with a caret.
  std::shared_ptr<const std::string> source;

  SourceLoc locationOf(NodeId id) const;
  // A diagnostic at the location of node `id` (with the source line and caret when known).
  Diagnostic diagnosticAt(NodeId id, std::string message) const;
  const SizeDecl* findSize(const std::string& name) const;
};

// ----- structure ---------------------------------------------------------------------------

// Equality up to renaming of parameters (and ignoring node ids and source locations).
bool alphaEqual(const Fun& a, const Fun& b);
bool alphaEqual(const Expr& a, const Expr& b);
// A hash consistent with alphaEqual.
size_t structuralHash(const Fun& f);
size_t structuralHash(const Expr& e);
// Hash of a whole program (its main function; sizes and user functions by name).
size_t structuralHash(const Program& p);

// Number of nodes (expressions + function declarations) reachable from f.
size_t nodeCount(const Fun& f);

// ----- traversal -------------------------------------------------------------------------

// A node of the program graph, an expression or a function declaration: one shared pointer to
// the node, viewed as the one or the other through expr() and fun().
class NodeRef {
 public:
  NodeRef() = default;
  NodeRef(Expr e) : node_(std::move(e)) {}  // NOLINT: an Expr is a node
  NodeRef(Fun f) : node_(std::move(f)) {}   // NOLINT: a Fun is a node

  explicit operator bool() const { return node_ != nullptr; }
  const Node* get() const { return node_.get(); }
  bool isExpr() const { return node_ && node_->isExpr(); }
  bool isFun() const { return node_ && node_->isFun(); }
  NodeId id() const { return node_->id(); }
  // The node as an expression / as a function declaration; null when it is the other (or none).
  Expr expr() const { return isExpr() ? std::static_pointer_cast<const ExprNode>(node_) : nullptr; }
  Fun fun() const { return isFun() ? std::static_pointer_cast<const FunNode>(node_) : nullptr; }

 private:
  std::shared_ptr<const Node> node_;
};

// How a node hangs below its parent.
enum class Edge : uint8_t {
  Root,         // where the traversal started
  CallFun,      // the function of a call
  CallArg,      // argument `index` of a call
  LambdaParam,  // parameter `index` of a lambda (the binder itself)
  LambdaBody,   // the body of a lambda
  PatternFun,   // nested function `index` of a pattern (map's f, iterate's f, ...)
};

struct PathStep {
  NodeRef node;
  Edge edge = Edge::Root;
  int index = 0;
};
// From the root (first) to the visited node (last).
using NodePath = std::vector<PathStep>;

// Pre-order walk of the tree of occurrences below `root`: a node before its children; a call's
// function before its arguments; a lambda's parameters (binders), then its body. A node shared
// by several parents is visited once per occurrence. `visit` returns false to skip the children.
void visitPreOrder(const Fun& root, const std::function<bool(const NodePath&)>& visit);
void visitPreOrder(const Expr& root, const std::function<bool(const NodePath&)>& visit);

// The children of a node in the order of visitPreOrder, with the edge leading to each.
std::vector<PathStep> children(const NodeRef& n);

// Whether parameter p is used in e / f.
bool occursIn(const ParamNode* p, const Expr& e);
bool occursIn(const ParamNode* p, const Fun& f);
// Parameters used but not bound below the root, in order of first use.
std::vector<Param> freeParams(const Fun& f);
std::vector<Param> freeParams(const Expr& e);
// Whether a pattern of one of `kinds` (of dimension `dim`, when dim >= 0) is called in f / e,
// nested functions included.
bool containsPattern(const Fun& f, std::initializer_list<PatternKind> kinds, int dim = -1);
bool containsPattern(const Expr& e, std::initializer_list<PatternKind> kinds, int dim = -1);

// Rebuilds a graph bottom-up, Halide-IRMutator style: a node none of whose children changed is
// returned as is, so untouched nodes keep their ids. Override `mutate` to replace nodes and call
// the base version to recurse. Binders (lambda parameters) are kept; only uses are mutated.
class Mutator {
 public:
  virtual ~Mutator() = default;
  virtual Expr mutate(const Expr& e) { return mutateChildren(e); }
  virtual Fun mutate(const Fun& f) { return mutateChildren(f); }

 protected:
  Expr mutateChildren(const Expr& e);
  Fun mutateChildren(const Fun& f);
};

// Replaces uses of parameters (by node identity).
Expr substitute(const Expr& e, const std::unordered_map<const ParamNode*, Expr>& replacement);
Fun substitute(const Fun& f, const std::unordered_map<const ParamNode*, Expr>& replacement);

// Beta reduction of a call of a lambda with as many parameters as arguments: the body with the
// parameters replaced by the arguments. nullptr when `call` is not such a call.
Expr betaReduce(const Expr& call);

}  // namespace lift::ir
