// See FileDialogs.h.
#include "views/FileDialogs.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QSaveFile>

namespace lift::views {

QString askOpen(QWidget* parent, const QString& title, const QString& filter) {
  return QFileDialog::getOpenFileName(parent, title, QString(), filter);
}

void saveAs(QWidget* parent, const QString& title, const QString& name, const QString& filter,
            const std::function<bool(const QString&, QString*)>& save) {
  QString path = QFileDialog::getSaveFileName(parent, title, name, filter), error;
  if (!path.isEmpty()) warnUnless(parent, save(path, &error), title, error);
}

bool writeText(QWidget* parent, const QString& path, const QByteArray& data) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
    QMessageBox::warning(parent, "Save", "Cannot write " + path + ": " + f.errorString());
    return false;
  }
  return true;
}

void warnUnless(QWidget* parent, bool ok, const QString& title, const QString& error) {
  if (!ok && !error.isEmpty()) QMessageBox::warning(parent, title, error);
}

}  // namespace lift::views
