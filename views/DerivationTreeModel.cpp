// See DerivationTreeModel.h.
#include "views/DerivationTreeModel.h"

#include <QColor>
#include <QFont>
#include <algorithm>

namespace lift::views {

namespace {
constexpr int kColumns = 3;
}

DerivationTreeModel::DerivationTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

std::vector<int>& DerivationTreeModel::rowsUnder(int shownParent) {
  return shownParent < 0 ? topRows_ : rowsOf_[static_cast<size_t>(shownParent)];
}

const std::vector<int>& DerivationTreeModel::rowsUnder(int shownParent) const {
  return shownParent < 0 ? topRows_ : rowsOf_[static_cast<size_t>(shownParent)];
}

int DerivationTreeModel::rowOf(int state) const {
  const std::vector<int>& rows = rowsUnder(shownParent_[static_cast<size_t>(state)]);
  return static_cast<int>(std::find(rows.begin(), rows.end(), state) - rows.begin());
}

QModelIndex DerivationTreeModel::indexOf(int state, int column) const {
  if (state < 0 || state >= stateCount()) return {};
  return createIndex(rowOf(state), column, quintptr(state));
}

void DerivationTreeModel::clear() {
  beginResetModel();
  states_.clear();
  shownParent_.clear();
  rowsOf_.clear();
  topRows_.clear();
  current_ = -1;
  endResetModel();
}

int DerivationTreeModel::addRoot(std::shared_ptr<const rewrite::TypedProgram> program, const QString& origin,
                                 const QString& text) {
  int idx = stateCount();
  int row = static_cast<int>(topRows_.size());
  beginInsertRows({}, row, row);
  State s;
  s.program = std::move(program);
  s.origin = origin;
  s.text = text;
  states_.push_back(std::move(s));
  shownParent_.push_back(-1);
  rowsOf_.emplace_back();
  topRows_.push_back(idx);
  endInsertRows();
  return idx;
}

void DerivationTreeModel::replaceRoot(int index, std::shared_ptr<const rewrite::TypedProgram> program,
                                      const QString& text) {
  State& s = states_.at(static_cast<size_t>(index));
  s.program = std::move(program);
  s.text = text;
  changed(index);
}

int DerivationTreeModel::addStep(int parent, const QString& spec,
                                 std::shared_ptr<const rewrite::TypedProgram> program) {
  int idx = stateCount();
  bool continuesLine = states_.at(static_cast<size_t>(parent)).children.empty();
  // A first child is shown right after its parent; a later one at the end of the parent's rows.
  int shownParent = continuesLine ? shownParent_[static_cast<size_t>(parent)] : parent;
  int row = continuesLine ? rowOf(parent) + 1 : static_cast<int>(rowsUnder(parent).size());
  beginInsertRows(shownParent < 0 ? QModelIndex() : indexOf(shownParent), row, row);
  State s;
  s.parent = parent;
  s.spec = spec;
  s.program = std::move(program);
  states_.push_back(std::move(s));
  states_[static_cast<size_t>(parent)].children.push_back(idx);
  shownParent_.push_back(shownParent);
  rowsOf_.emplace_back();
  std::vector<int>& rows = rowsUnder(shownParent);
  rows.insert(rows.begin() + row, idx);
  endInsertRows();
  return idx;
}

void DerivationTreeModel::setCheck(int index, Check check, const QString& message) {
  State& s = states_.at(static_cast<size_t>(index));
  s.check = check;
  s.checkMessage = message;
  changed(index);
}

void DerivationTreeModel::setPerformance(int index, const QString& text) {
  states_.at(static_cast<size_t>(index)).performance = text;
  changed(index);
}

void DerivationTreeModel::setCurrent(int index) {
  int old = current_;
  current_ = index;
  if (old >= 0 && old < stateCount()) changed(old);
  if (index >= 0) changed(index);
  emit currentChanged(index);
}

void DerivationTreeModel::changed(int state) {
  emit dataChanged(indexOf(state, 0), indexOf(state, kColumns - 1));
}

int DerivationTreeModel::rootOf(int index) const {
  while (states_.at(static_cast<size_t>(index)).parent >= 0)
    index = states_[static_cast<size_t>(index)].parent;
  return index;
}

QStringList DerivationTreeModel::specsTo(int index) const {
  QStringList specs;
  for (int i = index; i >= 0 && states_[static_cast<size_t>(i)].parent >= 0;
       i = states_[static_cast<size_t>(i)].parent)
    specs.prepend(states_[static_cast<size_t>(i)].spec);
  return specs;
}

rewrite::Derivation DerivationTreeModel::derivationTo(int index, const std::string& programPath) const {
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

QModelIndex DerivationTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  int shownParent = parent.isValid() ? static_cast<int>(parent.internalId()) : -1;
  return createIndex(row, column, quintptr(rowsUnder(shownParent)[static_cast<size_t>(row)]));
}

QModelIndex DerivationTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  int shownParent = shownParent_[child.internalId()];
  return shownParent < 0 ? QModelIndex() : indexOf(shownParent);
}

int DerivationTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && parent.column() != 0) return 0;
  return static_cast<int>(rowsUnder(parent.isValid() ? static_cast<int>(parent.internalId()) : -1).size());
}

int DerivationTreeModel::columnCount(const QModelIndex&) const { return kColumns; }

QVariant DerivationTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= kColumns)
    return {};
  static const char* names[kColumns] = {"Step", "Check", "Performance"};
  return QString(names[section]);
}

QVariant DerivationTreeModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  int idx = static_cast<int>(index.internalId());
  const State& s = states_[static_cast<size_t>(idx)];
  if (role == StateRole) return idx;
  switch (index.column()) {
    case 0: {
      int depth = 0;
      for (int p = s.parent; p >= 0; p = states_[static_cast<size_t>(p)].parent) ++depth;
      QString label = s.parent < 0 ? "start: " + s.origin : QString("%1. %2").arg(depth).arg(s.spec);
      if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return label;
      if (role == Qt::FontRole && idx == current_) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    }
    case 1:
      if (role == Qt::ToolTipRole) return s.checkMessage;
      switch (s.check) {
        case Check::NotChecked:
          if (role == Qt::DisplayRole) return s.parent < 0 ? QString() : QString("not checked");
          if (role == Qt::ForegroundRole) return QColor("#777777");
          return {};
        case Check::Pending:
          if (role == Qt::DisplayRole) return QString("checking…");
          if (role == Qt::ForegroundRole) return QColor("#9a6700");
          return {};
        case Check::Verified:
          if (role == Qt::DisplayRole) return QString("✓ verified");
          if (role == Qt::ForegroundRole) return QColor("#1a7f37");
          return {};
        case Check::Failed:
          if (role == Qt::DisplayRole) return QString("✗ differs");
          if (role == Qt::ForegroundRole) return QColor("#cf222e");
          return {};
      }
      return {};
    case 2:
      if (role == Qt::DisplayRole) return s.performance;
      return {};
  }
  return {};
}

}  // namespace lift::views
