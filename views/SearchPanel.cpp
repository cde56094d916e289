// See SearchPanel.h.
#include "views/SearchPanel.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>
#include <utility>

#include "codegen/Evaluation.h"
#include "codegen/runtime/Worker.h"
#include "core/interp/SizeList.h"
#include "core/interp/WorkCount.h"
#include "core/lang/Parser.h"
#include "core/lang/PrintedLocations.h"
#include "views/DeviceChoice.h"
#include "views/PerformancePlot.h"
#include "views/SearchJob.h"
#include "views/SizeFields.h"

namespace lift::views {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QString oneLine(QString derivation) { return derivation.trimmed().replace('\n', "; "); }

const char* const kIdleText = "Set a budget and the sizes, then start a search.";
const char* const kLibraryLinesIdleText =
    "Library lines: measured when a search starts (once per device, program and sizes).";
const char* const kLibraryLinesMeasuringText =
    "Library lines: measuring (once for this device and these sizes)…";

// The plot's unit for a program at `given` sizes (the others at the program's), as liftc run
// and the explorer report it: GFLOP/s when the program is compute-bound
// (interp::WorkCount::computeBound), else GB/s.
PerformancePlot::YAxis unitOf(const ir::Program& program, const arith::Env& given) {
  try {
    return interp::countWork(program, codegen::runSizes(program, given)).computeBound()
               ? PerformancePlot::YAxis::Gflops
               : PerformancePlot::YAxis::Gbs;
  } catch (const LiftError&) {
    return PerformancePlot::YAxis::Gflops;
  }
}
PerformancePlot::YAxis unitOf(const explore::SearchProblem& problem) {
  return unitOf(problem.original, problem.sizes);
}
}  // namespace

SearchPanel::SearchPanel(PerformancePlot* plot, QWidget* parent) : QWidget(parent), plot_(plot) {
  setObjectName("searchPanel");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  // What the search is doing first (it stays in view when the pane is short), then its settings.
  auto* buttons = new QHBoxLayout;
  start_ = new QPushButton("Start search (F6)", this);
  start_->setObjectName("startSearch");
  stop_ = new QPushButton("Stop", this);
  stop_->setObjectName("stopSearch");
  buttons->addWidget(start_);
  buttons->addWidget(stop_);
  layout->addLayout(buttons);
  progress_ = new QProgressBar(this);
  progress_->setObjectName("searchProgress");
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setTextVisible(false);
  layout->addWidget(progress_);
  activity_ = new QLabel(kIdleText, this);
  activity_->setObjectName("searchActivity");
  activity_->setWordWrap(true);
  counts_ = new QLabel(this);
  counts_->setObjectName("searchCounts");
  counts_->setWordWrap(true);
  counts_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  detail_ = new QLabel(this);
  detail_->setObjectName("searchDetail");
  detail_->setWordWrap(true);
  detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(activity_);
  layout->addWidget(counts_);
  layout->addWidget(detail_);
  auto* form = new QFormLayout;
  strategy_ = new QComboBox(this);
  strategy_->setObjectName("searchStrategy");
  for (const std::string& s : explore::strategyNames()) strategy_->addItem(qs(s));
  strategy_->setToolTip(
      "three-phase: algorithmic rewrites, then OpenCL mappings, then parameters (the Lift "
      "papers' exploration); random: random derivations and parameters; evolution: an "
      "evolutionary search over derivations and their parameters");
  form->addRow("Strategy:", strategy_);
  auto* budget = new QHBoxLayout;
  seconds_ = new QSpinBox(this);
  seconds_->setObjectName("searchSeconds");
  seconds_->setRange(0, 7 * 24 * 3600);
  seconds_->setSuffix(" s");
  seconds_->setSpecialValueText("no time limit");
  seconds_->setValue(60);
  seconds_->setToolTip("Wall-clock budget of the search (0: none)");
  maxKernels_ = new QSpinBox(this);
  maxKernels_->setObjectName("searchMaxKernels");
  maxKernels_->setRange(0, 10'000'000);
  maxKernels_->setSuffix(" kernels");
  maxKernels_->setSpecialValueText("no kernel limit");
  maxKernels_->setToolTip("Stop after this many kernels were run on the device (0: no limit)");
  budget->addWidget(seconds_);
  budget->addWidget(maxKernels_);
  form->addRow("Budget:", budget);
  device_ = new DeviceChoice(this);
  device_->setObjectName("searchDevice");
  form->addRow("Device:", device_);
  layout->addLayout(form);
  sizes_ = new SizeFields(this);
  sizes_->setToolTip("The sizes the kernels are generated for and measured at");
  layout->addWidget(sizes_);

  auto* storeRow = new QHBoxLayout;
  store_ = new QLabel(this);
  store_->setObjectName("searchStore");
  store_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  store_->setWordWrap(true);
  auto* open = new QPushButton("Open stored…", this);
  open->setObjectName("openStoredSearch");
  open->setToolTip(
      "Open a result store: plot its kernels; Start then resumes the search without measuring "
      "them again");
  storeRow->addWidget(store_, 1);
  storeRow->addWidget(open);
  layout->addLayout(storeRow);

  // Library lines: measured by the app (LibraryLines.h) when a search starts, once per device,
  // program and sizes.
  libraryLines_ = new QLabel(kLibraryLinesIdleText, this);
  libraryLines_->setObjectName("libraryLines");
  libraryLines_->setWordWrap(true);
  libraryLines_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  libraryLines_->setToolTip(
      "What libraries reach on this program at these sizes, drawn as dashed lines in the plot: OpenBLAS "
      "on this computer and CLBlast with its default parameters on the device (for a BLAS routine), the "
      "device's copy bandwidth, and for a compute-bound program the device's FMA peak (an estimate from "
      "its device info). Measured once per device, program and sizes, and cached in the settings.");
  layout->addWidget(libraryLines_);
  layout->addStretch();

  tick_ = new QTimer(this);
  tick_->setInterval(250);
  connect(tick_, &QTimer::timeout, this, &SearchPanel::updateProgress);
  connect(start_, &QPushButton::clicked, this, &SearchPanel::start);
  connect(stop_, &QPushButton::clicked, this, &SearchPanel::stop);
  connect(open, &QPushButton::clicked, this, &SearchPanel::openStoreDialog);
  connect(plot_, &PerformancePlot::pointClicked, this, [this](qint64 id) { loadKernel(id); });
  QSettings settings;  // the last search's settings
  setStrategy(settings.value("search/strategy", strategy_->currentText()).toString());
  setLimits(settings.value("search/seconds", seconds_->value()).toInt(),
            settings.value("search/maxKernels", maxKernels_->value()).toInt());
  setStorePath(defaultStorePath());
  updateButtons();
}

SearchPanel::~SearchPanel() {
  delete job_;  // cancels and joins a running search
}

QString SearchPanel::defaultStorePath() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/searches.sqlite";
}

void SearchPanel::setStorePath(const QString& path) {
  storePath_ = path;
  store_->setText("Store: " + QDir::toNativeSeparators(path));
  store_->setToolTip(
      "Every kernel of a search is written to this SQLite file (docs/RESULTS.md); a search of "
      "the same program, sizes and device resumes from it");
}

void SearchPanel::setStrategy(const QString& name) {
  int i = strategy_->findText(name);
  if (i >= 0) strategy_->setCurrentIndex(i);
}

void SearchPanel::setLimits(int seconds, int maxKernels) {
  seconds_->setValue(seconds);
  maxKernels_->setValue(maxKernels);
}

void SearchPanel::setProgram(std::shared_ptr<const rewrite::TypedProgram> p, const QString& label) {
  // A kernel loaded from the plot starts from the searched program specialised to the sizes:
  // the next search still starts from the searched program itself.
  if (problem_ && p && (p == problem_->start || p == loadedStart_)) return;
  // A search starts from the derivation's start, the same after each rewrite: only another one
  // (an example, a file, an edit) is counted for its unit.
  bool another = p != program_;
  program_ = std::move(p);
  label_ = label;
  sizes_->setProgram(program_);
  // An empty plot already shows the unit a search of this program will plot (GB/s for asum).
  arith::Env given;
  QString ignored;
  if (another && program_ && !isRunning() && plot_->pointCount() == 0 && sizes_->values(given, &ignored)) {
    // Only a change redraws the plot (tens of milliseconds of every load otherwise).
    PerformancePlot::YAxis unit = unitOf(program_->program, given);
    if (unit != plot_->yAxis()) plot_->setAxes(plot_->xAxis(), unit);
  }
  updateButtons();
}

void SearchPanel::setAvailable(bool available, const QString& why) {
  available_ = available;
  unavailableWhy_ = why;
  start_->setToolTip(available_ ? QString() : why);
  updateButtons();
}

void SearchPanel::reset() {
  bool stopped = job_ != nullptr;
  restartWhenStopped_ = false;
  if (job_) {
    abandoned_ = true;
    job_->cancel();
  }
  program_.reset();
  label_.clear();
  problem_.reset();
  loadedStart_.reset();
  problemWhy_.clear();
  kernels_.clear();
  tally_ = {};
  summary_ = {};
  evaluated_ = 0;
  plot_->clear();
  for (const QString& name : libraryLineNames_) plot_->removeReference(name);
  libraryLineNames_.clear();
  plot_->setReferenceNotes({});
  libraryLines_->setText(kLibraryLinesIdleText);
  sizes_->setProgram(nullptr);
  progress_->setValue(0);
  counts_->clear();
  detail_->clear();
  detail_->setToolTip({});
  activity_->setText(stopped ? "The search of the previous program was stopped; its kernels are in the "
                               "store (Open stored… plots them again)."
                             : kIdleText);
  updateButtons();
}

void SearchPanel::showLibraryLines(const LibraryLines& lines) {
  for (const QString& name : libraryLineNames_) plot_->removeReference(name);
  libraryLineNames_.clear();
  QStringList text;
  auto number = [](double v) { return v > 0 ? QString::number(v, 'g', 4) : QString("–"); };
  for (const LibraryLine& l : lines.lines) {
    // A value of 0 is no line on that axis (the FMA peak is drawn in GFLOP/s only).
    if (l.gflops > 0) plot_->setReference(l.name, l.gflops, PerformancePlot::YAxis::Gflops);
    if (l.gbs > 0) plot_->setReference(l.name, l.gbs, PerformancePlot::YAxis::Gbs);
    if (l.ms > 0) plot_->setReference(l.name, l.ms, PerformancePlot::YAxis::Milliseconds);
    libraryLineNames_ << l.name;
    QString line = QString("%1: %2 ms (%3 GFLOP/s, %4 GB/s)")
                       .arg(l.name.toHtmlEscaped(), number(l.ms), number(l.gflops), number(l.gbs));
    if (!l.how.isEmpty()) line += " — " + l.how.toHtmlEscaped();
    text << line;
  }
  QStringList missing = lines.missingText();
  for (const QString& m : missing) text << "<i>" + m.toHtmlEscaped() + "</i>";
  plot_->setReferenceNotes(missing);
  libraryLines_->setText("Library lines (measured): " +
                         (text.isEmpty() ? QString("none") : text.join("<br>")));
}

QString SearchPanel::libraryKey() const {
  if (!problem_) return {};
  QString device = device_->currentText();
  return libraryLinesKey(device.mid(device.indexOf(':') + 1).trimmed(), *problem_);  // without the index
}

bool SearchPanel::isRunning() const { return job_ != nullptr; }

void SearchPanel::waitForSearch() {
  if (job_) job_->wait();
}

QString SearchPanel::activityText() const { return activity_->text(); }
QString SearchPanel::countsText() const { return counts_->text(); }
QString SearchPanel::detailText() const { return detail_->text(); }

void SearchPanel::updateButtons() {
  bool running = job_ != nullptr;  // from start() until `finished` arrived
  start_->setEnabled(!running && available_ && program_ && device_->deviceCount() > 0);
  stop_->setEnabled(running);
  strategy_->setEnabled(!running);
  seconds_->setEnabled(!running);
  maxKernels_->setEnabled(!running);
  device_->setEnabled(!running && device_->deviceCount() > 0);
  sizes_->setEnabled(!running);
}

void SearchPanel::toggle() {
  if (!job_) {
    start();
  } else if (!stopping_) {
    stop();
  } else {
    restartWhenStopped_ = !restartWhenStopped_;
    activity_->setText(restartWhenStopped_ ? "Stopping… then starting again" : "Stopping…");
  }
}

void SearchPanel::start() {
  if (job_) return;
  auto fail = [this](const QString& why) {
    activity_->setText("<b style='color:#cf222e'>" + why.toHtmlEscaped() + "</b>");
    emit message(why);
  };
  if (!available_) return fail(unavailableWhy_);
  if (!program_) return fail("There is no valid program to search.");
  if (device_->deviceCount() == 0) return fail("There is no OpenCL device.");
  if (seconds_->value() == 0 && maxKernels_->value() == 0)
    return fail("Give the search a budget: seconds, kernels or both.");
  arith::Env sizes;
  QString error;
  if (!sizes_->values(sizes, &error)) return fail(error);
  QSettings settings;
  settings.setValue("search/strategy", strategy_->currentText());
  settings.setValue("search/seconds", seconds_->value());
  settings.setValue("search/maxKernels", maxKernels_->value());
  explore::SearchOptions o;
  o.strategy = strategy_->currentText().toStdString();
  o.limits.seconds = seconds_->value();
  o.limits.maxKernels = maxKernels_->value();
  o.devices = {device_->spec().toStdString()};
  o.programLabel = label_.toStdString();
  try {
    explore::SearchProblem problem = explore::SearchProblem::make(program_->program, sizes);
    QDir().mkpath(QFileInfo(storePath_).path());
    problem_ = std::make_shared<const explore::SearchProblem>(problem);
    job_ = new SearchJob(std::move(problem), std::move(o), storePath_, this);
  } catch (const LiftError& e) {
    return fail(qs(e.diagnostic().message));
  }
  problemWhy_.clear();
  kernels_.clear();
  tally_ = {};
  plot_->clear();
  summary_ = {};
  evaluated_ = 0;
  limitSeconds_ = seconds_->value();
  limitKernels_ = maxKernels_->value();
  progress_->setValue(0);
  detail_->clear();
  counts_->clear();
  activity_->setText(
      QString("Starting a search of %1 at %2…").arg(label_.toHtmlEscaped(), qs(problem_->sizesText)));
  plot_->setAxes(plot_->xAxis(), unitOf(*problem_));
  // The library lines: from the cache, or measured by the search's thread before it searches.
  QString key = libraryKey();
  if (auto cached = cachedLibraryLines(key)) {
    showLibraryLines(*cached);
  } else {
    showLibraryLines({});  // the previous search's lines are not this one's
    libraryLines_->setText(kLibraryLinesMeasuringText);
    activity_->setText(activity_->text() + " First measuring the library lines (once for this device).");
    job_->setPrelude([this, key, problem = problem_, spec = device_->spec().toStdString(),
                      liftc = runtime::WorkerClient::findLiftc()](const JobControl& job,
                                                                  const std::function<bool()>& cancelled) {
      std::optional<LibraryLines> measured = measureLibraryLines(*problem, spec, liftc, cancelled);
      if (!measured) return;  // stopped: measured again by the next search
      job.post([this, key, lines = *measured] {
        cacheLibraryLines(key, lines);
        if (!abandoned_) showLibraryLines(lines);
      });
    });
  }
  connect(job_, &SearchJob::event, this, &SearchPanel::onEvent);
  connect(job_, &SearchJob::finished, this, &SearchPanel::onFinished);
  clock_.start();
  tick_->start();
  job_->start();
  updateButtons();
  emit searchStarted();
}

void SearchPanel::stop() {
  if (!job_) return;
  stopping_ = true;
  restartWhenStopped_ = false;
  job_->cancel();
  activity_->setText("Stopping…");
}

void SearchPanel::showCounts(const explore::SearchCounts& c, double bestMs, double bestGflops) {
  evaluated_ = c.evaluated;
  QString text =
      QString("evaluated <b>%1</b> · valid <b>%2</b>").arg(tally_.measured).arg(tally_.measuredValid);
  if (tally_.stored)
    text += QString(" · stored before %1 (valid %2)").arg(tally_.stored).arg(tally_.storedValid);
  if (c.generated) text += QString(" · rejected %1 · duplicates %2").arg(c.rejected).arg(c.duplicates);
  if (bestMs > 0)
    text += QString("<br>best so far: <b>%1 ms</b> (%2 GFLOP/s)")
                .arg(bestMs, 0, 'g', 4)
                .arg(bestGflops, 0, 'f', 2);
  counts_->setText(text);
}

void SearchPanel::updateProgress() {
  double f = 0;
  if (limitSeconds_ > 0 && clock_.isValid()) f = std::max(f, clock_.elapsed() / 1000.0 / limitSeconds_);
  if (limitKernels_ > 0)
    f = std::max(f, static_cast<double>(evaluated_) / static_cast<double>(limitKernels_));
  progress_->setValue(static_cast<int>(std::min(1.0, f) * 1000));
}

void SearchPanel::onEvent(const explore::SearchEvent& e) {
  if (abandoned_) return;
  showCounts(e.counts, e.bestMs, e.bestGflops);
  if (e.kind == explore::SearchEvent::Kind::Kernel) {
    const explore::KernelEvent& k = e.kernel;
    // A stored kernel is reported again each time another candidate turns out to be it: once is enough.
    if (k.cached && k.storeId && kernels_.contains(k.storeId)) return updateProgress();
    KernelInfo info{k.index, qs(k.derivation), qs(k.parameters), qs(k.status), qs(k.message)};
    addKernel(k.storeId ? k.storeId : -k.index, info, k.elapsedS, k.medianMs, k.gflops, k.gbs, k.cached,
              qs(k.phase));
  } else if (!e.activity.empty()) {
    activity_->setText(QString("[%1 s] %2").arg(e.elapsedS, 0, 'f', 1).arg(qs(e.activity).toHtmlEscaped()));
  }
  updateProgress();
}

void SearchPanel::addKernel(qint64 id, const KernelInfo& info, double seconds, double ms, double gflops,
                            double gbs, bool cached, const QString& phase) {
  kernels_[id] = info;
  bool ok = info.status == "ok";
  (cached ? tally_.stored : tally_.measured) += 1;
  if (ok) (cached ? tally_.storedValid : tally_.measuredValid) += 1;
  PlotPoint p;
  p.id = id;
  p.seconds = seconds;
  p.valid = info.status == "ok";
  p.ms = ms;
  p.gflops = gflops;
  p.gbs = gbs;
  p.status = info.status;
  p.label = QString("kernel %1%2%3")
                .arg(info.index)
                .arg(phase.isEmpty() ? QString() : " (" + phase + ")",
                     cached ? QString(", stored before") : QString());
  p.detail = info.parameters;
  if (!info.derivation.isEmpty()) p.detail += "\n" + info.derivation.trimmed();
  if (!p.valid && !info.message.isEmpty()) p.detail += "\n" + info.status + ": " + info.message;
  plot_->addPoint(p);
}

void SearchPanel::onFinished(const explore::SearchSummary& s) {
  tick_->stop();
  job_->deleteLater();  // we are inside its signal
  job_ = nullptr;
  stopping_ = false;
  bool restart = std::exchange(restartWhenStopped_, false);
  updateButtons();
  if (abandoned_) {  // reset() already said so; the plot belongs to another program now
    abandoned_ = false;
    emit searchFinished();
    return;
  }
  if (libraryLines_->text() == kLibraryLinesMeasuringText)  // stopped before they were measured
    libraryLines_->setText(
        "Library lines: not measured, the search stopped first (the next one measures them).");
  summary_ = s;
  showCounts(s.counts, s.bestMs, s.bestGflops);
  QString text;
  if (s.stopReason == explore::StopReason::Error) {
    text = "<b style='color:#cf222e'>The search failed: " + qs(s.error).toHtmlEscaped() + "</b>";
  } else {
    if (s.stopReason != explore::StopReason::Cancelled) progress_->setValue(1000);
    text = QString("Finished (%1) after %2 s on %3.")
               .arg(qs(explore::toString(s.stopReason)))
               .arg(s.seconds, 0, 'f', 1)
               .arg(qs(s.device).toHtmlEscaped());
    if (!s.best.empty()) text += " Click a point to load its kernel.";
  }
  activity_->setText(text);
  emit message(QString("Search finished: %1, %2 kernels evaluated, %3 valid")
                   .arg(qs(explore::toString(s.stopReason)))
                   .arg(tally_.measured)
                   .arg(tally_.measuredValid));
  emit searchFinished();
  if (restart) start();
}

bool SearchPanel::loadKernel(qint64 id) {
  auto it = kernels_.find(id);
  if (it == kernels_.end()) return false;
  const KernelInfo& k = *it;
  QString head = QString("<b>kernel %1</b> %2").arg(k.index).arg(k.parameters.toHtmlEscaped());
  if (k.status != "ok") {
    QString why = k.status + (k.message.isEmpty() ? QString() : ": " + k.message);
    detail_->setText(head + "<br><b style='color:#cf222e'>" + why.toHtmlEscaped() + "</b>");
    emit message(QString("Kernel %1 failed: %2").arg(k.index).arg(why));
    return false;
  }
  if (!problem_) {
    detail_->setText(head + "<br>" + problemWhy_.toHtmlEscaped());
    emit message(problemWhy_);
    return false;
  }
  QStringList steps;
  for (const QString& line : k.derivation.split('\n', Qt::SkipEmptyParts))
    if (!line.trimmed().isEmpty()) steps << line.trimmed();
  detail_->setText(head + QString("<br>%1 rewrite steps, loaded into the derivation pane").arg(steps.size()));
  detail_->setToolTip(oneLine(k.derivation));
  QString origin =
      QString("%1 at %2 (search kernel %3)").arg(qs(problem_->name), qs(problem_->sizesText)).arg(k.index);
  plot_->setHighlight(id);
  loadedParameters_ = k.parameters;
  // The program at the searched sizes, its size declarations saying them (the search's start
  // program keeps the file's defaults: the store's hashes are those of its text).
  ir::Program shown = problem_->start->program;
  for (ir::SizeDecl& d : shown.sizes)
    if (auto v = problem_->sizes.find(d.name); v != problem_->sizes.end()) d.defaultValue = v->second;
  // It is shown as printed, so its positions are those of that text.
  loadedStart_ = std::make_shared<const rewrite::TypedProgram>(
      rewrite::TypedProgram::check(lang::withPrintedLocations(shown)));
  emit loadRequested(loadedStart_, origin, steps);
  return true;
}

std::shared_ptr<const explore::SearchProblem> SearchPanel::problemFor(const explore::SearchRecord& s,
                                                                      QString* why) {
  arith::Env sizes;
  try {
    interp::parseSizeList(s.sizes, sizes);
  } catch (const LiftError& e) {
    *why = qs(e.diagnostic().message);
    return nullptr;
  }
  auto tryProgram = [&](const ir::Program& p) -> std::shared_ptr<const explore::SearchProblem> {
    try {
      auto problem = std::make_shared<const explore::SearchProblem>(explore::SearchProblem::make(p, sizes));
      if (problem->startHash == s.startHash) return problem;
    } catch (const LiftError&) {
    }
    return nullptr;
  };
  if (program_)
    if (auto p = tryProgram(program_->program)) return p;
  // The program the search was started from, by its label: a file, or a bundled example.
  QString label = qs(s.program);
  for (const QString& path : {label, ":/examples/" + label, ":/examples/" + label + ".lift"}) {
    QFile f(path);
    if (!QFileInfo(path).isFile() || !f.open(QIODevice::ReadOnly)) continue;
    try {
      if (auto p = tryProgram(
              lang::parseProgram(f.readAll().toStdString(), QFileInfo(path).fileName().toStdString())))
        return p;
    } catch (const LiftError&) {
    }
  }
  *why = QString("The search started from %1, which is not the program shown: open it to load its kernels.")
             .arg(label);
  return nullptr;
}

bool SearchPanel::openStore(const QString& path, int64_t searchId, QString* error) {
  auto fail = [&](const QString& why) {
    if (error) *error = why;
    activity_->setText("<b style='color:#cf222e'>" + why.toHtmlEscaped() + "</b>");
    emit message(why);
    return false;
  };
  if (job_) return fail("Stop the running search first.");
  if (!QFileInfo::exists(path)) return fail("There is no file " + path + ".");
  try {
    explore::ResultStore store(path.toStdString());
    std::vector<explore::SearchRecord> searches = store.searches();
    if (searches.empty()) return fail(path + " holds no search.");
    const explore::SearchRecord* s = &searches.back();
    for (const auto& r : searches)
      if (r.id == searchId) s = &r;
    // The search and every search it resumed or that resumed it: the same program, sizes and device.
    explore::KernelQuery q;
    q.startHash = s->startHash;
    q.sizes = s->sizes;
    q.device = s->device;
    std::vector<explore::KernelRecord> records = store.kernels(q);

    setStorePath(path);
    problemWhy_.clear();
    problem_ = problemFor(*s, &problemWhy_);
    if (problem_ &&
        (!program_ || explore::programHash(program_->program) != explore::programHash(problem_->original))) {
      // Start resumes the stored search, also when the window shows another program.
      program_ =
          std::make_shared<const rewrite::TypedProgram>(rewrite::TypedProgram::check(problem_->original));
      label_ = qs(s->program);
      sizes_->setProgram(program_);
    }
    kernels_.clear();
    tally_ = {};
    plot_->clear();
    summary_ = {};
    if (problem_) {
      plot_->setAxes(plot_->xAxis(), unitOf(*problem_));
      if (auto cached = cachedLibraryLines(libraryKey())) showLibraryLines(*cached);
    }
    double bestMs = 0, bestGflops = 0;
    explore::SearchCounts counts;
    int64_t index = 0;
    for (const auto& k : records) {
      KernelInfo info{++index, qs(k.derivation), qs(k.parameters), qs(k.status), qs(k.message)};
      addKernel(k.id, info, k.elapsedS, k.medianMs, k.gflops, k.gbs, /*cached=*/false, qs(k.phase));
      ++counts.evaluated;
      if (k.ok()) {
        ++counts.valid;
        if (bestMs == 0 || k.medianMs < bestMs) {
          bestMs = k.medianMs;
          bestGflops = k.gflops;
        }
      }
    }
    showCounts(counts, bestMs, bestGflops);
    // Resuming needs the same sizes, strategy and device: set them.
    arith::Env sizes;
    interp::parseSizeList(s->sizes, sizes);
    sizes_->setTexts(sizeTexts(sizes));
    setStrategy(qs(s->strategy));
    if (int d = device_->findDevice(qs(s->device)); d >= 0) device_->setCurrentIndex(d);
    activity_->setText(QString("Stored search %1 of %2 at %3 on %4 (%5, %6): %7 kernels. Start resumes it.")
                           .arg(s->id)
                           .arg(qs(s->program).toHtmlEscaped(), qs(s->sizes), qs(s->device).toHtmlEscaped(),
                                qs(s->strategy), s->stopReason.empty() ? "unfinished" : qs(s->stopReason))
                           .arg(records.size()));
    detail_->setText(problem_ ? QString() : problemWhy_.toHtmlEscaped());
    progress_->setValue(0);
    return true;
  } catch (const LiftError& e) {
    return fail(qs(e.diagnostic().message));
  }
}

void SearchPanel::openStoreDialog() {
  QString path = QFileDialog::getOpenFileName(this, "Open stored search", QFileInfo(storePath_).path(),
                                              "Result stores (*.sqlite *.db);;All files (*)");
  if (path.isEmpty()) return;
  int64_t id = 0;
  try {
    explore::ResultStore store(path.toStdString());
    std::vector<explore::SearchRecord> searches = store.searches();
    if (searches.size() > 1) {
      QStringList items;
      for (auto it = searches.rbegin(); it != searches.rend(); ++it)
        items << QString("%1: %2 at %3 on %4, %5, %6 kernels (%7)")
                     .arg(it->id)
                     .arg(qs(it->program), qs(it->sizes), qs(it->device), qs(it->strategy))
                     .arg(it->evaluated)
                     .arg(qs(it->startedAt));
      bool ok = false;
      QString item = QInputDialog::getItem(this, "Open stored search", "Search:", items, 0, false, &ok);
      if (!ok) return;
      id = item.section(':', 0, 0).toLongLong();
    }
  } catch (const LiftError&) {
    // openStore says what is wrong with the file
  }
  openStore(path, id);
}

}  // namespace lift::views
