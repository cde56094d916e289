// The main window of lift-studio: the program graph in the centre, dock panes around it
// (program text, and the panes of the later stages), menus, shortcuts, remembered layout.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <memory>
#include <optional>

#include "core/ir/IR.h"
#include "core/support/Diagnostic.h"
#include "rewrite/Engine.h"

class QLineEdit;
class QUndoStack;
class QMenu;
class QLabel;

namespace lift::views {

class GraphView;
class ProgramEditor;
class RulePalette;
class KernelView;
class DerivationHistory;
class RunPanel;
class SearchPanel;
class PerformancePlot;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Loads a .lift file; a problem is shown in the window (and false returned), never lost text.
  bool openFile(const QString& path);
  // Loads a bundled example by name ("matmul", "lowlevel/dot"); false if there is none.
  bool openExample(const QString& name);
  // Names of the bundled examples ("matmul", "lowlevel/dot", ...), sorted.
  static QStringList bundledExamples();
  // Puts the panes back where a first start puts them (View > Reset layout; screenshots).
  void resetLayout();
  // Renders the whole window to a PNG (at least 1400x900).
  bool saveScreenshot(const QString& path);

  // Applies a rewrite "RULE@LOC[:PARAMS]" to the current program. On failure the reason is
  // shown and returned in `error`; the program is unchanged.
  bool applyRewrite(const QString& spec, QString* error = nullptr);

  // Selects the first graph node whose label contains `text`, as a click would (the rewrite
  // pane then lists its rules; waits for them). False if no node matches.
  bool selectNodeByLabel(const QString& text);

  GraphView* graphView() const { return graph_; }
  RulePalette* rulePalette() const { return rules_; }
  KernelView* kernelView() const { return kernel_; }
  DerivationHistory* history() const { return history_; }
  RunPanel* runPanel() const { return run_; }
  SearchPanel* searchPanel() const { return searchPanel_; }
  PerformancePlot* performancePlot() const { return plot_; }

  // Shows a kernel found by a search: `steps` (RULE@LOC[:PARAMS]) are replayed from `start` in
  // the background, then become a new derivation in the history (undo returns to what was
  // shown). A step that does not replay is reported, nothing else changes.
  void showDerivation(std::shared_ptr<const rewrite::TypedProgram> start, const QString& origin,
                      const QStringList& steps);
  bool isReplaying() const { return replaysPending_ > 0; }
  // Writes the performance plot to a PNG or (for *.pdf) a PDF file.
  bool exportPlot(const QString& path);
  QUndoStack* undoStack() const { return undo_; }

  // Shows derivation state `index` (as undo/redo and clicks in the history do).
  void goToState(int index);
  // Saves the derivation from the start to the current state (and the starting program next
  // to it when it is not a file on disk). False, with a message shown, on failure.
  bool saveDerivation(const QString& path);
  // Loads a derivation file and replays it step by step into the history.
  bool openDerivation(const QString& path);
  // A whole session (every derivation state with its branches, the current one, the kernel
  // switches, the run settings) as JSON; restoring replays each step.
  bool saveSession(const QString& path);
  bool openSession(const QString& path);
  // Where the session is saved automatically after every change.
  static QString autosavePath();
  // Writes the derivation report (HTML, or Markdown for *.md) of the current state.
  bool exportReport(const QString& path);
  ProgramEditor* programEditor() const { return editor_; }
  // The current program, if the text parses and type-checks.
  const ir::Program* program() const { return program_ ? &program_->program : nullptr; }
  std::shared_ptr<const rewrite::TypedProgram> typedProgram() const { return program_; }
  // The current diagnostic (empty message when the program is fine).
  const Diagnostic& diagnostic() const { return diagnostic_; }

 public slots:
  // Re-reads the program from the editor's text.
  void reparse();

 private:
  void buildMenus();
  void buildDocks();
  void setProgramText(const QString& text, const QString& path);
  // Moves to another state through the undo stack.
  void moveTo(int index, const QString& what);
  void showProgram(std::shared_ptr<const rewrite::TypedProgram> p, bool updateText);
  void addRecentFile(const QString& path);
  void updateRecentMenu();
  void onNodeSelected(ir::NodeId id);
  void onCaretMoved(int line, int col);
  void exportGraphDot();
  void exportGraphImage();
  void saveProgramAs();
  void updateTitle();
  void scheduleAutosave();
  void writeAutosave();
  QByteArray sessionJson() const;

  GraphView* graph_ = nullptr;
  ProgramEditor* editor_ = nullptr;
  RulePalette* rules_ = nullptr;
  KernelView* kernel_ = nullptr;
  DerivationHistory* history_ = nullptr;
  RunPanel* run_ = nullptr;
  SearchPanel* searchPanel_ = nullptr;
  PerformancePlot* plot_ = nullptr;
  QByteArray defaultState_;  // the dock layout before the remembered one was restored
  int replaysPending_ = 0;
  uint64_t replayGeneration_ = 0;  // a newer click wins over an older replay still running
  QUndoStack* undo_ = nullptr;
  class QTimer* autosave_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* status_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QString path_;
  std::shared_ptr<const rewrite::TypedProgram> program_;
  Diagnostic diagnostic_;
};

}  // namespace lift::views
