// Locations: stable paths from a program's main function to one occurrence of a node.
//
// The path scheme (docs/RULES.md repeats it for users):
//   - the empty path is the main function (a lambda) itself; "0" is its body;
//   - below a call, child 0 is the called function and child i+1 is argument i;
//   - below a lambda, child 0 is the body (parameters are binders, not locations);
//   - below a pattern, child i is its nested function i (map's f, iterate's f, toLocal's f...);
//   - literals, parameters and user functions have no children.
// Written as dot-separated indices: "0.1.0.0" is the function of the function of argument 0 of
// the body. Paths address occurrences, so a node shared by two parents has two locations. A
// rewrite at a location rebuilds only the nodes on the path to it; every other node, and so
// every other location's node, is kept (with its id).
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/IR.h"

namespace lift::rewrite {

// The largest index one step of a location may have (no node has a million children). Every
// index read from user text (locations, `argument(I, s)`, `child(I, s)`) is checked against it.
inline constexpr int kMaxLocationStep = 999999;

class Location {
 public:
  Location() = default;  // the main function
  explicit Location(std::vector<int> steps) : steps_(std::move(steps)) {}
  // The main function's body, "0".
  static Location body() { return Location({0}); }
  // Parses "0.1.2"; nullopt for anything else (empty text, non-digits, empty components).
  static std::optional<Location> parse(std::string_view text);

  std::string toString() const;
  const std::vector<int>& steps() const { return steps_; }
  size_t depth() const { return steps_.size(); }
  bool isMain() const { return steps_.empty(); }
  Location child(int i) const;
  Location parent() const;  // precondition: !isMain()
  // Whether this is `other` or one of its ancestors.
  bool isPrefixOf(const Location& other) const;
  // The location relative to a prefix: "0.1.2" relative to "0.1" is "2".
  Location relativeTo(const Location& prefix) const;
  Location operator+(const Location& rel) const;

  friend bool operator==(const Location&, const Location&) = default;
  friend auto operator<=>(const Location&, const Location&) = default;

 private:
  std::vector<int> steps_;
};

// The children of a node in location order (see the scheme above).
std::vector<ir::NodeRef> locationChildren(const ir::NodeRef& n);

// The node at a location together with the nodes on the way to it (from the main function,
// first, to its parent, last). `error` says why a location does not resolve.
struct Resolved {
  ir::NodeRef node;
  std::vector<ir::NodeRef> ancestors;
  explicit operator bool() const { return bool(node); }
};
Resolved resolve(const ir::Lambda& main, const Location& loc, std::string* error = nullptr);

// A copy of `main` in which the node at `loc` is `replacement` (an expression for an expression
// location, a function for a function location). Only the nodes on the path are rebuilt.
// Precondition: loc resolves and the replacement is of the same kind (expr or fun).
ir::Lambda replaceAt(const ir::Lambda& main, const Location& loc, const ir::NodeRef& replacement);

// Every location below `main` (and `main`'s body), in pre-order, with the node there.
struct LocatedNode {
  Location loc;
  ir::NodeRef node;
};
std::vector<LocatedNode> allLocations(const ir::Lambda& main);

// A short description of the node at a location, for messages: "call of map", "lambda (x)",
// "parameter A", "user function mult".
std::string describeNode(const ir::NodeRef& n);

}  // namespace lift::rewrite
