// See BestKernelsTable.h.
#include "views/BestKernelsTable.h"

#include <QHeaderView>
#include <algorithm>

#include "views/PerformancePlot.h"

namespace lift::views {

namespace {
QTableWidgetItem* numberItem(double value) {
  auto* item = new QTableWidgetItem;
  item->setData(Qt::DisplayRole, value);  // sorted as a number
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}
}  // namespace

BestKernelsTable::BestKernelsTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent) {
  setObjectName("bestKernels");
  setHorizontalHeaderLabels({"#", "ms", "GFLOP/s", "GB/s", "parameters"});
  horizontalHeaderItem(Evaluation)
      ->setToolTip("The kernel's place in the order of evaluation (the plot's x)");
  verticalHeader()->hide();
  horizontalHeader()->setStretchLastSection(true);
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setSelectionMode(QAbstractItemView::SingleSelection);
  setSortingEnabled(true);
  setWordWrap(false);
  setToolTip("The best kernels of the search; click a column to sort, a row to load that kernel");
  connect(this, &QTableWidget::cellClicked, this, [this](int row, int) {
    if (int i = pointOf(row); i >= 0) emit pointChosen(i);
  });
}

int BestKernelsTable::pointOf(int row) const {
  QTableWidgetItem* item = this->item(row, Evaluation);
  return item ? item->data(Qt::UserRole).toInt() : -1;
}

void BestKernelsTable::showBest(const std::vector<PlotPoint>& points, const std::vector<double>& scores) {
  best_.clear();
  for (size_t i = 0; i < points.size(); ++i)
    if (points[i].valid) {
      const PlotPoint& p = points[i];
      best_.push_back(
          {static_cast<int>(i), scores[i], p.ms, p.gflops, p.gbs, p.label, p.detail.section('\n', 0, 0)});
    }
  std::stable_sort(best_.begin(), best_.end(),
                   [](const Entry& a, const Entry& b) { return a.score > b.score; });
  if (best_.size() > static_cast<size_t>(kRows)) best_.resize(kRows);
  refill();
}

void BestKernelsTable::consider(const PlotPoint& p, int i, double score) {
  if (!p.valid) return;
  if (best_.size() >= static_cast<size_t>(kRows) && score <= best_.back().score) return;
  Entry e{i, score, p.ms, p.gflops, p.gbs, p.label, p.detail.section('\n', 0, 0)};
  best_.insert(std::upper_bound(best_.begin(), best_.end(), e,
                                [](const Entry& a, const Entry& b) { return a.score > b.score; }),
               e);
  if (best_.size() > static_cast<size_t>(kRows)) best_.pop_back();
  refill();
}

void BestKernelsTable::refill() {
  // Sorting stays as the user set it: off while rows are added, then applied again.
  setSortingEnabled(false);
  setRowCount(static_cast<int>(best_.size()));
  for (int r = 0; r < rowCount(); ++r) {
    const Entry& e = best_[static_cast<size_t>(r)];
    auto* evaluation = numberItem(e.index + 1);
    evaluation->setData(Qt::UserRole, e.index);
    evaluation->setToolTip(e.label);
    setItem(r, Evaluation, evaluation);
    setItem(r, Milliseconds, numberItem(e.ms));
    setItem(r, Gflops, numberItem(e.gflops));
    setItem(r, Gbs, numberItem(e.gbs));
    auto* params = new QTableWidgetItem(e.parameters);
    params->setToolTip(e.parameters);
    setItem(r, Parameters, params);
  }
  setSortingEnabled(true);
}

}  // namespace lift::views
