// The application's light (the platform's) or dark palette, remembered between starts.
#pragma once

class QAction;
class QObject;

namespace lift::views {

void applyTheme(bool dark);
// A checkable "Dark theme" action holding the remembered choice, applied now and on toggle.
QAction* makeDarkThemeAction(QObject* parent);

}  // namespace lift::views
