// readInputText and writeWholeFile: core's bounded read and atomic write, messages made sentences.
#include "views/AppFiles.h"

#include <string_view>

#include "core/support/Diagnostic.h"
#include "core/support/FileRead.h"
#include "core/support/FileWrite.h"

namespace lift::views {
namespace {

QString sentence(const LiftError& e) {
  QString message = QString::fromStdString(e.diagnostic().message);
  if (!message.isEmpty()) message[0] = message[0].toUpper();
  return message;
}

}  // namespace

bool readInputText(const QString& path, QString* text, QString* error) {
  try {
    *text = QString::fromStdString(readInputFile(path.toStdString()));
    return true;
  } catch (const LiftError& e) {
    if (error) *error = sentence(e);
    return false;
  }
}

bool writeWholeFile(const QString& path, const QByteArray& data, QString* error) {
  try {
    writeFileAtomically(path.toStdString(),
                        std::string_view(data.constData(), static_cast<size_t>(data.size())));
    return true;
  } catch (const LiftError& e) {
    if (error) *error = sentence(e);
    return false;
  }
}

}  // namespace lift::views
