// See DerivationHistory.h.
#include "views/DerivationHistory.h"

#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

#include "views/DerivationTreeModel.h"

namespace lift::views {

DerivationHistory::DerivationHistory(DerivationTreeModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
  setObjectName("derivationHistory");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  view_ = new QTreeView(this);
  view_->setObjectName("historyTree");
  view_->setModel(model_);
  // The steps' rule names take the room the check and the performance do not need (with the
  // last column stretched, a 300 px pane cut them to "3. tile-reduc…").
  view_->header()->setStretchLastSection(false);
  view_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int c = 1; c < model_->columnCount(); ++c)
    view_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  view_->setIndentation(12);
  layout->addWidget(view_);
  connect(view_, &QTreeView::clicked, this, [this](const QModelIndex& index) {
    int state = index.data(DerivationTreeModel::StateRole).toInt();
    if (state != model_->current()) emit stateActivated(state);
  });
  // A branch opens where it starts.
  connect(model_, &QAbstractItemModel::rowsInserted, this,
          [this](const QModelIndex& branch) { view_->expand(branch); });
  connect(model_, &DerivationTreeModel::currentChanged, this, &DerivationHistory::showCurrent);
}

void DerivationHistory::showCurrent() {
  QModelIndex current = model_->indexOf(model_->current());
  if (!current.isValid()) return;
  view_->setCurrentIndex(current);
  view_->scrollTo(current);
}

}  // namespace lift::views
