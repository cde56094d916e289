// Background work of one owner (a pane, the session), after KDAB hotspot's JobTracker: start()
// runs a function on the owner's own thread pool under a new id, and its result comes back to
// the owner's thread by a queued call. cancel() makes every job started so far stale: its
// result is dropped and the job may stop early (JobControl::stale()), so "a newer click wins" is
// cancel() then start(). A job may also post() values before it ends (a search's events), with
// the same rule. The destructor cancels and waits, so work never outlives what it captured and
// nothing arrives for an owner that is gone. Whatever a job throws (std::bad_alloc included) is
// caught on the pool: an exception escaping a pool thread would abort the whole app. The owner
// hears of it through onFailure() instead of the result.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThread>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>

namespace lift::views {

// What a running job knows of itself.
class JobControl {
 public:
  uint64_t id() const { return id_; }
  // True once the owner cancelled this job (or is going away): its result will be dropped.
  bool stale() const { return id_ <= state_->cancelledUpTo.load(); }
  // Runs `f` on the owner's thread (queued), unless the job is stale by then.
  void post(std::function<void()> f) const;

 private:
  friend class BackgroundJobs;
  struct State {
    std::atomic<uint64_t> cancelledUpTo{0};
    int pending = 0;  // started and not yet delivered (or dropped); the owner's thread only
    std::function<void(const QString&)> failed;  // the owner's thread only
  };
  JobControl(std::shared_ptr<State> state, QObject* owner, uint64_t id)
      : state_(std::move(state)), owner_(owner), id_(id) {}

  std::shared_ptr<State> state_;
  QObject* owner_;
  uint64_t id_;
};

class BackgroundJobs {
 public:
  // `owner` receives the results (on its thread); `maxThreads` jobs run at once.
  explicit BackgroundJobs(QObject* owner, int maxThreads = QThread::idealThreadCount());
  ~BackgroundJobs();
  BackgroundJobs(const BackgroundJobs&) = delete;
  BackgroundJobs& operator=(const BackgroundJobs&) = delete;

  // Runs `work` (taking a `const JobControl&`, or nothing) on the pool and hands what it returns
  // to `deliver` on the owner's thread, unless the job is stale by then. Returns the job's id.
  template <typename Work, typename Deliver>
  uint64_t start(Work work, Deliver deliver) {
    JobControl control(state_, owner_, ++lastId_);
    ++state_->pending;
    pool_.start([control, work = std::move(work), deliver = std::move(deliver)]() mutable {
      using Result = decltype(runWork(work, control));
      std::shared_ptr<Result> result;
      QString failure;
      try {
        result = std::make_shared<Result>(runWork(work, control));
      } catch (...) {
        failure = describeCurrentException();
      }
      QMetaObject::invokeMethod(
          control.owner_,
          [control, result, deliver, failure]() mutable {
            --control.state_->pending;
            if (control.stale()) return;
            if (result)
              deliver(std::move(*result));
            else
              reportFailure(*control.state_, failure);
          },
          Qt::QueuedConnection);
    });
    return lastId_;
  }
  // Called on the owner's thread, instead of the result, with a sentence saying what a job threw
  // ("Out of memory.", "Internal error: ..."). Without a handler it goes to stderr.
  void onFailure(std::function<void(const QString&)> f) { state_->failed = std::move(f); }
  // Every job started so far becomes stale.
  void cancel() { state_->cancelledUpTo.store(lastId_); }
  // Jobs started whose result has not been delivered or dropped yet.
  bool busy() const { return state_->pending > 0; }
  // Blocks until busy() is false, delivering results meanwhile (tests, the command line).
  void wait();

 private:
  // What the exception being handled is, as a sentence.
  static QString describeCurrentException();
  static void reportFailure(const JobControl::State& state, const QString& failure);

  template <typename Work>
  static auto runWork(Work& work, const JobControl& control) {
    if constexpr (std::is_invocable_v<Work&, const JobControl&>)
      return work(control);
    else
      return work();
  }

  QObject* owner_;
  std::shared_ptr<JobControl::State> state_ = std::make_shared<JobControl::State>();
  uint64_t lastId_ = 0;
  QThreadPool pool_;
};

}  // namespace lift::views
