// GUI tests that need a real screen size: the offscreen platform's own screen is 800x800; this
// gives it one 1920x1080 screen at 96 dpi (as the issue's user had), before QApplication starts.
#pragma once

#include <QDir>
#include <QFile>

// Writes the offscreen platform's screen configuration and selects it; false when it cannot.
inline bool useOffscreenScreen1920x1080() {
  QString config = QDir::temp().filePath("lift-studio-screen-1920x1080.json");
  QFile f(config);
  if (!f.open(QIODevice::WriteOnly) ||
      f.write(R"({"screens": [{"name": "screen", "x": 0, "y": 0, "width": 1920, "height": 1080,
                   "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})") < 0)
    return false;
  f.close();
  qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toUtf8());
  return true;
}
