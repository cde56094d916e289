// See RunPanel.h.
#include "views/RunPanel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "codegen/runtime/Device.h"
#include "codegen/runtime/Worker.h"

namespace lift::views {

RunPanel::RunPanel(QWidget* parent) : QWidget(parent), watcher_(new QFutureWatcher<codegen::Evaluation>(this)) {
  setObjectName("runPanel");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* form = new QFormLayout;
  device_ = new QComboBox(this);
  device_->setObjectName("deviceCombo");
  try {
    for (const auto& d : runtime::Device::all())
      device_->addItem(QString::fromStdString(d.info().label()), QString::number(d.info().index));
  } catch (const LiftError& e) {
    device_->addItem("no OpenCL device: " + QString::fromStdString(e.diagnostic().message));
    device_->setEnabled(false);
  }
  form->addRow("Device:", device_);
  repeat_ = new QSpinBox(this);
  repeat_->setRange(1, 1000);
  repeat_->setValue(10);
  repeat_->setToolTip("Timed repetitions (after warm-up runs); the median is reported");
  form->addRow("Repetitions:", repeat_);
  layout->addLayout(form);
  sizeBox_ = new QWidget(this);
  sizeForm_ = new QFormLayout(sizeBox_);
  sizeForm_->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(sizeBox_);
  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton("Run (Ctrl+R)", this);
  run_->setObjectName("runButton");
  run_->setShortcut(QKeySequence("Ctrl+R"));
  stop_ = new QPushButton("Stop", this);
  stop_->setEnabled(false);
  buttons->addWidget(run_);
  buttons->addWidget(stop_);
  layout->addLayout(buttons);
  result_ = new QLabel("Lower the program to a kernel, then run it on a device.", this);
  result_->setObjectName("runResult");
  result_->setWordWrap(true);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(result_);
  layout->addStretch();
  connect(run_, &QPushButton::clicked, this, &RunPanel::run);
  connect(stop_, &QPushButton::clicked, this, &RunPanel::stop);
  connect(watcher_, &QFutureWatcher<codegen::Evaluation>::finished, this, [this] {
    codegen::Evaluation e = watcher_->result();
    run_->setEnabled(true);
    stop_->setEnabled(false);
    QString color = e.ok() ? "#1a7f37" : "#cf222e";
    QString text = QString("<b style='color:%1'>%2</b>").arg(color, QString::fromStdString(e.summary()).toHtmlEscaped());
    if (e.ok()) {
      QStringList g, l;
      for (auto v : e.global) g << QString::number(v);
      for (auto v : e.local) l << QString::number(v);
      text += QString("<br>median %1 ms (min %2, max %3) — %4<br>NDRange global (%5), local (%6)<br>%7")
                  .arg(e.run.medianMs, 0, 'g', 4)
                  .arg(e.run.minMs, 0, 'g', 4)
                  .arg(e.run.maxMs, 0, 'g', 4)
                  .arg(QString::fromStdString(e.throughputText()), g.join(", "), l.isEmpty() ? "device's choice" : l.join(", "),
                       QString::fromStdString(e.validationText).toHtmlEscaped());
    } else if (e.diagnostic) {
      text += "<pre>" + QString::fromStdString(e.diagnostic->format()).toHtmlEscaped() + "</pre>";
    }
    result_->setText(text);
    emit finished(running_, e);
  });
}

RunPanel::~RunPanel() {
  if (worker_) worker_->cancel();
  watcher_->waitForFinished();
}

int RunPanel::deviceCount() const { return device_->isEnabled() ? device_->count() : 0; }
QString RunPanel::deviceSpec() const { return device_->currentData().toString(); }

void RunPanel::setDeviceSpec(const QString& spec) {
  int i = device_->findData(spec);
  if (i >= 0) device_->setCurrentIndex(i);
}

QMap<QString, QString> RunPanel::sizeTexts() const {
  QMap<QString, QString> m;
  for (auto it = sizeFields_.begin(); it != sizeFields_.end(); ++it) m[it.key()] = it.value()->text();
  return m;
}

void RunPanel::setSizeTexts(const QMap<QString, QString>& sizes) {
  for (auto it = sizes.begin(); it != sizes.end(); ++it)
    if (sizeFields_.contains(it.key())) sizeFields_[it.key()]->setText(it.value());
}

void RunPanel::setProgram(std::shared_ptr<const rewrite::TypedProgram> p) {
  program_ = std::move(p);
  QStringList names;
  if (program_)
    for (auto& s : program_->program.sizes) names << QString::fromStdString(s.name);
  if (names == QStringList(sizeFields_.keys()) && !names.isEmpty()) return;  // keep what the user typed
  QMap<QString, QString> old = sizeTexts();
  while (sizeForm_->rowCount() > 0) sizeForm_->removeRow(0);
  sizeFields_.clear();
  if (!program_) return;
  arith::Env defaults;
  try {
    defaults = codegen::runSizes(program_->program);
  } catch (const LiftError&) {
  }
  for (auto& s : program_->program.sizes) {
    QString name = QString::fromStdString(s.name);
    auto* field = new QLineEdit(sizeBox_);
    field->setObjectName("size_" + name);
    auto it = defaults.find(s.name);
    field->setText(old.value(name, it != defaults.end() ? QString::number(it->second) : QString()));
    field->setToolTip("Value of the size variable " + name);
    sizeForm_->addRow(name + " =", field);
    sizeFields_[name] = field;
  }
}

bool RunPanel::isRunning() const { return watcher_->isRunning(); }

void RunPanel::waitForRun() {
  watcher_->waitForFinished();
  QCoreApplication::processEvents();
}

QString RunPanel::resultText() const { return result_->text(); }

void RunPanel::run() {
  if (!program_ || isRunning()) return;
  if (!deviceCount()) {
    result_->setText("<b style='color:#cf222e'>No OpenCL device.</b>");
    return;
  }
  // Sizes: what the fields say (checked by runSizes, which explains a bad value).
  arith::Env given;
  for (auto it = sizeFields_.begin(); it != sizeFields_.end(); ++it) {
    bool ok = false;
    qlonglong v = it.value()->text().trimmed().toLongLong(&ok);
    if (!ok || v < 1) {
      result_->setText(QString("<b style='color:#cf222e'>Size %1 must be a positive integer, not '%2'.</b>")
                           .arg(it.key(), it.value()->text().toHtmlEscaped()));
      return;
    }
    given[it.key().toStdString()] = v;
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
  result_->setText("Running on " + device_->currentText() + "…");
  auto worker = worker_;
  auto program = program_;
  int repeat = repeat_->value();
  watcher_->setFuture(QtConcurrent::run([worker, program, given, repeat] {
    codegen::Evaluation e;
    try {
      codegen::EvaluationRequest req;
      req.sizes = codegen::runSizes(program->program, given);
      req.run.repetitions = repeat;
      e = codegen::evaluate(program->program, req, *worker);
    } catch (const LiftError& err) {
      e.status = codegen::EvaluationStatus::InvalidSizes;
      e.message = err.diagnostic().message;
      e.diagnostic = err.diagnostic();
    }
    return e;
  }));
}

void RunPanel::stop() {
  if (worker_) worker_->cancel();
}

}  // namespace lift::views
