// Robustness of the rule library against odd parameters: every rule at every location of every
// example (high level and OpenCL level) and of tests/data/misc.lift, its numeric parameters set
// to a size name, a size expression, 1, 3 and 64 — values a user may type in the app or on the
// command line. A rewrite may apply or say why not; it must never throw, loop or produce an
// ill-typed program. (partred-iterate with r=1 looped forever before this test.)
#include <QtTest/QtTest>

#include <chrono>
#include <filesystem>

#include "core/lang/Parser.h"
#include "rewrite/Engine.h"
#include "rewrite/RuleRegistry.h"

using namespace lift;
using namespace lift::rewrite;

namespace {

void locations(const ir::NodeRef& n, const Location& loc, std::vector<Location>& out) {
  out.push_back(loc);
  std::vector<ir::NodeRef> kids = locationChildren(n);
  for (size_t i = 0; i < kids.size(); ++i) locations(kids[i], loc.child(static_cast<int>(i)), out);
}

std::vector<std::filesystem::path> programs() {
  std::vector<std::filesystem::path> out;
  for (auto* dir : {"/resources/examples", "/resources/examples/lowlevel"})
    for (auto& e : std::filesystem::directory_iterator(std::string(LIFT_SOURCE_DIR) + dir))
      if (e.path().extension() == ".lift") out.push_back(e.path());
  out.push_back(std::string(LIFT_SOURCE_DIR) + "/tests/data/misc.lift");
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

class TestRuleRobustness : public QObject {
  Q_OBJECT
 private slots:
  void oddParametersEverywhere() {
    size_t tried = 0, applied = 0;
    double slowestMs = 0;
    std::string slowest;
    for (const auto& path : programs()) {
      TypedProgram p = TypedProgram::check(lang::parseFile(path.string()));
      std::string size = p.program.sizes.empty() ? "4" : p.program.sizes[0].name;
      std::vector<Location> locs;
      locations(ir::Fun(p.main()), Location(), locs);
      for (const Rule* r : RuleRegistry::instance().rules()) {
        for (const std::string& v :
             {size, "2*" + size, std::string("1"), std::string("3"), std::string("64")}) {
          ParamValues pv;
          for (const ParamSpec& spec : r->params)
            if (spec.kind == ParamKind::Factor || spec.kind == ParamKind::Count) pv.set(spec.name, v);
          for (const Location& l : locs) {
            if (l.isMain()) continue;
            RewriteStep step{r, l, pv};
            QString where = QString("%1 in %2").arg(step.spec().c_str(), path.filename().c_str());
            auto t0 = std::chrono::steady_clock::now();
            RewriteResult res;
            try {
              res = applyRewrite(p, step);
            } catch (const std::exception& e) {
              QFAIL(qPrintable(where + ": threw " + e.what()));
            }
            double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (ms > slowestMs) {
              slowestMs = ms;
              slowest = where.toStdString();
            }
            ++tried;
            if (res) ++applied;
            QVERIFY2(res || res.error != RewriteError::IllTyped,
                     qPrintable(where + ": " + res.message.c_str()));
            QVERIFY2(res || !res.message.empty(), qPrintable(where + ": no reason given"));
          }
        }
      }
    }
    qInfo("%zu rewrites tried, %zu applied; slowest %.1f ms (%s)", tried, applied, slowestMs,
          slowest.c_str());
    QVERIFY2(slowestMs < 2000, slowest.c_str());
  }
};

QTEST_APPLESS_MAIN(TestRuleRobustness)
#include "tst_rule_robustness.moc"
