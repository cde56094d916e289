// See BackgroundJobs.h.
#include "views/BackgroundJobs.h"

#include <QEventLoop>
#include <QTimer>

namespace lift::views {

void JobControl::post(std::function<void()> f) const {
  QMetaObject::invokeMethod(
      owner_,
      [state = state_, id = id_, f = std::move(f)] {
        if (id > state->cancelledUpTo.load()) f();
      },
      Qt::QueuedConnection);
}

BackgroundJobs::BackgroundJobs(QObject* owner, int maxThreads) : owner_(owner) {
  pool_.setMaxThreadCount(std::max(1, maxThreads));
}

BackgroundJobs::~BackgroundJobs() {
  cancel();
  pool_.waitForDone();
  state_->pending = 0;  // what is still queued is dropped; a wait() further up the stack ends
}

void BackgroundJobs::wait() {
  // Only the shared state is read here: a delivered result may delete the owner, and this.
  std::shared_ptr<JobControl::State> state = state_;
  while (state->pending > 0) {
    QEventLoop loop;
    QTimer::singleShot(20, &loop, &QEventLoop::quit);
    loop.exec();
  }
}

}  // namespace lift::views
