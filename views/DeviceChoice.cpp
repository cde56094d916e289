// See DeviceChoice.h.
#include "views/DeviceChoice.h"

#include <QAbstractItemView>
#include <QScreen>
#include <QScrollBar>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <algorithm>

#include "codegen/runtime/Device.h"
#include "core/support/Diagnostic.h"

namespace lift::views {

DeviceChoice::DeviceChoice(QWidget* parent) : QComboBox(parent) {
  setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  setMinimumContentsLength(kMinVisibleChars);
  connect(this, &QComboBox::currentIndexChanged, this, [this] { setToolTip(currentText()); });
  try {
    for (const auto& d : runtime::Device::all())
      addItem(QString::fromStdString(d.info().label()), QString::number(d.info().index));
  } catch (const LiftError& e) {
    addItem("no OpenCL device: " + QString::fromStdString(e.diagnostic().message));
    hasDevices_ = false;
    setEnabled(false);
  }
  if (hasDevices_ && count() == 0) {
    addItem("no OpenCL device");
    hasDevices_ = false;
    setEnabled(false);
  }
}

void DeviceChoice::setSpec(const QString& spec) {
  int i = findData(spec);
  if (i >= 0) setCurrentIndex(i);
}

int DeviceChoice::findDevice(const QString& text) const {
  if (!hasDevices_) return -1;
  try {
    return findData(QString::number(runtime::Device::find(text.toStdString()).info().index));
  } catch (const LiftError&) {
  }
  // A whole label or a stored search's "NAME (PLATFORM)".
  for (int i = 0; i < count(); ++i)
    if (itemText(i).contains(text, Qt::CaseInsensitive)) return i;
  return -1;
}

QRect DeviceChoice::labelRect() const {
  QStyleOptionComboBox opt;
  initStyleOption(&opt);
  return style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
}

QString DeviceChoice::shownText() const {
  // The style draws the label 1 px in from each side of its field.
  return fontMetrics().elidedText(currentText(), Qt::ElideRight, labelRect().width() - 2);
}

void DeviceChoice::paintEvent(QPaintEvent*) {
  QStylePainter p(this);
  QStyleOptionComboBox opt;
  initStyleOption(&opt);
  p.drawComplexControl(QStyle::CC_ComboBox, opt);
  opt.currentText = shownText();
  p.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

void DeviceChoice::showPopup() {
  // The list as wide as its longest label (the box itself may be narrower), within the screen.
  QAbstractItemView* list = view();
  int whole =
      list->sizeHintForColumn(0) + list->verticalScrollBar()->sizeHint().width() + 2 * list->frameWidth();
  list->setMinimumWidth(std::min(whole, screen() ? screen()->availableGeometry().width() : whole));
  QComboBox::showPopup();
}

}  // namespace lift::views
