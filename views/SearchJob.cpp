// See SearchJob.h.
#include "views/SearchJob.h"

#include <QEventLoop>
#include <QMetaObject>

namespace lift::views {

SearchJob::SearchJob(explore::SearchProblem problem, explore::SearchOptions options, QString storePath,
                     QObject* parent)
    : QObject(parent), storePath_(std::move(storePath)) {
  if (!storePath_.isEmpty()) store_ = std::make_shared<explore::ResultStore>(storePath_.toStdString());
  runner_ = std::make_shared<explore::SearchRunner>(std::move(problem), std::move(options), store_.get());
}

SearchJob::~SearchJob() {
  if (thread_.joinable()) {
    runner_->cancel();
    thread_.join();  // run() returns soon after cancel(); events still queued for us are dropped
  }
}

void SearchJob::start() {
  if (started_) return;
  started_ = true;
  running_.store(true);
  thread_ = std::thread([this, runner = runner_, store = store_] {
    explore::SearchSummary summary;
    try {
      summary = runner->run([this](const explore::SearchEvent& e) {
        // Copied into the queued call: the GUI thread gets its own value.
        QMetaObject::invokeMethod(
            this, [this, e] { emit event(e); }, Qt::QueuedConnection);
      });
    } catch (const std::exception& e) {
      summary.stopReason = explore::StopReason::Error;
      summary.error = e.what();
    }
    running_.store(false);
    QMetaObject::invokeMethod(
        this, [this, summary] { end(summary); }, Qt::QueuedConnection);
  });
}

void SearchJob::cancel() { runner_->cancel(); }

void SearchJob::end(const explore::SearchSummary& s) {
  if (ended_) return;
  ended_ = true;
  if (thread_.joinable()) thread_.join();  // its last act was to queue this call: immediate
  emit finished(s);
}

void SearchJob::wait() {
  if (!started_ || ended_) return;
  QEventLoop loop;
  connect(this, &SearchJob::finished, &loop, &QEventLoop::quit);
  loop.exec();
}

}  // namespace lift::views
