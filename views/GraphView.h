// The program graph: a ProgramGraph laid out by Graphviz and drawn in a QGraphicsScene.
// Nodes are coloured by kind; lambdas are dashed clusters; pan (drag), zoom (wheel), fit,
// search; hover shows a node's type; clicking selects a node (nodeSelected). Until the user
// zooms, the graph stays fitted: a new graph and a resized view are fitted again. A fit never
// makes node labels smaller than kMinLabelPixels: a graph too large for that is shown at the
// readable scale from its top, and scrolls.
#pragma once

#include <QGraphicsView>
#include <QHash>
#include <QSet>

#include "core/ir/ProgramGraph.h"
#include "rewrite/Engine.h"

class QGraphicsRectItem;

namespace lift::views {

class GraphView : public QGraphicsView {
  Q_OBJECT
 public:
  explicit GraphView(QWidget* parent = nullptr);

  // Replaces the graph. `changed` nodes (by IR id) are highlighted, e.g. after a rewrite.
  void setGraph(const ir::ProgramGraph& g, const QSet<ir::NodeId>& changed = {});
  const ir::ProgramGraph& graph() const { return graph_; }
  // Shows `p` (hover shows each node's type); with `highlightNew`, the nodes that were not in the
  // graph shown before are highlighted (what a rewrite created).
  void showProgram(const rewrite::TypedProgram& p, bool highlightNew);
  // Writes the whole graph as SVG (for *.svg, titled `title`) or as a PNG at twice its size.
  bool saveImage(const QString& path, const QString& title);

  // Selects the node showing IR node `id` (no signal); 0 clears the selection.
  void selectNode(ir::NodeId id);
  ir::NodeId selectedNode() const { return selected_; }
  // The node whose source location in `p` is the closest at or before line:col on the same
  // line (the program text's caret); 0 when none is.
  ir::NodeId nodeAtSource(const ir::Program& p, int line, int col) const;
  // Selects the next node whose label contains `text` (case-insensitive); false if none.
  bool findNext(const QString& text);
  // The colour used for a node kind (also used by the legend and other panes).
  static QColor colorFor(ir::ProgramGraph::NodeKind kind, int level);
  // The pens of edges (data flow; a pattern's nested function), of a function body's box, and
  // of the borders of nodes a rewrite made and of the selected node (also the legend's).
  static QPen dataEdgePen();
  static QPen nestedEdgePen();
  static QPen clusterPen();
  static QPen createdPen();
  static QPen selectedPen();
  int nodeItemCount() const { return static_cast<int>(nodeItems_.size()); }
  // Scene rectangle of the node showing IR node `id` (null if none).
  QRectF nodeRect(ir::NodeId id) const;

  // Whether the view follows the graph's size (after fit(); until the user zooms).
  bool isFitting() const { return fitting_; }
  // The smallest height of node labels, in pixels, that a fit shows.
  static constexpr double kMinLabelPixels = 10;
  // The font of node labels.
  static QFont labelFont();
  // The height of node labels on screen now (the font's pixel size at the view's scale).
  double labelPixels() const;
  // The scale at which node labels are kMinLabelPixels high.
  double readableScale() const;

 public slots:
  // Fits the graph into the view (no larger than kMaxFitScale), and keeps it fitted.
  void fit();
  void zoomIn();
  void zoomOut();

 signals:
  void nodeSelected(lift::ir::NodeId id);

 protected:
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  void updateSelectionPens();
  void fitScene();
  void zoomBy(double factor);

  ir::ProgramGraph graph_;
  std::vector<QGraphicsRectItem*> nodeItems_;
  QHash<ir::NodeId, int> nodeIndex_;
  QSet<ir::NodeId> changed_;
  ir::NodeId selected_ = 0;
  int searchFrom_ = 0;
  bool fitting_ = true;
};

}  // namespace lift::views
