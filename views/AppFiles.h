// The files the app reads and writes for the user (programs, sessions, derivations, reports,
// exports), through core's routines: a read is refused for a directory, FIFO or device and
// bounded in size (readInputFile); a write goes to a temporary beside the target, checked,
// synced and renamed over it, and never replaces a device or FIFO (writeFileAtomically). Errors
// come back as a sentence for a dialog or the status bar.
#pragma once

#include <QByteArray>
#include <QString>

namespace lift::views {

// The file's text (UTF-8), or false with "Cannot read 'PATH': REASON" in `error`.
bool readInputText(const QString& path, QString* text, QString* error);

// Writes `data` as the whole of `path`; false with "Cannot write 'PATH': REASON" in `error`
// (when given), the previous content intact.
bool writeWholeFile(const QString& path, const QByteArray& data, QString* error);

}  // namespace lift::views
