// See GraphLegend.h.
#include "views/GraphLegend.h"

#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>

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
  setAutoFillBackground(true);
  QPalette pal = palette();
  QColor bg = pal.color(QPalette::Window);
  bg.setAlpha(235);
  pal.setColor(QPalette::Window, bg);
  setPalette(pal);
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(6, 4, 6, 4);
  grid->setHorizontalSpacing(6);
  grid->setVerticalSpacing(1);
  auto add = [&](const QPixmap& swatch, const QString& text) {
    int row = grid->rowCount();
    auto* s = new QLabel(this);
    s->setPixmap(swatch);
    grid->addWidget(s, row, 0);
    grid->addWidget(new QLabel(text, this), row, 1);
    entries_ << text;
  };
  add(nodeSwatch(GraphView::colorFor(K::Input, 0)), "input of the program");
  add(nodeSwatch(GraphView::colorFor(K::Param, 0)), "parameter of a function (an element)");
  add(nodeSwatch(GraphView::colorFor(K::Algorithmic, 0)), "map, reduce, iterate (what is computed)");
  add(nodeSwatch(GraphView::colorFor(K::DataLayout, 0)), "split, join, zip, transpose (data layout)");
  add(nodeSwatch(GraphView::colorFor(K::ParallelMap, 0)), "mapGlb: parallel over global threads");
  add(nodeSwatch(GraphView::colorFor(K::ParallelMap, 1)), "mapWrg: parallel over work-groups");
  add(nodeSwatch(GraphView::colorFor(K::ParallelMap, 2)), "mapLcl: parallel within a work-group");
  add(nodeSwatch(GraphView::colorFor(K::SequentialOp, 0)),
      "mapSeq, reduceSeq, scanSeq: a loop in one thread");
  add(nodeSwatch(GraphView::colorFor(K::AddressSpace, 0)), "toGlobal: write to global memory");
  add(nodeSwatch(GraphView::colorFor(K::AddressSpace, 1)), "toLocal: write to local memory");
  add(nodeSwatch(GraphView::colorFor(K::AddressSpace, 2)), "toPrivate: write to private memory");
  add(nodeSwatch(GraphView::colorFor(K::UserFun, 0)), "user function (scalar code)");
  add(nodeSwatch(GraphView::colorFor(K::Literal, 0)), "literal");
  add(lineSwatch(GraphView::dataEdgePen()), "data flows along the arrow");
  add(lineSwatch(GraphView::nestedEdgePen()), "the function a pattern applies");
  add(nodeSwatch(Qt::transparent, GraphView::clusterPen()), "the body of a function (fun x => ...)");
  add(nodeSwatch(Qt::white, GraphView::createdPen()), "made by the last rewrite");
  add(nodeSwatch(Qt::white, GraphView::selectedPen()), "selected");
}

}  // namespace lift::views
