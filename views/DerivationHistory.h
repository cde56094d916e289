// The derivation history: every program state the user reached, as a tree (a rewrite applied
// to an earlier state starts a branch), each step named by its rewrite and marked once the
// interpreter has checked it against its parent on random inputs (verified / failed). The
// current state is bold. Undo/redo move along the tree (QUndoStack commands kept by the main
// window); clicking a state jumps to it; the path to the current state saves as a derivation.
#pragma once

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "rewrite/Derivation.h"

class QTreeWidget;
class QTreeWidgetItem;

namespace lift::views {

class DerivationHistory : public QWidget {
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

  explicit DerivationHistory(QWidget* parent = nullptr);
  ~DerivationHistory() override;

  // Starts a new derivation tree from `program`; returns the new state's index.
  int addRoot(std::shared_ptr<const rewrite::TypedProgram> program, const QString& origin,
              const QString& text);
  // Replaces the program of a root that has no steps yet (the user is still editing it).
  void replaceRoot(int index, std::shared_ptr<const rewrite::TypedProgram> program, const QString& text);
  // Adds a state reached from `parent` by `spec` and starts its check; returns its index.
  int addStep(int parent, const QString& spec, std::shared_ptr<const rewrite::TypedProgram> program);
  void setCurrent(int index);
  int current() const { return current_; }
  const State& state(int index) const { return states_.at(static_cast<size_t>(index)); }
  int stateCount() const { return static_cast<int>(states_.size()); }
  void setPerformance(int index, const QString& text);
  // The rewrites from the root of `index` to it, in order.
  QStringList specsTo(int index) const;
  int rootOf(int index) const;
  // The derivation (plain rewrites) from the root to `index`; `programPath` names the start.
  rewrite::Derivation derivationTo(int index, const std::string& programPath) const;
  // Blocks until every pending check has finished (tests, screenshots).
  void waitForChecks();
  void clear();

 signals:
  // The user clicked a state.
  void stateActivated(int index);
  // A check finished.
  void checkFinished(int index, bool ok);

 private:
  void startCheck(int index);
  void refreshItem(int index);

  std::vector<State> states_;
  std::vector<QTreeWidgetItem*> items_;
  int current_ = -1;
  QTreeWidget* tree_;
  int pendingChecks_ = 0;
};

}  // namespace lift::views
