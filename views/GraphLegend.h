// The legend of the program graph: what each node colour and each edge and border style means,
// drawn with the graph view's own colours and pens. It floats over a corner of the graph and is
// shown or hidden from the graph's tool bar.
#pragma once

#include <QFrame>
#include <QStringList>

namespace lift::views {

class GraphLegend : public QFrame {
  Q_OBJECT
 public:
  explicit GraphLegend(QWidget* parent = nullptr);
  // The meaning of every entry, in order ("mapGlb (parallel over global threads)", ...).
  QStringList entries() const { return entries_; }

 private:
  QStringList entries_;
};

}  // namespace lift::views
