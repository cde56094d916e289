// See NoticeBar.h.
#include "views/NoticeBar.h"

namespace lift::views {

NoticeBar::NoticeBar(QWidget* parent) : QLabel(parent) {
  setObjectName("noticeBar");
  setWordWrap(true);
  setTextFormat(Qt::PlainText);
  setMargin(4);
  // Readable in the light and the dark palette alike: dark text on amber.
  setStyleSheet("QLabel { background: #fff3c4; color: #5c4400; border-bottom: 1px solid #d4a72c; }");
  hide();
}

void NoticeBar::setNotice(const QString& text) {
  setText(text);
  setVisible(!text.isEmpty());
}

}  // namespace lift::views
