// See Theme.h.
#include "views/Theme.h"

#include <QAction>
#include <QApplication>
#include <QPalette>
#include <QSettings>

namespace lift::views {

void applyTheme(bool dark) {
  static const QPalette light = QApplication::palette();
  if (!dark) {
    QApplication::setPalette(light);
    return;
  }
  QPalette p;
  p.setColor(QPalette::Window, QColor(37, 37, 38));
  p.setColor(QPalette::WindowText, QColor(220, 220, 220));
  p.setColor(QPalette::Base, QColor(30, 30, 30));
  p.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
  p.setColor(QPalette::Text, QColor(220, 220, 220));
  p.setColor(QPalette::Button, QColor(45, 45, 48));
  p.setColor(QPalette::ButtonText, QColor(220, 220, 220));
  p.setColor(QPalette::Highlight, QColor(38, 79, 120));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::ToolTipBase, QColor(45, 45, 48));
  p.setColor(QPalette::ToolTipText, QColor(220, 220, 220));
  p.setColor(QPalette::Disabled, QPalette::Text, QColor(120, 120, 120));
  p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(120, 120, 120));
  QApplication::setPalette(p);
}

QAction* makeDarkThemeAction(QObject* parent) {
  auto* dark = new QAction("&Dark theme", parent);
  dark->setCheckable(true);
  dark->setChecked(QSettings().value("view/dark", false).toBool());
  QObject::connect(dark, &QAction::toggled, dark, [](bool on) {
    QSettings().setValue("view/dark", on);
    applyTheme(on);
  });
  applyTheme(dark->isChecked());
  return dark;
}

}  // namespace lift::views
