// The main window of lift-studio: the program graph in the centre, dock panes around it
// (program text, rewrite, derivation, kernel, run, search, plot), menus, shortcuts, remembered
// layout. The document is the Session: the window shows what it announces and forwards to it
// what the user does; it keeps only docks, menus, dialogs and the routing between panes.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <memory>

#include "core/ir/IR.h"
#include "rewrite/Engine.h"

class QAction;
class QLabel;

namespace lift::views {

class GraphPane;
class NoticeBar;
class GraphView;
class ProgramEditor;
class RulePalette;
class KernelView;
class DerivationHistory;
class RunPanel;
class SearchPanel;
class PerformancePlot;
class RecentFiles;
class Session;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opening a program, session or derivation replaces the document: when it holds unsaved work
  // the user is asked first (save as a session / discard / cancel; askToKeepWork), and a cancel
  // returns false with nothing changed.
  // Loads a .lift file; a problem is shown in the window (and false returned), never lost text.
  bool openFile(const QString& path);
  // Loads a bundled example by name ("matmul", "lowlevel/dot"); false if there is none.
  bool openExample(const QString& name);
  // Names of the bundled examples ("matmul", "lowlevel/dot", ...), sorted.
  static QStringList bundledExamples();
  // Reads a session file (its states come back in the background: Session::waitForReplay); a
  // file that is not one is refused with a message, and false.
  bool openSession(const QString& path);
  // Replays a derivation file (in the background: Session::waitForReplay).
  bool openDerivation(const QString& path);
  // True when the document may be replaced: it holds no unsaved work, or the user saved it (as a
  // session) or chose to discard it; false when they cancelled. Headless: true, without asking.
  bool askToKeepWork(const QString& action);
  // Puts the panes back where a first start puts them (View > Reset layout; screenshots).
  void resetLayout();
  // The graph, the centre of the window, is never squeezed narrower than this by the panes
  // around it (a remembered layout included).
  static constexpr int kGraphMinWidth = 480;
  // Headless (the command line's --screenshot, tests): problems are written to standard error
  // instead of shown in dialogs, so that nothing waits for a click that never comes.
  void setHeadless(bool headless) { headless_ = headless; }
  // Renders the whole window to a PNG (at least 1400x900).
  bool saveScreenshot(const QString& path);
  // Writes the performance plot to a PNG or (for *.pdf) a PDF file.
  bool exportPlot(const QString& path);
  // Selects the first graph node whose label contains `text`, as a click would (the rewrite
  // pane then lists its rules; waits for them). False if no node matches.
  bool selectNodeByLabel(const QString& text);

  Session* session() const { return session_; }
  GraphPane* graphPane() const { return graphPane_; }
  // The line above the kernel pane that says it is stale ("" when it is not).
  QString kernelNotice() const;
  // The kernel shown as File > Export > Kernel writes it: with its NDRange and sizes in a
  // leading comment ("" when there is no kernel).
  QString exportedKernel() const;
  QAction* runAction() const { return runAction_; }
  QAction* searchAction() const { return searchAction_; }
  GraphView* graphView() const { return graph_; }
  ProgramEditor* programEditor() const { return editor_; }
  RulePalette* rulePalette() const { return rules_; }
  KernelView* kernelView() const { return kernel_; }
  DerivationHistory* history() const { return history_; }
  RunPanel* runPanel() const { return run_; }
  SearchPanel* searchPanel() const { return searchPanel_; }
  PerformancePlot* performancePlot() const { return plot_; }

 private:
  void buildMenus();
  void buildDocks();
  void connectSession();
  bool openText(const QString& text, const QString& file);
  void showProgram(std::shared_ptr<const rewrite::TypedProgram> p, bool rewritten);
  // Marks the panes stale, and turns Run, Search and the rule pane off, while the program shown
  // is not the text's (the text does not type-check); back on when it does.
  void showWhetherCurrent();
  // The pane where the user picked a node.
  enum class Pane { Graph, Program, Kernel };
  // Shows node `id` in every pane: selected in the graph, its text highlighted in the program
  // (except where the caret picked it), its kernel lines and index rows highlighted, its rules
  // listed.
  void showNode(ir::NodeId id, Pane from);
  void highlightSource(ir::NodeId id);
  void saveProgramAs();
  void updateTitle();
  // Makes the window fit the available area of its screen: a first start (no remembered
  // geometry) fills most of it, a remembered size larger than the screen shrinks to it.
  void fitToScreen(bool remembered);
  // Gives the panes the first start's sizes, as shares of the window's size.
  void placeDocks();
  void showEvent(QShowEvent* e) override;
  // A problem for the user: a warning dialog, or a line on standard error when headless.
  void warn(const QString& title, const QString& text);

  Session* session_ = nullptr;
  GraphPane* graphPane_ = nullptr;
  GraphView* graph_ = nullptr;
  ProgramEditor* editor_ = nullptr;
  RulePalette* rules_ = nullptr;
  KernelView* kernel_ = nullptr;
  NoticeBar* kernelNotice_ = nullptr;
  QAction* runAction_ = nullptr;
  QAction* searchAction_ = nullptr;
  DerivationHistory* history_ = nullptr;
  RunPanel* run_ = nullptr;
  SearchPanel* searchPanel_ = nullptr;
  PerformancePlot* plot_ = nullptr;
  QByteArray defaultState_;  // the dock layout before the remembered one was restored
  QLabel* status_ = nullptr;
  RecentFiles* recent_ = nullptr;
  bool headless_ = false;
  bool placeDocksOnShow_ = false;  // placeDocks() when the window is next shown
};

}  // namespace lift::views
