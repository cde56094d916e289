// The OpenCL device picker shared by the run and search panes: every device of every platform,
// as "0: NAME (PLATFORM)", its data the device spec the worker takes ("0", "1", ...). Without
// any device the combo box is disabled and says why.
#pragma once

#include <QComboBox>

namespace lift::views {

class DeviceChoice : public QComboBox {
  Q_OBJECT
 public:
  explicit DeviceChoice(QWidget* parent = nullptr);
  int deviceCount() const { return hasDevices_ ? count() : 0; }
  QString spec() const { return currentData().toString(); }
  void setSpec(const QString& spec);
  // The index of the first device whose label contains `text` (case-insensitive), or -1.
  int findDevice(const QString& text) const;

 private:
  bool hasDevices_ = true;
};

}  // namespace lift::views
