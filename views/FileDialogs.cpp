// See FileDialogs.h.
#include "views/FileDialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>

#include "views/AppFiles.h"

namespace lift::views {

namespace {
const char* const kFolderKey = "files/lastFolder";

QString chosen(const QString& path) {
  if (!path.isEmpty()) QSettings().setValue(kFolderKey, QFileInfo(path).absolutePath());
  return path;
}
}  // namespace

QString dialogFolder() {
  QString last = QSettings().value(kFolderKey).toString();
  if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
  QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  return documents.isEmpty() ? QDir::homePath() : documents;
}

QString askOpen(QWidget* parent, const QString& title, const QString& filter) {
  return chosen(QFileDialog::getOpenFileName(parent, title, dialogFolder(), filter));
}

QString askSave(QWidget* parent, const QString& title, const QString& name, const QString& filter) {
  QFileInfo proposed(name);
  QString start = proposed.isAbsolute() && proposed.dir().exists()
                      ? proposed.filePath()
                      : QDir(dialogFolder()).filePath(proposed.fileName());
  return chosen(QFileDialog::getSaveFileName(parent, title, start, filter));
}

void saveAs(QWidget* parent, const QString& title, const QString& name, const QString& filter,
            const std::function<bool(const QString&, QString*)>& save) {
  QString path = askSave(parent, title, name, filter), error;
  if (!path.isEmpty()) warnUnless(parent, save(path, &error), title, error);
}

bool writeText(QWidget* parent, const QString& path, const QByteArray& data) {
  QString error;
  if (writeWholeFile(path, data, &error)) return true;
  QMessageBox::warning(parent, "Save", error);
  return false;
}

void warnUnless(QWidget* parent, bool ok, const QString& title, const QString& error) {
  if (!ok && !error.isEmpty()) QMessageBox::warning(parent, title, error);
}

}  // namespace lift::views
