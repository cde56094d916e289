// `liftc compile` through QProcess: the kernel on stdout (every kernel of a program that needs
// several), --indices, the switches, --size, and
// the errors (a program not lowered, md_hom, an unsupported nesting, local memory outside a
// work-group, a size making an allocation impossible, bad options): one located message on
// stderr and exit status 2.
#include <QtTest/QtTest>

#include "LiftcProcess.h"

namespace {

using Result = lift::test::LiftcRun;

Result liftc(const QStringList& args) { return lift::test::runLiftc(args, LIFT_SOURCE_DIR, 60000); }

const QString kDot = "resources/examples/lowlevel/dot.lift";
const QString kTranspose = "resources/examples/lowlevel/transpose.lift";

}  // namespace

class TestLiftcCompile : public QObject {
  Q_OBJECT

 private slots:
  void printsTheKernel() {
    Result r = liftc({"compile", kDot});
    QCOMPARE(r.code, 0);
    QVERIFY(r.err.isEmpty());
    QVERIFY(r.out.contains("void partialDot("));
    QVERIFY(r.out.contains("float multAndSumUp(float acc, float x, float y)"));
    QVERIFY(r.out.contains("x[128*wg_id + 2*l_id + i]"));
  }

  // --stream-k N: the tiled matmul at constant sizes (4 tiles) runs whole waves of N tiles one
  // work-group a tile and shares the steps of the rest among N work-groups; where the kernel has
  // not the shape (no K-tiled reduction, sizes left symbolic, or tiles filling whole waves) a note
  // says so on stderr and the kernel is the plain one; a negative N is a usage error.
  void streamKSaysWhereItDoesNotApply() {
    const QString tiled = "resources/examples/lowlevel/matmul_tiled_gpu.lift";
    Result on = liftc({"compile", tiled, "--size", "M=2,N=2,K=8", "--stream-k", "3"});
    QCOMPARE(on.code, 0);
    QVERIFY2(
        on.out.contains("// stream-K: 3 tiles a work-group each, then 3 work-groups share the 8 steps of 1 "
                        "tile x 8"),
        qPrintable(on.out));
    QVERIFY(on.err.isEmpty());
    Result all = liftc({"compile", tiled, "--size", "M=2,N=2,K=2", "--stream-k", "8"});
    QCOMPARE(all.code, 0);
    QVERIFY2(all.out.contains("// stream-K: 8 work-groups share the 8 steps of 4 tiles x 2"),
             qPrintable(all.out));
    for (const QStringList& args :
         {QStringList{"compile", kDot, "--stream-k", "4"}, QStringList{"compile", tiled, "--stream-k", "4"},
          QStringList{"compile", tiled, "--size", "M=2,N=2,K=2", "--stream-k", "4"}}) {
      Result off = liftc(args);
      QCOMPARE(off.code, 0);
      QVERIFY2(off.err.contains("note: --stream-k 4 does not apply"), qPrintable(off.err));
      QVERIFY(off.err.contains("not a multiple of 4"));
      QVERIFY(!off.out.contains("stream-K"));
      QStringList plainArgs = args;
      plainArgs.removeLast();
      plainArgs.removeLast();
      QCOMPARE(off.out, liftc(plainArgs).out);
    }
    Result bad = liftc({"compile", tiled, "--stream-k", "-3"});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains("--stream-k"));
  }

  // --prefetch-parts N cuts each prefetching step into N parts where its loop along k has a trip
  // count N divides; elsewhere a note says so on stderr and the kernel is the one without it.
  // Without --prefetch, or with N out of 1..16, it is a usage error.
  void prefetchPartsSaysWhereItDoesNotApply() {
    const QString tiled = "resources/examples/lowlevel/matmul_tiled_gpu_8x8.lift";  // K tiles of 4 steps
    Result on = liftc({"compile", tiled, "--prefetch", "--prefetch-parts", "2"});
    QCOMPARE(on.code, 0);
    QVERIFY2(on.out.contains("// part 2 of 2: its share of the next tiles, then its steps"),
             qPrintable(on.out));
    QVERIFY(on.err.isEmpty());
    Result plain = liftc({"compile", tiled, "--prefetch"});
    for (const QStringList& args : {QStringList{"compile", tiled, "--prefetch", "--prefetch-parts", "3"},
                                    QStringList{"compile", kDot, "--prefetch", "--prefetch-parts", "2"}}) {
      Result off = liftc(args);
      QCOMPARE(off.code, 0);
      QVERIFY2(off.err.contains("note: --prefetch-parts " + args.last() + " does not apply"),
               qPrintable(off.err));
      QCOMPARE(off.out, liftc(args.mid(0, args.size() - 2)).out);
    }
    QCOMPARE(liftc({"compile", tiled, "--prefetch", "--prefetch-parts", "1"}).out, plain.out);
    for (const QStringList& args : {QStringList{"compile", tiled, "--prefetch-parts", "2"},
                                    QStringList{"compile", tiled, "--prefetch", "--prefetch-parts", "0"},
                                    QStringList{"compile", tiled, "--prefetch", "--prefetch-parts", "17"}}) {
      Result bad = liftc(args);
      QCOMPARE(bad.code, 2);
      QVERIFY2(bad.err.contains("--prefetch-parts"), qPrintable(bad.err));
    }
  }

  // --max-registers N changes the build, not the source: the kernel as without it, and a note
  // saying so.
  void registerCapLeavesTheSource() {
    Result capped = liftc({"compile", kDot, "--max-registers", "64"});
    QCOMPARE(capped.code, 0);
    QCOMPARE(capped.out, liftc({"compile", kDot}).out);
    QVERIFY2(capped.err.contains("note: --max-registers 64 does not change the source"),
             qPrintable(capped.err));
    QVERIFY(liftc({"compile", kDot}).err.isEmpty());
  }

  // A program that needs two kernels: each printed after a line naming it and its NDRange.
  void printsEveryKernel() {
    Result r = liftc({"compile", "resources/examples/lowlevel/asum_device.lift"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("// ----- kernel 1 of 2: asum_1, global 8192*M, local 128\n"));
    QVERIFY(r.out.contains("// ----- kernel 2 of 2: asum_2, global 64, local 64\n"));
    QVERIFY(r.out.indexOf("void asum_1(") < r.out.indexOf("void asum_2("));
    QVERIFY(r.out.contains("const global float* restrict tmp,"));
    Result indices = liftc({"compile", "resources/examples/lowlevel/asum_device.lift", "--indices"});
    QCOMPARE(indices.code, 0);
    QCOMPARE(indices.out.count("// ----- kernel "), 2);
  }

  void listsIndices() {
    Result r = liftc({"compile", kTranspose, "--indices"});
    QCOMPARE(r.code, 0);
    QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY(lines.size() >= 3);
    QVERIFY(lines[0].contains("buffer") && lines[0].contains("raw index") &&
            lines[0].contains("simplified index"));
    bool read = false;
    for (auto& l : lines)
      if (l.contains(" read ") && l.contains(" x ")) {
        read = true;
        QVERIFY2(l.trimmed().endsWith("l_id*M + wg_id"), qPrintable(l));
        QVERIFY2(l.contains("%") && l.contains("/"), qPrintable(l));
      }
    QVERIFY(read);
    QVERIFY(!r.out.contains("kernel void"));
  }

  void switchesChangeTheKernel() {
    QString base = liftc({"compile", kDot}).out;
    for (const char* flag : {"--no-simplify-indices", "--no-barrier-elim", "--no-cfg-simplify"}) {
      Result r = liftc({"compile", kDot, flag});
      QCOMPARE(r.code, 0);
      QVERIFY2(r.out != base, flag);
    }
    Result unrolled = liftc({"compile", "resources/examples/lowlevel/matmul_best.lift"});
    Result rolled = liftc({"compile", "resources/examples/lowlevel/matmul_best.lift", "--no-unroll"});
    QCOMPARE(rolled.code, 0);
    QVERIFY(rolled.out != unrolled.out);
  }

  void specialisesToSizes() {
    Result r = liftc({"compile", kTranspose, "--size", "M=8,N=16"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("x[l_id*8 + wg_id]") || r.out.contains("x[8*l_id + wg_id]"), qPrintable(r.out));
    // A private array of N elements is possible only once N is known.
    Result symbolic = liftc({"compile", "tests/data/codegen/bad_private.lift"});
    QCOMPARE(symbolic.code, 2);
    QVERIFY(symbolic.err.contains("bad_private.lift:7:"));
    QVERIFY(symbolic.err.contains("no constant size"));
    Result concrete = liftc({"compile", "tests/data/codegen/bad_private.lift", "--size", "N=8"});
    QCOMPARE(concrete.code, 0);
    QVERIFY(concrete.out.contains("void badPrivate("));
  }

  // --local generates for that work-group size: with 1, the mapLcl is the one work-item's loop
  // from 0 by 1 (the explorer's "-local-result" kernels on a CPU).
  void generatesForTheNDRangeGiven() {
    Result own = liftc({"compile", kTranspose, "--size", "M=8,N=16"});
    Result one = liftc({"compile", kTranspose, "--size", "M=8,N=16", "--local", "1"});
    QCOMPARE(one.code, 0);
    QVERIFY2(!own.out.contains("for (int l_id = 0; l_id < 16; l_id += 1)"), qPrintable(own.out));
    QVERIFY2(one.out.contains("for (int l_id = 0; l_id < 16; l_id += 1)"), qPrintable(one.out));
    QVERIFY2(one.out.contains("reqd_work_group_size(1, 1, 1)"), qPrintable(one.out));
    Result bad = liftc({"compile", kTranspose, "--local", "0"});
    QCOMPARE(bad.code, 2);
  }

  void errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("high-level") << QStringList{"compile", "resources/examples/dot.lift"}
                                << "dot.lift:10:3: error: high-level pattern reduce must be lowered";
    QTest::newRow("md_hom") << QStringList{"compile", "resources/examples/md_gemv.lift"}
                            << "md_gemv.lift:14:3: error: md_hom is not yet lowered to OpenCL";
    QTest::newRow("mapLcl outside mapWrg")
        << QStringList{"compile", "tests/data/codegen/bad_nesting.lift"}
        << "bad_nesting.lift:6:31: error: mapLcl0 must be nested inside a mapWrg";
    QTest::newRow("toLocal outside a work-group")
        << QStringList{"compile", "tests/data/codegen/bad_tolocal.lift"}
        << "bad_tolocal.lift:7:50: error: toLocal outside a work-group";
    QTest::newRow("synchronisation across work-groups")
        << QStringList{"compile", "tests/data/codegen/bad_sync.lift"}
        << "bad_sync.lift:10:65: error: mapGlb0";
    QTest::newRow("nested mapLcl read whole")
        << QStringList{"compile", "tests/data/codegen/bad_nested_lcl_reduce.lift"}
        << "bad_nested_lcl_reduce.lift:13:74: error: mapLcl0 nested in another mapLcl: its result is read "
           "whole "
           "by reduceSeq";
    QTest::newRow("private value read at another work-item's slice")
        << QStringList{"compile", "tests/data/codegen/bad_private_split.lift"}
        << "bad_private_split.lift:13:7: error: acc1 is private to each work-item, split over the work-items "
           "by "
           "mapLcl1";
    QTest::newRow("local memory too large")
        << QStringList{"compile", "tests/data/codegen/local_dynamic.lift", "--size", "K=100000"}
        << "local_dynamic.lift:9:64: error: the kernel needs 400032 bytes of local memory";
    QTest::newRow("size not in the program")
        << QStringList{"compile", kDot, "--size", "Q=4"} << "no size 'Q'";
    QTest::newRow("size not a number") << QStringList{"compile", kDot, "--size", "N=x"} << "positive integer";
    QTest::newRow("missing file") << QStringList{"compile", "no/such/file.lift"} << "no/such/file.lift";
    QTest::newRow("unknown option") << QStringList{"compile", kDot, "--fast"} << "unknown option '--fast'";
  }
  void errors() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    Result r = liftc(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestLiftcCompile)
#include "tst_liftc_compile.moc"
