// Robustness of the front end: thousands of random mutations (byte flips, truncations, token
// insertions and deletions, duplicated and swapped fragments) of every example program. Each
// mutant must either be rejected with a LiftError or be accepted; an accepted one must also
// type-check or be rejected cleanly, and print to text that parses back to the same program.
// A crash, a hang or any other exception fails the test. Deterministic (fixed seeds).
#include <QtTest/QtTest>

#include <QDirIterator>
#include <chrono>
#include <random>

#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

using namespace lift;

namespace {

// Per program; LIFT_FUZZ_MUTANTS overrides it for longer local runs.
int mutantsPerProgram() {
  bool ok = false;
  int n = qEnvironmentVariableIntValue("LIFT_FUZZ_MUTANTS", &ok);
  return ok && n > 0 ? n : 300;
}

// Built-in programs, so the test is meaningful even without example files.
const char* const kBuiltIn[] = {
    R"(size N = 1024;
userfun add(float acc, float x) -> float { return acc + x; }
userfun mult(float x, float y) -> float { return x * y; }
fun dot(x: [float]N, y: [float]N) = reduce(add, 0.0f) o map(mult) $ zip(x, y)
)",
    R"(size N, M;
userfun neg(float a) -> float { return -a; }
fun f(A: [[float]M]4*N) =
  A |> map(fun((r: [float]M) => r |> mapSeq(neg))) |> split(4) |> mapWrg0(mapLcl0(toLocal(mapSeq(id)))) |> join
)",
};

// Fragments inserted at random: tokens of the language and a few troublemakers.
const char* const kTokens[] = {"(",
                               ")",
                               "[",
                               "]",
                               "{",
                               "}",
                               ",",
                               ";",
                               ":",
                               "=",
                               "=>",
                               "->",
                               "$",
                               "|>",
                               ">>",
                               " o ",
                               "+",
                               "-",
                               "*",
                               "/",
                               "%",
                               "map",
                               "fun",
                               "fun(x => x)",
                               "zip",
                               "split(4)",
                               "join",
                               "reduce(add, 0.0f)",
                               "iterate(3, ",
                               "float",
                               "[float]N",
                               "N",
                               "0.0f",
                               "(float4)",
                               "99999999999999999999",
                               "1e999f",
                               "/*",
                               "*/",
                               "//",
                               "\n",
                               "#",
                               "\"",
                               "'",
                               "\xff",
                               "get(7, ",
                               "asVector(3)",
                               "mapLcl0(",
                               "mapWrg0(mapWrg0(",
                               "size",
                               "userfun",
                               "@"};

std::vector<std::pair<std::string, std::string>> programs() {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto [dir, flags] :
       {std::pair{QString(LIFT_SOURCE_DIR "/resources/examples"), QDirIterator::Subdirectories},
        std::pair{QString(LIFT_SOURCE_DIR "/tests/data"), QDirIterator::NoIteratorFlags}}) {
    QDirIterator it(dir, {"*.lift"}, QDir::Files, flags);
    while (it.hasNext()) {
      QString path = it.next();
      QFile f(path);
      if (f.open(QIODevice::ReadOnly)) out.emplace_back(path.toStdString(), f.readAll().toStdString());
    }
  }
  std::sort(out.begin(), out.end());
  for (size_t i = 0; i < std::size(kBuiltIn); ++i)
    out.emplace_back("builtin" + std::to_string(i), kBuiltIn[i]);
  return out;
}

class Mutator {
 public:
  explicit Mutator(uint32_t seed) : rng_(seed) {}

  std::string mutate(std::string s) {
    int rounds = 1 + pick(3);
    for (int r = 0; r < rounds; ++r) s = once(std::move(s));
    return s;
  }

 private:
  size_t pick(size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  // The extent of the token-ish run at `pos`: an identifier/number or one other character.
  std::pair<size_t, size_t> tokenAt(const std::string& s, size_t pos) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; };
    size_t b = pos, e = pos + 1;
    if (word(s[pos])) {
      while (b > 0 && word(s[b - 1])) --b;
      while (e < s.size() && word(s[e])) ++e;
    }
    return {b, e};
  }

  std::string once(std::string s) {
    if (s.empty()) return kTokens[pick(std::size(kTokens))];
    size_t pos = pick(s.size());
    switch (pick(7)) {
      case 0:  // flip a byte
        s[pos] = static_cast<char>(pick(256));
        break;
      case 1:  // truncate
        s.resize(pos);
        break;
      case 2:  // insert a token
        s.insert(pos, kTokens[pick(std::size(kTokens))]);
        break;
      case 3: {  // delete a token
        auto [b, e] = tokenAt(s, pos);
        s.erase(b, e - b);
        break;
      }
      case 4: {  // delete a range
        s.erase(pos, 1 + pick(std::min<size_t>(40, s.size() - pos)));
        break;
      }
      case 5: {  // duplicate a fragment somewhere else
        size_t len = 1 + pick(std::min<size_t>(60, s.size() - pos));
        std::string frag = s.substr(pos, len);
        s.insert(pick(s.size() + 1), frag);
        break;
      }
      case 6: {  // replace a token by another one of the program
        auto [b, e] = tokenAt(s, pos);
        auto [b2, e2] = tokenAt(s, pick(s.size()));
        std::string other = s.substr(b2, e2 - b2);
        s.replace(b, e - b, other);
        break;
      }
    }
    return s;
  }

  std::mt19937 rng_;
};

}  // namespace

class TestParserFuzz : public QObject {
  Q_OBJECT
 private slots:
  void mutantsNeverCrash() {
    auto progs = programs();
    const int kMutantsPerProgram = mutantsPerProgram();
    QVERIFY(!progs.empty());
    int accepted = 0, typed = 0, rejected = 0;
    auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < progs.size(); ++i) {
      const auto& [name, text] = progs[i];
      Mutator m(static_cast<uint32_t>(1000 + i));
      for (int k = 0; k < kMutantsPerProgram; ++k) {
        std::string mutant = m.mutate(text);
        try {
          ir::Program p = lang::parseProgram(mutant, "mutant.lift");
          ++accepted;
          // An accepted program prints to text that parses back to the same program.
          std::string printed = lang::printProgram(p);
          ir::Program q = lang::parseProgram(printed, "printed.lift");
          if (!ir::alphaEqual(ir::Fun(p.main), ir::Fun(q.main)) || lang::printProgram(q) != printed)
            QFAIL(qPrintable(QString::fromStdString("round trip differs for a mutant of " + name + ":\n" +
                                                    mutant + "\n-- printed --\n" + printed)));
          ir::typeCheck(p);
          ++typed;
        } catch (const LiftError& e) {
          ++rejected;
          // Every diagnostic says where.
          if (e.diagnostic().message.empty())
            QFAIL(
                qPrintable(QString::fromStdString("empty message for a mutant of " + name + ":\n" + mutant)));
        } catch (const std::exception& e) {
          QFAIL(qPrintable(QString::fromStdString(std::string("unexpected exception ") + e.what() +
                                                  " for a mutant of " + name + ":\n" + mutant)));
        }
      }
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    qInfo("%zu programs, %d mutants: %d accepted (%d well typed), %d rejected, %.2f s", progs.size(),
          static_cast<int>(progs.size()) * kMutantsPerProgram, accepted, typed, rejected, seconds);
    QVERIFY(rejected > 0);
  }
};

QTEST_APPLESS_MAIN(TestParserFuzz)
#include "tst_parser_fuzz.moc"
