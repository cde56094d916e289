// See RecentFiles.h.
#include "views/RecentFiles.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace lift::views {

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) { updateMenu(); }

void RecentFiles::add(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("recentFiles").toStringList();
  recent.removeAll(path);
  recent.prepend(QFileInfo(path).absoluteFilePath());
  while (recent.size() > 10) recent.removeLast();
  settings.setValue("recentFiles", recent);
  updateMenu();
}

void RecentFiles::updateMenu() {
  menu_->clear();
  const QStringList recent = QSettings().value("recentFiles").toStringList();
  for (const QString& p : recent) menu_->addAction(p, this, [this, p] { emit openRequested(p); });
  menu_->setEnabled(!recent.isEmpty());
}

}  // namespace lift::views
