// The main window; see MainWindow.h.
#include "views/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QTextStream>
#include <QToolBar>
#include <QVBoxLayout>

#include "core/ir/ProgramGraph.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "views/GraphView.h"
#include "views/ProgramEditor.h"
#include "views/KernelView.h"
#include "views/RulePalette.h"
#include "core/lang/Printer.h"

namespace lift::views {

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
  bar->addAction("Fit", QKeySequence("Ctrl+0"), graph_, &GraphView::fit)->setToolTip("Fit the graph into the view (Ctrl+0)");
  bar->addAction("Zoom in", QKeySequence::ZoomIn, graph_, &GraphView::zoomIn);
  bar->addAction("Zoom out", QKeySequence::ZoomOut, graph_, &GraphView::zoomOut);
  bar->addSeparator();
  bar->addWidget(search_);
  connect(search_, &QLineEdit::returnPressed, this, [this] {
    if (!graph_->findNext(search_->text())) statusBar()->showMessage("No node matches '" + search_->text() + "'", 3000);
  });
  layout->addWidget(bar);
  layout->addWidget(graph_, 1);
  setCentralWidget(central);

  status_ = new QLabel(this);
  statusBar()->addPermanentWidget(status_);

  buildDocks();
  buildMenus();
  connect(graph_, &GraphView::nodeSelected, this, &MainWindow::onNodeSelected);

  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
}

MainWindow::~MainWindow() {
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
  resizeDocks({kernelDock}, {330}, Qt::Vertical);
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
    QString path = QFileDialog::getOpenFileName(this, "Open program", QString(), "Lift programs (*.lift);;All files (*)");
    if (!path.isEmpty()) openFile(path);
  });
  QMenu* examples = file->addMenu("&Examples");
  for (const QString& name : bundledExamples())
    examples->addAction(name, this, [this, name] { openExample(name); });
  recentMenu_ = file->addMenu("&Recent files");
  updateRecentMenu();
  file->addAction("Save program &as…", QKeySequence::SaveAs, this, &MainWindow::saveProgramAs);
  file->addSeparator();
  QMenu* exportMenu = file->addMenu("&Export");
  exportMenu->addAction("Graph as &DOT…", this, &MainWindow::exportGraphDot);
  exportMenu->addAction("Graph as &PNG…", this, &MainWindow::exportGraphImage);
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

  QMenu* view = menuBar()->addMenu("&View");
  view->addAction("&Fit graph", QKeySequence("Ctrl+0"), graph_, &GraphView::fit);
  view->addAction("&Find node", QKeySequence::Find, this, [this] {
    search_->setFocus();
    search_->selectAll();
  });
  view->addSeparator();
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
  reparse();
  graph_->fit();
  updateTitle();
}

void MainWindow::updateTitle() {
  setWindowTitle(path_.isEmpty() ? "Lift Studio" : QFileInfo(path_).fileName() + " — Lift Studio");
}

void MainWindow::reparse() {
  std::string text = editor_->text().toStdString();
  std::string file = path_.isEmpty() ? "<program>" : QFileInfo(path_).fileName().toStdString();
  try {
    auto p = std::make_shared<const rewrite::TypedProgram>(rewrite::TypedProgram::check(lang::parseProgram(text, file)));
    diagnostic_ = {};
    editor_->clearDiagnostic();
    showProgram(std::move(p), /*updateText=*/false);
  } catch (const LiftError& e) {
    // Keep showing the last good program; the error sits next to the text that caused it.
    diagnostic_ = e.diagnostic();
    editor_->setDiagnostic(diagnostic_);
    status_->setText("Program has an error");
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
  kernel_->setBaseline(highlight ? previousKernel : QString(), "previous step");
  status_->setText(QString("%1 nodes — %2").arg(graph_->nodeItemCount()).arg(QString::fromStdString(program_->types->signature())));
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
        showProgram(std::make_shared<const rewrite::TypedProgram>(std::move(*r.program)), /*updateText=*/true);
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
      what = QString::fromStdString(rewrite::describeNode(n)) + " at " + QString::fromStdString(located.loc.toString());
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

static bool writeText(QWidget* parent, const QString& path, const QByteArray& data) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
    QMessageBox::warning(parent, "Save", "Cannot write " + path + ": " + f.errorString());
    return false;
  }
  return true;
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
  writeText(this, path, QByteArray::fromStdString(ir::toDot(graph_->graph(), program_ ? program_->program.name : "program")));
}

void MainWindow::exportGraphImage() {
  QString path = QFileDialog::getSaveFileName(this, "Export graph", "program.png", "PNG image (*.png)");
  if (path.isEmpty()) return;
  QRectF r = graph_->scene()->sceneRect();
  QImage img((r.size() * 2).toSize(), QImage::Format_ARGB32);
  img.fill(Qt::white);
  QPainter painter(&img);
  painter.setRenderHint(QPainter::Antialiasing);
  graph_->scene()->render(&painter, QRectF(), r);
  painter.end();
  if (!img.save(path)) QMessageBox::warning(this, "Export graph", "Cannot write " + path);
}

bool MainWindow::saveScreenshot(const QString& path) {
  if (width() < 1400 || height() < 900) resize(std::max(width(), 1400), std::max(height(), 900));
  show();
  for (int i = 0; i < 5; ++i) QApplication::processEvents();
  graph_->fit();
  QApplication::processEvents();
  return grab().save(path);
}

}  // namespace lift::views
