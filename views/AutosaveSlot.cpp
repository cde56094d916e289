// See AutosaveSlot.h.
#include "views/AutosaveSlot.h"

#include <QDir>
#include <QLockFile>

namespace lift::views {

AutosaveSlot::AutosaveSlot() = default;
AutosaveSlot::~AutosaveSlot() = default;  // unlocks

QString AutosaveSlot::pathOf(const QString& folder, int number) {
  return QDir(folder).filePath(number <= 1 ? QString("autosave.liftsession")
                                           : QString("autosave-%1.liftsession").arg(number));
}

bool AutosaveSlot::acquire(const QString& folder, int maxSlots) {
  if (!QDir().mkpath(folder)) return false;
  for (int n = 1; n <= maxSlots; ++n) {
    auto lock = std::make_unique<QLockFile>(pathOf(folder, n) + ".lock");
    lock->setStaleLockTime(0);  // held for as long as the instance runs: only a dead owner frees it
    if (!lock->tryLock(0)) continue;
    lock_ = std::move(lock);
    number_ = n;
    path_ = pathOf(folder, n);
    return true;
  }
  return false;
}

}  // namespace lift::views
