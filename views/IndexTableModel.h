// Table model of a kernel's memory accesses: line, read/write, buffer, the raw index as views
// build it, the simplified index, and how much simplification shrank it.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "codegen/CompiledKernel.h"

namespace lift::views {

class IndexTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Line, Access, Buffer, Raw, Simplified, Reduction, ColumnCount };
  static constexpr int NodeRole = Qt::UserRole + 1;  // the IR node id (qulonglong)
  static constexpr int LineRole = Qt::UserRole + 2;  // 1-based kernel line (int)

  explicit IndexTableModel(QObject* parent = nullptr);
  void setEntries(std::vector<codegen::IndexEntry> entries);
  const codegen::IndexEntry& entry(int row) const { return entries_.at(static_cast<size_t>(row)); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  std::vector<codegen::IndexEntry> entries_;
};

}  // namespace lift::views
