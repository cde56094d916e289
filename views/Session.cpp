// See Session.h.
#include "views/Session.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>

#include "core/lang/Parser.h"
#include "core/lang/PrintedLocations.h"
#include "core/lang/Printer.h"
#include "rewrite/Equivalence.h"
#include "rewrite/explore/DerivationReport.h"
#include "views/AppFiles.h"
#include "views/CompileOptionsJson.h"
#include "views/DerivationTreeModel.h"
#include "views/TreeReplay.h"

namespace lift::views {

namespace {
// Moving between derivation states is the one undoable action: applying a rewrite moves to a
// new state, undo moves back, redo forward again, a click in the history jumps.
class MoveCommand : public QUndoCommand {
 public:
  MoveCommand(Session* s, int from, int to, const QString& text)
      : QUndoCommand(text), session_(s), from_(from), to_(to) {}
  void redo() override { session_->goToState(to_); }
  void undo() override { session_->goToState(from_); }

 private:
  Session* session_;
  int from_, to_;
};

QString fromStd(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

// A session file read on the GUI thread, its states replayed in the background.
struct Session::LoadedSession {
  QString file, editorText;
  bool modified = false;
  codegen::CompileOptions options;
  int current = -1;
  std::vector<ReplayNode> nodes;
  QStringList origins, specs;  // per node
  std::vector<ReplayedNode> replayed;
};

// A derivation file, read and replayed in the background.
struct Session::LoadedDerivation {
  QString path, programPath, text, error;
  std::shared_ptr<const rewrite::TypedProgram> start;
  QStringList specs;
  std::vector<ReplayedNode> replayed;
};

Session::Session(QObject* parent)
    : QObject(parent),
      tree_(new DerivationTreeModel(this)),
      undo_(new QUndoStack(this)),
      autosave_(new QTimer(this)) {
  autosave_->setSingleShot(true);
  autosave_->setInterval(1000);
  connect(autosave_, &QTimer::timeout, this, &Session::writeAutosave);
  checks_.onFailure([this](const QString& why) { emit problem("Checking a step", why); });
  replays_.onFailure([this](const QString& why) { emit problem("Replaying a derivation", why); });
}

Session::~Session() {
  if (autosave_->isActive()) writeAutosave();
}

QString Session::defaultAutosavePath() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/autosave.liftsession";
}

const DerivationTreeModel::State* Session::currentStart() const {
  int cur = tree_->current();
  return cur < 0 ? nullptr : &tree_->state(tree_->rootOf(cur));
}

void Session::setCompileOptions(const codegen::CompileOptions& options) {
  bool same = compileOptionsToJson(options) == compileOptionsToJson(options_);
  options_ = options;
  if (!same) scheduleAutosave();
}

void Session::clearDocument() {
  checks_.cancel();
  replays_.cancel();
  tree_->clear();
  undo_->clear();
  program_.reset();
  emit documentReplaced();
}

void Session::setModified(bool modified) {
  if (modified == modified_) return;
  modified_ = modified;
  emit modifiedChanged(modified_);
}

void Session::open(const QString& text, const QString& file) {
  clearDocument();
  setFile(file);
  replaceText(text);
  reparse();
  setModified(false);
}

void Session::setFile(const QString& file) {
  file_ = file;
  emit fileChanged(file_);
}

void Session::programSaved(const QString& file) {
  setFile(file);
  if (tree_->stateCount() <= 1) setModified(false);
}

// The editor echoes every text it is given: only a different text is an edit.
void Session::setText(const QString& text) {
  if (text == text_) return;
  text_ = text;
  setModified(true);
}

void Session::replaceText(const QString& text) {
  if (text == text_) return;
  text_ = text;
  emit textReplaced(text_);
}

void Session::setDiagnostic(const Diagnostic& d) {
  diagnostic_ = d;
  emit diagnosticChanged(diagnostic_);
}

void Session::reparse() {
  QString file = file_.isEmpty() ? "<program>" : QFileInfo(file_).fileName();
  try {
    auto p = std::make_shared<const rewrite::TypedProgram>(
        rewrite::TypedProgram::check(lang::parseProgram(text_.toStdString(), file.toStdString())));
    setDiagnostic({});
    int cur = tree_->current();
    if (cur >= 0 && tree_->state(cur).parent < 0 && tree_->state(cur).children.empty()) {
      // Still editing the starting program: no new state.
      tree_->replaceRoot(cur, p, text_);
      show(std::move(p), /*rewritten=*/false);
      scheduleAutosave();
    } else {
      // The text of a later state was edited: a new derivation starts from it.
      int root = tree_->addRoot(p, cur < 0 ? file : "edited " + file, text_);
      moveTo(root, "Edit program");
    }
  } catch (const LiftError& e) {
    // The last good program stays shown; the diagnostic goes with the text that caused it.
    setDiagnostic(e.diagnostic());
    scheduleAutosave();
  }
}

void Session::show(std::shared_ptr<const rewrite::TypedProgram> program, bool rewritten) {
  program_ = std::move(program);
  emit programChanged(program_, rewritten);
}

bool Session::applyRewrite(const QString& spec, QString* error) {
  QString why;
  if (!program_) {
    why = "There is no valid program to rewrite.";
  } else {
    try {
      rewrite::RewriteStep step = rewrite::RewriteStep::parse(spec.toStdString());
      rewrite::RewriteResult r = rewrite::applyRewrite(*program_, step);
      if (r) {
        QString applied = fromStd(step.spec());
        int to = addStep(tree_->current(), applied,
                         std::make_shared<const rewrite::TypedProgram>(std::move(*r.program)));
        moveTo(to, "Apply " + applied);
        setModified(true);
        emit message("Applied " + spec, 5000);
        return true;
      }
      why = fromStd(r.message);
    } catch (const LiftError& e) {
      why = fromStd(e.diagnostic().message);
    }
  }
  if (error) *error = why;
  emit message("Cannot apply " + spec + ": " + why, 8000);
  return false;
}

void Session::moveTo(int index, const QString& what) {
  int from = tree_->current();
  if (from == index) return;
  if (from < 0)
    goToState(index);
  else
    undo_->push(new MoveCommand(this, from, index, what));
}

void Session::goToState(int index) {
  if (index < 0 || index >= tree_->stateCount()) return;
  const DerivationTreeModel::State& s = tree_->state(index);
  tree_->setCurrent(index);
  bool root = s.parent < 0;
  replaceText(root ? s.text : fromStd(lang::printProgram(s.program->program)));
  setDiagnostic({});
  show(s.program, /*rewritten=*/program_ && !root);
  scheduleAutosave();
}

void Session::setPerformance(const std::shared_ptr<const rewrite::TypedProgram>& program,
                             const QString& text) {
  for (int i = 0; i < tree_->stateCount(); ++i)
    if (tree_->state(i).program == program) tree_->setPerformance(i, text);
}

int Session::addStep(int parent, const QString& spec, std::shared_ptr<const rewrite::TypedProgram> program) {
  // A step is shown as printed: its positions (selection, messages) are those of that text.
  auto shown = std::make_shared<const rewrite::TypedProgram>(
      rewrite::TypedProgram{lang::withPrintedLocations(program->program), program->types});
  int index = tree_->addStep(parent, spec, std::move(shown));
  startCheck(index);
  return index;
}

// The interpreter checks a new step against its parent on random inputs, in the background.
void Session::startCheck(int index) {
  tree_->setCheck(index, DerivationTreeModel::Check::Pending, {});
  auto before = tree_->state(tree_->state(index).parent).program;
  auto after = tree_->state(index).program;
  checks_.start(
      [before, after] {
        try {
          return rewrite::checkEquivalence(before->program, after->program);
        } catch (const std::exception& e) {
          rewrite::EquivalenceReport r;
          r.equal = false;
          r.message = e.what();
          return r;
        }
      },
      [this, index](const rewrite::EquivalenceReport& r) {
        if (r) {
          QStringList sizes;
          for (auto& env : r.sizes) sizes << fromStd(rewrite::formatSizes(env));
          tree_->setCheck(index, DerivationTreeModel::Check::Verified,
                          QString("Same results as the previous step on random inputs (%1 runs: %2)")
                              .arg(r.runs)
                              .arg(sizes.join("; ")));
        } else {
          tree_->setCheck(index,
                          r.runs == 0 && r.equal ? DerivationTreeModel::Check::NotChecked
                                                 : DerivationTreeModel::Check::Failed,
                          fromStd(r.message));
        }
      });
}

QByteArray Session::toJson(bool modified) const {
  QJsonObject session;
  session["format"] = "lift-studio-session";
  session["version"] = 1;
  session["file"] = file_;
  QJsonArray states;
  for (int i = 0; i < tree_->stateCount(); ++i) {
    const auto& st = tree_->state(i);
    QJsonObject o;
    o["parent"] = st.parent;
    if (st.parent < 0) {
      o["origin"] = st.origin;
      o["text"] = st.text;
    } else {
      o["spec"] = st.spec;
    }
    states.append(o);
  }
  session["states"] = states;
  session["current"] = tree_->current();
  session["editorText"] = text_;  // may not parse yet: never lose it
  session["kernelOptions"] = compileOptionsToJson(options_);
  session["modified"] = modified;
  return QJsonDocument(session).toJson();
}

bool Session::saveSession(const QString& path, QString* error) {
  if (!writeWholeFile(path, toJson(/*modified=*/false), error)) return false;
  setModified(false);
  emit message("Saved session to " + path, 5000);
  return true;
}

bool Session::openSession(const QString& path, QString* error) {
  QString content;
  if (!readInputText(path, &content, error)) return false;
  QJsonParseError perr;
  QJsonDocument doc = QJsonDocument::fromJson(content.toUtf8(), &perr);
  QJsonObject json = doc.object();
  if (doc.isNull() || json["format"].toString() != "lift-studio-session") {
    if (error)
      *error =
          path + " is not a Lift Studio session" + (doc.isNull() ? ": " + perr.errorString() : QString());
    return false;
  }
  LoadedSession s;
  s.file = json["file"].toString();
  s.editorText = json["editorText"].toString();
  s.options = compileOptionsFromJson(json["kernelOptions"].toObject());
  s.current = json["current"].toInt(-1);
  s.modified = json["modified"].toBool(false);
  for (const QJsonValue& v : json["states"].toArray()) {
    QJsonObject o = v.toObject();
    ReplayNode n;
    n.parent = o["parent"].toInt(-1);
    n.spec = o["spec"].toString().toStdString();
    n.text = o["text"].toString().toStdString();
    n.file = QFileInfo(o["origin"].toString()).fileName().toStdString();
    s.nodes.push_back(std::move(n));
    s.origins << o["origin"].toString();
    s.specs << o["spec"].toString();
  }
  replays_.cancel();
  emit message("Restoring " + path + "…", 0);
  replays_.start(
      [s](const JobControl& job) mutable {
        s.replayed = replayTree(s.nodes, [&job] { return job.stale(); });
        return s;
      },
      [this](const LoadedSession& loaded) { finishSession(loaded); });
  return true;
}

// Every state that replays comes back (a state that does not, and its subtree, is dropped with a
// message), then the current one, then the unfinished text.
void Session::finishSession(const LoadedSession& s) {
  clearDocument();
  setFile(s.file);
  QStringList problems;
  std::vector<int> index(s.nodes.size(), -1);
  for (size_t i = 0; i < s.nodes.size(); ++i) {
    const ReplayedNode& r = s.replayed[i];
    if (!r.error.empty()) problems << QString("state %1: %2").arg(i).arg(fromStd(r.error));
    if (!r.program) continue;
    int parent = s.nodes[i].parent;
    index[i] = parent < 0 ? tree_->addRoot(r.program, s.origins[static_cast<qsizetype>(i)],
                                           QString::fromStdString(s.nodes[i].text))
                          : addStep(index[static_cast<size_t>(parent)], s.specs[static_cast<qsizetype>(i)],
                                    r.program);
  }
  options_ = s.options;
  emit compileOptionsChanged(options_);
  int target = s.current >= 0 && static_cast<size_t>(s.current) < index.size()
                   ? index[static_cast<size_t>(s.current)]
                   : -1;
  if (target < 0) target = tree_->stateCount() - 1;
  goToState(target);
  if (!s.editorText.isEmpty() && s.editorText != text_) {
    replaceText(s.editorText);  // unfinished edits come back as they were
    reparse();
  }
  setModified(s.modified);
  emit message(QString("Restored %1 states").arg(tree_->stateCount()), 5000);
  if (!problems.isEmpty())
    emit problem("Open session", "Some steps no longer replay:\n" + problems.join("\n"));
}

bool Session::saveDerivation(const QString& path, QString* error) {
  int cur = tree_->current();
  if (cur < 0) {
    if (error) *error = "There is no derivation to save.";
    return false;
  }
  const auto& root = tree_->state(tree_->rootOf(cur));
  // The derivation names its starting program; one that is not a file on disk (an example or
  // edited text) is saved next to the derivation.
  QString programPath =
      QFileInfo(file_).isAbsolute() && QFileInfo::exists(file_) && root.origin == file_ ? file_ : QString();
  if (programPath.isEmpty()) {
    programPath = QFileInfo(path).path() + "/" + QFileInfo(path).completeBaseName() + ".lift";
    if (!writeWholeFile(programPath, root.text.toUtf8(), error)) return false;
  }
  QString rel = QFileInfo(path).dir().relativeFilePath(programPath);
  try {
    rewrite::Derivation d = tree_->derivationTo(cur, rel.toStdString());
    if (!writeWholeFile(path, QByteArray::fromStdString(d.toText()), error)) return false;
    setModified(false);
  } catch (const LiftError& e) {
    if (error) *error = fromStd(e.diagnostic().format());
    return false;
  }
  emit message("Saved derivation to " + path, 5000);
  return true;
}

void Session::openDerivation(const QString& path) {
  replays_.cancel();
  emit message("Replaying " + path + "…", 0);
  replays_.start(
      [path](const JobControl& job) {
        LoadedDerivation d;
        d.path = path;
        try {
          rewrite::Derivation derivation = rewrite::Derivation::load(path.toStdString());
          d.programPath = fromStd(derivation.programPath());
          if (!readInputText(d.programPath, &d.text, &d.error)) return d;
          // Strategies expand into their rewrites: each becomes a step.
          rewrite::ReplayResult r = rewrite::replay(derivation);
          d.start = std::make_shared<const rewrite::TypedProgram>(r.start);
          std::vector<std::string> specs;
          for (const rewrite::RewriteStep& step : r.flattened()) {
            specs.push_back(step.spec());
            d.specs << fromStd(step.spec());
          }
          d.replayed = replayTree(replayChain(d.start, specs), [&job] { return job.stale(); });
          for (const ReplayedNode& n : d.replayed)
            if (!n.program) d.error = fromStd(n.error);
        } catch (const LiftError& e) {
          d.error = fromStd(e.diagnostic().format());
        }
        return d;
      },
      [this](const LoadedDerivation& d) { finishDerivation(d); });
}

void Session::finishDerivation(const LoadedDerivation& d) {
  if (!d.error.isEmpty()) {
    emit message("Cannot open " + d.path, 5000);
    emit problem("Open derivation", d.error);
    return;
  }
  clearDocument();
  setFile(d.programPath);
  int state = tree_->addRoot(d.start, d.programPath, d.text);
  goToState(state);
  for (qsizetype i = 0; i < d.specs.size(); ++i)
    state = addStep(state, d.specs[i], d.replayed[static_cast<size_t>(i) + 1].program);
  moveTo(state, "Replay " + QFileInfo(d.path).fileName());
  setModified(false);
  emit derivationOpened(d.programPath);
  emit message(QString("Replayed %1 (%2 steps)").arg(d.path).arg(d.specs.size()), 5000);
}

void Session::showDerivation(std::shared_ptr<const rewrite::TypedProgram> start, const QString& origin,
                             const QStringList& steps) {
  replays_.cancel();  // the user clicked another kernel: that one wins
  emit message("Replaying " + origin + "…", 0);
  std::vector<std::string> specs;
  for (const QString& s : steps) specs.push_back(s.toStdString());
  replays_.start([nodes = replayChain(start, specs)](
                     const JobControl& job) { return replayTree(nodes, [&job] { return job.stale(); }); },
                 [this, start, origin, steps](const std::vector<ReplayedNode>& replayed) {
                   for (const ReplayedNode& n : replayed)
                     if (!n.program) {
                       emit message("Cannot load " + origin + ": " + fromStd(n.error), 10000);
                       return;
                     }
                   int state = tree_->addRoot(start, origin, fromStd(lang::printProgram(start->program)));
                   for (qsizetype i = 0; i < steps.size(); ++i)
                     state = addStep(state, steps[i], replayed[static_cast<size_t>(i) + 1].program);
                   moveTo(state, "Load " + origin);
                   setModified(true);
                   emit message(QString("Loaded %1 (%2 steps)").arg(origin).arg(steps.size()), 8000);
                 });
}

bool Session::exportReport(const QString& path, QString* error) {
  int cur = tree_->current();
  if (cur < 0) {
    if (error) *error = "There is no derivation to report.";
    return false;
  }
  try {
    explore::ReportOptions opts;
    opts.html = !path.endsWith(".md", Qt::CaseInsensitive);
    opts.title = "Derivation of " + (program_ ? program_->program.name : std::string("a program"));
    std::vector<rewrite::RewriteStep> steps;
    for (const QString& spec : tree_->specsTo(cur))
      steps.push_back(rewrite::RewriteStep::parse(spec.toStdString()));
    std::string report = explore::derivationReport(*tree_->state(tree_->rootOf(cur)).program, steps, opts);
    return writeWholeFile(path, QByteArray::fromStdString(report), error);
  } catch (const LiftError& e) {
    if (error) *error = fromStd(e.diagnostic().format());
    return false;
  }
}

void Session::scheduleAutosave() {
  if (!autosavePath_.isEmpty()) autosave_->start();
}

void Session::writeAutosave() {
  autosave_->stop();
  if (autosavePath_.isEmpty() || tree_->stateCount() == 0) return;
  QDir().mkpath(QFileInfo(autosavePath_).path());
  writeWholeFile(autosavePath_, toJson(), nullptr);
}

}  // namespace lift::views
