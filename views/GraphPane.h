// The centre of the main window: the program graph under a tool bar (fit, zoom, the legend, and
// a field that finds a node by its label), a notice bar that says when the graph is not the
// current program, and the legend in a strip under the graph.
#pragma once

#include <QWidget>

class QAction;
class QLineEdit;

namespace lift::views {

class GraphLegend;
class GraphView;
class NoticeBar;

class GraphPane : public QWidget {
  Q_OBJECT
 public:
  explicit GraphPane(QWidget* parent = nullptr);
  GraphView* graphView() const { return graph_; }
  // Fit the graph into the view (Ctrl+0): the tool bar's button, which the View menu shows too,
  // so that the shortcut has one action.
  QAction* fitAction() const { return fit_; }
  // Shows or hides the legend of node colours and edge styles (checked: shown, the default).
  QAction* legendAction() const { return legendAction_; }
  GraphLegend* legend() const { return legend_; }
  // Puts the caret in the find field (View > Find node).
  void focusFind();
  // A line above the graph (e.g. why it is stale); empty: none.
  void setNotice(const QString& text);
  QString notice() const;

 signals:
  // A line for the status bar.
  void message(const QString& text, int timeoutMs);

 private:
  GraphView* graph_;
  QAction* fit_;
  QAction* legendAction_;
  GraphLegend* legend_;
  NoticeBar* notice_;
  QLineEdit* find_;
};

}  // namespace lift::views
