// Draws a laid-out ProgramGraph; see GraphView.h.
#include "views/GraphView.h"

#include <QFontInfo>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QMouseEvent>
#include <QPainterPath>
#include <QSvgGenerator>
#include <QWheelEvent>
#include <cmath>

#include "views/GraphLayout.h"

namespace lift::views {

namespace {
constexpr int kIdRole = 0;  // QGraphicsItem::data key holding the node index
// Fitting a small graph into a large view enlarges it at most this much.
constexpr double kMaxFitScale = 1.5;
}  // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
  setScene(new QGraphicsScene(this));
  setRenderHint(QPainter::Antialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setObjectName("graphView");
}

QColor GraphView::colorFor(ir::ProgramGraph::NodeKind kind, int level) {
  using K = ir::ProgramGraph::NodeKind;
  switch (kind) {
    case K::Input:
      return QColor("#9fc5e8");
    case K::Param:
      return QColor("#cfe2f3");
    case K::Literal:
      return QColor("#eeeeee");
    case K::Algorithmic:
      return QColor("#b6d7a8");
    case K::DataLayout:
      return QColor("#fff2cc");
    case K::ParallelMap:
      return level == 0 ? QColor("#f4cccc") : level == 1 ? QColor("#ea9999") : QColor("#f9cb9c");
    case K::SequentialOp:
      return QColor("#d9d2e9");
    case K::AddressSpace:
      return level == 0 ? QColor("#a2c4c9") : level == 1 ? QColor("#76a5af") : QColor("#d0e0e3");
    case K::UserFun:
      return QColor("#ffe599");
    case K::LambdaCall:
      return QColor("#ffffff");
  }
  return Qt::white;
}

QPen GraphView::dataEdgePen() { return QPen(QColor("#444444"), 1.3, Qt::SolidLine); }
QPen GraphView::nestedEdgePen() { return QPen(QColor("#999999"), 1, Qt::DotLine); }
QPen GraphView::clusterPen() { return QPen(QColor("#888888"), 1, Qt::DashLine); }
QPen GraphView::createdPen() { return QPen(QColor("#1a7f37"), 2.5); }
QPen GraphView::selectedPen() { return QPen(QColor("#1f6feb"), 3); }

void GraphView::setGraph(const ir::ProgramGraph& g, const QSet<ir::NodeId>& changed) {
  graph_ = g;
  changed_ = changed;
  scene()->clear();
  nodeItems_.clear();
  nodeIndex_.clear();
  searchFrom_ = 0;
  if (g.nodes.empty()) return;
  GraphGeometry geo = layoutGraph(g);

  for (size_t c = 0; c < geo.clusters.size(); ++c) {
    auto* r = scene()->addRect(geo.clusters[c], clusterPen(), QBrush(QColor(250, 250, 250, 60)));
    r->setZValue(-10 + static_cast<double>(c) * 0.01);
    r->setToolTip(QString::fromStdString(g.clusters[c].label));
    auto* t = scene()->addSimpleText(QString::fromStdString(g.clusters[c].label), QFont("Helvetica", 8));
    t->setBrush(QColor("#555555"));
    t->setPos(geo.clusters[c].topLeft() + QPointF(4, 2));
    t->setZValue(-9);
  }
  for (size_t i = 0; i < geo.edges.size(); ++i) {
    bool nested = g.edges[i].nested;
    QPen pen = nested ? nestedEdgePen() : dataEdgePen();
    auto* p = scene()->addPath(geo.edges[i], pen);
    p->setZValue(-1);
    // Arrow head at the tip, pointing along the last segment.
    const QPainterPath& path = geo.edges[i];
    if (path.elementCount() >= 2) {
      QPointF tip = geo.arrowTips[i];
      QPointF from = path.pointAtPercent(0.97);
      double angle = std::atan2(tip.y() - from.y(), tip.x() - from.x());
      QPolygonF head;
      head << tip << tip - QPointF(std::cos(angle - 0.4) * 8, std::sin(angle - 0.4) * 8)
           << tip - QPointF(std::cos(angle + 0.4) * 8, std::sin(angle + 0.4) * 8);
      scene()->addPolygon(head, pen, QBrush(pen.color()))->setZValue(-1);
    }
    if (!geo.edgeLabels[i].isNull()) {
      auto* t = scene()->addSimpleText(QString::fromStdString(g.edges[i].label), QFont("Helvetica", 7));
      t->setPos(geo.edgeLabels[i] - QPointF(3, 6));
    }
  }
  for (size_t i = 0; i < geo.nodes.size(); ++i) {
    auto& n = g.nodes[i];
    QColor fill = colorFor(n.kind, n.level);
    auto* r = scene()->addRect(geo.nodes[i], QPen(Qt::black, 1), QBrush(fill));
    r->setData(kIdRole, static_cast<int>(i));
    QString tip = QString::fromStdString(n.label);
    if (!n.detail.empty()) tip += "\n" + QString::fromStdString(n.detail);
    r->setToolTip(tip);
    r->setCursor(Qt::PointingHandCursor);
    auto* t = new QGraphicsSimpleTextItem(QString::fromStdString(n.label), r);
    t->setFont(labelFont());
    QRectF tb = t->boundingRect();
    t->setPos(geo.nodes[i].center() - QPointF(tb.width() / 2, tb.height() / 2));
    t->setAcceptedMouseButtons(Qt::NoButton);
    nodeItems_.push_back(r);
    nodeIndex_.insert(n.irId, static_cast<int>(i));
  }
  scene()->setSceneRect(geo.bounds.adjusted(-20, -20, 20, 20));
  updateSelectionPens();
  if (fitting_) fitScene();
}

void GraphView::showProgram(const rewrite::TypedProgram& p, bool highlightNew) {
  auto types = p.types;
  auto describe = [types](const ir::Expr& e) -> std::string {
    Type t = types ? types->typeOf(e) : Type();
    return t ? t.toString() : std::string();
  };
  ir::ProgramGraph g = ir::buildProgramGraph(p.program, describe);
  QSet<ir::NodeId> created;
  if (highlightNew)
    for (auto& n : g.nodes)
      if (!nodeIndex_.contains(n.irId)) created.insert(n.irId);
  setGraph(g, created);
}

bool GraphView::saveImage(const QString& path, const QString& title) {
  QRectF r = scene()->sceneRect();
  if (path.endsWith(".svg", Qt::CaseInsensitive)) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(r.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), r.size()));
    svg.setTitle(title);
    QPainter painter(&svg);
    scene()->render(&painter, QRectF(QPointF(0, 0), r.size()), r);
    return painter.end();
  }
  QImage img((r.size() * 2).toSize(), QImage::Format_ARGB32);
  img.fill(Qt::white);
  QPainter painter(&img);
  painter.setRenderHint(QPainter::Antialiasing);
  scene()->render(&painter, QRectF(), r);
  painter.end();
  return img.save(path);
}

ir::NodeId GraphView::nodeAtSource(const ir::Program& p, int line, int col) const {
  if (!p.locations) return 0;
  ir::NodeId best = 0;
  int bestCol = -1;
  for (auto& [id, loc] : *p.locations) {
    if (loc.line == line && loc.col <= col && loc.col > bestCol && nodeIndex_.contains(id)) {
      best = id;
      bestCol = loc.col;
    }
  }
  return best;
}

QRectF GraphView::nodeRect(ir::NodeId id) const {
  auto it = nodeIndex_.find(id);
  return it == nodeIndex_.end() ? QRectF() : nodeItems_[*it]->rect();
}

void GraphView::updateSelectionPens() {
  for (size_t i = 0; i < nodeItems_.size(); ++i) {
    ir::NodeId id = graph_.nodes[i].irId;
    QPen pen(Qt::black, 1);
    if (changed_.contains(id)) pen = createdPen();
    if (id == selected_ && selected_ != 0) pen = selectedPen();
    nodeItems_[i]->setPen(pen);
  }
}

void GraphView::selectNode(ir::NodeId id) {
  selected_ = id;
  updateSelectionPens();
  auto it = nodeIndex_.find(id);
  if (it != nodeIndex_.end()) ensureVisible(nodeItems_[*it]);
}

bool GraphView::findNext(const QString& text) {
  if (text.isEmpty() || graph_.nodes.empty()) return false;
  size_t n = graph_.nodes.size();
  for (size_t k = 0; k < n; ++k) {
    size_t i = (searchFrom_ + k) % n;
    if (QString::fromStdString(graph_.nodes[i].label).contains(text, Qt::CaseInsensitive)) {
      searchFrom_ = static_cast<int>(i + 1);
      selectNode(graph_.nodes[i].irId);
      centerOn(nodeItems_[i]);
      emit nodeSelected(graph_.nodes[i].irId);
      return true;
    }
  }
  return false;
}

void GraphView::fit() {
  fitting_ = true;
  fitScene();
}

QFont GraphView::labelFont() { return QFont("Helvetica", 9); }

double GraphView::labelPixels() const { return QFontInfo(labelFont()).pixelSize() * transform().m11(); }

double GraphView::readableScale() const { return kMinLabelPixels / QFontInfo(labelFont()).pixelSize(); }

void GraphView::fitScene() {
  if (scene()->items().isEmpty()) return;
  QRectF all = scene()->sceneRect();
  fitInView(all, Qt::KeepAspectRatio);
  double scale = transform().m11();
  if (scale > kMaxFitScale || scale < readableScale()) {
    scale = scale > kMaxFitScale ? kMaxFitScale : readableScale();
    setTransform(QTransform::fromScale(scale, scale));
    // Too large to fit readably: its top (where the program starts), centred across.
    double halfHeight = viewport()->height() / scale / 2;
    centerOn(all.center().x(), std::min(all.center().y(), all.top() + halfHeight));
  }
}

void GraphView::zoomBy(double factor) {
  fitting_ = false;
  scale(factor, factor);
}

void GraphView::zoomIn() { zoomBy(1.2); }
void GraphView::zoomOut() { zoomBy(1 / 1.2); }

void GraphView::wheelEvent(QWheelEvent* e) { zoomBy(std::pow(1.0015, e->angleDelta().y())); }

void GraphView::resizeEvent(QResizeEvent* e) {
  QGraphicsView::resizeEvent(e);
  if (fitting_) fitScene();
}

void GraphView::mousePressEvent(QMouseEvent* e) {
  QGraphicsItem* item = itemAt(e->pos());
  while (item && !item->data(kIdRole).isValid()) item = item->parentItem();
  if (item && e->button() == Qt::LeftButton) {
    int idx = item->data(kIdRole).toInt();
    if (idx >= 0 && idx < static_cast<int>(graph_.nodes.size())) {
      selectNode(graph_.nodes[idx].irId);
      emit nodeSelected(graph_.nodes[idx].irId);
      return;
    }
  }
  QGraphicsView::mousePressEvent(e);
}

}  // namespace lift::views
