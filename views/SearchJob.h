// A search running in the background: a BackgroundJobs job (a pool of one thread) runs an
// explore::SearchRunner (and the result store it writes), and every event it reports is copied,
// as a value, to the GUI thread (a queued call), where it is emitted as a signal. cancel() stops
// it (the kernel in flight is killed) and `finished` still comes, with the stop reason; the
// destructor cancels and waits, so closing the window while a search runs neither crashes nor
// hangs. Nothing here blocks the GUI thread except wait() and the destructor.
#pragma once

#include <QObject>
#include <functional>
#include <memory>

#include "rewrite/explore/SearchRunner.h"
#include "views/BackgroundJobs.h"

namespace lift::views {

class SearchJob : public QObject {
  Q_OBJECT
 public:
  // `storePath`: the result store every kernel is written to (and resumed from). Throws
  // LiftError when it cannot be opened.
  SearchJob(explore::SearchProblem problem, explore::SearchOptions options, QString storePath,
            QObject* parent = nullptr);
  ~SearchJob() override;

  // Work the job's thread does first, before the search starts (measuring the library lines);
  // set before start(). `cancelled` turns true once cancel() was called: the prelude should
  // return soon after.
  using Prelude = std::function<void(const JobControl&, const std::function<bool()>& cancelled)>;
  void setPrelude(Prelude prelude) { prelude_ = std::move(prelude); }
  void start();
  // From the GUI thread: asks the search to stop; `finished` follows soon.
  void cancel();
  bool isRunning() const { return job_.busy(); }
  bool cancelRequested() const { return runner_->cancelRequested(); }
  // Blocks until the search has ended and delivers what it reported (tests, --search).
  void wait() { job_.wait(); }
  const explore::SearchProblem& problem() const { return runner_->problem(); }
  const explore::SearchOptions& options() const { return runner_->options(); }
  const QString& storePath() const { return storePath_; }

 signals:
  // On the GUI thread, in the order the search reported them.
  void event(const lift::explore::SearchEvent& e);
  // After the last event; `summary.stopReason` says why it ended.
  void finished(const lift::explore::SearchSummary& summary);

 private:
  std::shared_ptr<explore::ResultStore> store_;  // shared with the job: alive until run() returns
  std::shared_ptr<explore::SearchRunner> runner_;
  QString storePath_;
  Prelude prelude_;
  bool started_ = false;
  BackgroundJobs job_{this, 1};
};

}  // namespace lift::views
