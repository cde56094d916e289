// The document of lift-studio, without widgets: the derivation tree (a model), the current
// state and the program shown, the program file, the text as the user has it (parsed or not)
// with its diagnostic, and the code generator's switches. It owns undo (moving between
// states), the checks of new steps, loading and saving sessions and derivations, and the one
// replay routine (TreeReplay), which runs in the background. The main window shows what it
// announces and forwards what the user does; tests drive it without any widget.
#pragma once

#include <QObject>
#include <QStringList>
#include <memory>

#include "codegen/CompileOptions.h"
#include "core/support/Diagnostic.h"
#include "rewrite/Engine.h"
#include "views/BackgroundJobs.h"
#include "views/DerivationTreeModel.h"

class QTimer;
class QUndoStack;

namespace lift::views {

class Session : public QObject {
  Q_OBJECT
 public:
  explicit Session(QObject* parent = nullptr);
  ~Session() override;  // writes a pending autosave

  DerivationTreeModel* tree() const { return tree_; }
  QUndoStack* undoStack() const { return undo_; }
  const QString& file() const { return file_; }
  const QString& text() const { return text_; }
  // The program shown: the current state's, or the last text that parsed (null before any).
  std::shared_ptr<const rewrite::TypedProgram> program() const { return program_; }
  // The start of the current derivation (the program as opened or edited), or null.
  const DerivationTreeModel::State* currentStart() const;
  // Why the text does not parse or type-check (empty message when it does).
  const Diagnostic& diagnostic() const { return diagnostic_; }
  // The program shown is the text's: there is one and the text type-checks. When not, the panes
  // show a stale program (the last one that type-checked, or a previous document's).
  bool isProgramCurrent() const { return program_ && diagnostic_.message.empty(); }
  // Steps, loaded kernels or edits that no file holds yet (a saved session or derivation, the
  // program saved while it has no steps). The autosave keeps this flag.
  bool isModified() const { return modified_; }
  const codegen::CompileOptions& compileOptions() const { return options_; }
  // Records the switches the kernel pane uses (saved with the session).
  void setCompileOptions(const codegen::CompileOptions& options);

  // A new document: the history starts again from `text`, read from `file`.
  void open(const QString& text, const QString& file);
  // The program was saved as `file`.
  void setFile(const QString& file);
  // The text was saved as `file`: with no steps beyond it, nothing is left unsaved.
  void programSaved(const QString& file);
  // Records the text as the user has it; reparse() reads it.
  void setText(const QString& text);
  // Parses the text: while the start of a derivation is edited it is replaced, otherwise the
  // edited text starts a new derivation. Text that does not parse sets the diagnostic.
  void reparse();
  // Applies "RULE@LOC[:PARAMS]" to the program shown: a new state, reached through undo. On
  // failure the reason is returned in `error`, and nothing changes.
  bool applyRewrite(const QString& spec, QString* error = nullptr);
  // Moves to another state through the undo stack, named `what`.
  void moveTo(int index, const QString& what);
  // Shows state `index` (undo, redo and the moves above call this).
  void goToState(int index);
  // Annotates every state whose program is `program` (a run's result).
  void setPerformance(const std::shared_ptr<const rewrite::TypedProgram>& program, const QString& text);

  // The whole session (every state with its branches, the current one, the text, the switches,
  // whether it is modified).
  QByteArray toJson() const { return toJson(modified_); }
  bool saveSession(const QString& path, QString* error = nullptr);
  // Reads a session; false, with the reason, when the file is not one. Its states are replayed
  // in the background, then replace the document (problems with some steps: `problem`).
  bool openSession(const QString& path, QString* error = nullptr);
  // Saves the derivation from the start to the current state, and the starting program next
  // to it when that is not a file on disk.
  bool saveDerivation(const QString& path, QString* error = nullptr);
  // Replays a derivation file in the background; then it replaces the document.
  void openDerivation(const QString& path);
  // Replays `steps` from `start` in the background, then adds them to the tree as a new
  // derivation named `origin` and moves there (undo returns). A newer replay wins.
  void showDerivation(std::shared_ptr<const rewrite::TypedProgram> start, const QString& origin,
                      const QStringList& steps);
  // Writes the derivation report (HTML, or Markdown for *.md) of the current state.
  bool exportReport(const QString& path, QString* error = nullptr);

  bool isReplaying() const { return replays_.busy(); }
  // Block until the replay in flight / every check of a step has finished (tests, command line).
  void waitForReplay() { replays_.wait(); }
  void waitForChecks() { checks_.wait(); }

  // Where the session is written one second after every change ("" for nowhere, the default).
  void setAutosavePath(const QString& path) { autosavePath_ = path; }
  // autosave.liftsession in the application's data folder.
  static QString defaultAutosavePath();

 signals:
  // The program shown changed; `rewritten` when it came from another state (highlight changes).
  void programChanged(std::shared_ptr<const rewrite::TypedProgram> program, bool rewritten);
  // The text changed by something other than setText (a move, a load).
  void textReplaced(const QString& text);
  void diagnosticChanged(const lift::Diagnostic& diagnostic);
  void fileChanged(const QString& file);
  // A new document replaced the old one (a program, session or derivation opened): what showed
  // results of the old one (sizes, a run, a search's plot) starts over.
  void documentReplaced();
  void modifiedChanged(bool modified);
  // The switches changed by a load.
  void compileOptionsChanged(const lift::codegen::CompileOptions& options);
  void derivationOpened(const QString& programPath);
  // A line for the status bar (0: until the next one).
  void message(const QString& text, int timeoutMs);
  // Something the user must read (a dialog).
  void problem(const QString& title, const QString& text);

 private:
  struct LoadedSession;
  struct LoadedDerivation;
  void clearDocument();
  QByteArray toJson(bool modified) const;
  void setModified(bool modified);
  void replaceText(const QString& text);
  void setDiagnostic(const Diagnostic& d);
  void show(std::shared_ptr<const rewrite::TypedProgram> program, bool rewritten);
  int addStep(int parent, const QString& spec, std::shared_ptr<const rewrite::TypedProgram> program);
  void startCheck(int index);
  void finishSession(const LoadedSession& s);
  void finishDerivation(const LoadedDerivation& d);
  void scheduleAutosave();
  void writeAutosave();

  DerivationTreeModel* tree_;
  QUndoStack* undo_;
  QTimer* autosave_;
  QString autosavePath_;
  QString file_, text_;
  std::shared_ptr<const rewrite::TypedProgram> program_;
  Diagnostic diagnostic_;
  bool modified_ = false;
  codegen::CompileOptions options_;
  BackgroundJobs checks_{this};
  BackgroundJobs replays_{this};
};

}  // namespace lift::views
