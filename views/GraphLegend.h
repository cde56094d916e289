// The legend of the program graph: what each node colour and each edge and border style means,
// drawn with the graph view's own colours and pens. A strip of short entries under the graph,
// in rows as many as its width needs (each entry's tooltip says more), so that it never hides a
// node; shown or hidden from the graph's tool bar.
#pragma once

#include <QFrame>
#include <QStringList>

namespace lift::views {

class GraphLegend : public QFrame {
  Q_OBJECT
 public:
  explicit GraphLegend(QWidget* parent = nullptr);
  // The entries as shown, in order ("mapGlb: global threads", ...).
  QStringList entries() const { return entries_; }

 private:
  QStringList entries_;
};

}  // namespace lift::views
