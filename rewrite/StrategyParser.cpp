// The textual strategy syntax of liftc and derivation files (grammar in Strategy.h), e.g.
// `repeat(topDown(map-fusion))` or `topDown(split-join(n=4)) ; normalise(map-fusion <+ id-removal)`.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/support/Elided.h"
#include "rewrite/Strategy.h"

namespace lift::rewrite {

namespace {

namespace S = strategies;

class StrategyParser {
 public:
  StrategyParser(const std::string& text, const RuleRegistry& reg) : t_(text), reg_(reg) {}

  Strategy parse() {
    Strategy s = choice();
    skip();
    if (i_ != t_.size()) error(fmt::format("unexpected '{}'", t_.substr(i_, 12)));
    return s;
  }

 private:
  [[noreturn]] void error(const std::string& msg) const {
    Diagnostic d = makeDiagnostic("<strategy>", t_, 1, static_cast<int>(i_) + 1, "strategy: " + msg);
    throw LiftError(d);
  }

  void skip() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }

  bool eat(std::string_view tok) {
    skip();
    if (t_.compare(i_, tok.size(), tok) == 0) {
      i_ += tok.size();
      return true;
    }
    return false;
  }

  void expect(std::string_view tok) {
    if (!eat(tok)) error(fmt::format("expected '{}'", tok));
  }

  std::string word() {
    skip();
    size_t start = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '-' ||
                              t_[i_] == '_' || t_[i_] == '.'))
      ++i_;
    // A trailing '-' belongs to nothing we know; leave '<+' alone.
    return t_.substr(start, i_ - start);
  }

  Strategy choice() {
    Strategy s = sequence();
    while (eat("<+")) s = S::leftChoice(s, sequence());
    return s;
  }

  Strategy sequence() {
    std::vector<Strategy> parts{atom()};
    while (eat(";")) parts.push_back(atom());
    return parts.size() == 1 ? parts[0] : S::seq(parts);
  }

  // A child or argument index, 0..max; errors point at the number.
  int index(int max) {
    skip();
    size_t start = i_;
    std::string w = word();
    int v = 0;
    auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    bool digits = !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
    i_ = start;
    if (!digits) error(fmt::format("expected an index (a number), got '{}'", w));
    if (ec != std::errc() || p != w.data() + w.size() || v > max)
      error(fmt::format("index {} is too large (at most {})", w, max));
    i_ = start + w.size();
    return v;
  }

  Strategy atom() {
    skip();
    if (eat("(")) {
      Strategy s = choice();
      expect(")");
      return s;
    }
    size_t start = i_;
    std::string name = word();
    if (name.empty()) error("expected a strategy or a rule name");
    if (name == "id") return S::id();
    if (name == "fail") return S::fail();
    using Unary = Strategy (*)(Strategy);
    static const std::pair<const char*, Unary> unary[] = {
        {"try", S::attempt},
        {"repeat", S::repeat},
        {"all", S::all},
        {"one", S::one},
        {"some", S::some},
        {"topDown", S::topDown},
        {"bottomUp", S::bottomUp},
        {"allTopDown", S::allTopDown},
        {"normalise", S::normalise},
        {"normalize", S::normalise},
        {"body", S::body},
        {"function", S::function},
    };
    for (auto& [n, f] : unary)
      if (name == n) {
        expect("(");
        Strategy s = choice();
        expect(")");
        return f(s);
      }
    if (name == "seq" || name == "lchoice") {
      expect("(");
      std::vector<Strategy> parts{choice()};
      while (eat(",")) parts.push_back(choice());
      expect(")");
      if (name == "seq") return parts.size() == 1 ? parts[0] : S::seq(parts);
      Strategy s = parts[0];
      for (size_t k = 1; k < parts.size(); ++k) s = S::leftChoice(s, parts[k]);
      return s;
    }
    if (name == "argument" || name == "child") {
      expect("(");
      // Argument i is child i + 1.
      int n = index(name == "argument" ? kMaxLocationStep - 1 : kMaxLocationStep);
      expect(",");
      Strategy s = choice();
      expect(")");
      return name == "argument" ? S::argument(n, s) : S::child(n, s);
    }
    if (name == "at") {
      expect("(");
      skip();
      size_t locStart = i_;
      std::string loc = word();
      auto l = Location::parse(loc);
      if (!l) {
        i_ = locStart;
        error(fmt::format("bad location '{}' (expected dot-separated indices 0..{}, e.g. 0.1)", elided(loc),
                          kMaxLocationStep));
      }
      expect(",");
      Strategy s = choice();
      expect(")");
      return S::at(*l, s);
    }
    const Rule* rule = reg_.find(name);
    if (!rule) {
      i_ = start;
      std::string msg = fmt::format("unknown rule or strategy '{}'", name);
      auto sugg = reg_.suggestions(name);
      if (!sugg.empty()) msg += fmt::format("; did you mean {}?", sugg[0]);
      error(msg);
    }
    ParamValues pv;
    skip();
    if (eat("(")) {
      do {
        std::string key = word();
        expect("=");
        std::string value = word();
        if (key.empty() || value.empty()) error("expected NAME=VALUE");
        pv.set(key, value);
      } while (eat(","));
      expect(")");
    }
    ParamValues check = pv;
    if (std::string err = rule->completeParams(check); !err.empty()) error(err);
    return S::rule(*rule, pv);
  }

  const std::string& t_;
  const RuleRegistry& reg_;
  size_t i_ = 0;
};

}  // namespace

Strategy parseStrategy(const std::string& text, const RuleRegistry& registry) {
  return StrategyParser(text, registry).parse();
}

}  // namespace lift::rewrite
