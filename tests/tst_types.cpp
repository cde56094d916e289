// Types: uniquing (equality is identity, also across threads), printing, sizes, parsing.
#include <QtTest/QtTest>

#include <thread>

#include "core/lang/Parser.h"
#include "core/types/Type.h"

using namespace lift;

namespace {

QString str(Type t) { return QString::fromStdString(t.toString()); }

// QCOMPARE cannot print arith::Expr (argument-dependent lookup finds arith::toString).
#define COMPARE_ARITH(a, b) \
  QVERIFY2((a) == (b), qPrintable(QString::fromStdString(arith::toString(a) + " != " + arith::toString(b))))

}  // namespace

class TestTypes : public QObject {
  Q_OBJECT
 private slots:
  void scalarsAndVectorsAreUniqued() {
    QCOMPARE(Type::float_(), Type::scalar(ScalarKind::Float));
    QVERIFY(Type::float_() != Type::int_());
    QCOMPARE(Type::vector(ScalarKind::Float, 4), Type::vector(ScalarKind::Float, 4));
    QVERIFY(Type::vector(ScalarKind::Float, 4) != Type::vector(ScalarKind::Float, 8));
    QVERIFY(Type::vector(ScalarKind::Float, 4) != Type::vector(ScalarKind::Int, 4));
  }

  void arraysAndTuplesAreUniqued() {
    arith::Expr N = arith::sizeVar("N"), M = arith::sizeVar("M");
    Type a = Type::array(Type::array(Type::float_(), N), M);
    Type b = Type::array(Type::array(Type::float_(), N), M);
    QCOMPARE(a, b);
    QVERIFY(a != Type::array(Type::array(Type::float_(), M), N));
    // Lengths are compared after simplification: N*2 and 2*N are the same expression.
    QCOMPARE(Type::array(Type::float_(), N * 2), Type::array(Type::float_(), arith::cst(2) * N));
    Type t1 = Type::tuple({Type::float_(), Type::int_()});
    QCOMPARE(t1, Type::tuple({Type::float_(), Type::int_()}));
    QVERIFY(t1 != Type::tuple({Type::int_(), Type::float_()}));
    QVERIFY(!Type());
  }

  void inspection() {
    arith::Expr N = arith::sizeVar("N");
    Type a = Type::array(Type::vector(ScalarKind::Float, 4), N);
    QVERIFY(a.isArray());
    COMPARE_ARITH(a.length(), N);
    QCOMPARE(a.elem().vectorWidth(), 4);
    QCOMPARE(a.elem().scalarKind(), ScalarKind::Float);
    QCOMPARE(a.innermost(), Type::vector(ScalarKind::Float, 4));
    Type t = Type::tuple({Type::float_(), Type::int_()});
    QCOMPARE(t.tupleElems().size(), size_t(2));
    QCOMPARE(t.tupleElems()[1], Type::int_());
  }

  void printing() {
    arith::Expr N = arith::sizeVar("N"), M = arith::sizeVar("M"), K = arith::sizeVar("K");
    QCOMPARE(str(Type::array(Type::array(Type::float_(), K), M)), QString("[[float]K]M"));
    QCOMPARE(str(Type::vector(ScalarKind::Float, 4)), QString("float4"));
    QCOMPARE(str(Type::tuple({Type::float_(), Type::array(Type::int_(), N)})), QString("(float, [int]N)"));
    QCOMPARE(str(Type::array(Type::float_(), N / 4)), QString("[float]N/4"));
    QCOMPARE(str(Type::array(Type::float_(), N * M)),
             QString::fromStdString("[float]" + arith::toString(N * M)));
    // Lengths with + or - are parenthesised so the text parses back.
    QCOMPARE(str(Type::array(Type::float_(), N + 2)),
             QString::fromStdString("[float](" + arith::toString(N + 2) + ")"));
    QCOMPARE(QString::fromStdString(Type::vector(ScalarKind::Int, 8).openclName()), QString("int8"));
  }

  void printedTypesParseBack() {
    arith::Expr N = arith::sizeVar("N"), M = arith::sizeVar("M");
    std::vector<ir::SizeDecl> sizes = {{"N", std::nullopt, N, {}}, {"M", std::nullopt, M, {}}};
    std::vector<Type> types = {
        Type::array(Type::array(Type::float_(), N), M),
        Type::array(Type::float_(), N + 2),
        Type::array(Type::float_(), (N - 3 + 1) / 1),
        Type::array(Type::float_(), N * M / 4),
        Type::tuple({Type::vector(ScalarKind::Double, 2), Type::array(Type::bool_(), M - 1)}),
        Type::array(Type::tuple({Type::float_(), Type::float_()}), N % 3 + 1),
    };
    for (Type t : types) QCOMPARE(lang::parseType(t.toString(), sizes), t);
  }

  void byteSizes() {
    arith::Expr N = arith::sizeVar("N");
    COMPARE_ARITH(Type::float_().byteSize(), arith::cst(4));
    COMPARE_ARITH(Type::double_().byteSize(), arith::cst(8));
    COMPARE_ARITH(Type::vector(ScalarKind::Float, 4).byteSize(), arith::cst(16));
    COMPARE_ARITH(Type::vector(ScalarKind::Float, 3).byteSize(),
                  arith::cst(16));  // OpenCL: float3 is float4-sized
    COMPARE_ARITH(Type::tuple({Type::float_(), Type::float_()}).byteSize(), arith::cst(8));
    COMPARE_ARITH(Type::tuple({Type::int_(), Type::double_()}).byteSize(),
                  arith::cst(16));  // padded like a C struct
    COMPARE_ARITH(Type::array(Type::array(Type::float_(), N), arith::cst(4)).byteSize(), N * 16);
    COMPARE_ARITH(Type::array(Type::vector(ScalarKind::Float, 4), N).scalarCount(), N * 4);
    COMPARE_ARITH(Type::tuple({Type::float_(), Type::vector(ScalarKind::Int, 2)}).scalarCount(),
                  arith::cst(3));
  }

  void uniquingIsThreadSafe() {
    // Many threads build the same types at once; all must get the same nodes.
    constexpr int kThreads = 8;
    std::vector<Type> results(kThreads);
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([&results, i] {
        Type t;
        for (int k = 1; k <= 200; ++k) {
          arith::Expr len = arith::cst(k);
          t = Type::array(Type::tuple({Type::float_(), Type::array(Type::int_(), len)}), len);
        }
        results[i] = t;
      });
    }
    for (auto& t : threads) t.join();
    for (int i = 1; i < kThreads; ++i) QCOMPARE(results[i], results[0]);
  }
};

QTEST_APPLESS_MAIN(TestTypes)
#include "tst_types.moc"
