// See GraphLegend.h.
#include "views/GraphLegend.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>

#include "views/FlowLayout.h"
#include "views/GraphView.h"

namespace lift::views {

namespace {
using K = ir::ProgramGraph::NodeKind;

constexpr int kSwatchWidth = 26, kSwatchHeight = 14;

QPixmap nodeSwatch(const QColor& fill, const QPen& border = QPen(Qt::black, 1)) {
  QPixmap pm(kSwatchWidth, kSwatchHeight);
  pm.fill(Qt::transparent);
  QPainter p(&pm);
  p.setPen(border);
  p.setBrush(fill);
  p.drawRect(QRectF(2, 2, kSwatchWidth - 4, kSwatchHeight - 4));
  return pm;
}

QPixmap lineSwatch(const QPen& pen) {
  QPixmap pm(kSwatchWidth, kSwatchHeight);
  pm.fill(Qt::transparent);
  QPainter p(&pm);
  p.setPen(pen);
  p.drawLine(QPointF(2, kSwatchHeight / 2.0), QPointF(kSwatchWidth - 2, kSwatchHeight / 2.0));
  return pm;
}
}  // namespace

GraphLegend::GraphLegend(QWidget* parent) : QFrame(parent) {
  setObjectName("graphLegend");
  setFrameShape(QFrame::StyledPanel);
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  auto* flow = new FlowLayout(this, 14);
  flow->setContentsMargins(6, 3, 6, 3);
  auto add = [&](const QPixmap& swatch, const QString& text, const QString& meaning) {
    auto* entry = new QWidget(this);
    auto* row = new QHBoxLayout(entry);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(3);
    auto* s = new QLabel(entry);
    s->setPixmap(swatch);
    row->addWidget(s);
    row->addWidget(new QLabel(text, entry));
    entry->setToolTip(meaning);
    flow->addWidget(entry);
    entries_ << text;
  };
  add(nodeSwatch(GraphView::colorFor(K::Input, 0)), "input", "An input of the program");
  add(nodeSwatch(GraphView::colorFor(K::Param, 0)), "parameter",
      "A parameter of a function: an element of the array a pattern applies it to");
  add(nodeSwatch(GraphView::colorFor(K::Algorithmic, 0)), "map, reduce, iterate",
      "Algorithmic patterns: what is computed, not yet how");
  add(nodeSwatch(GraphView::colorFor(K::DataLayout, 0)), "split, join, zip, transpose",
      "Data layout patterns: they rearrange data and compute nothing");
  add(nodeSwatch(GraphView::colorFor(K::ParallelMap, 0)), "mapGlb: global threads",
      "mapGlb: parallel over the global threads (work-items) of the NDRange");
  add(nodeSwatch(GraphView::colorFor(K::ParallelMap, 1)), "mapWrg: work-groups",
      "mapWrg: parallel over work-groups");
  add(nodeSwatch(GraphView::colorFor(K::ParallelMap, 2)), "mapLcl: in a work-group",
      "mapLcl: parallel over the work-items of one work-group");
  add(nodeSwatch(GraphView::colorFor(K::SequentialOp, 0)), "mapSeq, reduceSeq: a loop",
      "mapSeq, reduceSeq, scanSeq: a loop in one thread");
  add(nodeSwatch(GraphView::colorFor(K::AddressSpace, 0)), "toGlobal", "toGlobal: writes to global memory");
  add(nodeSwatch(GraphView::colorFor(K::AddressSpace, 1)), "toLocal",
      "toLocal: writes to local memory, shared by a work-group");
  add(nodeSwatch(GraphView::colorFor(K::AddressSpace, 2)), "toPrivate",
      "toPrivate: writes to private memory (registers) of one work-item");
  add(nodeSwatch(GraphView::colorFor(K::UserFun, 0)), "user function", "A user function: scalar code");
  add(nodeSwatch(GraphView::colorFor(K::Literal, 0)), "literal", "A literal value");
  add(lineSwatch(GraphView::dataEdgePen()), "data flows", "Data flows along the arrow");
  add(lineSwatch(GraphView::nestedEdgePen()), "function applied", "The function a pattern applies");
  add(nodeSwatch(Qt::transparent, GraphView::clusterPen()), "function body",
      "The body of a function (fun x => ...)");
  add(nodeSwatch(Qt::white, GraphView::createdPen()), "made by the last rewrite",
      "A node the last rewrite made");
  add(nodeSwatch(Qt::white, GraphView::selectedPen()), "selected", "The selected node");
}

}  // namespace lift::views
