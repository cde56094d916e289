// The derivation pane: the session's derivation tree (DerivationTreeModel) as a tree view, the
// current state selected and scrolled to, a new branch expanded. Clicking a state asks to
// jump there (the session moves through its undo stack).
#pragma once

#include <QWidget>

class QTreeView;

namespace lift::views {

class DerivationTreeModel;

class DerivationHistory : public QWidget {
  Q_OBJECT
 public:
  explicit DerivationHistory(DerivationTreeModel* model, QWidget* parent = nullptr);

  QTreeView* view() const { return view_; }

 signals:
  // The user clicked a state other than the current one.
  void stateActivated(int index);

 private:
  void showCurrent();

  DerivationTreeModel* model_;
  QTreeView* view_;
};

}  // namespace lift::views
