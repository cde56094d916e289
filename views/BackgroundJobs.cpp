// See BackgroundJobs.h.
#include "views/BackgroundJobs.h"

#include <QEventLoop>
#include <QTimer>
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>

#include "core/support/Diagnostic.h"

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

QString BackgroundJobs::describeCurrentException() {
  try {
    throw;
  } catch (const LiftError& e) {
    return QString::fromStdString(e.diagnostic().format());
  } catch (const std::bad_alloc&) {
    return "Out of memory: the work needs more memory than this machine has (smaller sizes need less).";
  } catch (const std::length_error&) {  // a vector larger than max_size(): as large a request
    return "Out of memory: the work needs more memory than this machine has (smaller sizes need less).";
  } catch (const std::exception& e) {
    return QString("Internal error: %1.").arg(QString::fromUtf8(e.what()));
  } catch (...) {
    return "Internal error: an unknown exception.";
  }
}

void BackgroundJobs::reportFailure(const JobControl::State& state, const QString& failure) {
  if (state.failed)
    state.failed(failure);
  else
    std::fprintf(stderr, "lift-studio: background work failed: %s\n", qPrintable(failure));
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
