// The main window; see MainWindow.h.
#include "views/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QComboBox>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>
#include <QVBoxLayout>
#include <cstdio>

#include "codegen/Evaluation.h"
#include "core/ir/ProgramGraph.h"
#include "rewrite/explore/CodegenTunables.h"
#include "views/AppFiles.h"
#include "views/DerivationHistory.h"
#include "views/DeviceChoice.h"
#include "views/FileDialogs.h"
#include "views/GraphPane.h"
#include "views/GraphView.h"
#include "views/KernelExport.h"
#include "views/KernelView.h"
#include "views/NoticeBar.h"
#include "views/PerformancePlot.h"
#include "views/ProgramEditor.h"
#include "views/RecentFiles.h"
#include "views/RulePalette.h"
#include "views/RunPanel.h"
#include "views/SearchPanel.h"
#include "views/Session.h"
#include "views/SizeFields.h"
#include "views/Theme.h"

namespace lift::views {

namespace {
QDockWidget* addPane(QMainWindow* w, const QString& title, const char* name, QWidget* pane,
                     Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, w);
  dock->setObjectName(name);
  dock->setWidget(pane);
  w->addDockWidget(area, dock);
  return dock;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName("liftStudioMainWindow");
  setWindowTitle("Lift Studio[*]");
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks | QMainWindow::AllowTabbedDocks);
  session_ = new Session(this);  // autosaves nowhere: the application gives it its slot

  graphPane_ = new GraphPane(this);
  graph_ = graphPane_->graphView();
  graphPane_->setMinimumWidth(kGraphMinWidth);
  connect(graphPane_, &GraphPane::message, statusBar(), &QStatusBar::showMessage);
  setCentralWidget(graphPane_);

  status_ = new QLabel(this);
  statusBar()->addPermanentWidget(status_);

  buildDocks();
  buildMenus();
  connectSession();
  connect(graph_, &GraphView::nodeSelected, this, [this](ir::NodeId id) { showNode(id, Pane::Graph); });
  showWhetherCurrent();  // nothing to run or search before a program is open

  defaultState_ = saveState();
  QSettings settings;
  fitToScreen(restoreGeometry(settings.value("window/geometry").toByteArray()));
  // The first start's pane sizes are shares of the window's, set when it is shown at its size.
  placeDocksOnShow_ = !restoreState(settings.value("window/state").toByteArray());
}

void MainWindow::fitToScreen(bool remembered) {
  QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
  if (!s) return;
  QRect avail = s->availableGeometry();
  // Room for the window's frame, which is not known before it is shown.
  QSize room = avail.size() - QSize(16, 48);
  if (!remembered) {
    resize(room.width() * 19 / 20, room.height() * 19 / 20);
    move(avail.center() - rect().center());
    return;
  }
  if (width() > room.width() || height() > room.height()) {
    resize(size().boundedTo(room));
    move(avail.topLeft());
  }
}

MainWindow::~MainWindow() {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
}

void MainWindow::buildDocks() {
  // Columns that run the window's full height on the left: the program (over the derivation)
  // and, beside it, the kernel, as Compiler Explorer puts source and output; the graph in the
  // centre; the rewrite, run and search panes on the right; the performance plot under the graph
  // and the right column.
  setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  editor_ = new ProgramEditor(this);
  auto* programDock = addPane(this, "Program", "programDock", editor_, Qt::LeftDockWidgetArea);

  kernel_ = new KernelView(this);
  auto* kernelPane = new QWidget(this);  // the kernel under a line that says when it is stale
  auto* kernelLayout = new QVBoxLayout(kernelPane);
  kernelLayout->setContentsMargins(0, 0, 0, 0);
  kernelLayout->setSpacing(0);
  kernelNotice_ = new NoticeBar(kernelPane);
  kernelNotice_->setObjectName("kernelNotice");
  kernelLayout->addWidget(kernelNotice_);
  kernelLayout->addWidget(kernel_, 1);
  auto* kernelDock =
      addPane(this, "OpenCL kernel and indices", "kernelDock", kernelPane, Qt::LeftDockWidgetArea);
  splitDockWidget(programDock, kernelDock, Qt::Horizontal);

  history_ = new DerivationHistory(session_->tree(), this);
  auto* historyDock = addPane(this, "Derivation", "historyDock", history_, Qt::LeftDockWidgetArea);
  splitDockWidget(programDock, historyDock, Qt::Vertical);

  rules_ = new RulePalette(this);
  addPane(this, "Rewrite", "rewriteDock", rules_, Qt::RightDockWidgetArea);
  run_ = new RunPanel(this);
  auto* runDock = addPane(this, "Device and run", "runDock", run_, Qt::RightDockWidgetArea);

  plot_ = new PerformancePlot(this);
  auto* plotDock = addPane(this, "Search performance", "plotDock", plot_, Qt::BottomDockWidgetArea);
  searchPanel_ = new SearchPanel(plot_, this);
  auto* searchScroll = new QScrollArea(this);  // the pane is tall: never let it grow the window
  searchScroll->setWidget(searchPanel_);
  searchScroll->setWidgetResizable(true);
  searchScroll->setFrameShape(QFrame::NoFrame);
  auto* searchDock = addPane(this, "Search", "searchDock", searchScroll, Qt::RightDockWidgetArea);
  tabifyDockWidget(runDock, searchDock);
  runDock->raise();
  connect(searchPanel_, &SearchPanel::searchStarted, this, [plotDock, searchDock] {
    plotDock->show();
    searchDock->show();
    plotDock->raise();
    searchDock->raise();
  });
}

// What one pane does that another (or the session) follows.
void MainWindow::connectSession() {
  connect(session_, &Session::programChanged, this, &MainWindow::showProgram);
  connect(session_, &Session::programChanged, this, &MainWindow::showWhetherCurrent);
  connect(session_, &Session::diagnosticChanged, this, &MainWindow::showWhetherCurrent);
  connect(session_, &Session::documentReplaced, this, [this] {
    run_->reset();
    searchPanel_->reset();
  });
  connect(session_, &Session::modifiedChanged, this, &QWidget::setWindowModified);
  connect(session_, &Session::textReplaced, editor_, &ProgramEditor::setText);
  connect(editor_->editor(), &QPlainTextEdit::textChanged, this,
          [this] { session_->setText(editor_->text()); });
  connect(editor_, &ProgramEditor::textEdited, session_, &Session::reparse);
  connect(editor_, &ProgramEditor::caretMoved, this, [this](int line, int col) {
    // Positions are the shown program's: while the text does not type-check they mean nothing.
    auto p = session_->program();
    if (!p || !session_->isProgramCurrent()) return;
    ir::NodeId id = graph_->nodeAtSource(p->program, line, col);
    if (id && id != graph_->selectedNode()) showNode(id, Pane::Program);
  });
  connect(session_, &Session::diagnosticChanged, this, [this](const Diagnostic& d) {
    if (d.message.empty()) {
      editor_->clearDiagnostic();
      return;
    }
    editor_->setDiagnostic(d);
    status_->setText("Program has an error");
  });
  connect(session_, &Session::fileChanged, this, &MainWindow::updateTitle);
  connect(session_, &Session::derivationOpened, recent_, &RecentFiles::add);
  connect(session_, &Session::message, statusBar(), &QStatusBar::showMessage);
  connect(session_, &Session::problem, this,
          [this](const QString& title, const QString& text) { warn(title, text); });
  connect(session_, &Session::compileOptionsChanged, kernel_, &KernelView::setOptions);
  connect(kernel_, &KernelView::kernelChanged, this,
          [this] { session_->setCompileOptions(kernel_->options()); });
  connect(rules_, &RulePalette::applyRequested, this,
          [this](const QString& spec) { session_->applyRewrite(spec); });
  connect(history_, &DerivationHistory::stateActivated, this,
          [this](int idx) { session_->moveTo(idx, "Jump to step"); });
  connect(run_, &RunPanel::finished, this,
          [this](std::shared_ptr<const rewrite::TypedProgram> p, const codegen::Evaluation& e) {
            // Annotate the derivation state that was run (the user may have moved on meanwhile).
            session_->setPerformance(
                p, QString::fromStdString(e.ok() ? e.throughputText() : codegen::toString(e.status)));
            statusBar()->showMessage(QString::fromStdString(e.summary()), 8000);
          });
  // The search pane follows the run pane's device (and back), so both talk about one device.
  connect(run_->deviceChoice(), &QComboBox::currentIndexChanged, searchPanel_->deviceChoice(),
          &QComboBox::setCurrentIndex);
  connect(searchPanel_->deviceChoice(), &QComboBox::currentIndexChanged, run_->deviceChoice(),
          &QComboBox::setCurrentIndex);
  // F6 stops a running search also while the program shown is stale.
  connect(searchPanel_, &SearchPanel::searchStarted, this, &MainWindow::showWhetherCurrent);
  connect(searchPanel_, &SearchPanel::searchFinished, this, &MainWindow::showWhetherCurrent);
  connect(searchPanel_, &SearchPanel::message, this,
          [this](const QString& m) { statusBar()->showMessage(m, 8000); });
  connect(searchPanel_, &SearchPanel::loadRequested, this,
          [this](std::shared_ptr<const rewrite::TypedProgram> start, const QString& origin,
                 const QStringList& steps) {
            // A search's kernel runs at the sizes it was searched at.
            if (auto problem = searchPanel_->problem()) run_->setSizeTexts(sizeTexts(problem->sizes));
            graph_->fit();  // the loaded kernel's graph is fitted when it comes
            // The kernel pane shows it as it was measured: with the code generator's tuning
            // switches its parameters name (unroll=8,vload=1), the others off.
            // The kernel pane's toggles are what the session keeps (kernelChanged).
            codegen::CompileOptions options = kernel_->options();
            options.vectorLocalLoads = false;
            options.innerLoopUnroll = 1;
            options.tileLoopUnroll = 1;
            options.doubleBuffering = false;
            options.registerPrefetch = false;
            options.prefetchParts = 1;
            options.vectorGlobalStores = false;
            options.localPadding = 0;
            options.indexCse = false;
            explore::applyCodegenParameters(searchPanel_->loadedParameters().toStdString(), options);
            kernel_->setOptions(options);
            session_->showDerivation(std::move(start), origin, steps);
          });
  connect(kernel_, &KernelView::nodeActivated, this, [this](ir::NodeId id) { showNode(id, Pane::Kernel); });
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("&Open…", QKeySequence::Open, this, [this] {
    QString path = askOpen(this, "Open program", "Lift programs (*.lift);;All files (*)");
    if (!path.isEmpty()) openFile(path);
  });
  QMenu* examples = file->addMenu("&Examples");
  for (const QString& name : bundledExamples())
    examples->addAction(name, this, [this, name] { openExample(name); });
  recent_ = new RecentFiles(file->addMenu("&Recent files"), this);
  connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openFile);
  file->addAction("Save program &as…", QKeySequence::SaveAs, this, &MainWindow::saveProgramAs);
  file->addSeparator();
  file->addAction("Open &derivation…", QKeySequence("Ctrl+Shift+O"), this, [this] {
    QString path = askOpen(this, "Open derivation", "Derivations (*.derivation);;All files (*)");
    if (!path.isEmpty()) openDerivation(path);
  });
  file->addAction("Save deri&vation…", QKeySequence::Save, this, [this] {
    saveAs(this, "Save derivation", "derivation.derivation", "Derivations (*.derivation)",
           [this](const QString& path, QString* error) { return session_->saveDerivation(path, error); });
  });
  file->addAction("Open s&ession…", this, [this] {
    QString path = askOpen(this, "Open session", "Lift Studio sessions (*.liftsession)");
    if (!path.isEmpty()) openSession(path);
  });
  file->addAction("Save sessio&n…", this, [this] {
    saveAs(this, "Save session", "session.liftsession", "Lift Studio sessions (*.liftsession)",
           [this](const QString& path, QString* error) { return session_->saveSession(path, error); });
  });
  file->addAction("Open stored searc&h…", this, [this] { searchPanel_->openStoreDialog(); });
  file->addSeparator();
  QMenu* exportMenu = file->addMenu("&Export");
  exportMenu->addAction("Graph as &DOT…", this, [this] {
    QString path = askSave(this, "Export graph", "program.dot", "Graphviz DOT (*.dot)");
    auto p = session_->program();
    if (!path.isEmpty())
      writeText(this, path,
                QByteArray::fromStdString(ir::toDot(graph_->graph(), p ? p->program.name : "program")));
  });
  exportMenu->addAction("Graph as &PNG or SVG…", this, [this] {
    QString path = askSave(this, "Export graph", "program.png", "PNG image (*.png);;SVG image (*.svg)");
    auto p = session_->program();
    if (!path.isEmpty() && !graph_->saveImage(path, p ? QString::fromStdString(p->program.name) : "program"))
      warn("Export graph", "Cannot write " + path);
  });
  exportMenu->addAction("&Kernel (.cl)…", this, [this] {
    if (kernel_->source().isEmpty()) {
      QMessageBox::information(this, "Export kernel", "There is no kernel: " + kernel_->errorText());
      return;
    }
    QString path = askSave(this, "Export kernel", "kernel.cl", "OpenCL C (*.cl)");
    if (!path.isEmpty()) writeText(this, path, exportedKernel().toUtf8());
  });
  exportMenu->addAction("P&lot as PNG or PDF…", this, [this] {
    QString path = askSave(this, "Export plot", "search.png", "PNG image (*.png);;PDF (*.pdf)");
    if (!path.isEmpty()) exportPlot(path);
  });
  exportMenu->addAction("Derivation &report…", this, [this] {
    saveAs(this, "Export derivation report", "derivation.html", "HTML (*.html);;Markdown (*.md)",
           [this](const QString& path, QString* error) { return session_->exportReport(path, error); });
  });
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

  QMenu* edit = menuBar()->addMenu("&Edit");
  QAction* undo = session_->undoStack()->createUndoAction(this, "&Undo");
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = session_->undoStack()->createRedoAction(this, "&Redo");
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addAction("&Apply selected rule", QKeySequence("Ctrl+Return"), rules_, &RulePalette::applySelected);

  QMenu* runMenu = menuBar()->addMenu("&Run");
  runAction_ = runMenu->addAction("&Run kernel", QKeySequence("Ctrl+R"), run_, &RunPanel::run);
  runAction_->setToolTip("Compile the current kernel, run it on the selected device, time and validate it");
  runMenu->addAction("S&top run", QKeySequence("Ctrl+."), run_, &RunPanel::stop);
  runMenu->addSeparator();
  searchAction_ = runMenu->addAction("Start/stop &search", searchPanel_, &SearchPanel::toggle);
  searchAction_->setShortcuts({QKeySequence("F6"), QKeySequence("Ctrl+Shift+F")});
  searchAction_->setToolTip("Start a search with the Search pane's settings, or stop the running one (F6)");
  runMenu->addAction("&Open stored search…", searchPanel_, &SearchPanel::openStoreDialog);

  QMenu* view = menuBar()->addMenu("&View");
  view->addAction(graphPane_->fitAction());
  view->addAction("&Find node", QKeySequence::Find, graphPane_, &GraphPane::focusFind);
  view->addSeparator();
  view->addAction(makeDarkThemeAction(this));
  view->addSeparator();
  view->addAction("&Reset layout", this, &MainWindow::resetLayout);
  for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());
}

QStringList MainWindow::bundledExamples() {
  QStringList names;
  QDirIterator it(":/examples", {"*.lift"}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    QString p = it.next();
    names << p.mid(QString(":/examples/").size()).chopped(5);
  }
  names.sort();
  return names;
}

bool MainWindow::openExample(const QString& name) {
  QFile f(":/examples/" + name + ".lift");
  if (!f.open(QIODevice::ReadOnly)) {
    statusBar()->showMessage("No example named '" + name + "'", 5000);
    return false;
  }
  if (!askToKeepWork("Opening the example " + name)) return false;
  return openText(QString::fromUtf8(f.readAll()), name + ".lift");
}

bool MainWindow::askToKeepWork(const QString& action) {
  if (headless_ || !session_->isModified()) return true;
  QMessageBox box(QMessageBox::Warning, "Unsaved work",
                  "The current derivation has steps or edits that are not saved.",
                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
  box.setObjectName("unsavedWorkPrompt");
  box.setInformativeText(action +
                         " replaces it. Save it first as a session (every branch, and the text as it is)?");
  box.setDefaultButton(QMessageBox::Save);
  switch (box.exec()) {
    case QMessageBox::Save: {
      QString path =
          askSave(this, "Save session", "session.liftsession", "Lift Studio sessions (*.liftsession)");
      QString error;
      if (path.isEmpty()) return false;
      if (session_->saveSession(path, &error)) return true;
      warn("Save session", error);
      return false;
    }
    case QMessageBox::Discard:
      return true;
    default:
      return false;
  }
}

bool MainWindow::openText(const QString& text, const QString& file) {
  session_->open(text, file);
  graph_->fit();
  return session_->program() != nullptr;
}

bool MainWindow::openFile(const QString& path) {
  QString text, error;
  if (!readInputText(path, &text, &error)) {
    warn("Open program", error);
    return false;
  }
  if (!askToKeepWork("Opening " + QFileInfo(path).fileName())) return false;
  recent_->add(path);
  return openText(text, path);
}

bool MainWindow::openSession(const QString& path) {
  if (!askToKeepWork("Opening the session " + QFileInfo(path).fileName())) return false;
  QString error;
  bool ok = session_->openSession(path, &error);
  if (!ok && !error.isEmpty()) warn("Open session", error);
  return ok;
}

bool MainWindow::openDerivation(const QString& path) {
  if (!askToKeepWork("Opening the derivation " + QFileInfo(path).fileName())) return false;
  session_->openDerivation(path);
  return true;
}

void MainWindow::warn(const QString& title, const QString& text) {
  if (headless_)
    std::fprintf(stderr, "lift-studio: %s: %s\n", qPrintable(title), qPrintable(text));
  else
    QMessageBox::warning(this, title, text);
}

void MainWindow::resetLayout() {
  restoreState(defaultState_);
  for (QDockWidget* d : findChildren<QDockWidget*>()) d->show();
  if (auto* run = findChild<QDockWidget*>("runDock")) run->raise();
  if (isVisible())
    placeDocks();
  else
    placeDocksOnShow_ = true;
}

void MainWindow::placeDocks() {
  layout()->activate();
  auto dock = [this](const char* name) { return findChild<QDockWidget*>(name); };
  int w = width(), h = height();
  // Columns as shares of the width: the graph, the centre, keeps the rest and is the widest
  // (38 %, over kGraphMinWidth from a 1300 px wide window on); the kernel column shows at least
  // KernelView::kMinVisibleLines lines at 1920x1080.
  resizeDocks({dock("programDock"), dock("kernelDock"), dock("rewriteDock")},
              {w * 17 / 100, w * 24 / 100, w * 21 / 100}, Qt::Horizontal);
  resizeDocks({dock("programDock"), dock("historyDock")}, {h * 62 / 100, h * 38 / 100}, Qt::Vertical);
  resizeDocks({dock("plotDock")}, {h * 30 / 100}, Qt::Vertical);
  // The rule list and preview first.
  resizeDocks({dock("rewriteDock"), dock("runDock")}, {640, 300}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  if (!placeDocksOnShow_) return;
  placeDocksOnShow_ = false;
  placeDocks();
}

void MainWindow::updateTitle() {
  QString file = session_->file();
  // [*]: an asterisk while the session holds unsaved work (setWindowModified).
  setWindowTitle(file.isEmpty() ? "Lift Studio[*]" : QFileInfo(file).fileName() + "[*] — Lift Studio");
}

QString MainWindow::exportedKernel() const {
  const codegen::CompiledProgram* k = kernel_->compiled();
  if (!k) return {};
  // At the run pane's sizes (the others at the program's defaults), as Run would launch it.
  arith::Env sizes, given;
  QString ignored;
  if (auto p = session_->program(); p && run_->sizeFields()->values(given, &ignored)) {
    try {
      sizes = codegen::runSizes(p->program, given);
    } catch (const LiftError&) {  // sizes that do not fit the program: the comment stays symbolic
    }
  }
  return kernelFileText(*k, sizes);
}

QString MainWindow::kernelNotice() const { return kernelNotice_->notice(); }

void MainWindow::showWhetherCurrent() {
  bool current = session_->isProgramCurrent();
  QString why;
  if (!current) {
    const Diagnostic& d = session_->diagnostic();
    QString where = d.loc.known() ? QString("line %1:%2: ").arg(d.loc.line).arg(d.loc.col) : QString();
    QString error = QString::fromStdString(d.message);
    if (!error.isEmpty() && graph_->nodeItemCount() > 0)
      why = "Not the program in the editor, which does not type-check (" + where + error +
            "): this is the last program that did. Run and Search are off until the text type-checks.";
    else if (!error.isEmpty())
      why = "The program in the editor does not type-check (" + where + error + ").";
  }
  graphPane_->setNotice(why);
  kernelNotice_->setNotice(why);
  QString off = why.isEmpty() ? "There is no program." : why;
  run_->setAvailable(current, off);
  runAction_->setEnabled(current);
  searchPanel_->setAvailable(current, off);
  searchAction_->setEnabled(current || searchPanel_->isRunning());
  rules_->setEnabled(current);  // a rewrite of the stale program would replace the text being edited
}

void MainWindow::showProgram(std::shared_ptr<const rewrite::TypedProgram> p, bool rewritten) {
  graph_->showProgram(*p, /*highlightNew=*/rewritten);
  rules_->clear();
  QString previousKernel = kernel_->source();
  kernel_->setProgram(p);
  run_->setProgram(p);
  // A search starts from the start of the current derivation.
  if (auto* start = session_->currentStart())
    searchPanel_->setProgram(start->program, start->origin);
  else
    searchPanel_->setProgram(p, session_->file());
  kernel_->setBaseline(rewritten ? previousKernel : QString(), "previous step");
  status_->setText(QString("%1 nodes — %2")
                       .arg(graph_->nodeItemCount())
                       .arg(QString::fromStdString(p->types->signature())));
}

void MainWindow::highlightSource(ir::NodeId id) {
  auto p = session_->program();
  if (!p) return;
  SourceLoc loc = p->program.locationOf(id);
  if (loc.known()) editor_->highlightLocation(loc.line, loc.col);
}

void MainWindow::showNode(ir::NodeId id, Pane from) {
  auto p = session_->program();
  if (!p) return;
  graph_->selectNode(id);
  if (from != Pane::Program) highlightSource(id);
  kernel_->highlightNode(id);
  rules_->showNode(p, id);
}

bool MainWindow::selectNodeByLabel(const QString& text) {
  if (!graph_->findNext(text)) return false;  // emits nodeSelected, which fills the rule pane
  rules_->waitForRules();
  return true;
}

void MainWindow::saveProgramAs() {
  QString path = askSave(this, "Save program", session_->file(), "Lift programs (*.lift)");
  if (path.isEmpty() || !writeText(this, path, editor_->text().toUtf8())) return;
  session_->programSaved(path);
  recent_->add(path);
}

bool MainWindow::exportPlot(const QString& path) {
  bool ok = path.endsWith(".pdf", Qt::CaseInsensitive) ? plot_->savePdf(path) : plot_->savePng(path);
  if (!ok) warn("Export plot", "Cannot write " + path);
  return ok;
}

bool MainWindow::saveScreenshot(const QString& path) {
  if (width() < 1400 || height() < 900) resize(std::max(width(), 1400), std::max(height(), 900));
  show();
  session_->waitForChecks();
  for (int i = 0; i < 5; ++i) QApplication::processEvents();
  graph_->fit();
  QApplication::processEvents();
  // Encoded in memory, then written whole (a temporary renamed over the target; a device or FIFO
  // is refused rather than blocked on or replaced).
  QByteArray png;
  QBuffer buffer(&png);
  if (!buffer.open(QIODevice::WriteOnly) || !grab().save(&buffer, "PNG")) return false;
  QString error;
  if (writeWholeFile(path, png, &error)) return true;
  std::fprintf(stderr, "lift-studio: %s\n", qPrintable(error));
  return false;
}

}  // namespace lift::views
