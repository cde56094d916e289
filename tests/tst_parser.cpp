// The parser and the printer: round trips (print then parse gives an alphaEqual program),
// idempotent printing, equivalent spellings, source locations, and error messages with their
// positions.
#include <QtTest/QtTest>

#include <QDirIterator>

#include "core/ir/Build.h"
#include "core/ir/ProgramGraph.h"
#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

using namespace lift;
using namespace lift::ir;

namespace {

std::string readFile(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll().toStdString();
}

// The test programs: tests/data/*.lift and resources/examples/**/*.lift.
std::vector<std::pair<std::string, std::string>> corpus() {
  std::vector<std::pair<std::string, std::string>> out;
  // Only the top level of tests/data: its subfolders hold other tests' programs.
  for (auto [dir, flags] :
       {std::pair{QString(LIFT_SOURCE_DIR "/tests/data"), QDirIterator::NoIteratorFlags},
        std::pair{QString(LIFT_SOURCE_DIR "/resources/examples"), QDirIterator::Subdirectories}}) {
    QDirIterator it(dir, {"*.lift"}, QDir::Files, flags);
    while (it.hasNext()) {
      QString path = it.next();
      out.emplace_back(path.toStdString(), readFile(path));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Program parse(const std::string& text) { return lang::parseProgram(text, "t.lift"); }

const std::string kPrelude =
    "size N, M;\n"
    "userfun add(float a, float b) -> float { return a + b; }\n"
    "userfun neg(float a) -> float { return -a; }\n";

Expr bodyOf(const std::string& fun) { return parse(kPrelude + fun).main->body(); }
Fun mainOf(const std::string& fun) { return parse(kPrelude + fun).main; }

// Parses `text` with one '@' marking where the error must be reported (the '@' is removed).
void expectError(std::string text, const std::string& part) {
  size_t at = text.find('@');
  QVERIFY2(at != std::string::npos, "no @ marker");
  text.erase(at, 1);
  auto [line, col] = lineColOf(text, at);
  try {
    parse(text);
    QFAIL(qPrintable("no error for: " + QString::fromStdString(text)));
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

}  // namespace

class TestParser : public QObject {
  Q_OBJECT
 private slots:
  void corpusIsNotEmpty() { QVERIFY(corpus().size() >= 5); }

  void roundTripsAndIdempotence() {
    for (auto& [path, text] : corpus()) {
      Program p1 = lang::parseProgram(text, path);
      std::string s1 = lang::printProgram(p1);
      Program p2;
      try {
        p2 = lang::parseProgram(s1, "printed.lift");
      } catch (const LiftError& e) {
        QFAIL(qPrintable(
            QString::fromStdString(path + ": printed text does not parse:\n" + e.what() + "\n" + s1)));
      }
      QVERIFY2(alphaEqual(Fun(p1.main), Fun(p2.main)), qPrintable(QString::fromStdString(path + "\n" + s1)));
      QCOMPARE(structuralHash(p1), structuralHash(p2));
      std::string s2 = lang::printProgram(p2);
      QCOMPARE(QString::fromStdString(s2), QString::fromStdString(s1));
      // Same types before and after (every program of the corpus is well typed).
      try {
        QCOMPARE(QString::fromStdString(typeCheck(p2).signature()),
                 QString::fromStdString(typeCheck(p1).signature()));
      } catch (const LiftError& e) {
        QFAIL(qPrintable(QString::fromStdString(path + ": " + e.what())));
      }
    }
  }

  void canonicalLayout() {
    std::string text = readFile(LIFT_SOURCE_DIR "/tests/data/matmul.lift");
    std::string printed = lang::printProgram(parse(text));
    const QString head =
        "size M = 1024, N = 1024, K = 1024;\n"
        "\n"
        "userfun mult(float x, float y) -> float { return x * y; }\n"
        "userfun add(float acc, float x) -> float { return acc + x; }\n"
        "\n"
        "fun matmul(A: [[float]K]M, B: [[float]N]K) =\n";
    // The nest of maps is allPairs's (tests/tst_all_pairs.cpp).
    QCOMPARE(QString::fromStdString(printed),
             head + "  allPairs(reduce(add, 0.0f), mult)(A, transpose(B))\n");
    // Lambdas with long bodies open blocks.
    text = text.substr(0, text.find("fun matmul")) +
           "fun matmul(A: [[float]K]M, B: [[float]N]K) = mapGlb1(fun(rowA => mapGlb0(fun(colB => "
           "reduceSeq(add, 0.0f) o map(mult) $ zip(rowA, colB))) $ transpose(B))) $ A";
    QCOMPARE(QString::fromStdString(lang::printProgram(parse(text))),
             head +
                 "  mapGlb1(fun(rowA =>\n"
                 "    mapGlb0(fun(colB =>\n"
                 "      reduceSeq(add, 0.0f) o map(mult) $ zip(rowA, colB)\n"
                 "    )) $ transpose(B)\n"
                 "  )) $ A\n");
    for (auto& [path, t] : corpus()) {
      for (auto& line : QString::fromStdString(lang::printProgram(lang::parseProgram(t, path))).split('\n')) {
        QVERIFY2(!line.endsWith(' '), qPrintable(line));
        if (!line.startsWith("userfun")) QVERIFY2(line.size() <= 100, qPrintable(line));
      }
    }
  }

  void printedBuilderProgramsParseBack() {
    // Programs made in C++ (as rewrites make them) print to text that parses to the same IR,
    // also with clashing parameter names and lambdas applied directly.
    arith::Expr N = arith::sizeVar("N");
    Param x = param("x", Type::array(Type::array(Type::float_(), N), N));
    Fun inner = lambda("x", [](Expr y) { return call(compose(join(), map(id())), {y}); });
    Expr body =
        call(map(lambda("x", [&](Expr y) { return call(inner, {y}); })), {call(map(map(id())), {Expr(x)})});
    Program p = program("clash", {x}, body);
    std::string s = lang::printProgram(p);
    Program q = lang::parseProgram(s, "printed.lift");
    QVERIFY2(alphaEqual(Fun(p.main), Fun(q.main)), s.c_str());
    QCOMPARE(lang::printProgram(q), s);
  }

  void equivalentSpellings() {
    auto same = [](const std::string& a, const std::string& b) {
      bool eq = alphaEqual(mainOf(a), mainOf(b));
      if (!eq) qWarning("%s\n  vs\n%s", a.c_str(), b.c_str());
      return eq;
    };
    const std::string x1 = "fun f(x: [[float]4]N) = ";
    QVERIFY(same(x1 + "map(neg) o join $ x", x1 + "x |> join |> map(neg)"));
    QVERIFY(same(x1 + "map(neg) o join $ x", x1 + "x >> join >> map(neg)"));
    QVERIFY(same(x1 + "map(neg) o join $ x", x1 + "map(neg)(join(x))"));
    QVERIFY(same(x1 + "map(neg) o join $ x", x1 + "map(neg) $ join $ x"));
    QVERIFY(same(x1 + "map(neg) o join $ x", x1 + "(map(neg) o join)(x)"));
    QVERIFY(same(x1 + "map(neg) o join $ x", x1 + "/* comment */ map(neg) o // more\n join $ x"));
    QVERIFY(same(x1 + "reduce(add, 0.0f) o join $ x", x1 + "reduce(0.0f, add) o join $ x"));
    QVERIFY(same(x1 + "reduce(add, 0.0f) o join $ x", x1 + "reduce(add, 0.0f, join(x))"));
    QVERIFY(same(x1 + "split128 o join $ x", x1 + "split(128) o join $ x"));
    QVERIFY(same(x1 + "mapGlb(neg) o join $ x", x1 + "mapGlb0(neg) o join $ x"));
    QVERIFY(same(x1 + "asVector4 o join $ x", x1 + "asVector(4) o join $ x"));
    QVERIFY(same(x1 + "iterate2(map(neg)) o join $ x", x1 + "iterate(2, map(neg)) o join $ x"));
    QVERIFY(
        same(x1 + "map(fun(r => get(0) $ tuple(r, r))) $ x", x1 + "map(fun(r => get(0, tuple(r, r)))) $ x"));
    QVERIFY(same(x1 + "map(map(neg) o id) $ x", x1 + "map(fun(r => map(neg)(id(r)))) $ x"));
    QVERIFY(!same(x1 + "map(map(neg)) $ x", x1 + "map(fun(r => map(neg) $ r)) $ x"));
  }

  // The prelude's slide2D and pad2D are their compositions of 1-D patterns, print back by name
  // and show in the graph as a cluster of that name around those patterns.
  void prelude2D() {
    auto same = [](const std::string& a, const std::string& b) { return alphaEqual(mainOf(a), mainOf(b)); };
    const std::string m = "fun f(x: [[float]N]M) = ";
    QVERIFY(same(m + "slide2D(3, 1) $ x", m + "map(transpose) o slide(3, 1) o map(slide(3, 1)) $ x"));
    QVERIFY(same(m + "slide2D(3, 1, 5, 2) $ x", m + "map(transpose) o slide(3, 1) o map(slide(5, 2)) $ x"));
    QVERIFY(same(m + "pad2D(1, 2, clamp) $ x", m + "map(pad(1, 2, clamp)) o pad(1, 2, clamp) $ x"));
    QVERIFY(same(m + "pad2D(1, 2, 3, 4, wrap) $ x", m + "map(pad(3, 4, wrap)) o pad(1, 2, wrap) $ x"));
    QVERIFY(same(m + "pad2D(1, 2, 0, N, -1.5f) $ x",
                 m + "transpose o map(pad(1, 2, -1.5f)) o transpose o map(pad(0, N, -1.5f)) $ x"));
    QVERIFY(same(m + "x |> pad2D(1, 1, 0.0f) |> slide2D(3, 1)", m + "slide2D(3, 1) o pad2D(1, 1, 0.0f) $ x"));
    for (const char* text :
         {"slide2D(3, 1) o pad2D(1, 1, clamp) $ x", "slide2D(3, 1, 5, 2) o pad2D(1, 2, 3, 4, mirror) $ x",
          "map(slide2D(2, 1)) o pad2D(1, 2, 0, 1, 0.5f) $ x", "pad2D(1, 1, true) $ x"}) {
      std::string program = text == std::string("pad2D(1, 1, true) $ x") ? "fun f(x: [[bool]N]M) = " : m;
      std::string printed = lang::printProgram(parse(kPrelude + program + text));
      QVERIFY2(printed.find(text) != std::string::npos, printed.c_str());
    }
    // A composition that only looks alike stays as written.
    std::string printed =
        lang::printProgram(parse(kPrelude + m + "map(transpose) o slide(3, 1) o map(slide(2, 1) o id) $ x"));
    QVERIFY2(printed.find("slide2D") == std::string::npos, printed.c_str());
    ir::ProgramGraph g =
        ir::buildProgramGraph(parse(kPrelude + m + "slide2D(3, 1) o pad2D(1, 1, clamp) $ x"));
    std::vector<std::string> clusters;
    for (auto& c : g.clusters) clusters.push_back(c.label);
    QCOMPARE(clusters, (std::vector<std::string>{"slide2D(3, 1)", "pad2D(1, 1, clamp)"}));
    QCOMPARE(g.nodes.size(), size_t(6));  // x, pad, map(pad), map(slide), slide, map(transpose)
    QCOMPARE(g.nodes[g.result].label, std::string("map(transpose)"));
    QCOMPARE(g.nodes[g.result].cluster, 0);
    expectError(kPrelude + m + "@slide2D(3) $ x", "slide2D takes a size and a step");
    expectError(kPrelude + m + "@slide2D(3, 1, 2) $ x", "slide2D takes a size and a step");
    expectError(kPrelude + m + "@pad2D(1, 1) $ x", "pad2D takes the left and right padding and the mode");
    expectError(kPrelude + m + "pad2D(1, 1, @x) $ x", "unknown size 'x'");
    expectError(kPrelude + m + "map(fun(@pad2D => pad2D)) $ x", "reserved name");
  }

  void everyNodeHasALocation() {
    for (auto& [path, text] : corpus()) {
      Program p = lang::parseProgram(text, path);
      int missing = 0;
      visitPreOrder(Fun(p.main), [&](const NodePath& np) {
        SourceLoc l = p.locationOf(np.back().node.id());
        if (!l.known() || l.file != path) ++missing;
        return true;
      });
      QVERIFY2(missing == 0, path.c_str());
    }
  }

  void locationsPointAtTheSource() {
    std::string text = kPrelude + "fun f(x: [float]4*N) =\n  map(neg) o split(4) $ x";
    Program p = parse(text);
    auto* mapCall = asCall(p.main->body());
    QVERIFY(mapCall);
    SourceLoc m = p.locationOf(mapCall->id());
    QCOMPARE(m.line, 5);
    QCOMPARE(m.col, 3);
    SourceLoc s = p.locationOf(mapCall->args()[0]->id());
    QCOMPARE(s.col, 14);  // split
    SourceLoc in = p.locationOf(p.main->params()[0]->id());
    QCOMPARE(in.line, 4);
    QCOMPARE(in.col, 7);
    QCOMPARE(p.name, std::string("f"));
    QCOMPARE(p.sizes.size(), size_t(2));
    QCOMPARE(p.userFuns.size(), size_t(2));
    QCOMPARE(p.userFuns[0]->bodyText, std::string(" return a + b; "));
    QVERIFY(p.userFuns[0]->body);
  }

  void sizeDefaults() {
    Program p = parse("size N = 16, M;\nfun f(x: [float]N, y: [float]M) = zip(x, x)");
    QCOMPARE(p.sizes[0].defaultValue, std::optional<int64_t>(16));
    QVERIFY(!p.sizes[1].defaultValue);
    QVERIFY(p.findSize("M"));
    QVERIFY(!p.findSize("K"));
  }

  void literals() {
    auto lit = [&](const std::string& e) {
      Expr b = bodyOf("fun f(x: [float]N) = map(fun(v => " + e + ")) $ x");
      return asLiteral(asLambda(asPattern(asCall(b)->fun())->f())->body());
    };
    QCOMPARE(lit("1.5f")->type(), Type::float_());
    QCOMPARE(lit("-2.0")->type(), Type::double_());
    QCOMPARE(lit("-2.0")->text(), std::string("-2.0"));
    QCOMPARE(lit("7")->type(), Type::int_());
    QCOMPARE(lit("true")->type(), Type::bool_());
    QCOMPARE(lit("(float4)0.5f")->type(), Type::vector(ScalarKind::Float, 4));
    QCOMPARE(lit("zeros([float]4)")->text(), std::string("0.0f"));
    QCOMPARE(lit("fill([[int]2]2, 3)")->type(),
             Type::array(Type::array(Type::int_(), arith::cst(2)), arith::cst(2)));
    QCOMPARE(lit("1e-3f")->text(), std::string("1e-3f"));
  }

  void syntaxErrors() {
    expectError(kPrelude + "fun f(x: [float]N) = @mpa(neg) $ x", "unknown name 'mpa'; did you mean 'map'?");
    expectError(kPrelude + "fun f(x: [@flaot]N) = x", "unknown type 'flaot'; did you mean 'float'?");
    expectError(kPrelude + "fun f(x: [float]@Q) = x", "unknown size 'Q'");
    expectError(kPrelude + "fun f(x: [float]@NN) = x", "did you mean 'N'?");
    expectError(kPrelude + "fun f(x: [float]N) = map(neg @x", "expected ')'");
    expectError(kPrelude + "fun f(x: [float]N) = map(neg) $@", "end of input");
    expectError(kPrelude + "fun f(x: [float]N) = @# x", "unexpected character '#'");
    expectError(kPrelude + "fun f(x: [float]N) = split(@99999999999999999999999) $ x", "too large");
    expectError(kPrelude + "fun f(x: [float]N) = map(fun(v => @3000000000)) $ x",
                "too large for an int literal");
    expectError(kPrelude + "fun f(x: [float]N) = map(fun(v => @1e99f)) $ x", "out of range");
    expectError(kPrelude + "@/* never closed\nfun f(x: [float]N) = x", "unterminated comment");
    expectError("userfun g(float a) -> float @{ return a;", "unterminated body");
    expectError(kPrelude + "fun f(x: [float]N) = split(N@/0) $ x", "division by zero");
    expectError(kPrelude + "fun f(x: [float]N) = @N", "'N' is a size");
    expectError(kPrelude + "fun f(x: [float]N) = map(@x) $ x", "must be a function");
    expectError(kPrelude + "fun f(x: [float]N) = @map(neg)", "must be a value");
    expectError(kPrelude + "fun f(x: [float]N) = @x $ x", "left side of '$' must be a function");
    expectError(kPrelude + "fun f(x: [float]N) = x |> @x", "right side of '|>' must be a function");
    expectError(kPrelude + "fun f(x: [float]N) = zip@", "zip needs its arguments");
    expectError(kPrelude + "fun f(x: [float]N) = @zip(x)", "zip needs at least two arguments");
    expectError(kPrelude + "fun f(x: [float]N) = reduce(@neg, add) $ x",
                "takes a function and an initial value");
    expectError(kPrelude + "fun f(x: [float]N) = gather(@reverze) $ x", "did you mean 'reverse'?");
    expectError(kPrelude + "fun f(x: [float]N) = pad(1, 1, @clmp) $ x", "expected the padding");
    expectError(kPrelude + "fun f(@map: [float]N) = x", "reserved name");
    expectError(kPrelude + "fun f(x: [float]N) = map(fun(@split2 => x)) $ x", "reserved name");
    expectError(kPrelude + "fun f(x: [float]N) = map(fun((a, @a) => a)) $ x", "parameter 'a' appears twice");
    expectError(kPrelude + "size @N;\nfun f(x: [float]N) = x", "size 'N' is declared twice");
    expectError(kPrelude + "userfun @add(float a) -> float { return a; }\nfun f(x: [float]N) = x",
                "defined twice");
    expectError(kPrelude + "fun f(x: [float]N) = x\n@fun g(x: [float]N) = x", "a second program function");
    expectError(kPrelude + "@", "no program");
    expectError(kPrelude + "@sise M;", "did you mean 'size'?");
    expectError("userfun g(@[float]4 a) -> float { return 1.0f; }", "not arrays");
    expectError(kPrelude + "fun f(x: [float]N) = map(fun(v => (float4)@1)) $ x", "a float literal is needed");
    expectError(kPrelude + "fun f(x: [float]@0) = x", "must be at least 1");
    expectError(kPrelude + "fun f(x: [float]N) = x@(x)", "a value cannot be called");
    expectError(kPrelude + "fun f(x: [float]N) = @o", "expected a function before 'o'");
    expectError(kPrelude + "fun f(x: [float]N) = map(neg) $ 12@abc", "after the number");
  }

  void errorsInUserFunctionBodiesPointIntoTheFile() {
    std::string text =
        "size N;\nuserfun g(float a) -> float {\n  return a + @bogus;\n}\nfun f(x: [float]N) = map(g) $ x";
    size_t at = text.find('@');
    text.erase(at, 1);
    try {
      parse(text);
      QFAIL("no error");
    } catch (const LiftError& e) {
      QCOMPARE(e.diagnostic().loc.line, 3);
      QCOMPARE(e.diagnostic().loc.col, 14);
      QVERIFY(e.diagnostic().message.find("bogus") != std::string::npos);
    }
  }

  void diagnosticsShowTheLineAndACaret() {
    try {
      parse("size N;\nfun f(x: [float]N) = mpa(x)\n");
      QFAIL("no error");
    } catch (const LiftError& e) {
      QCOMPARE(QString::fromStdString(e.diagnostic().format()),
               QString("t.lift:2:22: error: unknown name 'mpa'; did you mean 'map'?\n"
                       "  fun f(x: [float]N) = mpa(x)\n"
                       "                       ^"));
    }
  }

  void limitsAgainstHostileInput() {
    // Deep nesting: a located error, not a stack overflow.
    std::string deep =
        kPrelude + "fun f(x: [float]N) = " + std::string(5000, '(') + "x" + std::string(5000, ')');
    QVERIFY_THROWS_EXCEPTION(LiftError, parse(deep));
    std::string deepMaps = kPrelude + "fun f(x: [float]N) = ";
    for (int i = 0; i < 1000; ++i) deepMaps += "map(";
    QVERIFY_THROWS_EXCEPTION(LiftError, parse(deepMaps + "neg" + std::string(1000, ')') + " $ x"));
    // A long chain: parsed iteratively, then rejected for its depth.
    std::string chain = kPrelude + "fun f(x: [float]N) = ";
    for (int i = 0; i < 5000; ++i) chain += "id o ";
    try {
      parse(chain + "id $ x");
      QFAIL("no error");
    } catch (const LiftError& e) {
      QVERIFY(e.diagnostic().message.find("nested too deeply") != std::string::npos);
    }
    // Within the limits, a long chain is fine.
    std::string ok = kPrelude + "fun f(x: [float]N) = ";
    for (int i = 0; i < 300; ++i) ok += "id o ";
    QCOMPARE(typeCheck(parse(ok + "id $ x")).resultType, Type::array(Type::float_(), arith::sizeVar("N")));
    // A deep type.
    QVERIFY_THROWS_EXCEPTION(LiftError, parse("size N;\nfun f(x: " + std::string(1000, '[') + "float"));
  }

  void missingFile() {
    try {
      lang::parseFile("/nonexistent/dir/prog.lift");
      QFAIL("no error");
    } catch (const LiftError& e) {
      QVERIFY(e.diagnostic().message.find("/nonexistent/dir/prog.lift") != std::string::npos);
    }
  }

  void parseTypeApi() {
    std::vector<SizeDecl> sizes = {{"N", std::nullopt, arith::sizeVar("N"), {}}};
    QCOMPARE(
        lang::parseType("[(float, int4)]N", sizes),
        Type::array(Type::tuple({Type::float_(), Type::vector(ScalarKind::Int, 4)}), arith::sizeVar("N")));
    QVERIFY_THROWS_EXCEPTION(LiftError, lang::parseType("[float]M", sizes));
    QVERIFY_THROWS_EXCEPTION(LiftError, lang::parseType("float float", sizes));
    QVERIFY(lang::isReservedName("mapLcl2"));
    QVERIFY(lang::isReservedName("float4"));
    QVERIFY(!lang::isReservedName("mapLcl3x"));
    QVERIFY(!lang::isReservedName("rowA"));
  }
};

QTEST_APPLESS_MAIN(TestParser)
#include "tst_parser.moc"
