// File > Recent files: the last ten programs opened (QSettings "recentFiles"), newest first, as
// the actions of a menu; choosing one asks to open it.
#pragma once

#include <QObject>

class QMenu;

namespace lift::views {

class RecentFiles : public QObject {
  Q_OBJECT
 public:
  // Fills `menu` (owned by the caller) now and after every add().
  explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);
  void add(const QString& path);

 signals:
  void openRequested(const QString& path);

 private:
  void updateMenu();

  QMenu* menu_;
};

}  // namespace lift::views
