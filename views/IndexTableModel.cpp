// See IndexTableModel.h.
#include "views/IndexTableModel.h"

#include <QColor>
#include <QFont>

namespace lift::views {

IndexTableModel::IndexTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void IndexTableModel::setEntries(std::vector<codegen::IndexEntry> entries, bool simplified) {
  beginResetModel();
  entries_ = std::move(entries);
  simplified_ = simplified;
  endResetModel();
}

int IndexTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int IndexTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

static QString reduction(const codegen::IndexEntry& e) {
  if (!e.rawExpr || !e.simplifiedExpr) return {};
  size_t raw = e.rawExpr.size(), simple = e.simplifiedExpr.size();
  if (raw == simple) return QString("%1 nodes").arg(raw);
  return QString("%1 → %2 nodes").arg(raw).arg(simple);
}

QVariant IndexTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto& e = entries_[static_cast<size_t>(index.row())];
  if (role == NodeRole) return QVariant::fromValue<qulonglong>(e.node);
  if (role == LineRole) return e.line;
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    switch (index.column()) {
      case Line:
        return e.line;
      case Access:
        return QString(e.write ? "write" : "read") +
               (e.form.empty() || e.form == "element" ? "" : " (" + QString::fromStdString(e.form) + ")");
      case Buffer:
        return QString::fromStdString(e.buffer);
      case Raw:
        return QString::fromStdString(e.raw);
      case Simplified:
        return QString::fromStdString(simplified_ ? e.simplified : e.raw);
      case Reduction:
        return simplified_ ? reduction(e) : QString("not simplified");
    }
  }
  if (role == Qt::ForegroundRole && index.column() == Access) return QColor(e.write ? "#b35900" : "#1f5fa6");
  if (role == Qt::FontRole && (index.column() == Raw || index.column() == Simplified)) {
    QFont f("monospace");
    f.setStyleHint(QFont::Monospace);
    return f;
  }
  return {};
}

QVariant IndexTableModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, o, role);
  static const char* names[] = {"Line", "Access", "Buffer", "Simplified index", "Size", "Raw index"};
  if (section == Simplified && !simplified_) return QString("Index (not simplified)");
  return section >= 0 && section < ColumnCount ? QString(names[section]) : QVariant();
}

}  // namespace lift::views
