// Builds the dataflow graph of a program (see ProgramGraph.h) and writes it as DOT.
#include "core/ir/ProgramGraph.h"

#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "core/ir/Prelude.h"

namespace lift::ir {

int ProgramGraph::findNode(NodeId id) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].irId == id) return static_cast<int>(i);
  return -1;
}

namespace {
std::string shortFunName(const Fun& f);
}  // namespace

std::string patternLabel(const PatternNode& p) {
  std::string name(patternName(p.pattern()));
  auto& ps = p.params();
  switch (p.pattern()) {
    case PatternKind::MapGlb:
    case PatternKind::MapWrg:
    case PatternKind::MapLcl:
    case PatternKind::MapAtomWrg:
    case PatternKind::MapAtomLcl:
      return fmt::format("{}{}", name, ps.index);
    case PatternKind::Get:
      return fmt::format("get {}", ps.index);
    case PatternKind::Gather:
    case PatternKind::Scatter: {
      auto& f = ps.indexFun;
      switch (f.kind) {
        case IndexFun::Kind::Reverse:
          return name + " reverse";
        case IndexFun::Kind::ReorderStride:
          return fmt::format("{} reorderStride {}", name, arith::toString(f.a));
        case IndexFun::Kind::Transpose:
          return fmt::format("{} transpose {},{}", name, arith::toString(f.a), arith::toString(f.b));
        case IndexFun::Kind::Shift:
          return fmt::format("{} shift {}", name, arith::toString(f.a));
        case IndexFun::Kind::Identity:
          return name;
      }
      return name;
    }
    // ----- issue 16: arrayFromGenerator's index expression (the other generators: name, lengths) -----
    case PatternKind::ArrayFromGenerator:
      return fmt::format("{} {}: {} => {}", name, arith::toString(ps.sizes.at(0)),
                         arith::toString(ps.sizes.at(1)), arith::toString(ps.sizes.at(2)));
    case PatternKind::MdHom: {
      // md_hom(mult, (++, add)) 2D: the scalar function, the combine operators, the dimensions.
      std::string ops;
      size_t op = 1;
      for (size_t k = 0; k < ps.concat.size(); ++k)
        ops += (k ? ", " : "") + (ps.concat[k] ? std::string("++") : shortFunName(ps.funs.at(op++)));
      return fmt::format("md_hom({}, ({})) {}D", ps.funs.empty() ? "?" : shortFunName(ps.funs[0]), ops,
                         ps.concat.size());
    }
    case PatternKind::Pad: {
      static const char* modes[] = {"clamp", "mirror", "wrap", "constant"};
      std::string mode = ps.padMode == PadMode::Constant ? ps.padValue : modes[static_cast<int>(ps.padMode)];
      std::string l = ps.sizes.size() > 0 ? arith::toString(ps.sizes[0]) : "?";
      std::string r = ps.sizes.size() > 1 ? arith::toString(ps.sizes[1]) : "?";
      return fmt::format("pad {},{} {}", l, r, mode);
    }
    default:
      break;
  }
  std::string label = name;
  for (size_t i = 0; i < ps.sizes.size(); ++i) label += (i == 0 ? " " : ",") + arith::toString(ps.sizes[i]);
  return label;
}

namespace {

ProgramGraph::NodeKind kindOf(const PatternNode& p) {
  using K = ProgramGraph::NodeKind;
  switch (p.pattern()) {
    case PatternKind::MapGlb:
    case PatternKind::MapWrg:
    case PatternKind::MapLcl:
    case PatternKind::MapWarp:
    case PatternKind::MapLane:
    case PatternKind::MapAtomWrg:
    case PatternKind::MapAtomLcl:
      return K::ParallelMap;
    case PatternKind::MapSeq:
    case PatternKind::MapSeqUnroll:
    case PatternKind::MapSeqSlide:  // issue 16
    case PatternKind::ReduceSeq:
    case PatternKind::ReduceSeqUnroll:
    case PatternKind::ScanSeq:
    case PatternKind::MapVec:
    case PatternKind::Dot:
    case PatternKind::Fma:
    case PatternKind::BSearch:  // issue 17 (lift17p)
    case PatternKind::LSearch:
    case PatternKind::ReduceWhileSeq:
    case PatternKind::FilterSeq:
    case PatternKind::InsertionSort:
      return K::SequentialOp;
    case PatternKind::ToGlobal:
    case PatternKind::ToLocal:
    case PatternKind::ToPrivate:
      return K::AddressSpace;
    default:
      return isDataLayout(p.pattern()) ? K::DataLayout : K::Algorithmic;
  }
}

int levelOf(const PatternNode& p) {
  switch (p.pattern()) {
    case PatternKind::MapGlb:
      return 0;
    case PatternKind::MapWrg:
    case PatternKind::MapAtomWrg:
      return 1;
    case PatternKind::MapLcl:
    case PatternKind::MapAtomLcl:
    case PatternKind::MapWarp:
    case PatternKind::MapLane:
      return 2;
    case PatternKind::ToGlobal:
      return 0;
    case PatternKind::ToLocal:
      return 1;
    case PatternKind::ToPrivate:
      return 2;
    default:
      return 0;
  }
}

// A short name for a function used inside a label ("mult", "map(id)", "λ").
std::string shortFunName(const Fun& f) {
  if (auto* u = asUserFun(f)) return u->def().name;
  if (auto* p = asPattern(f)) {
    std::string s = patternLabel(*p);
    if (p->pattern() == PatternKind::MdHom) return s;  // its label names its functions
    if (!p->params().funs.empty()) {
      s += "(";
      for (size_t i = 0; i < p->params().funs.size(); ++i)
        s += (i ? ", " : "") + shortFunName(p->params().funs[i]);
      s += ")";
    }
    return s;
  }
  return "λ";
}

// Whether a nested function is simple enough to be shown inside its pattern's label.
bool inlineInLabel(const Fun& f) {
  if (asUserFun(f)) return true;
  if (auto* p = asPattern(f)) {
    for (auto& g : p->params().funs)
      if (!inlineInLabel(g)) return false;
    return true;
  }
  return false;
}

// The label of the dotted edge from nested function `fun` of p to p: "f", or for md_hom's
// combine operators "⊛k" with k the dimension it combines.
std::string edgeLabel(const PatternNode& p, size_t fun) {
  if (p.pattern() != PatternKind::MdHom || fun == 0) return "f";
  size_t op = 0;
  for (size_t k = 0; k < p.params().concat.size(); ++k)
    if (!p.params().concat[k] && ++op == fun) return fmt::format("⊛{}", k + 1);
  return "f";
}

class GraphBuilder {
 public:
  GraphBuilder(ProgramGraph& g, const std::function<std::string(const Expr&)>& describe)
      : g_(g), describe_(describe) {}

  void build(const Program& p) {
    for (auto& param : p.main->params())
      bindings_[param.get()] = addNode(param->id(), param->name(), ProgramGraph::NodeKind::Input, -1, param);
    g_.result = visit(p.main->body(), -1);
  }

 private:
  int addNode(NodeId id, std::string label, ProgramGraph::NodeKind kind, int cluster, const Expr& e) {
    ProgramGraph::Node n;
    n.irId = id;
    n.label = std::move(label);
    n.kind = kind;
    n.cluster = cluster;
    if (describe_ && e) n.detail = describe_(e);
    g_.nodes.push_back(std::move(n));
    return static_cast<int>(g_.nodes.size()) - 1;
  }

  void addEdge(int from, int to, std::string label = {}, bool nested = false) {
    if (from < 0 || to < 0) return;
    g_.edges.push_back({from, to, std::move(label), nested});
  }

  int addCluster(NodeId id, std::string label, int parent) {
    g_.clusters.push_back({id, std::move(label), parent});
    return static_cast<int>(g_.clusters.size()) - 1;
  }

  // Shows lambda `l` as a cluster whose parameters are fed by nothing (they stand for the
  // elements the pattern passes in); returns the node of the lambda's result.
  // `feeding` are the nodes of the data the pattern passes in: when there is one per
  // parameter, argument i feeds parameter i (reduce: init -> acc, array -> x); otherwise the
  // last argument (the array) feeds the first parameter. Those links are dotted.
  int visitNestedLambda(const LambdaNode& l, int parentCluster, const std::string& owner,
                        const std::vector<int>& feeding = {}) {
    std::string label = owner + ": λ";
    for (size_t i = 0; i < l.params().size(); ++i) label += (i ? ", " : " ") + l.params()[i]->name();
    int c = addCluster(l.id(), label, parentCluster);
    for (size_t i = 0; i < l.params().size(); ++i) {
      auto& prm = l.params()[i];
      int pn = addNode(prm->id(), prm->name(), ProgramGraph::NodeKind::Param, c, prm);
      bindings_[prm.get()] = pn;
      if (feeding.size() == l.params().size())
        addEdge(feeding[i], pn, {}, true);
      else if (i == 0 && !feeding.empty())
        addEdge(feeding.back(), pn, {}, true);
    }
    return visit(l.body(), c);
  }

  int visit(const Expr& e, int cluster) {
    if (auto it = shown_.find(e.get()); it != shown_.end()) return it->second;
    if (auto* prm = asParam(e)) {
      auto it = bindings_.find(prm);
      if (it != bindings_.end()) return it->second;
      // A free parameter (should not happen in a well-formed program): show it once.
      int n = addNode(prm->id(), prm->name(), ProgramGraph::NodeKind::Param, cluster, e);
      bindings_[prm] = n;
      return n;
    }
    if (auto* lit = asLiteral(e))
      return addNode(lit->id(), lit->text(), ProgramGraph::NodeKind::Literal, cluster, e);
    auto* call = asCall(e);
    if (!call) return -1;
    // allPairs shows as a cluster of its name around the nest of maps it stands for, inner maps
    // and lambdas included. Its arrays are drawn outside the cluster, the second too, which the
    // nest computes inside the rows' lambda (it does not depend on the row).
    if (auto m = matchAllPairs(*call); m && allPairs_.insert(call).second) {
      int c = addCluster(e->id(), m->label(), cluster);
      std::vector<const ExprNode*> added;
      for (const Expr* a : {&m->x(), &m->y()}) {
        int n = visit(*a, cluster);
        if (shown_.emplace(a->get(), n).second) added.push_back(a->get());
      }
      int n = visit(e, c);
      for (auto* a : added) shown_.erase(a);
      allPairs_.erase(call);
      return n;
    }
    // A prelude function (slide2D, pad2D) shows as a cluster of that name around its calls.
    if (auto m = matchPrelude(*call)) {
      int c = addCluster(e->id(), m->text, cluster);
      int n = visit(m->calls.back()->args().back(), cluster);
      for (size_t i = m->calls.size(); i-- > 0;) {
        auto* p = asPattern(m->calls[i]->fun());
        int k = addNode(m->calls[i]->id(), shortFunName(m->calls[i]->fun()), kindOf(*p), c,
                        i == 0 ? e : m->calls[i - 1]->args().back());
        addEdge(n, k);
        n = k;
      }
      return n;
    }
    std::vector<int> argNodes;
    for (auto& a : call->args()) argNodes.push_back(visit(a, cluster));
    auto labelFor = [&](size_t i) { return call->args().size() > 1 ? std::to_string(i) : std::string(); };

    const Fun& f = call->fun();
    if (auto* l = asLambda(f)) {
      // A lambda applied directly: its parameters are bound to the argument nodes.
      int c = addCluster(l->id(), "λ", cluster);
      for (size_t i = 0; i < l->params().size() && i < argNodes.size(); ++i) {
        int pn = addNode(l->params()[i]->id(), l->params()[i]->name(), ProgramGraph::NodeKind::Param, c,
                         l->params()[i]);
        bindings_[l->params()[i].get()] = pn;
        addEdge(argNodes[i], pn, labelFor(i));
      }
      return visit(l->body(), c);
    }
    if (auto* u = asUserFun(f)) {
      int n = addNode(e->id(), u->def().name, ProgramGraph::NodeKind::UserFun, cluster, e);
      for (size_t i = 0; i < argNodes.size(); ++i) addEdge(argNodes[i], n, labelFor(i));
      return n;
    }
    auto* p = asPattern(f);
    if (!p) return -1;
    std::string label = patternLabel(*p);
    bool inlined = true;
    for (auto& g : p->params().funs) inlined = inlined && inlineInLabel(g);
    if (inlined && !p->params().funs.empty()) label = shortFunName(f);
    int n = addNode(e->id(), label, kindOf(*p), cluster, e);
    g_.nodes[n].level = levelOf(*p);
    for (size_t i = 0; i < argNodes.size(); ++i) addEdge(argNodes[i], n, labelFor(i));
    if (!inlined) {
      for (size_t gi = 0; gi < p->params().funs.size(); ++gi) {
        const Fun& g = p->params().funs[gi];
        int body = -1;
        std::string owner(patternName(p->pattern()));
        if (auto* gl = asLambda(g)) {
          body = visitNestedLambda(*gl, cluster, owner, argNodes);
        } else {
          // A nested pattern with nested lambdas: show it in a cluster of its own.
          int c = addCluster(g->id(), owner + ": " + shortFunName(g), cluster);
          auto* gp = asPattern(g);
          body = addNode(g->id(), gp ? patternLabel(*gp) : shortFunName(g),
                         gp ? kindOf(*gp) : ProgramGraph::NodeKind::UserFun, c, {});
          if (gp)
            for (auto& h : gp->params().funs)
              if (auto* hl = asLambda(h))
                addEdge(visitNestedLambda(*hl, c, std::string(patternName(gp->pattern()))), body, {}, true);
        }
        addEdge(body, n, edgeLabel(*p, gi), true);
      }
    }
    return n;
  }

  ProgramGraph& g_;
  const std::function<std::string(const Expr&)>& describe_;
  std::unordered_map<const ParamNode*, int> bindings_;
  // The arrays of the allPairs being shown, drawn before its cluster, and that allPairs.
  std::unordered_map<const ExprNode*, int> shown_;
  std::unordered_set<const CallNode*> allPairs_;
};

std::string dotEscape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r;
}

}  // namespace

ProgramGraph buildProgramGraph(const Program& p, const std::function<std::string(const Expr&)>& describe) {
  ProgramGraph g;
  if (!p.main) return g;
  GraphBuilder(g, describe).build(p);
  return g;
}

std::string toDot(const ProgramGraph& g, const std::string& name) {
  std::string out = fmt::format(
      "digraph \"{}\" {{\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", "
      "fontname=\"Helvetica\"];\n",
      dotEscape(name));
  static const char* fill[] = {"#dbe9f6", "#eeeeee", "#fff2cc", "#d9ead3", "#f3f3f3",
                               "#f4cccc", "#fce5cd", "#e6d7f3", "#ffe0b2", "#ffffff"};
  // Nodes and clusters, nested.
  std::function<void(int, const std::string&)> emit = [&](int cluster, const std::string& indent) {
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      auto& n = g.nodes[i];
      if (n.cluster != cluster) continue;
      out += fmt::format("{}n{} [label=\"{}\", fillcolor=\"{}\"{}];\n", indent, i, dotEscape(n.label),
                         fill[static_cast<int>(n.kind)],
                         n.detail.empty() ? "" : ", tooltip=\"" + dotEscape(n.detail) + "\"");
    }
    for (size_t c = 0; c < g.clusters.size(); ++c) {
      if (g.clusters[c].parent != cluster) continue;
      out += fmt::format("{}subgraph cluster_{} {{\n{}  label=\"{}\"; style=dashed;\n", indent, c, indent,
                         dotEscape(g.clusters[c].label));
      emit(static_cast<int>(c), indent + "  ");
      out += indent + "}\n";
    }
  };
  emit(-1, "  ");
  for (auto& e : g.edges) {
    std::string attrs;
    if (!e.label.empty()) attrs += "label=\"" + dotEscape(e.label) + "\"";
    if (e.nested) attrs += std::string(attrs.empty() ? "" : ", ") + "style=dotted, constraint=false";
    out += fmt::format("  n{} -> n{}{};\n", e.from, e.to, attrs.empty() ? "" : " [" + attrs + "]");
  }
  out += "}\n";
  return out;
}

}  // namespace lift::ir
