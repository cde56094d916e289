// The main window's file dialogs: ask for a file, write to it, and say why when that fails (a
// warning dialog), so that no failed save or load goes unnoticed. Dialogs open in the folder the
// user last chose a file in (remembered in QSettings), at first in their documents folder, never
// in whatever the working directory happens to be (the source tree, when started from a build).
#pragma once

#include <QString>
#include <functional>

class QWidget;

namespace lift::views {

// The folder the next dialog opens in.
QString dialogFolder();
// The file to open ("" when the user cancels).
QString askOpen(QWidget* parent, const QString& title, const QString& filter);
// The file to save to, proposing `name` (a file name, or a path whose folder is kept); "" when
// the user cancels.
QString askSave(QWidget* parent, const QString& title, const QString& name, const QString& filter);
// Asks where to save (proposing `name`), then calls `save(path, &error)`; a failure shows `error`.
void saveAs(QWidget* parent, const QString& title, const QString& name, const QString& filter,
            const std::function<bool(const QString& path, QString* error)>& save);
// Writes `data` to `path` atomically; a failure shows why, and false.
bool writeText(QWidget* parent, const QString& path, const QByteArray& data);
// Shows `error` under `title` unless `ok`.
void warnUnless(QWidget* parent, bool ok, const QString& title, const QString& error);

}  // namespace lift::views
