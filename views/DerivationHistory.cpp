// See DerivationHistory.h.
#include "views/DerivationHistory.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QThreadPool>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "rewrite/Equivalence.h"

namespace lift::views {

DerivationHistory::DerivationHistory(QWidget* parent) : QWidget(parent) {
  setObjectName("derivationHistory");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  tree_ = new QTreeWidget(this);
  tree_->setObjectName("historyTree");
  tree_->setColumnCount(3);
  tree_->setHeaderLabels({"Step", "Check", "Performance"});
  tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  tree_->setIndentation(12);
  layout->addWidget(tree_);
  connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
    int idx = item->data(0, Qt::UserRole).toInt();
    if (idx != current_) emit stateActivated(idx);
  });
}

// Checks still running finish before the watchers (children of this widget) go away.
DerivationHistory::~DerivationHistory() { QThreadPool::globalInstance()->waitForDone(); }

void DerivationHistory::clear() {
  states_.clear();
  items_.clear();
  tree_->clear();
  current_ = -1;
}

void DerivationHistory::replaceRoot(int index, std::shared_ptr<const rewrite::TypedProgram> program,
                                    const QString& text) {
  State& s = states_.at(static_cast<size_t>(index));
  s.program = std::move(program);
  s.text = text;
  refreshItem(index);
}

int DerivationHistory::addRoot(std::shared_ptr<const rewrite::TypedProgram> program, const QString& origin,
                               const QString& text) {
  State s;
  s.program = std::move(program);
  s.origin = origin;
  s.text = text;
  states_.push_back(std::move(s));
  int idx = static_cast<int>(states_.size()) - 1;
  auto* item = new QTreeWidgetItem(tree_);
  item->setData(0, Qt::UserRole, idx);
  items_.push_back(item);
  refreshItem(idx);
  return idx;
}

int DerivationHistory::addStep(int parent, const QString& spec,
                               std::shared_ptr<const rewrite::TypedProgram> program) {
  State s;
  s.parent = parent;
  s.spec = spec;
  s.program = std::move(program);
  states_.push_back(std::move(s));
  int idx = static_cast<int>(states_.size()) - 1;
  states_[static_cast<size_t>(parent)].children.push_back(idx);
  // A first child continues the line of its parent (same tree level, like a list of steps);
  // a second child starts a branch, shown nested under the parent.
  QTreeWidgetItem* parentItem = items_[static_cast<size_t>(parent)];
  QTreeWidgetItem* item;
  if (states_[static_cast<size_t>(parent)].children.size() == 1) {
    QTreeWidgetItem* container = parentItem->parent();
    item = container ? new QTreeWidgetItem(container) : new QTreeWidgetItem(tree_);
    // Keep it right after its parent.
    if (container) {
      container->removeChild(item);
      container->insertChild(container->indexOfChild(parentItem) + 1, item);
    } else {
      tree_->takeTopLevelItem(tree_->indexOfTopLevelItem(item));
      tree_->insertTopLevelItem(tree_->indexOfTopLevelItem(parentItem) + 1, item);
    }
  } else {
    item = new QTreeWidgetItem(parentItem);
    parentItem->setExpanded(true);
  }
  item->setData(0, Qt::UserRole, idx);
  items_.push_back(item);
  startCheck(idx);
  refreshItem(idx);
  return idx;
}

void DerivationHistory::startCheck(int index) {
  State& s = states_[static_cast<size_t>(index)];
  s.check = Check::Pending;
  ++pendingChecks_;
  auto before = states_[static_cast<size_t>(s.parent)].program;
  auto after = s.program;
  auto future = QtConcurrent::run([before, after] {
    try {
      return rewrite::checkEquivalence(before->program, after->program);
    } catch (const std::exception& e) {
      rewrite::EquivalenceReport r;
      r.equal = false;
      r.message = e.what();
      return r;
    }
  });
  auto* watcher = new QFutureWatcher<rewrite::EquivalenceReport>(this);
  connect(watcher, &QFutureWatcher<rewrite::EquivalenceReport>::finished, this, [this, watcher, index] {
    rewrite::EquivalenceReport r = watcher->result();
    watcher->deleteLater();
    --pendingChecks_;
    State& st = states_[static_cast<size_t>(index)];
    if (r) {
      st.check = Check::Verified;
      QStringList sizes;
      for (auto& env : r.sizes) sizes << QString::fromStdString(rewrite::formatSizes(env));
      st.checkMessage = QString("Same results as the previous step on random inputs (%1 runs: %2)")
                            .arg(r.runs)
                            .arg(sizes.join("; "));
    } else {
      st.check = r.runs == 0 && r.equal ? Check::NotChecked : Check::Failed;
      st.checkMessage = QString::fromStdString(r.message);
    }
    refreshItem(index);
    emit checkFinished(index, st.check == Check::Verified);
  });
  watcher->setFuture(future);
}

void DerivationHistory::waitForChecks() {
  while (pendingChecks_ > 0) {
    QThreadPool::globalInstance()->waitForDone(50);
    QCoreApplication::processEvents();
  }
}

void DerivationHistory::refreshItem(int index) {
  const State& s = states_[static_cast<size_t>(index)];
  QTreeWidgetItem* item = items_[static_cast<size_t>(index)];
  int depth = 0;
  for (int p = s.parent; p >= 0; p = states_[static_cast<size_t>(p)].parent) ++depth;
  QString label = s.parent < 0 ? "start: " + s.origin : QString("%1. %2").arg(depth).arg(s.spec);
  item->setText(0, label);
  item->setToolTip(0, label);
  switch (s.check) {
    case Check::NotChecked:
      item->setText(1, s.parent < 0 ? "" : "not checked");
      item->setForeground(1, QColor("#777777"));
      break;
    case Check::Pending:
      item->setText(1, "checking…");
      item->setForeground(1, QColor("#9a6700"));
      break;
    case Check::Verified:
      item->setText(1, "✓ verified");
      item->setForeground(1, QColor("#1a7f37"));
      break;
    case Check::Failed:
      item->setText(1, "✗ differs");
      item->setForeground(1, QColor("#cf222e"));
      break;
  }
  item->setToolTip(1, s.checkMessage);
  item->setText(2, s.performance);
  QFont f = item->font(0);
  f.setBold(index == current_);
  item->setFont(0, f);
}

void DerivationHistory::setCurrent(int index) {
  int old = current_;
  current_ = index;
  if (old >= 0 && old < stateCount()) refreshItem(old);
  if (index >= 0) {
    refreshItem(index);
    tree_->setCurrentItem(items_[static_cast<size_t>(index)]);
    tree_->scrollToItem(items_[static_cast<size_t>(index)]);
  }
}

void DerivationHistory::setPerformance(int index, const QString& text) {
  states_.at(static_cast<size_t>(index)).performance = text;
  refreshItem(index);
}

int DerivationHistory::rootOf(int index) const {
  while (states_.at(static_cast<size_t>(index)).parent >= 0)
    index = states_[static_cast<size_t>(index)].parent;
  return index;
}

QStringList DerivationHistory::specsTo(int index) const {
  QStringList specs;
  for (int i = index; i >= 0 && states_[static_cast<size_t>(i)].parent >= 0;
       i = states_[static_cast<size_t>(i)].parent)
    specs.prepend(states_[static_cast<size_t>(i)].spec);
  return specs;
}

rewrite::Derivation DerivationHistory::derivationTo(int index, const std::string& programPath) const {
  rewrite::Derivation d;
  d.program = programPath;
  d.header.push_back(" derived with Lift Studio");
  for (const QString& spec : specsTo(index)) {
    rewrite::DerivationStep step;
    step.kind = rewrite::DerivationStep::Kind::Rewrite;
    step.rewrite = rewrite::RewriteStep::parse(spec.toStdString());
    d.steps.push_back(std::move(step));
  }
  return d;
}

}  // namespace lift::views
