// Which autosave file a running lift-studio owns, so that two instances never write the same
// one: the first of autosave.liftsession, autosave-2.liftsession, ... in a folder whose lock
// (QLockFile, held until the slot goes away) no other running instance holds. A lock left by a
// crashed instance is taken over (QLockFile checks that its process is gone).
#pragma once

#include <QString>
#include <memory>

class QLockFile;

namespace lift::views {

class AutosaveSlot {
 public:
  AutosaveSlot();
  ~AutosaveSlot();
  AutosaveSlot(const AutosaveSlot&) = delete;
  AutosaveSlot& operator=(const AutosaveSlot&) = delete;

  // Takes the first free slot of `folder` (created if needed); false when none of `maxSlots` is
  // free or the folder cannot be written.
  bool acquire(const QString& folder, int maxSlots = 16);
  // 1 for the first instance; 0 before acquire() succeeded.
  int number() const { return number_; }
  // The session file of this slot ("" before acquire() succeeded).
  QString path() const { return path_; }
  // The file of slot `number` in `folder`.
  static QString pathOf(const QString& folder, int number);

 private:
  std::unique_ptr<QLockFile> lock_;
  int number_ = 0;
  QString path_;
};

}  // namespace lift::views
