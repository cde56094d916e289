// A warning line above a pane ("this is not the program in the editor: ..."), hidden while it has
// nothing to say. The graph and kernel panes show one while the program they show is stale.
#pragma once

#include <QLabel>

namespace lift::views {

class NoticeBar : public QLabel {
  Q_OBJECT
 public:
  explicit NoticeBar(QWidget* parent = nullptr);
  // Shows `text` (plain text); an empty one hides the bar.
  void setNotice(const QString& text);
  QString notice() const { return text(); }
};

}  // namespace lift::views
