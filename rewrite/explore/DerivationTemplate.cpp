// Derivation templates and their instantiation (see DerivationTemplate.h).
#include "rewrite/explore/DerivationTemplate.h"

#include <fmt/format.h>

namespace lift::explore {

std::string formatAssignment(const Assignment& a) {
  std::string out;
  for (auto& [name, value] : a) out += fmt::format("{}{}={}", out.empty() ? "" : ",", name, value);
  return out;
}

std::string DerivationTemplate::text() const {
  std::string out;
  for (auto& s : steps) out += s.spec() + "\n";
  return out;
}

std::string DerivationTemplate::algorithmText() const {
  std::string out;
  for (size_t i = 0; i < algorithmicSteps && i < steps.size(); ++i) out += (i ? "; " : "") + steps[i].spec();
  return out.empty() ? "(none)" : out;
}

const Tunable* DerivationTemplate::tunable(const std::string& name) const {
  for (auto& t : tunables)
    if (t.name == name) return &t;
  return nullptr;
}

Assignment DerivationTemplate::defaults() const {
  Assignment a;
  for (auto& t : tunables)
    if (!t.values.empty()) a[t.name] = t.values.front();
  return a;
}

uint64_t DerivationTemplate::spaceSize() const {
  uint64_t n = 1;
  for (auto& t : tunables) {
    uint64_t k = std::max<uint64_t>(1, t.values.size());
    n = n > UINT64_MAX / k ? UINT64_MAX : n * k;
  }
  return n;
}

std::string Candidate::derivationText() const {
  std::string out;
  for (auto& s : steps) out += s.spec() + "\n";
  if (!out.empty()) out.pop_back();
  return out;
}

std::string Candidate::parametersText() const {
  Assignment rewriteValues;
  for (auto& [name, value] : values) {
    const Tunable* t = tmpl ? tmpl->tunable(name) : nullptr;
    if (!t || !t->launch) rewriteValues[name] = value;
  }
  std::string out = formatAssignment(rewriteValues);
  if (!local.empty()) {
    std::string l;
    for (int64_t v : local) l += (l.empty() ? "" : "x") + std::to_string(v);
    out += (out.empty() ? "" : ",") + std::string("local=") + l;
  }
  return out;
}

std::string Candidate::codegenText() const {
  Assignment codegenValues;
  for (auto& [name, value] : values) {
    const Tunable* t = tmpl ? tmpl->tunable(name) : nullptr;
    if (t && t->codegen) codegenValues[name] = value;
  }
  return formatAssignment(codegenValues);
}

std::string Candidate::key() const {
  std::string l;
  for (int64_t v : local) l += "x" + std::to_string(v);
  std::string g = codegenText();
  return programHash + "|" + l + (g.empty() ? "" : "|" + g);
}

std::string Candidate::structuralKey() const {
  std::string l;
  for (int64_t v : local) l += "x" + std::to_string(v);
  std::string g = codegenText();
  return std::to_string(structuralHash) + "|" + l + (g.empty() ? "" : "|" + g);
}

std::vector<rewrite::RewriteStep> substitute(const DerivationTemplate& t, const Assignment& a) {
  std::vector<rewrite::RewriteStep> out;
  out.reserve(t.steps.size());
  for (const rewrite::RewriteStep& s : t.steps) {
    rewrite::RewriteStep c = s;
    rewrite::ParamValues pv;
    for (auto& [name, value] : s.params.values()) {
      if (value.size() > 1 && value[0] == '$') {
        std::string tn = value.substr(1);
        auto it = a.find(tn);
        int64_t v = 0;
        if (it != a.end())
          v = it->second;
        else if (const Tunable* tu = t.tunable(tn); tu && !tu->values.empty())
          v = tu->values.front();
        pv.set(name, std::to_string(v));
      } else {
        pv.set(name, value);
      }
    }
    c.params = pv;
    out.push_back(std::move(c));
  }
  return out;
}

std::optional<rewrite::TypedProgram> replaySteps(const rewrite::TypedProgram& start,
                                                 const std::vector<rewrite::RewriteStep>& steps,
                                                 std::string* why) {
  std::optional<rewrite::TypedProgram> cur = start;
  for (size_t i = 0; i < steps.size(); ++i) {
    rewrite::RewriteResult r = rewrite::applyRewrite(*cur, steps[i]);
    if (!r) {
      if (why) *why = fmt::format("step {} ({}): {}", i + 1, steps[i].spec(), r.message);
      return std::nullopt;
    }
    cur = std::move(r.program);
  }
  return cur;
}

std::optional<Candidate> instantiate(const SearchProblem& problem,
                                     std::shared_ptr<const DerivationTemplate> t, const Assignment& values,
                                     std::string* why) {
  Candidate c;
  c.tmpl = t;
  c.values = t->defaults();
  for (auto& [name, value] : values) c.values[name] = value;
  c.steps = substitute(*t, c.values);
  std::optional<rewrite::TypedProgram> p;
  try {
    p = replaySteps(*problem.start, c.steps, why);
  } catch (const LiftError& e) {
    if (why) *why = e.diagnostic().message;
    return std::nullopt;
  }
  if (!p) return std::nullopt;
  c.program = std::make_shared<const rewrite::TypedProgram>(std::move(*p));
  c.programHash = programHash(c.program->program);
  c.structuralHash = ir::structuralHash(c.program->program);
  if (!t->launchDims.empty()) {
    int dims = 0;
    for (int d : t->launchDims) dims = std::max(dims, d + 1);
    c.local.assign(static_cast<size_t>(dims), 1);
    for (int d : t->launchDims) {
      auto it = c.values.find(fmt::format("local{}", d));
      if (it != c.values.end()) c.local[static_cast<size_t>(d)] = it->second;
    }
  }
  return c;
}

}  // namespace lift::explore
