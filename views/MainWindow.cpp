// The main window; see MainWindow.h.
#include "views/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTextStream>
#include <QTimer>
#include <QToolBar>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/ir/ProgramGraph.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "rewrite/DerivationReport.h"
#include "views/DerivationHistory.h"
#include "views/DeviceChoice.h"
#include "views/GraphView.h"
#include "views/KernelView.h"
#include "views/PerformancePlot.h"
#include "views/ProgramEditor.h"
#include "views/RulePalette.h"
#include "views/RunPanel.h"
#include "views/SearchPanel.h"

namespace lift::views {

namespace {
// Moving between derivation states is the one undoable action: applying a rewrite moves to a
// new state, undo moves back, redo forward again, a click in the history jumps.
class MoveCommand : public QUndoCommand {
 public:
  MoveCommand(MainWindow* w, int from, int to, const QString& text)
      : QUndoCommand(text), w_(w), from_(from), to_(to) {}
  void redo() override { w_->goToState(to_); }
  void undo() override { w_->goToState(from_); }

 private:
  MainWindow* w_;
  int from_, to_;
};

bool writeText(QWidget* parent, const QString& path, const QByteArray& data) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
    QMessageBox::warning(parent, "Save", "Cannot write " + path + ": " + f.errorString());
    return false;
  }
  return true;
}
// Light (the platform's) or dark palette for the whole application.
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

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName("liftStudioMainWindow");
  setWindowTitle("Lift Studio");
  resize(1400, 900);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks | QMainWindow::AllowTabbedDocks);

  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QToolBar(central);
  graph_ = new GraphView(central);
  search_ = new QLineEdit(central);
  search_->setPlaceholderText("Find node (Ctrl+F)");
  search_->setObjectName("graphSearch");
  search_->setMaximumWidth(220);
  bar->addAction("Fit", QKeySequence("Ctrl+0"), graph_, &GraphView::fit)
      ->setToolTip("Fit the graph into the view (Ctrl+0)");
  bar->addAction("Zoom in", QKeySequence::ZoomIn, graph_, &GraphView::zoomIn);
  bar->addAction("Zoom out", QKeySequence::ZoomOut, graph_, &GraphView::zoomOut);
  bar->addSeparator();
  bar->addWidget(search_);
  connect(search_, &QLineEdit::returnPressed, this, [this] {
    if (!graph_->findNext(search_->text()))
      statusBar()->showMessage("No node matches '" + search_->text() + "'", 3000);
  });
  layout->addWidget(bar);
  layout->addWidget(graph_, 1);
  setCentralWidget(central);

  undo_ = new QUndoStack(this);
  autosave_ = new QTimer(this);
  autosave_->setSingleShot(true);
  autosave_->setInterval(1000);
  connect(autosave_, &QTimer::timeout, this, &MainWindow::writeAutosave);
  status_ = new QLabel(this);
  statusBar()->addPermanentWidget(status_);

  buildDocks();
  buildMenus();
  connect(graph_, &GraphView::nodeSelected, this, &MainWindow::onNodeSelected);

  defaultState_ = saveState();
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
}

MainWindow::~MainWindow() {
  if (autosave_->isActive()) writeAutosave();
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
}

void MainWindow::buildDocks() {
  editor_ = new ProgramEditor(this);
  auto* dock = new QDockWidget("Program", this);
  dock->setObjectName("programDock");
  dock->setWidget(editor_);
  addDockWidget(Qt::LeftDockWidgetArea, dock);
  resizeDocks({dock}, {520}, Qt::Horizontal);
  connect(editor_, &ProgramEditor::textEdited, this, &MainWindow::reparse);
  connect(editor_, &ProgramEditor::caretMoved, this, &MainWindow::onCaretMoved);

  rules_ = new RulePalette(this);
  auto* rulesDock = new QDockWidget("Rewrite", this);
  rulesDock->setObjectName("rewriteDock");
  rulesDock->setWidget(rules_);
  addDockWidget(Qt::RightDockWidgetArea, rulesDock);
  resizeDocks({rulesDock}, {420}, Qt::Horizontal);
  connect(rules_, &RulePalette::applyRequested, this, [this](const QString& spec) { applyRewrite(spec); });

  kernel_ = new KernelView(this);
  auto* kernelDock = new QDockWidget("OpenCL kernel and indices", this);
  kernelDock->setObjectName("kernelDock");
  kernelDock->setWidget(kernel_);
  addDockWidget(Qt::BottomDockWidgetArea, kernelDock);
  resizeDocks({kernelDock}, {360}, Qt::Vertical);
  history_ = new DerivationHistory(this);
  auto* historyDock = new QDockWidget("Derivation", this);
  historyDock->setObjectName("historyDock");
  historyDock->setWidget(history_);
  addDockWidget(Qt::LeftDockWidgetArea, historyDock);
  connect(history_, &DerivationHistory::stateActivated, this,
          [this](int idx) { moveTo(idx, "Jump to step"); });

  run_ = new RunPanel(this);
  auto* runDock = new QDockWidget("Device and run", this);
  runDock->setObjectName("runDock");
  runDock->setWidget(run_);
  addDockWidget(Qt::RightDockWidgetArea, runDock);
  connect(run_, &RunPanel::finished, this,
          [this](std::shared_ptr<const rewrite::TypedProgram> p, const codegen::Evaluation& e) {
            // Annotate the derivation state that was run (the user may have moved on meanwhile).
            for (int i = 0; i < history_->stateCount(); ++i)
              if (history_->state(i).program == p)
                history_->setPerformance(i, e.ok() ? QString::fromStdString(e.throughputText())
                                                   : QString::fromStdString(codegen::toString(e.status)));
            statusBar()->showMessage(QString::fromStdString(e.summary()), 8000);
          });

  plot_ = new PerformancePlot(this);
  auto* plotDock = new QDockWidget("Search performance", this);
  plotDock->setObjectName("plotDock");
  plotDock->setWidget(plot_);
  addDockWidget(Qt::BottomDockWidgetArea, plotDock);
  splitDockWidget(kernelDock, plotDock, Qt::Horizontal);
  resizeDocks({kernelDock, plotDock}, {800, 600}, Qt::Horizontal);
  searchPanel_ = new SearchPanel(plot_, this);
  auto* searchDock = new QDockWidget("Search", this);
  searchDock->setObjectName("searchDock");
  auto* searchScroll = new QScrollArea(searchDock);  // the pane is tall: never let it grow the window
  searchScroll->setWidget(searchPanel_);
  searchScroll->setWidgetResizable(true);
  searchScroll->setFrameShape(QFrame::NoFrame);
  searchDock->setWidget(searchScroll);
  addDockWidget(Qt::RightDockWidgetArea, searchDock);
  tabifyDockWidget(runDock, searchDock);
  runDock->raise();
  // The search pane follows the run pane's device (and back), so both talk about one device.
  connect(run_->deviceChoice(), &QComboBox::currentIndexChanged, searchPanel_->deviceChoice(),
          &QComboBox::setCurrentIndex);
  connect(searchPanel_->deviceChoice(), &QComboBox::currentIndexChanged, run_->deviceChoice(),
          &QComboBox::setCurrentIndex);
  connect(searchPanel_, &SearchPanel::message, this,
          [this](const QString& m) { statusBar()->showMessage(m, 8000); });
  connect(searchPanel_, &SearchPanel::searchStarted, this, [plotDock, searchDock] {
    plotDock->show();
    searchDock->show();
    plotDock->raise();
    searchDock->raise();
  });
  connect(searchPanel_, &SearchPanel::loadRequested, this,
          [this](std::shared_ptr<const rewrite::TypedProgram> start, const QString& origin,
                 const QStringList& steps) {
            // A search's kernel runs at the sizes it was searched at.
            if (auto problem = searchPanel_->problem()) {
              QMap<QString, QString> sizes;
              for (auto& [name, value] : problem->sizes)
                sizes[QString::fromStdString(name)] = QString::number(value);
              run_->setSizeTexts(sizes);
            }
            showDerivation(std::move(start), origin, steps);
          });

  connect(kernel_, &KernelView::nodeActivated, this, [this](ir::NodeId id) {
    graph_->selectNode(id);
    if (program_) {
      SourceLoc loc = program_->program.locationOf(id);
      if (loc.known()) editor_->highlightLocation(loc.line, loc.col);
    }
  });
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("&Open…", QKeySequence::Open, this, [this] {
    QString path = QFileDialog::getOpenFileName(this, "Open program", QString(),
                                                "Lift programs (*.lift);;All files (*)");
    if (!path.isEmpty()) openFile(path);
  });
  QMenu* examples = file->addMenu("&Examples");
  for (const QString& name : bundledExamples())
    examples->addAction(name, this, [this, name] { openExample(name); });
  recentMenu_ = file->addMenu("&Recent files");
  updateRecentMenu();
  file->addAction("Save program &as…", QKeySequence::SaveAs, this, &MainWindow::saveProgramAs);
  file->addSeparator();
  file->addAction("Open &derivation…", QKeySequence("Ctrl+Shift+O"), this, [this] {
    QString path = QFileDialog::getOpenFileName(this, "Open derivation", QString(),
                                                "Derivations (*.derivation);;All files (*)");
    if (!path.isEmpty()) openDerivation(path);
  });
  file->addAction("Save deri&vation…", QKeySequence::Save, this, [this] {
    QString path = QFileDialog::getSaveFileName(this, "Save derivation", "derivation.derivation",
                                                "Derivations (*.derivation)");
    if (!path.isEmpty()) saveDerivation(path);
  });
  file->addAction("Open s&ession…", this, [this] {
    QString path =
        QFileDialog::getOpenFileName(this, "Open session", QString(), "Lift Studio sessions (*.liftsession)");
    if (!path.isEmpty()) openSession(path);
  });
  file->addAction("Save sessio&n…", this, [this] {
    QString path = QFileDialog::getSaveFileName(this, "Save session", "session.liftsession",
                                                "Lift Studio sessions (*.liftsession)");
    if (!path.isEmpty()) saveSession(path);
  });
  file->addAction("Open stored searc&h…", this, [this] { searchPanel_->openStoreDialog(); });
  file->addSeparator();
  QMenu* exportMenu = file->addMenu("&Export");
  exportMenu->addAction("Graph as &DOT…", this, &MainWindow::exportGraphDot);
  exportMenu->addAction("Graph as &PNG or SVG…", this, &MainWindow::exportGraphImage);
  exportMenu->addAction("&Kernel (.cl)…", this, [this] {
    if (kernel_->source().isEmpty()) {
      QMessageBox::information(this, "Export kernel", "There is no kernel: " + kernel_->errorText());
      return;
    }
    QString path = QFileDialog::getSaveFileName(this, "Export kernel", "kernel.cl", "OpenCL C (*.cl)");
    if (!path.isEmpty()) writeText(this, path, kernel_->source().toUtf8());
  });
  exportMenu->addAction("P&lot as PNG or PDF…", this, [this] {
    QString path =
        QFileDialog::getSaveFileName(this, "Export plot", "search.png", "PNG image (*.png);;PDF (*.pdf)");
    if (!path.isEmpty()) exportPlot(path);
  });
  exportMenu->addAction("Derivation &report…", this, [this] {
    QString path = QFileDialog::getSaveFileName(this, "Export derivation report", "derivation.html",
                                                "HTML (*.html);;Markdown (*.md)");
    if (!path.isEmpty()) exportReport(path);
  });
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

  QMenu* edit = menuBar()->addMenu("&Edit");
  QAction* undo = undo_->createUndoAction(this, "&Undo");
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = undo_->createRedoAction(this, "&Redo");
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addAction("&Apply selected rule", QKeySequence("Ctrl+Return"), rules_, &RulePalette::applySelected);

  QMenu* runMenu = menuBar()->addMenu("&Run");
  runMenu->addAction("&Run kernel", QKeySequence("Ctrl+R"), run_, &RunPanel::run)
      ->setToolTip("Compile the current kernel, run it on the selected device, time and validate it");
  runMenu->addAction("S&top run", QKeySequence("Ctrl+."), run_, &RunPanel::stop);
  runMenu->addSeparator();
  QAction* searchAction = runMenu->addAction("Start/stop &search", searchPanel_, &SearchPanel::toggle);
  searchAction->setShortcuts({QKeySequence("F6"), QKeySequence("Ctrl+Shift+F")});
  searchAction->setToolTip("Start a search with the Search pane's settings, or stop the running one (F6)");
  runMenu->addAction("&Open stored search…", searchPanel_, &SearchPanel::openStoreDialog);

  QMenu* view = menuBar()->addMenu("&View");
  view->addAction("&Fit graph", QKeySequence("Ctrl+0"), graph_, &GraphView::fit);
  view->addAction("&Find node", QKeySequence::Find, this, [this] {
    search_->setFocus();
    search_->selectAll();
  });
  view->addSeparator();
  QAction* dark = view->addAction("&Dark theme");
  dark->setCheckable(true);
  dark->setChecked(QSettings().value("view/dark", false).toBool());
  connect(dark, &QAction::toggled, this, [](bool on) {
    QSettings().setValue("view/dark", on);
    applyTheme(on);
  });
  applyTheme(dark->isChecked());
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
  setProgramText(QString::fromUtf8(f.readAll()), name + ".lift");
  return program_ != nullptr;
}

bool MainWindow::openFile(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    QMessageBox::warning(this, "Open program", "Cannot read " + path + ": " + f.errorString());
    return false;
  }
  setProgramText(QString::fromUtf8(f.readAll()), path);
  addRecentFile(path);
  return program_ != nullptr;
}

void MainWindow::setProgramText(const QString& text, const QString& path) {
  path_ = path;
  editor_->setText(text);
  history_->clear();
  undo_->clear();
  program_.reset();
  reparse();
  graph_->fit();
  updateTitle();
}

void MainWindow::moveTo(int index, const QString& what) {
  int from = history_->current();
  if (from == index) return;
  if (from < 0) {
    goToState(index);
    return;
  }
  undo_->push(new MoveCommand(this, from, index, what));
}

void MainWindow::goToState(int index) {
  if (index < 0 || index >= history_->stateCount()) return;
  const DerivationHistory::State& s = history_->state(index);
  history_->setCurrent(index);
  bool root = s.parent < 0;
  if (root && editor_->text() != s.text) editor_->setText(s.text);
  editor_->clearDiagnostic();
  diagnostic_ = {};
  showProgram(s.program, /*updateText=*/!root);
  scheduleAutosave();
}

QString MainWindow::autosavePath() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/autosave.liftsession";
}

void MainWindow::scheduleAutosave() { autosave_->start(); }

void MainWindow::writeAutosave() {
  autosave_->stop();
  if (history_->stateCount() == 0) return;
  QString path = autosavePath();
  QDir().mkpath(QFileInfo(path).path());
  QSaveFile f(path);
  if (f.open(QIODevice::WriteOnly) && f.write(sessionJson()) >= 0) f.commit();
}

QByteArray MainWindow::sessionJson() const {
  QJsonObject session;
  session["format"] = "lift-studio-session";
  session["version"] = 1;
  session["file"] = path_;
  QJsonArray states;
  for (int i = 0; i < history_->stateCount(); ++i) {
    const auto& st = history_->state(i);
    QJsonObject o;
    o["parent"] = st.parent;
    if (st.parent < 0) {
      o["origin"] = st.origin;
      o["text"] = st.text;
    } else {
      o["spec"] = st.spec;
    }
    states.append(o);
  }
  session["states"] = states;
  session["current"] = history_->current();
  // The editor's text, which may hold edits that do not parse yet: never lose them.
  session["editorText"] = editor_->text();
  codegen::CompileOptions o = kernel_->options();
  session["kernelOptions"] = QJsonObject{{"simplifyIndices", o.simplifyIndices},
                                         {"barrierElimination", o.barrierElimination},
                                         {"cfgSimplification", o.cfgSimplification},
                                         {"unrolling", o.unrolling}};
  return QJsonDocument(session).toJson();
}

bool MainWindow::saveSession(const QString& path) {
  if (!writeText(this, path, sessionJson())) return false;
  statusBar()->showMessage("Saved session to " + path, 5000);
  return true;
}

bool MainWindow::openSession(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    QMessageBox::warning(this, "Open session", "Cannot read " + path + ": " + f.errorString());
    return false;
  }
  QJsonParseError perr;
  QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &perr);
  QJsonObject session = doc.object();
  if (doc.isNull() || session["format"].toString() != "lift-studio-session") {
    QMessageBox::warning(
        this, "Open session",
        path + " is not a Lift Studio session" + (doc.isNull() ? ": " + perr.errorString() : QString()));
    return false;
  }
  QJsonArray states = session["states"].toArray();
  history_->clear();
  undo_->clear();
  program_.reset();
  path_ = session["file"].toString();
  QStringList problems;
  // Replays every state from its parent; a state that no longer replays (and its subtree) is
  // dropped with a message rather than failing the whole session.
  std::vector<int> index(static_cast<size_t>(states.size()), -1);
  for (qsizetype i = 0; i < states.size(); ++i) {
    QJsonObject o = states[i].toObject();
    int parent = o["parent"].toInt(-1);
    try {
      if (parent < 0) {
        QString text = o["text"].toString();
        std::string file = QFileInfo(o["origin"].toString()).fileName().toStdString();
        auto p = std::make_shared<const rewrite::TypedProgram>(
            rewrite::TypedProgram::check(lang::parseProgram(text.toStdString(), file)));
        index[static_cast<size_t>(i)] = history_->addRoot(p, o["origin"].toString(), text);
      } else if (parent < i && index[static_cast<size_t>(parent)] >= 0) {
        int from = index[static_cast<size_t>(parent)];
        rewrite::RewriteStep step = rewrite::RewriteStep::parse(o["spec"].toString().toStdString());
        rewrite::RewriteResult r = rewrite::applyRewrite(*history_->state(from).program, step);
        if (!r) throw LiftError(r.message);
        index[static_cast<size_t>(i)] = history_->addStep(
            from, o["spec"].toString(), std::make_shared<const rewrite::TypedProgram>(std::move(*r.program)));
      }
    } catch (const LiftError& e) {
      problems << QString("state %1: %2").arg(i).arg(QString::fromStdString(e.diagnostic().message));
    }
  }
  QJsonObject ko = session["kernelOptions"].toObject();
  codegen::CompileOptions opts;
  opts.simplifyIndices = ko["simplifyIndices"].toBool(true);
  opts.barrierElimination = ko["barrierElimination"].toBool(true);
  opts.cfgSimplification = ko["cfgSimplification"].toBool(true);
  opts.unrolling = ko["unrolling"].toBool(true);
  kernel_->setOptions(opts);
  int cur = session["current"].toInt(-1);
  int target = cur >= 0 && cur < states.size() ? index[static_cast<size_t>(cur)] : -1;
  if (target < 0 && history_->stateCount() > 0) target = history_->stateCount() - 1;
  if (target >= 0) goToState(target);
  QString editorText = session["editorText"].toString();
  if (!editorText.isEmpty() && editorText != editor_->text()) {
    editor_->setText(editorText);  // unfinished edits come back as they were
    reparse();
  }
  updateTitle();
  if (!problems.isEmpty())
    QMessageBox::warning(this, "Open session", "Some steps no longer replay:\n" + problems.join("\n"));
  return target >= 0;
}

void MainWindow::resetLayout() {
  restoreState(defaultState_);
  for (QDockWidget* d : findChildren<QDockWidget*>()) d->show();
  if (auto* run = findChild<QDockWidget*>("runDock")) run->raise();
}

void MainWindow::updateTitle() {
  setWindowTitle(path_.isEmpty() ? "Lift Studio" : QFileInfo(path_).fileName() + " — Lift Studio");
}

void MainWindow::reparse() {
  std::string text = editor_->text().toStdString();
  std::string file = path_.isEmpty() ? "<program>" : QFileInfo(path_).fileName().toStdString();
  try {
    auto p = std::make_shared<const rewrite::TypedProgram>(
        rewrite::TypedProgram::check(lang::parseProgram(text, file)));
    diagnostic_ = {};
    editor_->clearDiagnostic();
    int cur = history_->current();
    QString qtext = editor_->text();
    if (cur >= 0 && history_->state(cur).parent < 0 && history_->state(cur).children.empty()) {
      // Still editing the starting program: no new state.
      history_->replaceRoot(cur, p, qtext);
      showProgram(std::move(p), /*updateText=*/false);
      scheduleAutosave();
    } else {
      // The text of a later state was edited: a new derivation starts from it.
      int root = history_->addRoot(
          p, cur < 0 ? QString::fromStdString(file) : "edited " + QString::fromStdString(file), qtext);
      moveTo(root, "Edit program");
    }
  } catch (const LiftError& e) {
    // Keep showing the last good program; the error sits next to the text that caused it.
    diagnostic_ = e.diagnostic();
    editor_->setDiagnostic(diagnostic_);
    status_->setText("Program has an error");
    scheduleAutosave();
  }
}

void MainWindow::showProgram(std::shared_ptr<const rewrite::TypedProgram> p, bool updateText) {
  // Nodes that were not in the previous program are what a rewrite created: highlight them.
  QSet<ir::NodeId> before;
  if (program_)
    for (auto& n : graph_->graph().nodes) before.insert(n.irId);
  bool highlight = program_ && updateText;
  program_ = std::move(p);
  auto types = program_->types;
  auto describe = [types](const ir::Expr& e) -> std::string {
    Type t = types ? types->typeOf(e) : Type();
    return t ? t.toString() : std::string();
  };
  ir::ProgramGraph g = ir::buildProgramGraph(program_->program, describe);
  QSet<ir::NodeId> changed;
  if (highlight)
    for (auto& n : g.nodes)
      if (!before.contains(n.irId)) changed.insert(n.irId);
  graph_->setGraph(g, changed);
  if (updateText) editor_->setText(QString::fromStdString(lang::printProgram(program_->program)));
  rules_->clear();
  QString previousKernel = kernel_->source();
  kernel_->setProgram(program_);
  run_->setProgram(program_);
  // A search starts from the start of the current derivation (the program as opened or edited).
  int cur = history_->current();
  if (cur >= 0) {
    const auto& root = history_->state(history_->rootOf(cur));
    searchPanel_->setProgram(root.program, root.origin);
  } else {
    searchPanel_->setProgram(program_, path_);
  }
  kernel_->setBaseline(highlight ? previousKernel : QString(), "previous step");
  status_->setText(QString("%1 nodes — %2")
                       .arg(graph_->nodeItemCount())
                       .arg(QString::fromStdString(program_->types->signature())));
}

bool MainWindow::applyRewrite(const QString& spec, QString* error) {
  QString message;
  if (!program_) {
    message = "There is no valid program to rewrite.";
  } else {
    try {
      rewrite::RewriteStep step = rewrite::RewriteStep::parse(spec.toStdString());
      rewrite::RewriteResult r = rewrite::applyRewrite(*program_, step);
      if (r) {
        int from = history_->current();
        int to = history_->addStep(from, QString::fromStdString(step.spec()),
                                   std::make_shared<const rewrite::TypedProgram>(std::move(*r.program)));
        moveTo(to, "Apply " + QString::fromStdString(step.spec()));
        statusBar()->showMessage("Applied " + spec, 5000);
        return true;
      }
      message = QString::fromStdString(r.message);
    } catch (const LiftError& e) {
      message = QString::fromStdString(e.diagnostic().message);
    }
  }
  if (error) *error = message;
  statusBar()->showMessage("Cannot apply " + spec + ": " + message, 8000);
  return false;
}

void MainWindow::onNodeSelected(ir::NodeId id) {
  if (!program_) return;
  SourceLoc loc = program_->program.locationOf(id);
  if (loc.known()) editor_->highlightLocation(loc.line, loc.col);
  kernel_->highlightNode(id);
  // The rules apply at the node (a call) and at the function it calls.
  std::vector<rewrite::Location> locs;
  QString what;
  for (auto& located : rewrite::allLocations(program_->main())) {
    const ir::NodeRef& n = located.node;
    if (n.expr && n.expr->id() == id) {
      locs.push_back(located.loc);
      what = QString::fromStdString(rewrite::describeNode(n)) + " at " +
             QString::fromStdString(located.loc.toString());
      if (ir::asCall(n.expr)) locs.push_back(located.loc.child(0));
      break;
    }
  }
  if (locs.empty()) {
    rules_->clear();
    return;
  }
  rules_->setSite(program_, locs, what);
}

void MainWindow::onCaretMoved(int line, int col) {
  if (!program_) return;
  // The node whose location is the closest one at or before the caret on the same line.
  ir::NodeId best = 0;
  int bestCol = -1;
  if (!program_->program.locations) return;
  for (auto& [id, loc] : *program_->program.locations) {
    if (loc.line == line && loc.col <= col && loc.col > bestCol && graph_->graph().findNode(id) >= 0) {
      best = id;
      bestCol = loc.col;
    }
  }
  if (best) graph_->selectNode(best);
}

bool MainWindow::saveDerivation(const QString& path) {
  int cur = history_->current();
  if (cur < 0) return false;
  const auto& root = history_->state(history_->rootOf(cur));
  // The derivation names its starting program; one that is not a file on disk (an example or
  // edited text) is saved next to the derivation.
  QString programPath =
      QFileInfo(path_).isAbsolute() && QFileInfo::exists(path_) && root.origin == path_ ? path_ : QString();
  if (programPath.isEmpty()) {
    programPath = QFileInfo(path).path() + "/" + QFileInfo(path).completeBaseName() + ".lift";
    if (!writeText(this, programPath, root.text.toUtf8())) return false;
  }
  QString rel = QFileInfo(path).dir().relativeFilePath(programPath);
  try {
    rewrite::Derivation d = history_->derivationTo(cur, rel.toStdString());
    if (!writeText(this, path, QByteArray::fromStdString(d.toText()))) return false;
  } catch (const LiftError& e) {
    QMessageBox::warning(this, "Save derivation", QString::fromStdString(e.diagnostic().format()));
    return false;
  }
  statusBar()->showMessage("Saved derivation to " + path, 5000);
  return true;
}

bool MainWindow::openDerivation(const QString& path) {
  try {
    rewrite::Derivation d = rewrite::Derivation::load(path.toStdString());
    QString programPath = QString::fromStdString(d.programPath());
    QFile f(programPath);
    if (!f.open(QIODevice::ReadOnly)) throw LiftError("cannot read " + programPath.toStdString());
    QString text = QString::fromUtf8(f.readAll());
    rewrite::ReplayResult r = rewrite::replay(d);
    path_ = programPath;
    editor_->setText(text);
    history_->clear();
    undo_->clear();
    program_.reset();
    int state = history_->addRoot(std::make_shared<const rewrite::TypedProgram>(r.start), programPath, text);
    goToState(state);
    // Each rewrite of the replay becomes a step (strategies expanded into their rules).
    rewrite::TypedProgram current = r.start;
    for (const rewrite::RewriteStep& step : r.flattened()) {
      rewrite::RewriteResult res = rewrite::applyRewrite(current, step);
      if (!res) throw LiftError("step " + step.spec() + " does not replay: " + res.message);
      current = *res.program;
      state = history_->addStep(state, QString::fromStdString(step.spec()),
                                std::make_shared<const rewrite::TypedProgram>(current));
    }
    moveTo(state, "Replay " + QFileInfo(path).fileName());
    addRecentFile(programPath);
    updateTitle();
    statusBar()->showMessage(QString("Replayed %1 (%2 steps)").arg(path).arg(r.flattened().size()), 5000);
    return true;
  } catch (const LiftError& e) {
    QMessageBox::warning(this, "Open derivation", QString::fromStdString(e.diagnostic().format()));
    return false;
  }
}

bool MainWindow::selectNodeByLabel(const QString& text) {
  if (!graph_->findNext(text)) return false;  // emits nodeSelected, which fills the rule pane
  rules_->waitForRules();
  return true;
}

void MainWindow::addRecentFile(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("recentFiles").toStringList();
  recent.removeAll(path);
  recent.prepend(QFileInfo(path).absoluteFilePath());
  while (recent.size() > 10) recent.removeLast();
  settings.setValue("recentFiles", recent);
  updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value("recentFiles").toStringList();
  for (const QString& p : recent) recentMenu_->addAction(p, this, [this, p] { openFile(p); });
  recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::saveProgramAs() {
  QString path = QFileDialog::getSaveFileName(this, "Save program", path_, "Lift programs (*.lift)");
  if (path.isEmpty()) return;
  if (writeText(this, path, editor_->text().toUtf8())) {
    path_ = path;
    addRecentFile(path);
    updateTitle();
  }
}

void MainWindow::exportGraphDot() {
  QString path = QFileDialog::getSaveFileName(this, "Export graph", "program.dot", "Graphviz DOT (*.dot)");
  if (path.isEmpty()) return;
  writeText(
      this, path,
      QByteArray::fromStdString(ir::toDot(graph_->graph(), program_ ? program_->program.name : "program")));
}

bool MainWindow::exportReport(const QString& path) {
  int cur = history_->current();
  if (cur < 0) return false;
  try {
    rewrite::ReportOptions opts;
    opts.html = !path.endsWith(".md", Qt::CaseInsensitive);
    opts.title = "Derivation of " + (program_ ? program_->program.name : std::string("a program"));
    std::vector<rewrite::RewriteStep> steps;
    for (const QString& spec : history_->specsTo(cur))
      steps.push_back(rewrite::RewriteStep::parse(spec.toStdString()));
    const auto& root = history_->state(history_->rootOf(cur));
    std::string report = rewrite::derivationReport(*root.program, steps, opts);
    return writeText(this, path, QByteArray::fromStdString(report));
  } catch (const LiftError& e) {
    QMessageBox::warning(this, "Export report", QString::fromStdString(e.diagnostic().format()));
    return false;
  }
}

void MainWindow::exportGraphImage() {
  QString path = QFileDialog::getSaveFileName(this, "Export graph", "program.png",
                                              "PNG image (*.png);;SVG image (*.svg)");
  if (path.isEmpty()) return;
  QRectF r = graph_->scene()->sceneRect();
  if (path.endsWith(".svg", Qt::CaseInsensitive)) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(r.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), r.size()));
    svg.setTitle(program_ ? QString::fromStdString(program_->program.name) : "program");
    QPainter painter(&svg);
    graph_->scene()->render(&painter, QRectF(QPointF(0, 0), r.size()), r);
    return;
  }
  QImage img((r.size() * 2).toSize(), QImage::Format_ARGB32);
  img.fill(Qt::white);
  QPainter painter(&img);
  painter.setRenderHint(QPainter::Antialiasing);
  graph_->scene()->render(&painter, QRectF(), r);
  painter.end();
  if (!img.save(path)) QMessageBox::warning(this, "Export graph", "Cannot write " + path);
}

void MainWindow::showDerivation(std::shared_ptr<const rewrite::TypedProgram> start, const QString& origin,
                                const QStringList& steps) {
  struct Replayed {
    std::vector<std::shared_ptr<const rewrite::TypedProgram>> programs;  // after each step
    QString error;
  };
  uint64_t generation = ++replayGeneration_;
  ++replaysPending_;
  statusBar()->showMessage("Replaying " + origin + "…");
  auto* watcher = new QFutureWatcher<Replayed>(this);
  connect(watcher, &QFutureWatcher<Replayed>::finished, this, [=, this] {
    watcher->deleteLater();
    --replaysPending_;
    Replayed r = watcher->result();
    if (generation != replayGeneration_) return;  // the user clicked another kernel since
    if (!r.error.isEmpty()) {
      statusBar()->showMessage("Cannot load " + origin + ": " + r.error, 10000);
      return;
    }
    int state = history_->addRoot(start, origin, QString::fromStdString(lang::printProgram(start->program)));
    for (int i = 0; i < steps.size(); ++i)
      state = history_->addStep(state, steps[i], r.programs[static_cast<size_t>(i)]);
    moveTo(state, "Load " + origin);
    statusBar()->showMessage(QString("Loaded %1 (%2 steps)").arg(origin).arg(steps.size()), 8000);
  });
  watcher->setFuture(QtConcurrent::run([start, steps] {
    Replayed r;
    std::shared_ptr<const rewrite::TypedProgram> current = start;
    try {
      for (const QString& spec : steps) {
        rewrite::RewriteResult res =
            rewrite::applyRewrite(*current, rewrite::RewriteStep::parse(spec.toStdString()));
        if (!res) {
          r.error = "step " + spec + " does not replay: " + QString::fromStdString(res.message);
          return r;
        }
        current = std::make_shared<const rewrite::TypedProgram>(std::move(*res.program));
        r.programs.push_back(current);
      }
    } catch (const LiftError& e) {
      r.error = QString::fromStdString(e.diagnostic().message);
    }
    return r;
  }));
}

bool MainWindow::exportPlot(const QString& path) {
  bool ok = path.endsWith(".pdf", Qt::CaseInsensitive) ? plot_->savePdf(path) : plot_->savePng(path);
  if (!ok) QMessageBox::warning(this, "Export plot", "Cannot write " + path);
  return ok;
}

bool MainWindow::saveScreenshot(const QString& path) {
  if (width() < 1400 || height() < 900) resize(std::max(width(), 1400), std::max(height(), 900));
  show();
  history_->waitForChecks();
  for (int i = 0; i < 5; ++i) QApplication::processEvents();
  graph_->fit();
  QApplication::processEvents();
  return grab().save(path);
}

}  // namespace lift::views
