// The device-and-run pane: every OpenCL device of every platform, a field per size variable of
// the program, and Run (Ctrl+R): the current kernel is compiled, run in the isolated worker
// (a crash or hang never takes the app down), timed and validated in the background; the
// result (median/min/max, GFLOP/s or GB/s, validation) appears here and is reported to the
// main window, which annotates the derivation step with it. While a run is in flight a busy bar
// and the seconds elapsed show, and Stop cancels it (the interpreter's reference included).
#pragma once

#include <QElapsedTimer>
#include <QMap>
#include <QWidget>
#include <atomic>
#include <memory>

#include "codegen/Evaluation.h"
#include "rewrite/Engine.h"
#include "views/BackgroundJobs.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace lift::runtime {
class WorkerClient;
}

namespace lift::views {

class DeviceChoice;
class SizeFields;

class RunPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RunPanel(QWidget* parent = nullptr);
  ~RunPanel() override;

  // The program to run (its size fields are rebuilt when the size variables change).
  void setProgram(std::shared_ptr<const rewrite::TypedProgram> p);
  // Whether Run may start: not while the program shown is stale (`why` says so, on the button).
  void setAvailable(bool available, const QString& why = {});
  bool isAvailable() const { return available_; }
  // Another document was opened: a run in flight is stopped and its result dropped, the result
  // line and the size fields start over (the next program's fields get its own defaults).
  void reset();
  // The device spec ("0", "pocl", ...), and the sizes typed in the fields.
  QString deviceSpec() const;
  void setDeviceSpec(const QString& spec);
  QMap<QString, QString> sizeTexts() const;
  void setSizeTexts(const QMap<QString, QString>& sizes);
  int deviceCount() const;
  DeviceChoice* deviceChoice() const { return device_; }
  SizeFields* sizeFields() const { return sizes_; }
  bool isRunning() const;
  // Blocks until the run in flight has finished (tests, screenshots).
  void waitForRun();
  QString resultText() const;

 public slots:
  void run();
  void stop();

 signals:
  // A run finished (also when it failed: see e.status) for program `p`.
  void finished(std::shared_ptr<const rewrite::TypedProgram> p, const lift::codegen::Evaluation& e);

 private:
  void showResult(const codegen::Evaluation& e);

  std::shared_ptr<const rewrite::TypedProgram> program_;
  std::shared_ptr<const rewrite::TypedProgram> running_;
  std::shared_ptr<runtime::WorkerClient> worker_;
  QString workerDevice_;
  DeviceChoice* device_;
  SizeFields* sizes_;
  QSpinBox* repeat_;
  QPushButton* run_;
  QPushButton* stop_;
  QLabel* result_;
  QProgressBar* busy_;
  QTimer* tick_;           // the seconds elapsed, while a run is in flight
  QElapsedTimer elapsed_;  // since Run
  QString runningOn_;      // "Running on DEVICE at SIZES"
  // The run in flight's cancel flag (EvaluationRequest::cancel: stops the interpreter).
  std::shared_ptr<std::atomic<bool>> cancel_;
  bool available_ = true;
  BackgroundJobs runs_{this, 1};
};

}  // namespace lift::views
