// The centre of the main window: the program graph under a tool bar (fit, zoom, and a field that
// finds a node by its label).
#pragma once

#include <QWidget>

class QLineEdit;

namespace lift::views {

class GraphView;

class GraphPane : public QWidget {
  Q_OBJECT
 public:
  explicit GraphPane(QWidget* parent = nullptr);
  GraphView* graphView() const { return graph_; }
  // Puts the caret in the find field (View > Find node).
  void focusFind();

 signals:
  // A line for the status bar.
  void message(const QString& text, int timeoutMs);

 private:
  GraphView* graph_;
  QLineEdit* find_;
};

}  // namespace lift::views
