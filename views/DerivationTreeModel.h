// The derivation tree as an item model: every program state the user reached, a rewrite applied
// to an earlier state starting a branch. Each step is named by its rewrite, carries the
// interpreter's check against its parent (verified / differs) and a measured performance; the
// current state is bold. Shown like a list of steps: a first child continues its parent's line
// (the row after it, same level), a second child starts a branch nested under the parent.
// Columns: step, check, performance. The model holds data only; the session fills it.
#pragma once

#include <QAbstractItemModel>
#include <QStringList>
#include <memory>
#include <vector>

#include "rewrite/Derivation.h"

namespace lift::views {

class DerivationTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum class Check { NotChecked, Pending, Verified, Failed };
  struct State {
    int parent = -1;
    QString spec;  // the rewrite from the parent ("" for a root)
    std::shared_ptr<const rewrite::TypedProgram> program;
    QString origin;  // roots: where the program came from (file path or example name)
    QString text;    // roots: the program text as written
    Check check = Check::NotChecked;
    QString checkMessage;
    QString performance;  // e.g. "12.3 GFLOP/s" once measured
    std::vector<int> children;
  };
  // The state index of a row (Qt::UserRole of every column).
  static constexpr int StateRole = Qt::UserRole;

  explicit DerivationTreeModel(QObject* parent = nullptr);

  // Starts a new derivation tree from `program`; returns the new state's index.
  int addRoot(std::shared_ptr<const rewrite::TypedProgram> program, const QString& origin,
              const QString& text);
  // Replaces the program of a root that has no steps yet (the user is still editing it).
  void replaceRoot(int index, std::shared_ptr<const rewrite::TypedProgram> program, const QString& text);
  // Adds a state reached from `parent` by `spec`; returns its index.
  int addStep(int parent, const QString& spec, std::shared_ptr<const rewrite::TypedProgram> program);
  void setCheck(int index, Check check, const QString& message);
  void setPerformance(int index, const QString& text);
  void setCurrent(int index);
  void clear();

  int current() const { return current_; }
  const State& state(int index) const { return states_.at(static_cast<size_t>(index)); }
  int stateCount() const { return static_cast<int>(states_.size()); }
  int rootOf(int index) const;
  // The rewrites from the root of `index` to it, in order.
  QStringList specsTo(int index) const;
  // The derivation (plain rewrites) from the root to `index`; `programPath` names the start.
  rewrite::Derivation derivationTo(int index, const std::string& programPath) const;
  QModelIndex indexOf(int state, int column = 0) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 signals:
  void currentChanged(int index);

 private:
  // The rows under a shown parent state (-1: the top level).
  std::vector<int>& rowsUnder(int shownParent);
  const std::vector<int>& rowsUnder(int shownParent) const;
  int rowOf(int state) const;
  void changed(int state);

  std::vector<State> states_;
  std::vector<int> shownParent_;          // per state: the state it is shown under, or -1
  std::vector<std::vector<int>> rowsOf_;  // per state: the states shown under it
  std::vector<int> topRows_;
  int current_ = -1;
};

}  // namespace lift::views
