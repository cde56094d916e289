// The OpenCL device picker shared by the run and search panes: every device of every platform,
// as "0: NAME (PLATFORM)", its data the device spec the worker takes ("0", "1", ...). Without
// any device the combo box is disabled and says why. A device's label can be 90 characters long
// ("0: pthread-skylake-avx512-Intel(R) Xeon(R) Processor @ 2.80GHz (Portable Computing
// Language)"): the box does not widen its pane to it, which would squeeze the graph beside the
// pane, but shows what fits, elided, the whole label in its tooltip and in its open list.
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
  // The index of the device `text` names as liftc's --device does (runtime::Device::find: its
  // index, its type such as "cpu" or "gpu", or a part of its name, its platform's or its
  // vendor's, case-insensitive), else the first whose label contains `text` (a stored search's
  // device, "NAME (PLATFORM)"), or -1.
  int findDevice(const QString& text) const;
  // The current label as the box shows it: elided ("…") where the box is narrower than it.
  QString shownText() const;
  // The characters of a label the box is wide enough for at least.
  static constexpr int kMinVisibleChars = 24;

  void showPopup() override;

 protected:
  void paintEvent(QPaintEvent* e) override;

 private:
  QRect labelRect() const;

  bool hasDevices_ = true;
};

}  // namespace lift::views
