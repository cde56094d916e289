// A test helper shared by the tests that run liftc as a user does, in a child process: its exit
// status, standard output and standard error.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

namespace lift::test {

struct LiftcRun {
  int code = -1;  // the exit status; -1 when liftc crashed or was killed
  QString out, err;

  // "exit N", then both outputs: what a failed check prints.
  QString describe() const { return QString("exit %1\nstdout:\n%2\nstderr:\n%3").arg(code).arg(out, err); }
};

// Runs liftc with `args` in `dir` (default: the source tree); killed after `timeoutMs` (then
// code is -1 and err says so).
inline LiftcRun runLiftc(const QStringList& args, const QString& dir = LIFT_SOURCE_DIR,
                         int timeoutMs = 120000) {
  QProcess p;
  p.setWorkingDirectory(dir);
  p.start(LIFT_LIFTC, args);
  LiftcRun r;
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished();
    r.err = "timed out";
    return r;
  }
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

}  // namespace lift::test
