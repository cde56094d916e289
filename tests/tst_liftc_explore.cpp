// liftc explore --dry-run: the command-line contract of the dry run. It compiles the candidates
// for a device described with --device-info, needs no store and no device, prints one line per
// candidate and the counts by status, stops at --max-kernels candidates that compiled or failed
// to; a bad --device-info, or one without --dry-run, exits with status 2 and says why.
#include <QtTest/QtTest>

#include "LiftcProcess.h"

using namespace Qt::StringLiterals;

namespace {

using Run = lift::test::LiftcRun;

Run liftc(const QStringList& args) { return lift::test::runLiftc(args); }

const QString kH100 =
    u"gpu,compute-units=132,local-memory=48K,global-memory=79G,max-alloc=19G,work-group=1024,vector-width=1"_s;

QStringList dryRun(const QString& deviceInfo) {
  return {"explore",
          "resources/examples/matmul.lift",
          "--dry-run",
          "--device-info",
          deviceInfo,
          "--size",
          "M=256,N=256,K=256",
          "--strategy",
          "random",
          "--seed",
          "3",
          "--max-kernels",
          "10",
          "--quiet"};
}

}  // namespace

class TestLiftcExplore : public QObject {
  Q_OBJECT
 private slots:
  void dryRunCompilesForADescribedDevice() {
    Run r = liftc(dryRun(kH100));
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(u"dry run on described device gpu,"_s), qPrintable(r.out));
    QRegularExpression counts(u"candidates \\d+: compiled (\\d+), compile failed (\\d+), rejected"_s);
    QRegularExpressionMatch m = counts.match(r.out);
    QVERIFY2(m.hasMatch(), qPrintable(r.out));
    QCOMPARE(m.captured(1).toInt() + m.captured(2).toInt(), 10);
    QVERIFY(r.out.contains(u"by status:"_s));
    QRegularExpression line(u"^#\\d+ (compiled|compile-failed|constraint|invalid-launch) "_s,
                            QRegularExpression::MultilineOption);
    QVERIFY2(line.match(r.out).hasMatch(), qPrintable(r.out));
  }

  void badDeviceInfoIsAnError() {
    for (const QString& spec : {u"tpu"_s, u"gpu,local-memory=lots"_s, u"gpu,registers=65536"_s}) {
      Run r = liftc(dryRun(spec));
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.contains(u"--device-info"_s), qPrintable(r.err));
    }
    Run r = liftc({"explore", "resources/examples/matmul.lift", "--device-info", kH100, "--max-kernels", "1",
                   "--db", "unused.sqlite"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(u"--dry-run"_s), qPrintable(r.err));
  }
};

QTEST_APPLESS_MAIN(TestLiftcExplore)
#include "tst_liftc_explore.moc"
