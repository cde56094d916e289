// Robustness of the inputs other than programs (tst_parser_fuzz has those): random mutations of
// the shipped derivations, of strategies, of size arguments and of result-store files. Each
// mutant must be accepted or refused with a LiftError; anything else (another exception, a
// crash, a hang) fails the test. A store is only ever opened read-only here, and its bytes must
// be the same afterwards. Deterministic (fixed seeds); LIFT_FUZZ_MUTANTS sets the mutants per
// input for longer local runs.
#include <QtTest/QtTest>

#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/interp/SizeList.h"
#include "core/lang/Parser.h"
#include "rewrite/Derivation.h"
#include "rewrite/Strategy.h"
#include "rewrite/explore/ResultStore.h"

using namespace lift;

namespace {

int mutantsPerInput(int fallback) {
  if (const char* v = std::getenv("LIFT_FUZZ_MUTANTS")) return std::max(1, std::atoi(v));
  return fallback;
}

// Fragments that mean something in these inputs, to splice in.
const std::vector<std::string> kTokens = {
    "@",   ".",       ":",    "=",         ",",    "(",    ")",     "0",          "1",      "999999999999",
    "-1",  "k=0",     "x=",   "dim=7",     "n=4",  "N=",   "M=4",   "tiling",     "id",     "repeat(",
    "seq", "topDown", "; ",   "<+",        "\n",   "#",    "2.",    "program: ",  "\t",     "try(",
    "at(", "0.1.0",   "fail", "normalise", "all(", "one(", "body(", "child(99, ", "999999", "\xff"};

std::string mutate(std::string s, std::mt19937& rng) {
  auto pick = [&](size_t n) {
    return n == 0 ? size_t(0) : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  int edits = 1 + static_cast<int>(pick(3));
  for (int e = 0; e < edits; ++e) {
    size_t at = pick(s.size() + 1);
    switch (pick(6)) {
      case 0:  // flip a byte
        if (!s.empty()) s[pick(s.size())] = static_cast<char>(pick(256));
        break;
      case 1:  // truncate
        s.resize(at);
        break;
      case 2:  // delete a stretch
        s.erase(at, pick(12));
        break;
      case 3:  // insert a token
        s.insert(at, kTokens[pick(kTokens.size())]);
        break;
      case 4: {  // duplicate a stretch
        size_t len = pick(24);
        s.insert(at, s.substr(pick(s.size() + 1), len));
        break;
      }
      default:  // change a digit
        for (size_t i = at; i < s.size(); ++i)
          if (std::isdigit(static_cast<unsigned char>(s[i]))) {
            s[i] = static_cast<char>('0' + pick(10));
            break;
          }
    }
  }
  return s;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Mutants accepted and refused (with a LiftError), for the campaign's record.
struct Counts {
  int accepted = 0, refused = 0;
  void report(const char* what) const {
    qInfo("%s: %d mutants, %d accepted, %d refused with a message", what, accepted + refused, accepted,
          refused);
  }
};

// Runs `f`; true when it returned or threw a LiftError (counted), false (with the message)
// otherwise.
template <class F>
bool acceptedOrRefused(F&& f, Counts& counts, std::string& what) {
  try {
    f();
    ++counts.accepted;
    return true;
  } catch (const LiftError&) {
    ++counts.refused;
    return true;
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
    what = "a non-standard exception";
  }
  return false;
}

}  // namespace

class TestInputFuzz : public QObject {
  Q_OBJECT

 private slots:
  void derivations() {
    std::mt19937 rng(11);
    Counts counts;
    for (auto& e : std::filesystem::directory_iterator(LIFT_SOURCE_DIR "/resources/derivations")) {
      if (e.path().extension() != ".derivation") continue;
      std::string text = readFile(e.path().string());
      for (int i = 0; i < mutantsPerInput(25); ++i) {
        std::string mutant = mutate(text, rng);
        std::string what;
        bool ok = acceptedOrRefused(
            [&] {
              rewrite::Derivation d = rewrite::Derivation::parse(mutant, e.path().string());
              rewrite::replay(d);
            },
            counts, what);
        QVERIFY2(ok, qPrintable(QString::fromStdString(e.path().filename().string() + ": " + what +
                                                       "\n--- mutant:\n" + mutant)));
      }
    }
    counts.report("derivations");
    QVERIFY(counts.accepted > 0);  // some mutants still replay (a changed comment, a valid parameter)
  }

  void strategies() {
    rewrite::TypedProgram p =
        rewrite::TypedProgram::check(lang::parseFile(LIFT_SOURCE_DIR "/resources/examples/matmul.lift"));
    const std::vector<std::string> seeds = {
        "normalise(map-fusion)",
        "topDown(split-join(n=4)) ; try(map-to-glb(dim=0))",
        "repeat(one(map-map-interchange)) <+ id",
        "at(0, tiling(x=4, y=4)) ; body(all(try(eta-expansion)))",
        "seq(register-blocking-1d(k=2), allTopDown(try(map-to-seq)), child(1, id))",
    };
    std::mt19937 rng(12);
    Counts counts;
    for (const std::string& seed : seeds)
      for (int i = 0; i < mutantsPerInput(60); ++i) {
        std::string mutant = mutate(seed, rng);
        std::string what;
        QVERIFY2(
            acceptedOrRefused([&] { rewrite::runStrategy(rewrite::parseStrategy(mutant), p); }, counts, what),
            qPrintable(QString::fromStdString(mutant + ": " + what)));
      }
    counts.report("strategies");
  }

  void sizeArguments() {
    const std::vector<std::string> seeds = {"N=1024", "M=64,N=256,K=512", "N=2147483647", "A=1,B=2,C=3,D=4"};
    std::mt19937 rng(13);
    Counts counts;
    for (const std::string& seed : seeds)
      for (int i = 0; i < mutantsPerInput(200); ++i) {
        std::string mutant = mutate(seed, rng);
        std::string what;
        arith::Env sizes;
        QVERIFY2(acceptedOrRefused([&] { interp::parseSizeList(mutant, sizes); }, counts, what),
                 qPrintable(QString::fromStdString(mutant + ": " + what)));
        // What is accepted is in range.
        for (auto& [name, value] : sizes) QVERIFY(value >= 1 && value <= interp::kMaxSize);
      }
    counts.report("size arguments");
  }

  void resultStores() {
    QTemporaryDir dir;
    std::string good = dir.filePath("good.sqlite").toStdString();
    {
      explore::ResultStore store(good);  // an empty store of ours: schema and tables
    }
    std::string bytes = readFile(good);
    QVERIFY(!bytes.empty());
    std::mt19937 rng(14);
    Counts counts;
    for (int i = 0; i < mutantsPerInput(40); ++i) {
      std::string mutant = bytes;
      // Flip a few bytes of the header or the pages (a truncation too, now and then).
      int flips = 1 + static_cast<int>(rng() % 8);
      for (int f = 0; f < flips; ++f) mutant[rng() % mutant.size()] = static_cast<char>(rng() % 256);
      if (rng() % 5 == 0) mutant.resize(rng() % mutant.size());
      std::string path = dir.filePath(QString("m%1.sqlite").arg(i)).toStdString();
      std::ofstream(path, std::ios::binary) << mutant;
      std::string what;
      QVERIFY2(acceptedOrRefused(
                   [&] {
                     explore::ResultStore store(path, explore::ResultStore::Access::ReadOnly);
                     store.searches();
                   },
                   counts, what),
               qPrintable(QString::fromStdString(what)));
      QVERIFY2(readFile(path) == mutant, "a read-only open changed the file");
    }
    counts.report("result stores");
  }
};

QTEST_GUILESS_MAIN(TestInputFuzz)
#include "tst_input_fuzz.moc"
