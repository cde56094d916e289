// allPairs, SkelCL's allpairs skeleton as a function of the language's prelude: allPairs(f)(X, Y)
// and its zip-reduce form allPairs(r, z)(X, Y) parse to the nest of two maps written out by hand
// (matmul.lift's), print back by name and round-trip, compute f(row i of X, row j of Y) (the
// interpreter on the two rows as the oracle), show as a cluster in the program graph, and are
// refused with a position where misused.
#include <QtTest/QtTest>

#include <fmt/format.h>

#include "core/interp/Compare.h"
#include "core/interp/Interpreter.h"
#include "core/interp/RandomInputs.h"
#include "core/ir/Prelude.h"
#include "core/ir/ProgramGraph.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

using namespace lift;
using namespace lift::ir;

namespace {

const std::string kHeader =
    "size M, N, K;\n"
    "userfun mult(float x, float y) -> float { return x * y; }\n"
    "userfun add(float acc, float x) -> float { return acc + x; }\n"
    "userfun sqdiff(float x, float y) -> float { return (x - y) * (x - y); }\n"
    "userfun neg(float x) -> float { return -x; }\n";
// A: M rows, B: N rows, both of K elements.
const std::string kRows = "fun f(A: [[float]K]M, B: [[float]K]N) =\n  ";
// Two vectors, whose "rows" are scalars.
const std::string kVectors = "fun f(x: [float]M, y: [float]N) =\n  ";

Program parse(const std::string& text) { return lang::parseProgram(text, "t.lift"); }

std::string readExample(const char* name) {
  QFile f(QString(LIFT_SOURCE_DIR "/resources/examples/") + name);
  return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

bool same(const Program& a, const Program& b) { return alphaEqual(Fun(a.main), Fun(b.main)); }

// Prints p, parses the text again and checks that it is the same program and prints the same.
std::string roundTrip(const Program& p) {
  std::string printed = lang::printProgram(p);
  Program q;
  try {
    q = lang::parseProgram(printed, "printed.lift");
  } catch (const LiftError& e) {
    QTest::qFail(
        qPrintable(QString::fromStdString(std::string("does not parse: ") + e.what() + "\n" + printed)),
        __FILE__, __LINE__);
    return printed;
  }
  if (!same(p, q))
    QTest::qFail(qPrintable(QString::fromStdString("not the same program:\n" + printed)), __FILE__, __LINE__);
  if (structuralHash(p) != structuralHash(q))
    QTest::qFail(qPrintable(QString::fromStdString("another hash:\n" + printed)), __FILE__, __LINE__);
  std::string again = lang::printProgram(q);
  if (again != printed)
    QTest::qFail(qPrintable(QString::fromStdString("printed differently:\n" + printed + "\n" + again)),
                 __FILE__, __LINE__);
  return printed;
}

// The program's expression, as printed (after "=\n  ").
std::string printedBody(const Program& p) {
  std::string s = lang::printProgram(p);
  size_t at = s.find(") =\n  ");
  return at == std::string::npos ? s : s.substr(at + 6);
}

// Parses `text` with one '@' marking where the error must be reported (the '@' is removed).
void expectError(std::string text, const std::string& part) {
  size_t at = text.find('@');
  QVERIFY2(at != std::string::npos, "no @ marker");
  text.erase(at, 1);
  auto [line, col] = lineColOf(text, at);
  try {
    parse(text);
    QFAIL(qPrintable(QString::fromStdString("no error for: " + text)));
  } catch (const LiftError& e) {
    const Diagnostic& d = e.diagnostic();
    QString msg = QString::fromStdString(d.format());
    QVERIFY2(d.message.find(part) != std::string::npos,
             qPrintable(msg + "\n  (expected: " + QString::fromStdString(part) + ")"));
    QVERIFY2(d.loc.line == line && d.loc.col == col,
             qPrintable(msg + QString("\n  (expected at %1:%2)").arg(line).arg(col)));
    QCOMPARE(d.loc.file, std::string("t.lift"));
  }
}

// The clusters from `c` up to the top, `c` first.
std::vector<int> clusterPath(const ProgramGraph& g, int c) {
  std::vector<int> out;
  for (; c >= 0; c = g.clusters[static_cast<size_t>(c)].parent) out.push_back(c);
  return out;
}

}  // namespace

class TestAllPairs : public QObject {
  Q_OBJECT
 private slots:
  // allPairs(f)(X, Y) is the nest of maps matmul.lift writes by hand: a lambda f's parameters
  // and body are used as they are, a user function is called with the two rows.
  void parsesToTheHandWrittenNest() {
    std::string matmul = readExample("matmul.lift");
    size_t body = matmul.find("  map(fun(rowA =>");
    QVERIFY(body != std::string::npos);
    Program byHand = lang::parseProgram(matmul, "matmul.lift");
    std::string head = matmul.substr(0, body);
    Program general = parse(head +
                            "  allPairs(fun((rowA, colB) => reduce(add, 0.0f) o map(mult) $ zip(rowA, "
                            "colB)))(A, transpose(B))\n");
    Program zipReduce = parse(head + "  allPairs(reduce(add, 0.0f), mult)(A, transpose(B))\n");
    QVERIFY(same(general, byHand));
    QVERIFY(same(zipReduce, byHand));
    QCOMPARE(structuralHash(general), structuralHash(byHand));
    QCOMPARE(structuralHash(zipReduce), structuralHash(byHand));
    // The lambda's own parameters, names included.
    auto m = matchAllPairs(*asCall(general.main->body()));
    QVERIFY(m);
    QCOMPARE(m->a()->name(), std::string("rowA"));
    QCOMPARE(m->b()->name(), std::string("colB"));
    QVERIFY(m->reduction && m->zipFun);
    QCOMPARE(m->label(), std::string("allPairs(reduce(add, 0.0f), mult)"));
    // The same types as the hand-written nest.
    QCOMPARE(typeCheck(general).signature(), typeCheck(byHand).signature());
    QCOMPARE(typeCheck(zipReduce).signature(), typeCheck(byHand).signature());

    // A user function of two scalars on two vectors: the outer product.
    QVERIFY(same(parse(kHeader + kVectors + "allPairs(mult)(x, y)"),
                 parse(kHeader + kVectors + "map(fun(a => map(fun(b => mult(a, b))) $ y)) $ x")));
    // Inside a chain, and with computed arrays.
    QVERIFY(
        same(parse(kHeader + kRows + "join $ allPairs(reduce(add, 0.0f), sqdiff)(map(map(neg)) $ A, B)"),
             parse(kHeader + kRows +
                   "join o map(fun(a => map(fun(b => reduce(add, 0.0f) o map(sqdiff) $ zip(a, b))) $ B)) o "
                   "map(map(neg)) $ A")));
    QVERIFY(same(parse(kHeader + kRows + "allPairs(fun((a, b) => zip(a, b)))(A, B) |> join"),
                 parse(kHeader + kRows + "join o map(fun(a => map(fun(b => zip(a, b))) $ B)) $ A")));
    // Every node of the expansion has a position: allPairs's, or where it is written.
    Program p = parse(kHeader + kRows + "allPairs(reduce(add, 0.0f), sqdiff)(A, B)");
    int located = 0, missing = 0;
    visitPreOrder(Fun(p.main), [&](const NodePath& np) {
      SourceLoc l = p.locationOf(np.back().node.id());
      if (!l.known()) ++missing;
      if (l.line == 7 && l.col == 3) ++located;  // "allPairs" on the program's line
      return true;
    });
    QCOMPARE(missing, 0);
    QVERIFY(located >= 6);  // two maps, their calls and lambdas
  }

  // The printer writes the nest by name: the zip-reduce form where the body is one, a user
  // function by its name, else the lambda of the two rows; and each round-trips.
  void printsByName() {
    Program matmul = lang::parseProgram(readExample("matmul.lift"), "matmul.lift");
    QCOMPARE(QString::fromStdString(printedBody(matmul)),
             QString("allPairs(reduce(add, 0.0f), mult)(A, transpose(B))\n"));
    roundTrip(matmul);
    struct Case {
      std::string inputs, text;
      std::string printed = {};  // when it is not `text`
    };
    const std::vector<Case> cases = {
        {kRows, "allPairs(reduce(add, 0.0f), sqdiff)(A, B)"},
        {kVectors, "allPairs(mult)(x, y)"},
        // b and a swapped in the zip: no zip-reduce form
        {kRows, "allPairs(fun((a, b) => reduce(add, 0.0f) o map(sqdiff) $ zip(b, a)))(A, B)",
         "allPairs(fun((a, b) =>\n    reduce(add, 0.0f) o map(sqdiff) $ zip(b, a)\n  ))(A, B)"},
        {kRows, "allPairs(fun((a, b) => join $ allPairs(mult)(a, b)))(A, B)"},
        {kRows, "join $ allPairs(fun((a, b) => map(neg) $ a))(A, B)"},
        {kRows, "allPairs(reduceSeq(add, 0.0f), mult)(map(map(neg)) $ A, B)"},
        // typed parameters: the lambda keeps them
        {kRows,
         "allPairs(fun((a: [float]K, b: [float]K) => reduce(add, 0.0f) o map(mult) $ zip(a, b)))(A, B)",
         "allPairs(fun((a: [float]K, b: [float]K) =>\n    reduce(add, 0.0f) o map(mult) $ zip(a, b)\n  ))(A, "
         "B)"},
        // a user function whose parameters are swapped
        {kVectors, "allPairs(fun((a, b) => mult(b, a)))(x, y)"},
        // the second array is the outer lambda's own parameter a, which the rows' a shadows
        {"fun f(A: [[float]K]M) =\n  ", "map(fun(a => allPairs(fun((a_1, b) => add(b, a_1)))(a, a))) $ A",
         "map(fun(a =>\n    allPairs(fun((a_1, b) => add(b, a_1)))(a, a)\n  )) $ A"},
        // a lambda made for a composition keeps the name allPairs in its body
        {"fun f(A: [[float]K]M) =\n  ", "map(fun(r => join $ allPairs(mult)(r, r))) $ A"},
    };
    for (const Case& c : cases) {
      Program p = parse(kHeader + c.inputs + c.text);
      QCOMPARE(QString::fromStdString(printedBody(p)),
               QString::fromStdString((c.printed.empty() ? c.text : c.printed) + "\n"));
      roundTrip(p);
      if (QTest::currentTestFailed()) QFAIL(c.text.c_str());
    }
    // A long row function opens a block, as a lambda does.
    std::string longer = roundTrip(parse(kHeader + kRows +
                                         "allPairs(fun((rowOfA, rowOfB) => map(neg) o reduce(add, 0.0f) o "
                                         "map(sqdiff) $ zip(rowOfB, rowOfA)))(A, B)"));
    QVERIFY2(longer.find("  allPairs(fun((rowOfA, rowOfB) =>\n"
                         "    map(neg) o reduce(add, 0.0f) o map(sqdiff) $ zip(rowOfB, rowOfA)\n"
                         "  ))(A, B)\n") != std::string::npos,
             longer.c_str());
    // Nests that only look alike stay as written: the second array depends on the row, the maps
    // are OpenCL maps, the inner function is no lambda.
    for (const char* text : {"map(fun(a => map(fun(b => add(b, 1.0f))) $ a)) $ A",
                             "mapGlb1(fun(a => mapGlb0(fun(b => reduceSeq(add, 0.0f) $ b)) $ B)) $ A",
                             "map(fun(a => map(neg) $ head(B))) $ A"}) {
      Program p = parse(kHeader + kRows + text);
      std::string printed = roundTrip(p);
      QVERIFY2(printed.find("allPairs") == std::string::npos, printed.c_str());
    }
  }

  // Every bundled example and the new ones round-trip; the two that use allPairs by name print
  // as their files write them.
  void examplesPrintAsWritten() {
    for (const char* name : {"manhattan.lift", "cosine_similarity.lift"}) {
      std::string text = readExample(name);
      QVERIFY2(!text.empty(), name);
      Program p = lang::parseProgram(text, name);
      std::string printed = roundTrip(p);
      size_t program = text.find("\nfun ");
      QVERIFY(program != std::string::npos);
      QVERIFY2(printed.find(text.substr(program + 1)) != std::string::npos, printed.c_str());
    }
  }

  // allPairs(f)(X, Y)[i][j] is f(X[i], Y[j]): the interpreter on the whole program against the
  // interpreter on the program of the row function alone, at sizes where X and Y differ.
  void computesEveryPair_data() {
    QTest::addColumn<QString>("rows");
    QTest::addColumn<QString>("rowFunction");
    QTest::newRow("zip-reduce") << "allPairs(reduce(add, 0.0f), sqdiff)(A, B)"
                                << "reduce(add, 0.0f) o map(sqdiff) $ zip(a, b)";
    QTest::newRow("general")
        << "allPairs(fun((a, b) => map(fun(p => add(get(0, p), get(1, p)))) $ zip(b, a)))(A, B)"
        << "map(fun(p => add(get(0, p), get(1, p)))) $ zip(b, a)";
    QTest::newRow("nested") << "allPairs(fun((a, b) => join $ allPairs(mult)(a, b)))(A, B)"
                            << "join $ allPairs(mult)(a, b)";
    QTest::newRow("asymmetric")
        << "allPairs(fun((a, b) => map(neg) o reduce(add, 0.0f) $ zip(a, b) |> map(fun(p "
           "=> sqdiff(get(0, p), get(1, p))))))(A, B)"
        << "map(neg) o reduce(add, 0.0f) $ zip(a, b) |> map(fun(p => sqdiff(get(0, p), "
           "get(1, p))))";
  }
  void computesEveryPair() {
    QFETCH(QString, rows);
    QFETCH(QString, rowFunction);
    Program p = parse(kHeader + kRows + rows.toStdString());
    Program f = parse(kHeader + "fun g(a: [float]K, b: [float]K) =\n  " + rowFunction.toStdString());
    uint64_t seed = 5;
    for (const arith::Env& sizes : std::vector<arith::Env>{{{"M", 3}, {"N", 7}, {"K", 5}},
                                                           {{"M", 7}, {"N", 3}, {"K", 5}},
                                                           {{"M", 1}, {"N", 4}, {"K", 1}},
                                                           {{"M", 6}, {"N", 1}, {"K", 9}}}) {
      std::vector<interp::Value> in = interp::randomInputs(p, sizes, seed++);
      interp::Value c = interp::interpret(p, in, sizes);
      QCOMPARE(c.size(), static_cast<size_t>(sizes.at("M")));
      for (size_t i = 0; i < c.size(); ++i) {
        QCOMPARE(c.at(i).size(), static_cast<size_t>(sizes.at("N")));
        for (size_t j = 0; j < c.at(i).size(); ++j) {
          interp::Value expected = interp::interpret(f, {in[0].at(i), in[1].at(j)}, sizes);
          interp::Comparison cmp = interp::approxEqual(c.at(i).at(j), expected, 0, 0);
          QVERIFY2(cmp, qPrintable(QString::fromStdString(fmt::format("M={} N={} K={} at ({}, {}): {}",
                                                                      sizes.at("M"), sizes.at("N"),
                                                                      sizes.at("K"), i, j, cmp.report()))));
        }
      }
    }
  }

  // The graph shows allPairs as a cluster of its name around the maps, lambdas and calls it
  // stands for; its two arrays are outside.
  void showsAsAClusterInTheGraph() {
    Program matmul = lang::parseProgram(readExample("matmul.lift"), "matmul.lift");
    ProgramGraph g = buildProgramGraph(matmul);
    QVERIFY(!g.clusters.empty());
    QCOMPARE(g.clusters[0].label, std::string("allPairs(reduce(add, 0.0f), mult)"));
    QCOMPARE(g.clusters[0].parent, -1);
    QCOMPARE(g.clusters[0].irId, matmul.main->body()->id());
    // The result is the outer map, in the cluster; the zip, the user functions and the rows'
    // parameters are inside it (nested), A, B and transpose(B) outside.
    QCOMPARE(g.nodes[static_cast<size_t>(g.result)].cluster, 0);
    std::map<std::string, int> inside, outside;
    for (const ProgramGraph::Node& n : g.nodes) {
      auto path = clusterPath(g, n.cluster);
      bool in = !path.empty() && path.back() == 0;
      ++(in ? inside : outside)[n.label];
    }
    QCOMPARE(outside, (std::map<std::string, int>{{"A", 1}, {"B", 1}, {"transpose", 1}}));
    for (const char* label : {"map", "zip", "rowA", "colB"}) QVERIFY2(inside.count(label), label);
    QCOMPARE(inside["map"], 2);  // the two maps of the nest (map(mult) shows as "map mult")
    // transpose(B) feeds the inner map, whose node is inside the cluster.
    int transposeNode = -1;
    for (size_t i = 0; i < g.nodes.size(); ++i)
      if (g.nodes[i].label == "transpose") transposeNode = static_cast<int>(i);
    bool feedsInside = false;
    for (const ProgramGraph::Edge& e : g.edges)
      if (e.from == transposeNode)
        feedsInside = clusterPath(g, g.nodes[static_cast<size_t>(e.to)].cluster).size() > 1;
    QVERIFY(feedsInside);
    // The general form's label names the rows; a nest that is no allPairs has no such cluster.
    ProgramGraph h = buildProgramGraph(parse(kHeader + kRows + "allPairs(fun((a, b) => zip(a, b)))(A, B)"));
    QCOMPARE(h.clusters[0].label, std::string("allPairs(λ a, b)"));
    ProgramGraph k =
        buildProgramGraph(parse(kHeader + kRows + "map(fun(a => map(fun(b => add(b, 1.0f))) $ a)) $ A"));
    for (auto& c : k.clusters) QVERIFY2(c.label.rfind("allPairs", 0) != 0, c.label.c_str());
    // The DOT export has it too.
    QVERIFY(toDot(g).find("allPairs(reduce(add, 0.0f), mult)") != std::string::npos);
  }

  void errorsSayHowToWriteIt() {
    const std::string at = kHeader + kRows;
    expectError(at + "@allPairs(mult)(A)",
                "allPairs(...) takes two arrays, as in allPairs(f)(A, B), but is given 1");
    expectError(at + "@allPairs(mult)(A, B, A)", "takes two arrays, as in allPairs(f)(A, B), but is given 3");
    expectError(at + "@allPairs(reduce(add, 0.0f), mult) $ A", "is applied to its two arrays at once");
    expectError(at + "map(@allPairs(mult)) $ A", "is applied to its two arrays at once");
    expectError(at + "@allPairs $ A", "expected '(' after allPairs");
    expectError(at + "allPairs(@fun(a => a))(A, B)",
                "the function of allPairs takes two parameters, a row of each input, but this one takes 1");
    expectError(at + "allPairs(@fun((a, b, c) => a))(A, B)", "but this one takes 3");
    expectError(at + "allPairs(@neg)(A, B)", "but this one takes 1");
    expectError(at + "allPairs(@map(neg))(A, B)", "but this one takes 1");
    expectError(at + "allPairs(@A)(A, B)", "allPairs takes functions, not values");
    expectError(at + "allPairs(reduce(add, 0.0f), mult@, add)(A, B)",
                "allPairs takes one function, or a reduction and a function");
    expectError(at + "map(fun(@allPairs => allPairs)) $ A", "reserved name");
    // The row function's parameters are not in scope in the arrays.
    expectError(at + "allPairs(fun((a, b) => zip(a, b)))(A, @a)", "unknown name 'a'");
    // Types are checked on the expansion, at its position.
    try {
      typeCheck(parse(kHeader +
                      "fun f(A: [[float]K]M, B: [[float]N]M) =\n  allPairs(reduce(add, 0.0f), mult)(A, B)"));
      QFAIL("rows of different lengths type-check");
    } catch (const LiftError& e) {
      QVERIFY2(e.diagnostic().loc.line == 7, e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestAllPairs)
#include "tst_all_pairs.moc"
