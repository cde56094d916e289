// Table model of a kernel's memory accesses: line, read/write, buffer, the index the kernel uses
// (simplified, or raw when the kernel pane's "Simplify indices" is off), how much simplification
// shrank it, and last the raw index as views build it (often very long: last, it never pushes the
// index the kernel uses out of sight).
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "codegen/CompiledKernel.h"

namespace lift::views {

class IndexTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Line, Access, Buffer, Simplified, Reduction, Raw, ColumnCount };
  static constexpr int NodeRole = Qt::UserRole + 1;  // the IR node id (qulonglong)
  static constexpr int LineRole = Qt::UserRole + 2;  // 1-based kernel line (int)

  explicit IndexTableModel(QObject* parent = nullptr);
  // `simplified`: whether the kernel was generated with its indices simplified
  // (CompileOptions::simplifyIndices); when not, the index column shows the raw index it uses.
  void setEntries(std::vector<codegen::IndexEntry> entries, bool simplified = true);
  bool simplified() const { return simplified_; }
  const codegen::IndexEntry& entry(int row) const { return entries_.at(static_cast<size_t>(row)); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  std::vector<codegen::IndexEntry> entries_;
  bool simplified_ = true;
};

}  // namespace lift::views
