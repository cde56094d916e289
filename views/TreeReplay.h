// The one routine that rebuilds derivation states by replaying rewrites, for every way states
// come back (a saved session with its branches, a derivation file, a kernel picked from a
// search): a list of nodes, each a root (a program, or its text to parse) or a rewrite from an
// earlier node. It runs on a background thread (BackgroundJobs); the session then adds what it
// returns to the derivation tree on the GUI thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rewrite/Engine.h"

namespace lift::views {

struct ReplayNode {
  int parent = -1;   // an earlier node, or -1 for a root
  std::string spec;  // steps: the rewrite RULE@LOC[:PARAMS] from the parent
  // Roots: the program, or else its text (parsed and checked; `file` names it in messages).
  std::shared_ptr<const rewrite::TypedProgram> program;
  std::string text, file;
};

struct ReplayedNode {
  std::shared_ptr<const rewrite::TypedProgram> program;  // null when it (or its parent) failed
  std::string error;                                     // why it failed ("" when its parent did)
};

// Replays `nodes` in order. A node that fails leaves its subtree empty and the rest goes on.
// Stops early (the remaining nodes empty) once `stop` returns true.
std::vector<ReplayedNode> replayTree(const std::vector<ReplayNode>& nodes,
                                     const std::function<bool()>& stop = {});

// A chain: `start`, then each spec from the previous node.
std::vector<ReplayNode> replayChain(std::shared_ptr<const rewrite::TypedProgram> start,
                                    const std::vector<std::string>& specs);

}  // namespace lift::views
