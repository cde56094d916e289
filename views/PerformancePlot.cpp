// See PerformancePlot.h.
#include "views/PerformancePlot.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "views/BestKernelsTable.h"

namespace lift::views {

namespace {
// Where the labels of lines above the y range stack: the first's top, as a share of the axes'
// height.
constexpr double kLabelTop = 0.01;
}  // namespace

PerformancePlot::PerformancePlot(QWidget* parent) : QWidget(parent) {
  setObjectName("performancePlot");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  xChoice_ = new QComboBox(this);
  xChoice_->addItems({"evaluation", "time (s)"});
  yChoice_ = new QComboBox(this);
  yChoice_->addItems({"GFLOP/s", "GB/s", "runtime (ms)"});
  bar->addWidget(new QLabel("x:", this));
  bar->addWidget(xChoice_);
  bar->addWidget(new QLabel("y:", this));
  bar->addWidget(yChoice_);
  bar->addStretch();
  auto* split = new QSplitter(Qt::Horizontal, this);
  plot_ = new QCustomPlot(split);
  plot_->setMinimumHeight(180);
  plot_->setMinimumWidth(240);
  table_ = new BestKernelsTable(split);
  split->addWidget(plot_);
  split->addWidget(table_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addLayout(bar);
  layout->addWidget(split, 1);

  plot_->addGraph();  // 0: valid kernels
  plot_->graph(0)->setLineStyle(QCPGraph::lsNone);
  plot_->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(31, 111, 235, 170), 6));
  plot_->graph(0)->setName("kernels");
  plot_->addGraph();  // 1: failed kernels
  plot_->graph(1)->setLineStyle(QCPGraph::lsNone);
  plot_->graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QColor(207, 34, 46), 6));
  plot_->graph(1)->setName("failed");
  plot_->addGraph();  // 2: best so far
  plot_->graph(2)->setLineStyle(QCPGraph::lsStepLeft);
  plot_->graph(2)->setPen(QPen(QColor(26, 127, 55), 2));
  plot_->graph(2)->setName("best so far");
  plot_->addGraph();  // 3: the kernel loaded in the window
  plot_->graph(3)->setLineStyle(QCPGraph::lsNone);
  plot_->graph(3)->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(191, 87, 0), 2), Qt::NoBrush, 14));
  plot_->graph(3)->setName("loaded");
  plot_->legend->setVisible(true);
  plot_->legend->setFont(QFont("Helvetica", 8));
  // The legend in one row above the axes, where it covers no point.
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->addElement(0, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(0, 0.001);
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  applyPalette();

  connect(xChoice_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setAxes(static_cast<XAxis>(i), y_); });
  connect(yChoice_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setAxes(x_, static_cast<YAxis>(i)); });
  connect(plot_, &QCustomPlot::mouseMove, this, &PerformancePlot::onMouseMove);
  connect(plot_, &QCustomPlot::mousePress, this, &PerformancePlot::onMousePress);
  connect(table_, &BestKernelsTable::pointChosen, this, &PerformancePlot::clickPoint);
  rebuild();
}

void PerformancePlot::clear() {
  points_.clear();
  highlight_ = 0;
  rebuild();
}

void PerformancePlot::addPoint(const PlotPoint& p) {
  points_.push_back(p);
  // Incremental: append instead of rebuilding everything (a search streams thousands).
  int i = static_cast<int>(points_.size()) - 1;
  double x = xOf(p, i);
  if (p.valid) {
    plot_->graph(0)->addData(x, yOf(p));
  } else {
    plot_->graph(1)->addData(x, 0);
  }
  if (p.valid) {
    double y = yOf(p);
    bool lowerIsBetter = y_ == YAxis::Milliseconds;
    if (std::isnan(runningBest_) || (lowerIsBetter ? y < runningBest_ : y > runningBest_)) runningBest_ = y;
  }
  if (!std::isnan(runningBest_)) plot_->graph(2)->addData(x, runningBest_);
  table_->consider(p, i, scoreOf(p));
  fitRanges();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PerformancePlot::setReference(const QString& name, double value, YAxis axis) {
  for (auto& r : references_)
    if (r.name == name && r.axis == axis) {
      r.value = value;
      rebuild();
      return;
    }
  references_.push_back({name, value, axis});
  rebuild();
}

void PerformancePlot::removeReference(const QString& name) {
  auto gone = std::remove_if(references_.begin(), references_.end(),
                             [&](const Reference& r) { return r.name == name; });
  if (gone == references_.end()) return;
  references_.erase(gone, references_.end());
  rebuild();
}

void PerformancePlot::clearReferences() {
  references_.clear();
  rebuild();
}

void PerformancePlot::setReferenceNotes(const QStringList& notes) {
  referenceNotes_ = notes;
  if (notes.isEmpty()) {
    if (notesElement_) {
      plot_->plotLayout()->remove(notesElement_);  // deletes it
      plot_->plotLayout()->simplify();
      notesElement_ = nullptr;
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  if (!notesElement_) {
    notesElement_ = new QCPTextElement(plot_);
    notesElement_->setFont(QFont("Helvetica", 8));
    notesElement_->setLayer("legend");
    plot_->plotLayout()->insertRow(1);  // under the legend, above the axes
    plot_->plotLayout()->addElement(1, 0, notesElement_);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    applyPalette();
  }
  QStringList shown;
  constexpr int kMaxNoteChars = 110;
  for (const QString& n : notes) shown << (n.size() > kMaxNoteChars ? n.left(kMaxNoteChars - 1) + "…" : n);
  notesElement_->setText(shown.join('\n'));
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString PerformancePlot::referenceNotesShown() const {
  return notesElement_ ? notesElement_->text() : QString();
}

void PerformancePlot::setAxes(XAxis x, YAxis y) {
  x_ = x;
  y_ = y;
  const QSignalBlocker b1(xChoice_), b2(yChoice_);
  xChoice_->setCurrentIndex(static_cast<int>(x));
  yChoice_->setCurrentIndex(static_cast<int>(y));
  rebuild();
}

double PerformancePlot::yOf(const PlotPoint& p) const {
  switch (y_) {
    case YAxis::Gflops:
      return p.gflops;
    case YAxis::Gbs:
      return p.gbs;
    case YAxis::Milliseconds:
      return p.ms;
  }
  return 0;
}

double PerformancePlot::xOf(const PlotPoint& p, int index) const {
  return x_ == XAxis::Evaluation ? index + 1 : p.seconds;
}

double PerformancePlot::scoreOf(const PlotPoint& p) const {
  return y_ == YAxis::Milliseconds ? -yOf(p) : yOf(p);
}

QStringList PerformancePlot::referenceNames() const {
  QStringList names;
  for (auto& r : references_)
    if (r.axis == y_) names << r.name;
  return names;
}

std::vector<double> PerformancePlot::bestSoFar() const {
  std::vector<double> out;
  double best = std::numeric_limits<double>::quiet_NaN();
  bool lowerIsBetter = y_ == YAxis::Milliseconds;
  for (auto& p : points_) {
    if (p.valid) {
      double y = yOf(p);
      if (std::isnan(best) || (lowerIsBetter ? y < best : y > best)) best = y;
    }
    out.push_back(best);
  }
  return out;
}

int PerformancePlot::bestIndex() const {
  int best = -1;
  bool lowerIsBetter = y_ == YAxis::Milliseconds;
  for (int i = 0; i < pointCount(); ++i) {
    if (!points_[static_cast<size_t>(i)].valid) continue;
    double y = yOf(points_[static_cast<size_t>(i)]);
    if (best < 0 || (lowerIsBetter ? y < yOf(points_[static_cast<size_t>(best)])
                                   : y > yOf(points_[static_cast<size_t>(best)])))
      best = i;
  }
  return best;
}

void PerformancePlot::rebuild() {
  for (int g = 0; g < 4; ++g) plot_->graph(g)->data()->clear();
  plot_->clearItems();
  referenceTexts_.clear();
  std::vector<double> best = bestSoFar();
  runningBest_ = best.empty() ? std::numeric_limits<double>::quiet_NaN() : best.back();
  for (int i = 0; i < pointCount(); ++i) {
    const PlotPoint& p = points_[static_cast<size_t>(i)];
    double x = xOf(p, i);
    if (p.valid)
      plot_->graph(0)->addData(x, yOf(p));
    else
      plot_->graph(1)->addData(x, 0);
    if (!std::isnan(best[static_cast<size_t>(i)])) plot_->graph(2)->addData(x, best[static_cast<size_t>(i)]);
  }
  std::vector<double> scores;
  for (auto& p : points_) scores.push_back(scoreOf(p));
  table_->showBest(points_, scores);
  // Best first: the fastest runtime, the highest throughput.
  table_->sortByColumn(y_ == YAxis::Gflops ? BestKernelsTable::Gflops
                       : y_ == YAxis::Gbs  ? BestKernelsTable::Gbs
                                           : BestKernelsTable::Milliseconds,
                       y_ == YAxis::Milliseconds ? Qt::AscendingOrder : Qt::DescendingOrder);
  plot_->xAxis->setLabel(x_ == XAxis::Evaluation ? "kernels evaluated" : "seconds since start");
  plot_->yAxis->setLabel(yChoice_->currentText());
  fitRanges();
  for (auto& r : references_) {
    if (r.axis != y_) continue;
    auto* line = new QCPItemStraightLine(plot_);
    line->point1->setCoords(0, r.value);
    line->point2->setCoords(1, r.value);
    line->setPen(QPen(QColor(130, 80, 223), 1.5, Qt::DashLine));
    auto* text = new QCPItemText(plot_);
    text->setColor(QColor(130, 80, 223));
    referenceTexts_.push_back({text, r.name, r.value});
  }
  placeReferenceTexts();
  placeHighlight();
  plot_->replot();
}

void PerformancePlot::fitRanges() {
  // From the points themselves (QCustomPlot's rescale keeps the old width around a single point).
  double left = 0, right = 0, data = 0;
  for (int i = 0; i < pointCount(); ++i) {
    const PlotPoint& p = points_[static_cast<size_t>(i)];
    double x = xOf(p, i);
    left = i == 0 ? x : std::min(left, x);
    right = i == 0 ? x : std::max(right, x);
    if (p.valid) data = std::max(data, yOf(p));
  }
  if (points_.empty()) {
    plot_->xAxis->setRange(0, 10);
  } else {
    double pad = std::max(0.5, (right - left) * 0.02);
    plot_->xAxis->setRange(std::min(0.0, left - pad), right + pad);
  }
  // The y axis follows the data; a reference line joins it unless it would flatten the points
  // (more than kReferenceReach times their best).
  constexpr double kReferenceReach = 4;
  double top = data;
  for (auto& r : references_)
    if (r.axis == y_ && (data <= 0 || r.value <= data * kReferenceReach)) top = std::max(top, r.value);
  double upper = top > 0 ? top * 1.08 : 1;
  // The labels of lines above the range stack at the top right (placeReferenceTexts), where the
  // latest and best points are: room for them (and half a line, the points' markers) above the
  // points, so that they cover none.
  int above = 0;
  for (auto& r : references_) above += r.axis == y_ && r.value > upper;
  if (above > 0 && data > 0)
    upper = std::max(upper, data / std::max(0.3, 1 - kLabelTop - labelStep() * (above + 0.5)));
  plot_->yAxis->setRange(0, upper);
  placeReferenceTexts();
}

double PerformancePlot::labelStep() const {
  int height = plot_->axisRect()->height();
  int line = QFontMetrics(plot_->font()).height() + 2;
  return height > 4 * line ? static_cast<double>(line) / height : 0.07;  // before the first layout: a guess
}

void PerformancePlot::placeReferenceTexts() {
  int above = 0;  // lines above the range: their labels stack at the top, with an arrow
  for (auto& [text, name, value] : referenceTexts_) {
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->setPositionAlignment(Qt::AlignRight |
                               (value <= plot_->yAxis->range().upper ? Qt::AlignBottom : Qt::AlignTop));
    if (value <= plot_->yAxis->range().upper) {
      text->position->setTypeY(QCPItemPosition::ptPlotCoords);
      text->position->setCoords(0.99, value);
      text->setText(QString("%1: %2").arg(name).arg(value, 0, 'g', 4));
    } else {
      text->position->setCoords(0.99, kLabelTop + labelStep() * above++);
      text->setText(QString("↑ %1: %2").arg(name).arg(value, 0, 'g', 4));
    }
  }
}

void PerformancePlot::setHighlight(qint64 id) {
  highlight_ = id;
  placeHighlight();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PerformancePlot::placeHighlight() {
  plot_->graph(3)->data()->clear();
  for (int i = 0; i < pointCount() && highlight_ != 0; ++i) {
    const PlotPoint& p = points_[static_cast<size_t>(i)];
    if (p.id == highlight_) plot_->graph(3)->addData(xOf(p, i), p.valid ? yOf(p) : 0);
  }
}

int PerformancePlot::nearestPoint(const QPointF& pixel, double maxDistance) const {
  int best = -1;
  double bestD = maxDistance;
  for (int i = 0; i < pointCount(); ++i) {
    const PlotPoint& p = points_[static_cast<size_t>(i)];
    double px = plot_->xAxis->coordToPixel(xOf(p, i));
    double py = plot_->yAxis->coordToPixel(p.valid ? yOf(p) : 0);
    double d = std::hypot(px - pixel.x(), py - pixel.y());
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

void PerformancePlot::onMouseMove(QMouseEvent* e) {
  int i = nearestPoint(e->position(), 8);
  if (i < 0 && notesElement_ && notesElement_->outerRect().contains(e->position().toPoint())) {
    QStringList lines;
    for (const QString& n : referenceNotes_) lines << n.toHtmlEscaped();
    QToolTip::showText(e->globalPosition().toPoint(), lines.join("<br>"), plot_);
    return;
  }
  if (i < 0) {
    QToolTip::hideText();
    return;
  }
  const PlotPoint& p = points_[static_cast<size_t>(i)];
  QString text = QString("<b>%1</b>").arg(p.label.toHtmlEscaped());
  if (p.valid)
    text += QString("<br>%1 ms — %2 GFLOP/s — %3 GB/s")
                .arg(p.ms, 0, 'g', 4)
                .arg(p.gflops, 0, 'g', 4)
                .arg(p.gbs, 0, 'g', 4);
  else
    text += "<br><span style='color:#cf222e'>" +
            (p.status.isEmpty() ? QString("failed") : p.status.toHtmlEscaped()) + "</span>";
  if (!p.detail.isEmpty()) text += "<pre>" + p.detail.toHtmlEscaped() + "</pre>";
  QToolTip::showText(e->globalPosition().toPoint(), text, plot_);
}

void PerformancePlot::onMousePress(QMouseEvent* e) {
  int i = nearestPoint(e->position(), 8);
  if (i >= 0) clickPoint(i);
}

void PerformancePlot::clickPoint(int i) { emit pointClicked(points_.at(static_cast<size_t>(i)).id); }

bool PerformancePlot::savePng(const QString& path, int width, int height) {
  return plot_->savePng(path, width, height);
}
bool PerformancePlot::savePdf(const QString& path) { return plot_->savePdf(path); }

void PerformancePlot::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::PaletteChange) {
    applyPalette();
    plot_->replot();
  }
}

void PerformancePlot::applyPalette() {
  const QPalette& pal = palette();
  QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
  QColor grid = text;
  grid.setAlpha(60);
  plot_->setBackground(base);
  for (QCPAxis* a : {plot_->xAxis, plot_->yAxis, plot_->xAxis2, plot_->yAxis2}) {
    a->setBasePen(QPen(text));
    a->setTickPen(QPen(text));
    a->setSubTickPen(QPen(text));
    a->setTickLabelColor(text);
    a->setLabelColor(text);
    a->grid()->setPen(QPen(grid, 1, Qt::DotLine));
  }
  plot_->legend->setBrush(base);
  plot_->legend->setTextColor(text);
  plot_->legend->setBorderPen(Qt::NoPen);
  if (notesElement_) notesElement_->setTextColor(pal.color(QPalette::PlaceholderText));
}

}  // namespace lift::views
