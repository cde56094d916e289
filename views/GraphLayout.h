// Lays out a ProgramGraph with Graphviz (dot) and returns plain Qt geometry. Graphviz's C
// types never leave GraphLayout.cpp.
#pragma once

#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <vector>

#include "core/ir/ProgramGraph.h"

namespace lift::views {

struct GraphGeometry {
  std::vector<QRectF> nodes;        // per ProgramGraph node, scene coordinates (y down)
  std::vector<QPainterPath> edges;  // per ProgramGraph edge, the spline
  std::vector<QPointF> arrowTips;   // per edge, where its arrow points (end of the spline)
  std::vector<QPointF> edgeLabels;  // per edge, label position (may be null point)
  std::vector<QRectF> clusters;     // per cluster
  QRectF bounds;
};

// Throws std::runtime_error if Graphviz fails (it does not for graphs ProgramGraph builds).
GraphGeometry layoutGraph(const ir::ProgramGraph& g);

}  // namespace lift::views
