// The one place that talks to Graphviz: builds a cgraph graph with clusters, runs dot, reads
// node boxes, edge splines and cluster boxes, and flips y for Qt.
#include "views/GraphLayout.h"

#include <cgraph.h>
#include <gvc.h>

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace lift::views {

namespace {

// Graphviz keeps global state: one context for the process, used under a lock.
std::mutex& gvMutex() {
  static std::mutex m;
  return m;
}

GVC_t* context() {
  static GVC_t* gvc = gvContext();
  return gvc;
}

void set(void* obj, const char* name, const std::string& value) {
  agsafeset(obj, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

// RAII for a graph and its layout.
class LaidOutGraph {
 public:
  explicit LaidOutGraph(const char* name) {
    Agdesc_t desc = Agdirected;
    g_ = agopen(const_cast<char*>(name), desc, nullptr);
  }
  ~LaidOutGraph() {
    if (laidOut_) gvFreeLayout(context(), g_);
    agclose(g_);
  }
  LaidOutGraph(const LaidOutGraph&) = delete;
  LaidOutGraph& operator=(const LaidOutGraph&) = delete;
  Agraph_t* get() const { return g_; }
  void layout() {
    if (gvLayout(context(), g_, "dot") != 0) throw std::runtime_error("graphviz: dot layout failed");
    laidOut_ = true;
  }

 private:
  Agraph_t* g_ = nullptr;
  bool laidOut_ = false;
};

// Graphviz points (y up) to scene coordinates (y down).
struct Flip {
  double top;
  QPointF operator()(pointf p) const { return QPointF(p.x, top - p.y); }
};

QRectF boxToRect(boxf bb, const Flip& flip) {
  QPointF a = flip(bb.LL), b = flip(bb.UR);
  return QRectF(a, b).normalized();
}

QPainterPath splineToPath(const splines* spl, const Flip& flip, QPointF& tip) {
  QPainterPath path;
  if (!spl || spl->size == 0) return path;
  const bezier& bz = spl->list[0];
  if (bz.size == 0) return path;
  path.moveTo(flip(bz.list[0]));
  for (size_t i = 1; i + 2 < static_cast<size_t>(bz.size); i += 3)
    path.cubicTo(flip(bz.list[i]), flip(bz.list[i + 1]), flip(bz.list[i + 2]));
  tip = bz.eflag ? flip(bz.ep) : flip(bz.list[bz.size - 1]);
  if (bz.eflag) path.lineTo(tip);
  return path;
}

}  // namespace

GraphGeometry layoutGraph(const ir::ProgramGraph& pg) {
  std::lock_guard lock(gvMutex());
  LaidOutGraph lg("program");
  Agraph_t* g = lg.get();
  set(g, "rankdir", "TB");
  set(g, "nodesep", "0.25");
  set(g, "ranksep", "0.35");
  set(g, "fontname", "Helvetica");
  set(g, "fontsize", "10");

  std::vector<Agraph_t*> clusters(pg.clusters.size(), nullptr);
  // Parents come before children in ProgramGraph, so one pass creates them all.
  for (size_t c = 0; c < pg.clusters.size(); ++c) {
    Agraph_t* parent = pg.clusters[c].parent >= 0 ? clusters[pg.clusters[c].parent] : g;
    if (!parent) parent = g;
    std::string name = "cluster_" + std::to_string(c);
    clusters[c] = agsubg(parent, const_cast<char*>(name.c_str()), 1);
    set(clusters[c], "label", pg.clusters[c].label);
    set(clusters[c], "fontsize", "9");
    set(clusters[c], "margin", "10");
  }
  std::vector<Agnode_t*> nodes(pg.nodes.size());
  for (size_t i = 0; i < pg.nodes.size(); ++i) {
    auto& n = pg.nodes[i];
    Agraph_t* owner = n.cluster >= 0 ? clusters[n.cluster] : g;
    std::string name = "n" + std::to_string(i);
    nodes[i] = agnode(owner, const_cast<char*>(name.c_str()), 1);
    set(nodes[i], "label", n.label);
    set(nodes[i], "shape", "box");
    set(nodes[i], "fontsize", "11");
    set(nodes[i], "fontname", "Helvetica");
    set(nodes[i], "height", "0.3");
  }
  std::vector<Agedge_t*> edges(pg.edges.size());
  for (size_t i = 0; i < pg.edges.size(); ++i) {
    auto& e = pg.edges[i];
    std::string name = "e" + std::to_string(i);
    edges[i] = agedge(g, nodes[e.from], nodes[e.to], const_cast<char*>(name.c_str()), 1);
    if (!e.label.empty() && !e.nested) {
      set(edges[i], "label", e.label);
      set(edges[i], "fontsize", "8");
    }
    if (e.nested) set(edges[i], "constraint", "false");
  }
  lg.layout();

  GraphGeometry geo;
  boxf bb = GD_bb(g);
  Flip flip{bb.UR.y};
  geo.bounds = boxToRect(bb, flip);
  for (auto* n : nodes) {
    QPointF c = flip(ND_coord(n));
    double w = ND_width(n) * 72.0, h = ND_height(n) * 72.0;
    geo.nodes.emplace_back(c.x() - w / 2, c.y() - h / 2, w, h);
  }
  for (auto* e : edges) {
    QPointF tip;
    geo.edges.push_back(e ? splineToPath(ED_spl(e), flip, tip) : QPainterPath());
    geo.arrowTips.push_back(tip);
    textlabel_t* lbl = e ? ED_label(e) : nullptr;
    geo.edgeLabels.push_back(lbl && lbl->set ? flip(lbl->pos) : QPointF());
  }
  for (auto* c : clusters) geo.clusters.push_back(boxToRect(GD_bb(c), flip));
  return geo;
}

}  // namespace lift::views
