// The dataflow graph of a program, as the app draws it and as DOT exports it: a node per
// call, input and literal, edges for data flow, and a cluster per lambda nested in a pattern.
// Independent of Qt and Graphviz (views/GraphLayout lays it out).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/ir/IR.h"

namespace lift::ir {

struct ProgramGraph {
  enum class NodeKind {
    Input,  // a parameter of the program
    Param,  // a parameter of a lambda (an element, an accumulator, ...)
    Literal,
    Algorithmic,   // map, reduce, split, zip, ...
    DataLayout,    // split, join, zip, transpose, gather, ... (no computation)
    ParallelMap,   // mapGlb, mapWrg, mapLcl
    SequentialOp,  // mapSeq, reduceSeq, iterate and their unrolled forms
    AddressSpace,  // toGlobal, toLocal, toPrivate
    UserFun,
    LambdaCall,  // a lambda applied directly
  };
  struct Node {
    NodeId irId = 0;     // the IR node it shows (call, param or literal)
    std::string label;   // "split 128", "mapWrg0", "mult", "A"
    std::string detail;  // e.g. the type, filled by `describe`
    NodeKind kind = NodeKind::Algorithmic;
    int cluster = -1;  // index into clusters, -1 for the top level
    int level = 0;     // for ParallelMap / SequentialOp / AddressSpace: dimension or space
  };
  struct Edge {
    int from = 0, to = 0;  // node indices; data flows from -> to
    std::string label;     // argument position when a call has several ("0", "1")
    bool nested = false;   // links a pattern to the body of its nested function
  };
  struct Cluster {
    NodeId irId = 0;    // the lambda (or nested pattern) it shows
    std::string label;  // "f of map", "λ rowA"
    int parent = -1;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Cluster> clusters;
  int result = -1;  // the node producing the program's result

  // Index of the node showing IR node `id`, or -1.
  int findNode(NodeId id) const;
};

// Builds the graph of `p`. `describe`, when given, fills each node's detail (e.g. its type).
ProgramGraph buildProgramGraph(const Program& p,
                               const std::function<std::string(const Expr&)>& describe = {});

// Graphviz DOT text of the graph (clusters as subgraphs), for export and for `liftc graph`.
std::string toDot(const ProgramGraph& g, const std::string& name = "program");

// The label of a pattern with its static parameters: "split 128", "mapLcl0", "slide 3,1".
std::string patternLabel(const PatternNode& p);

}  // namespace lift::ir
