// Derivations: parsing, printing, program resolution and replay (see Derivation.h).
#include "rewrite/Derivation.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <sstream>

#include "core/lang/Parser.h"
#include "core/support/Elided.h"
#include "core/support/FileRead.h"
#include "core/support/FileWrite.h"

namespace lift::rewrite {

namespace fs = std::filesystem;

std::string DerivationStep::text() const {
  if (kind == Kind::Rewrite) return rewrite.spec();
  if (focus == Location::body()) return "strategy: " + strategy;
  return fmt::format("strategy@{}: {}", focus.toString(), strategy);
}

namespace {

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

[[noreturn]] void failAt(const std::string& file, const std::string& text, int line, int col,
                         const std::string& msg) {
  throw LiftError(makeDiagnostic(file, text, line, col, msg));
}

}  // namespace

Derivation Derivation::parse(const std::string& text, const std::string& file) {
  Derivation d;
  d.file = file;
  std::istringstream in(text);
  std::string raw;
  int lineNo = 0;
  bool seenProgram = false;
  while (std::getline(in, raw)) {
    ++lineNo;
    // A UTF-8 byte-order mark (some editors start every file with one) takes no column.
    if (lineNo == 1 && raw.compare(0, 3, "\xEF\xBB\xBF") == 0) raw.erase(0, 3);
    std::string content = raw, comment;
    if (size_t hash = raw.find('#'); hash != std::string::npos) {
      content = raw.substr(0, hash);
      comment = trim(raw.substr(hash + 1));
    }
    std::string line = trim(content);
    int col = static_cast<int>(content.find_first_not_of(" \t")) + 1;
    if (line.empty()) {
      if (!seenProgram && d.steps.empty() && raw.find('#') != std::string::npos) d.header.push_back(comment);
      continue;
    }
    if (line.rfind("program:", 0) == 0) {
      if (seenProgram) failAt(file, text, lineNo, col, "a derivation names one starting program");
      d.program = trim(line.substr(8));
      if (d.program.empty()) failAt(file, text, lineNo, col, "expected the program's path after 'program:'");
      seenProgram = true;
      continue;
    }
    if (!seenProgram)
      failAt(file, text, lineNo, col, "a derivation starts with 'program: PATH' (its starting program)");
    // An optional step number "12." in front.
    size_t i = 0;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
    if (i > 0 && i < line.size() && line[i] == '.') {
      std::string rest = line.substr(i + 1);
      size_t blanks = rest.find_first_not_of(" \t");
      col += static_cast<int>(i + 1 + (blanks == std::string::npos ? 0 : blanks));  // at the step itself
      line = trim(rest);
    }
    DerivationStep step;
    step.line = lineNo;
    step.comment = comment;
    try {
      if (line.rfind("strategy", 0) == 0) {
        size_t colon = line.find(':');
        if (colon == std::string::npos) failAt(file, text, lineNo, col, "expected 'strategy: STRATEGY'");
        std::string head = trim(line.substr(8, colon - 8));
        step.kind = DerivationStep::Kind::Strategy;
        if (!head.empty()) {
          auto loc = head[0] == '@' ? Location::parse(head.substr(1)) : std::nullopt;
          if (!loc)
            failAt(file, text, lineNo, col,
                   fmt::format("bad strategy location '{}': expected strategy@LOC:", elided(head)));
          step.focus = *loc;
        }
        step.strategy = trim(line.substr(colon + 1));
        parseStrategy(step.strategy);  // validate now
      } else {
        step.rewrite = RewriteStep::parse(line);
      }
    } catch (const LiftError& e) {
      if (e.diagnostic().loc.line > 0 && e.diagnostic().loc.file == file) throw;
      failAt(file, text, lineNo, col, e.diagnostic().message);
    }
    d.steps.push_back(std::move(step));
  }
  if (!seenProgram)
    failAt(file, text, lineNo > 0 ? lineNo : 1, 1, "the derivation names no program ('program: PATH')");
  return d;
}

Derivation Derivation::load(const std::string& path) { return parse(readInputFile(path), path); }

std::string Derivation::toText() const {
  std::string out;
  for (auto& h : header) out += "# " + h + "\n";
  out += "program: " + program + "\n";
  size_t width = 0;
  for (auto& s : steps) width = std::max(width, s.text().size());
  for (size_t i = 0; i < steps.size(); ++i) {
    std::string t = fmt::format("{}. {}", i + 1, steps[i].text());
    if (!steps[i].comment.empty())
      t += std::string(width + 6 > t.size() ? width + 6 - t.size() : 1, ' ') + "# " + steps[i].comment;
    out += t + "\n";
  }
  return out;
}

void Derivation::save(const std::string& path) const { writeFileAtomically(path, toText()); }

std::string Derivation::programPath() const {
  fs::path p(program);
  if (p.is_absolute()) {
    if (fs::exists(p)) return p.string();
    throw LiftError(fmt::format("the starting program '{}' does not exist", program));
  }
  fs::path dir =
      file.empty() || file.front() == '<' ? fs::current_path() : fs::absolute(fs::path(file)).parent_path();
  std::vector<std::string> tried;
  fs::path cand = dir / p;
  if (fs::exists(cand)) return cand.lexically_normal().string();
  tried.push_back(cand.lexically_normal().string());
  for (fs::path a = dir; !a.empty(); a = a.parent_path()) {
    fs::path r = a / "resources" / p;
    if (fs::exists(r)) return r.lexically_normal().string();
    if (a.filename() == "resources" && fs::exists(a / p)) return (a / p).lexically_normal().string();
    if (a == a.parent_path()) break;
  }
  tried.push_back("resources/" + program + " in the folders above");
  throw LiftError(fmt::format("{}: the starting program '{}' is not there (tried {} and {})",
                              file.empty() ? "<derivation>" : file, program, tried[0], tried[1]));
}

std::vector<RewriteStep> ReplayResult::flattened() const {
  std::vector<RewriteStep> out;
  for (auto& s : steps) out.insert(out.end(), s.applied.begin(), s.applied.end());
  return out;
}

ReplayResult replay(const Derivation& d, const std::function<void(const ReplayedStep&)>& onStep) {
  ir::Program p = lang::parseFile(d.programPath());
  return replay(d, TypedProgram::check(std::move(p)), onStep);
}

ReplayResult replay(const Derivation& d, const TypedProgram& start,
                    const std::function<void(const ReplayedStep&)>& onStep) {
  ReplayResult res{start, start, {}};
  for (size_t i = 0; i < d.steps.size(); ++i) {
    const DerivationStep& step = d.steps[i];
    ReplayedStep rs;
    rs.step = &step;
    rs.before = res.result;
    auto where = [&](const std::string& msg) {
      Diagnostic diag;
      diag.loc = SourceLoc{d.file, step.line, 1};
      diag.message = fmt::format("step {} ({}): {}", i + 1, elided(step.text()), msg);
      return LiftError(diag);
    };
    if (step.kind == DerivationStep::Kind::Rewrite) {
      RewriteResult r = applyRewrite(res.result, step.rewrite);
      if (!r) throw where(r.message);
      rs.after = std::move(*r.program);
      rs.applied.push_back(step.rewrite);
    } else {
      Strategy s = parseStrategy(step.strategy);
      StrategyResult r = runStrategy(s, res.result, step.focus);
      if (!r) throw where("the strategy failed: " + r.reason);
      rs.after = r.state->typed();
      rs.applied = r.state->trace();
    }
    res.result = rs.after;
    res.steps.push_back(std::move(rs));
    if (onStep) onStep(res.steps.back());
  }
  return res;
}

}  // namespace lift::rewrite
