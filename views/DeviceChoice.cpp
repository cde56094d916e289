// See DeviceChoice.h.
#include "views/DeviceChoice.h"

#include "codegen/runtime/Device.h"
#include "core/support/Diagnostic.h"

namespace lift::views {

DeviceChoice::DeviceChoice(QWidget* parent) : QComboBox(parent) {
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
  for (int i = 0; i < count(); ++i)
    if (itemText(i).contains(text, Qt::CaseInsensitive)) return i;
  return -1;
}

}  // namespace lift::views
