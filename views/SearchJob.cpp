// See SearchJob.h.
#include "views/SearchJob.h"

namespace lift::views {

SearchJob::SearchJob(explore::SearchProblem problem, explore::SearchOptions options, QString storePath,
                     QObject* parent)
    : QObject(parent), storePath_(std::move(storePath)) {
  if (!storePath_.isEmpty()) store_ = std::make_shared<explore::ResultStore>(storePath_.toStdString());
  runner_ = std::make_shared<explore::SearchRunner>(std::move(problem), std::move(options), store_.get());
  job_.onFailure([this](const QString& why) {  // what run() let escape: the search ends in an error
    explore::SearchSummary summary;
    summary.stopReason = explore::StopReason::Error;
    summary.error = why.toStdString();
    emit finished(summary);
  });
}

// run() returns soon after cancel(); job_ then waits for it and drops what is still queued.
SearchJob::~SearchJob() { runner_->cancel(); }

void SearchJob::start() {
  if (started_) return;
  started_ = true;
  job_.start(
      [this, runner = runner_, store = store_, prelude = prelude_](const JobControl& job) {
        explore::SearchSummary summary;
        try {
          if (prelude && !runner->cancelRequested())
            prelude(job, [&runner] { return runner->cancelRequested(); });
          summary = runner->run([this, &job](const explore::SearchEvent& e) {
            job.post([this, e] { emit event(e); });  // the GUI thread gets its own copy
          });
        } catch (const std::exception& e) {
          summary.stopReason = explore::StopReason::Error;
          summary.error = e.what();
        }
        return summary;
      },
      [this](const explore::SearchSummary& s) { emit finished(s); });
}

void SearchJob::cancel() { runner_->cancel(); }

}  // namespace lift::views
