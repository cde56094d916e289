// The main window's file dialogs: ask for a file, write to it, and say why when that fails (a
// warning dialog), so that no failed save or load goes unnoticed.
#pragma once

#include <QString>
#include <functional>

class QWidget;

namespace lift::views {

// The file to open ("" when the user cancels).
QString askOpen(QWidget* parent, const QString& title, const QString& filter);
// Asks where to save (proposing `name`), then calls `save(path, &error)`; a failure shows `error`.
void saveAs(QWidget* parent, const QString& title, const QString& name, const QString& filter,
            const std::function<bool(const QString& path, QString* error)>& save);
// Writes `data` to `path` atomically; a failure shows why, and false.
bool writeText(QWidget* parent, const QString& path, const QByteArray& data);
// Shows `error` under `title` unless `ok`.
void warnUnless(QWidget* parent, bool ok, const QString& title, const QString& error);

}  // namespace lift::views
