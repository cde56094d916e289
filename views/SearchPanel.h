// The search pane: strategy, budget (seconds and/or kernels), the sizes to search at, the device,
// the result store, Start/Stop (F6), a progress bar and the activity line (kernels evaluated,
// valid, best so far). The search runs in the background (SearchJob); every evaluated kernel
// becomes a point of the performance plot, and every kernel is written to the result store
// (by default searches.sqlite in the application's data folder). "Open stored search…" re-plots
// a store's kernels; Start then resumes it without measuring anything again. Clicking a point
// asks the main window to replay that kernel's derivation (failed kernels show why instead).
#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QWidget>
#include <memory>
#include <optional>

#include "rewrite/explore/SearchRunner.h"
#include "views/LibraryLines.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;

namespace lift::views {

class DeviceChoice;
class PerformancePlot;
class SearchJob;
class SizeFields;

class SearchPanel : public QWidget {
  Q_OBJECT
 public:
  // The panel feeds `plot` (owned by the caller) and listens to its clicks.
  explicit SearchPanel(PerformancePlot* plot, QWidget* parent = nullptr);
  ~SearchPanel() override;

  // The program a search starts from (the start of the current derivation) and its label for
  // the store (a file path, or an example's name).
  void setProgram(std::shared_ptr<const rewrite::TypedProgram> p, const QString& label);
  // Whether a search may start: not while the program shown is stale (`why` says so). A running
  // search can still be stopped.
  void setAvailable(bool available, const QString& why = {});
  bool isAvailable() const { return available_; }
  // Another document was opened: a running search is stopped (its kernels stay in the store:
  // "Open stored…" plots them again), and the plot, counts and size fields start over.
  void reset();

  // searches.sqlite in QStandardPaths::AppDataLocation.
  static QString defaultStorePath();
  QString storePath() const { return storePath_; }
  void setStorePath(const QString& path);

  // Settings a test or the command line sets instead of the user.
  void setStrategy(const QString& name);
  void setLimits(int seconds, int maxKernels);
  DeviceChoice* deviceChoice() const { return device_; }
  SizeFields* sizeFields() const { return sizes_; }
  PerformancePlot* plot() const { return plot_; }

  bool isRunning() const;
  // Blocks until the running search has finished (tests, --search).
  void waitForSearch();
  // The last search's summary (stopReason None while one runs or before the first).
  const explore::SearchSummary& lastSummary() const { return summary_; }
  // Kernels plotted: measured now (valid of them), and stored before (valid of them): what the
  // pane's counts say, what --search prints, and the plot's points (measured + stored).
  struct Tally {
    int64_t measured = 0, measuredValid = 0, stored = 0, storedValid = 0;
  };
  const Tally& tally() const { return tally_; }
  QString activityText() const;
  QString countsText() const;
  QString detailText() const;

  // Re-plots the kernels of a stored search (`searchId`, 0: the latest) and makes the store the
  // one the next search writes to (and resumes from). False, with a sentence in `error`, when
  // the file is not a result store or holds no search.
  bool openStore(const QString& path, int64_t searchId = 0, QString* error = nullptr);

  // The problem of the search shown (its program specialised to the searched sizes), or null.
  std::shared_ptr<const explore::SearchProblem> problem() const { return problem_; }
  // What a click on the point `id` does: a valid kernel with a derivation that the starting
  // program replays -> loadRequested; otherwise the reason is shown. False in that case.
  bool loadKernel(qint64 id);
  // The parameters of the kernel loadKernel loaded last ("k=16,unroll=8,vload=1,local=16x16").
  const QString& loadedParameters() const { return loadedParameters_; }

 public slots:
  void start();
  void stop();
  // Start when idle, stop when running (the F6 shortcut). Pressed while a search is stopping, it
  // asks for a new search once that one has stopped (pressed again: not), so that any number of
  // quick presses ends as their count says: an even number with no search running.
  void toggle();
  // Asks for a store file and opens it.
  void openStoreDialog();

 signals:
  // Replay `steps` (one RULE@LOC[:PARAMS] each) from `start` (the program specialised to the
  // search's sizes) and show the result; `origin` names it in the history.
  void loadRequested(std::shared_ptr<const rewrite::TypedProgram> start, const QString& origin,
                     const QStringList& steps);
  // A line for the status bar.
  void message(const QString& text);
  void searchStarted();
  void searchFinished();

 private:
  struct KernelInfo {
    int64_t index = 0;
    QString derivation, parameters, status, message;
  };
  void onEvent(const explore::SearchEvent& e);
  void onFinished(const explore::SearchSummary& s);
  void addKernel(qint64 id, const KernelInfo& info, double seconds, double ms, double gflops, double gbs,
                 bool cached, const QString& phase);
  void showCounts(const explore::SearchCounts& c, double bestMs, double bestGflops);
  void updateProgress();
  void updateButtons();
  // Draws the library lines in the plot and lists them in the pane.
  void showLibraryLines(const LibraryLines& lines);
  // The key of the library lines of the problem shown on the selected device.
  QString libraryKey() const;
  // The starting program of a stored search: the current one if it is the same at `sizes`,
  // else the program its label names (a file, or a bundled example).
  std::shared_ptr<const explore::SearchProblem> problemFor(const explore::SearchRecord& s, QString* why);

  PerformancePlot* plot_;
  QComboBox* strategy_;
  QSpinBox* seconds_;
  QSpinBox* maxKernels_;
  DeviceChoice* device_;
  SizeFields* sizes_;
  QLabel* store_;
  QPushButton* start_;
  QPushButton* stop_;
  QProgressBar* progress_;
  QLabel* activity_;
  QLabel* counts_;
  QLabel* detail_;
  QLabel* libraryLines_;
  QStringList libraryLineNames_;  // the plot's lines that showLibraryLines drew
  QTimer* tick_;
  bool available_ = true;
  QString unavailableWhy_;
  bool abandoned_ = false;           // the running search was stopped by reset(): what it reports is dropped
  bool stopping_ = false;            // the running search was asked to stop
  bool restartWhenStopped_ = false;  // toggle() while stopping: start again once it has

  std::shared_ptr<const rewrite::TypedProgram> program_;
  QString label_;
  QString storePath_;
  SearchJob* job_ = nullptr;  // a child: from start() until its `finished` arrived
  QElapsedTimer clock_;
  double limitSeconds_ = 0;
  int64_t limitKernels_ = 0, evaluated_ = 0;
  explore::SearchSummary summary_;
  // The search whose points are plotted: its problem (to replay derivations) and kernels.
  std::shared_ptr<const explore::SearchProblem> problem_;
  std::shared_ptr<const rewrite::TypedProgram>
      loadedStart_;           // the start of the last kernel loaded from the plot
  QString loadedParameters_;  // and its parameters
  QString problemWhy_;        // why there is no problem_ (a stored search of another program)
  QHash<qint64, KernelInfo> kernels_;
  Tally tally_;
};

}  // namespace lift::views
