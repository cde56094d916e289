// A test helper for fuzzing whole command lines (liftc's and lift-studio's headless flags):
// mutants of valid seed lines, the files they may name (hostile ones: a FIFO with no writer,
// /dev/zero, a directory, a missing path, an oversized or binary file), and the checks every run
// must pass — it ends within the time limit without a crash, exits 0 or with a message, leaks no
// C++ internals, leaves the files it only reads byte-identical, writes an output whole or not at
// all, and refuses the mutants that are certainly invalid.
#pragma once

#include <sys/stat.h>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <cstdlib>
#include <random>

namespace lift::test {

// A command line, and whether it is certainly invalid (then it must not exit 0).
struct CommandLine {
  QStringList args;
  bool invalid = false;
  QString why;  // the mutation, for a failure's message
};

// How many mutants a fuzz test runs: LIFT_FUZZ_MUTANTS when set (a longer campaign).
inline int fuzzMutants(int fallback) {
  if (const char* v = std::getenv("LIFT_FUZZ_MUTANTS")) return std::max(1, std::atoi(v));
  return fallback;
}

// The counts a campaign reports (docs/TESTING.md).
struct FuzzCounts {
  int runs = 0, exit0 = 0, refused = 0;
  int crashes = 0, hangs = 0, exit0OnInvalid = 0, leaks = 0, silentFailures = 0, changedInputs = 0,
      partialWrites = 0;
  int failures() const {
    return crashes + hangs + exit0OnInvalid + leaks + silentFailures + changedInputs + partialWrites;
  }
  QString summary() const {
    return QString(
               "%1 runs: %2 exit 0, %3 refused; crashes %4, hangs %5, exit 0 on invalid input %6, "
               "leaked internals %7, failures without a message %8, read files changed %9, partial "
               "writes %10")
        .arg(runs)
        .arg(exit0)
        .arg(refused)
        .arg(crashes)
        .arg(hangs)
        .arg(exit0OnInvalid)
        .arg(leaks)
        .arg(silentFailures)
        .arg(changedInputs)
        .arg(partialWrites);
  }
};

// Texts of C++ internals that must never reach the user.
inline bool leaksInternals(const QString& err) {
  for (const char* marker :
       {"std::", "max_size()", "stoi", "stol", "filesystem error", "terminate called", "basic_string",
        "bad_alloc", "QUnhandledException", "Assertion", "internal error"})
    if (err.contains(marker)) return true;
  return false;
}

// The fixture folder: the files seed lines name, and hostile ones mutants put in their place.
class FuzzFolder {
 public:
  explicit FuzzFolder(const QString& path) : dir_(path) {
    QDir().mkpath(path);
    hostile_ = {"/dev/zero",
                "/dev/null",
                path,
                path + "/missing.lift",
                path + "/fifo.lift",
                path + "/big.lift",
                path + "/binary.lift",
                path + "/empty.lift",
                ""};
    ::mkfifo((path + "/fifo.lift").toLocal8Bit().constData(), 0600);
    QFile big(path + "/big.lift");
    if (big.open(QIODevice::WriteOnly)) big.resize(qint64(17) << 20);  // beyond the 16 MiB limit
    QFile bin(path + "/binary.lift");
    if (bin.open(QIODevice::WriteOnly)) bin.write(QByteArray("\x00\xff\xfe\x7f size N", 12));
    QFile empty(path + "/empty.lift");
    if (empty.open(QIODevice::WriteOnly)) empty.close();
  }
  QString path(const QString& name) const { return dir_.filePath(name); }
  // Paths that are never a valid program, derivation or store.
  const QStringList& hostilePaths() const { return hostile_; }

  // Every regular file's hash (FIFOs are skipped: hashing one would block).
  QMap<QString, QByteArray> snapshot() const {
    QMap<QString, QByteArray> out;
    QDirIterator it(dir_.path(), QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
      QString p = it.next();
      struct stat st {};
      if (::stat(p.toLocal8Bit().constData(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      if (st.st_size > (qint64(1) << 20)) {  // the sparse file: its size and mtime say enough
        out[p] = QByteArray::number(qint64(st.st_size)) + "@" + QByteArray::number(qint64(st.st_mtime));
        continue;
      }
      QFile f(p);
      out[p] = f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1)
                                           : QByteArray("unreadable");
    }
    return out;
  }

 private:
  QDir dir_;
  QStringList hostile_;
};

// Mutants of seed lines. `values` are option values that are certainly invalid for the option
// named as the key (e.g. "--size" -> "N=0"); `tokens` are arbitrary arguments to splice in.
class CommandLineMutator {
 public:
  CommandLineMutator(uint32_t seed, const FuzzFolder& folder, QMap<QString, QStringList> invalidValues)
      : rng_(seed), folder_(folder), invalidValues_(std::move(invalidValues)) {}

  CommandLine mutate(const QStringList& seed, const QStringList& positionalFiles) {
    CommandLine c{seed, false, {}};
    QStringList& a = c.args;
    switch (pick(9)) {
      case 0: {  // a file the line names replaced by a hostile path: certainly invalid
        QList<int> at;
        for (int i = 0; i < a.size(); ++i)
          if (positionalFiles.contains(a[i])) at << i;
        if (at.isEmpty()) break;
        int i = at[pick(at.size())];
        a[i] = folder_.hostilePaths()[pick(folder_.hostilePaths().size())];
        c.invalid = a[i] != "/dev/null";  // an empty file is a valid empty input for some commands
        if (a[i].endsWith("empty.lift")) c.invalid = false;
        c.why = "hostile file " + a[i];
        break;
      }
      case 1: {  // an option's value replaced by a certainly invalid one
        QList<int> at;
        for (int i = 0; i + 1 < a.size(); ++i)
          if (invalidValues_.contains(a[i])) at << i;
        if (at.isEmpty()) break;
        int i = at[pick(at.size())];
        const QStringList& bad = invalidValues_[a[i]];
        a[i + 1] = bad[pick(bad.size())];
        c.invalid = true;
        c.why = "invalid value " + a[i] + " " + a[i + 1];
        break;
      }
      case 2:  // an unknown option
        a.insert(1 + pick(a.size()), "--no-such-option");
        c.invalid = true;
        c.why = "unknown option";
        break;
      case 3:  // drop an argument
        if (a.size() > 1) a.removeAt(1 + pick(a.size() - 1));
        c.why = "dropped an argument";
        break;
      case 4:  // duplicate an argument
        if (!a.isEmpty()) {
          int i = pick(a.size());
          a.insert(i, a[i]);
        }
        c.why = "duplicated an argument";
        break;
      case 5:  // swap two arguments
        if (a.size() > 2) a.swapItemsAt(1 + pick(a.size() - 1), 1 + pick(a.size() - 1));
        c.why = "swapped two arguments";
        break;
      case 6: {  // change a byte of an argument
        int i = pick(a.size());
        QByteArray b = a[i].toUtf8();
        if (!b.isEmpty()) b[pick(b.size())] = static_cast<char>(1 + pick(255));
        a[i] = QString::fromUtf8(b);
        c.why = "changed a byte";
        break;
      }
      case 7: {  // splice in a token that means something somewhere
        static const QStringList tokens = {"--size",     "N=4",
                                           "--",         "-",
                                           "-o",         "--help",
                                           "--check",    "0",
                                           "-1",         "99999999999999999999",
                                           "@",          "--at",
                                           "0.1.0",      "--apply",
                                           "--strategy", QString(5000, 'x'),
                                           "--small",    "--all",
                                           "--trace",    "--db",
                                           "fifo.lift"};
        a.insert(pick(a.size() + 1), tokens[pick(tokens.size())]);
        c.why = "spliced a token";
        break;
      }
      default: {  // truncate an argument
        int i = pick(a.size());
        a[i] = a[i].left(pick(a[i].size() + 1));
        c.why = "truncated an argument";
        break;
      }
    }
    return c;
  }

 private:
  int pick(int n) { return n <= 0 ? 0 : std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::mt19937 rng_;
  const FuzzFolder& folder_;
  QMap<QString, QStringList> invalidValues_;
};

struct FuzzRun {
  int code = -1;  // -1: crashed (a signal) or killed
  bool timedOut = false;
  QString err;
};

// Runs `program` with `args` in `dir`, killed after `timeoutMs`; standard input is closed.
inline FuzzRun runProgram(const QString& program, const QStringList& args, const QString& dir, int timeoutMs,
                          const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  QProcess p;
  p.setWorkingDirectory(dir);
  p.setProcessEnvironment(env);
  p.setStandardInputFile(QProcess::nullDevice());
  p.setStandardOutputFile(QProcess::nullDevice());
  p.start(program, args);
  FuzzRun r;
  if (!p.waitForFinished(timeoutMs)) {
    p.kill();
    p.waitForFinished();
    r.timedOut = true;
    return r;
  }
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

// Checks one run against the rules above, counting what it breaks; returns a description of the
// first broken rule, or an empty string. `outputs` are the files the line may write (whole or
// not at all: their content before the run is in `before`).
inline QString checkRun(const CommandLine& c, const FuzzRun& r, const QMap<QString, QByteArray>& before,
                        const QMap<QString, QByteArray>& after, const QStringList& outputs, FuzzCounts& n) {
  ++n.runs;
  QString broken;
  auto fail = [&](int& counter, const QString& what) {
    ++counter;
    if (broken.isEmpty()) broken = what;
  };
  if (r.timedOut)
    fail(n.hangs, "hang");
  else if (r.code < 0)
    fail(n.crashes, "crash");
  else if (r.code == 0)
    ++n.exit0;
  else
    ++n.refused;
  if (r.code == 0 && c.invalid) fail(n.exit0OnInvalid, "exit 0 on invalid input (" + c.why + ")");
  if (r.code > 0 && r.err.trimmed().isEmpty()) fail(n.silentFailures, "failed without a message");
  if (leaksInternals(r.err)) fail(n.leaks, "leaked internals: " + r.err.left(300));
  for (auto it = before.begin(); it != before.end(); ++it) {
    bool isOutput = outputs.contains(it.key());
    if (!after.contains(it.key())) {
      fail(n.changedInputs, "removed " + it.key());
    } else if (after[it.key()] != it.value() && (!isOutput || r.code != 0)) {
      if (isOutput)
        fail(n.partialWrites, "a failed run changed its output " + it.key());
      else
        fail(n.changedInputs, "changed " + it.key());
    }
  }
  for (auto it = after.begin(); it != after.end(); ++it)
    if (!before.contains(it.key()) && !outputs.contains(it.key()))
      fail(n.partialWrites, "left " + it.key() + " behind");
  return broken;
}

}  // namespace lift::test
