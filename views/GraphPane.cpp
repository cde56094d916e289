// See GraphPane.h.
#include "views/GraphPane.h"

#include <QAction>
#include <QLineEdit>
#include <QToolBar>
#include <QVBoxLayout>

#include "views/GraphLegend.h"
#include "views/GraphView.h"
#include "views/NoticeBar.h"

namespace lift::views {

GraphPane::GraphPane(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QToolBar(this);
  graph_ = new GraphView(this);
  find_ = new QLineEdit(this);
  find_->setPlaceholderText("Find node (Ctrl+F)");
  find_->setObjectName("graphSearch");
  find_->setMaximumWidth(220);
  fit_ = bar->addAction("&Fit graph", QKeySequence("Ctrl+0"), graph_, &GraphView::fit);
  fit_->setIconText("Fit");
  fit_->setToolTip("Fit the graph into the view (Ctrl+0)");
  bar->addAction("Zoom in", QKeySequence::ZoomIn, graph_, &GraphView::zoomIn);
  bar->addAction("Zoom out", QKeySequence::ZoomOut, graph_, &GraphView::zoomOut);
  legendAction_ = bar->addAction("Legend");
  legendAction_->setCheckable(true);
  legendAction_->setChecked(true);
  legendAction_->setToolTip("Show what the colours of the nodes and the styles of the edges mean");
  bar->addSeparator();
  bar->addWidget(find_);
  connect(find_, &QLineEdit::returnPressed, this, [this] {
    if (!graph_->findNext(find_->text())) emit message("No node matches '" + find_->text() + "'", 3000);
  });
  notice_ = new NoticeBar(this);
  notice_->setObjectName("graphNotice");
  layout->addWidget(bar);
  layout->addWidget(notice_);
  layout->addWidget(graph_, 1);
  legend_ = new GraphLegend(this);  // under the view, never over a node
  layout->addWidget(legend_);
  connect(legendAction_, &QAction::toggled, legend_, &QWidget::setVisible);
}

void GraphPane::setNotice(const QString& text) { notice_->setNotice(text); }

QString GraphPane::notice() const { return notice_->notice(); }

void GraphPane::focusFind() {
  find_->setFocus();
  find_->selectAll();
}

}  // namespace lift::views
