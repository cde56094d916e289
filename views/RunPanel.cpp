// See RunPanel.h.
#include "views/RunPanel.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <new>
#include <stdexcept>
#include <string>

#include "codegen/runtime/Worker.h"
#include "views/DeviceChoice.h"
#include "views/SizeFields.h"

namespace lift::views {

namespace {
const char* const kIdleText = "Lower the program to a kernel, then run it on a device.";
}

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
  setObjectName("runPanel");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* form = new QFormLayout;
  device_ = new DeviceChoice(this);
  device_->setObjectName("deviceCombo");
  form->addRow("Device:", device_);
  repeat_ = new QSpinBox(this);
  repeat_->setRange(1, 1000);
  repeat_->setValue(10);
  repeat_->setToolTip("Timed repetitions (after warm-up runs); the median is reported");
  form->addRow("Repetitions:", repeat_);
  layout->addLayout(form);
  sizes_ = new SizeFields(this);
  layout->addWidget(sizes_);
  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton("Run (Ctrl+R)", this);  // the shortcut is the main window's Run menu
  run_->setObjectName("runButton");
  stop_ = new QPushButton("Stop", this);
  stop_->setEnabled(false);
  buttons->addWidget(run_);
  buttons->addWidget(stop_);
  layout->addLayout(buttons);
  busy_ = new QProgressBar(this);
  busy_->setObjectName("runProgress");
  busy_->setRange(0, 0);  // busy: a run has no steps to count
  busy_->setTextVisible(false);
  busy_->hide();
  layout->addWidget(busy_);
  tick_ = new QTimer(this);
  tick_->setInterval(500);
  connect(tick_, &QTimer::timeout, this, [this] {
    result_->setText(QString("%1… %2 s (Stop cancels it)").arg(runningOn_).arg(elapsed_.elapsed() / 1000));
  });
  result_ = new QLabel(kIdleText, this);
  result_->setObjectName("runResult");
  result_->setWordWrap(true);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(result_);
  layout->addStretch();
  connect(run_, &QPushButton::clicked, this, &RunPanel::run);
  connect(stop_, &QPushButton::clicked, this, &RunPanel::stop);
}

void RunPanel::showResult(const codegen::Evaluation& e) {
  run_->setEnabled(available_);
  stop_->setEnabled(false);
  tick_->stop();
  busy_->hide();
  QString color = e.ok() ? "#1a7f37" : "#cf222e";
  QString text =
      QString("<b style='color:%1'>%2</b>").arg(color, QString::fromStdString(e.summary()).toHtmlEscaped());
  if (e.ok()) {
    QStringList g, l;
    for (auto v : e.global) g << QString::number(v);
    for (auto v : e.local) l << QString::number(v);
    text += QString("<br>median %1 ms (min %2, max %3) — %4<br>NDRange global (%5), local (%6)<br>%7")
                .arg(e.run.medianMs, 0, 'g', 4)
                .arg(e.run.minMs, 0, 'g', 4)
                .arg(e.run.maxMs, 0, 'g', 4)
                .arg(QString::fromStdString(e.throughputText()), g.join(", "),
                     l.isEmpty() ? "device's choice" : l.join(", "),
                     QString::fromStdString(e.validationText).toHtmlEscaped());
  } else if (e.diagnostic) {
    text += "<pre>" + QString::fromStdString(e.diagnostic->format()).toHtmlEscaped() + "</pre>";
  }
  result_->setText(text);
  emit finished(running_, e);
}

// The worker process is killed, so the run in flight ends before runs_ waits for it.
RunPanel::~RunPanel() {
  if (worker_) worker_->cancel();
}

int RunPanel::deviceCount() const { return device_->deviceCount(); }
QString RunPanel::deviceSpec() const { return device_->spec(); }
void RunPanel::setDeviceSpec(const QString& spec) { device_->setSpec(spec); }
QMap<QString, QString> RunPanel::sizeTexts() const { return sizes_->texts(); }
void RunPanel::setSizeTexts(const QMap<QString, QString>& sizes) { sizes_->setTexts(sizes); }

void RunPanel::setProgram(std::shared_ptr<const rewrite::TypedProgram> p) {
  program_ = std::move(p);
  sizes_->setProgram(program_);
}

void RunPanel::setAvailable(bool available, const QString& why) {
  available_ = available;
  run_->setEnabled(available_ && !isRunning());
  run_->setToolTip(available_ ? QString() : why);
}

void RunPanel::reset() {
  runs_.cancel();  // the old program's result is dropped when it arrives
  stop();
  running_.reset();
  program_.reset();
  sizes_->setProgram(nullptr);
  result_->setText(kIdleText);
  run_->setEnabled(available_);
  stop_->setEnabled(false);
  tick_->stop();
  busy_->hide();
}

bool RunPanel::isRunning() const { return runs_.busy(); }

void RunPanel::waitForRun() { runs_.wait(); }

QString RunPanel::resultText() const { return result_->text(); }

void RunPanel::run() {
  if (!program_ || !available_ || isRunning()) return;
  if (!deviceCount()) {
    result_->setText("<b style='color:#cf222e'>No OpenCL device.</b>");
    return;
  }
  // Sizes: what the fields say (checked by runSizes, which explains a bad value).
  arith::Env given;
  QString error;
  if (!sizes_->values(given, &error)) {
    result_->setText("<b style='color:#cf222e'>" + error.toHtmlEscaped() + "</b>");
    return;
  }
  QString spec = deviceSpec();
  if (!worker_ || workerDevice_ != spec) {
    runtime::WorkerOptions o;
    o.liftcPath = runtime::WorkerClient::findLiftc();
    o.device = spec.toStdString();
    worker_ = std::make_shared<runtime::WorkerClient>(o);
    workerDevice_ = spec;
  }
  running_ = program_;
  run_->setEnabled(false);
  stop_->setEnabled(true);
  QStringList sizes;
  for (auto& [name, value] : given) sizes << QString("%1=%2").arg(QString::fromStdString(name)).arg(value);
  runningOn_ = "Running on " + device_->currentText() + (sizes.isEmpty() ? "" : " at " + sizes.join(", "));
  result_->setText(runningOn_ + "…");
  busy_->show();
  elapsed_.start();
  tick_->start();
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  auto worker = worker_;
  auto program = program_;
  int repeat = repeat_->value();
  runs_.start(
      [worker, program, given, repeat, cancel = cancel_] {
        codegen::Evaluation e;
        try {
          codegen::EvaluationRequest req;
          req.sizes = codegen::runSizes(program->program, given);
          req.run.repetitions = repeat;
          req.cancel = cancel.get();
          e = codegen::evaluate(program->program, req, *worker);
        } catch (const LiftError& err) {
          e.status = codegen::EvaluationStatus::InvalidSizes;
          e.message = err.diagnostic().message;
          e.diagnostic = err.diagnostic();
        } catch (const std::bad_alloc&) {  // whatever escapes would abort the whole app
          e.status = codegen::EvaluationStatus::OutOfResources;
          e.message = "out of memory: the sizes need more memory than this computer has";
        } catch (const std::length_error&) {
          e.status = codegen::EvaluationStatus::OutOfResources;
          e.message = "the sizes are too large to allocate the inputs";
        } catch (const std::exception& err) {
          e.status = codegen::EvaluationStatus::Crashed;
          e.message = std::string("the run failed: ") + err.what();
        } catch (...) {
          e.status = codegen::EvaluationStatus::Crashed;
          e.message = "the run failed with an unknown error";
        }
        return e;
      },
      [this](const codegen::Evaluation& e) { showResult(e); });
}

void RunPanel::stop() {
  if (cancel_) *cancel_ = true;
  if (worker_) worker_->cancel();
}

}  // namespace lift::views
