// The performance plot's library lines beyond OpenBLAS and the copy bandwidth (issue 18, part 5):
// CLBlast with its default parameters on the selected device, loaded at run time and measured in
// the background at the program's routine and sizes, and the device's FMA peak from its device
// info. Tested on the CPU device (PoCL): the CLBlast line measured for sgemm and sasum (or, where
// libclblast.so.1 is not installed, the words saying so); a missing library named in the plot and
// the search pane, never a crash or a silently missing line; a stopped measurement caches
// nothing; the FMA peak only for a compute-bound program and only on the GFLOP/s axis, its
// table and estimates, and no line with a reason for a device OpenCL says too little about.
#include <QtTest/QtTest>

#include <dlfcn.h>
#include <QLabel>
#include <QTemporaryDir>

#include "core/lang/Parser.h"
#include "views/ClBlastLibrary.h"
#include "views/DeviceChoice.h"
#include "views/FmaPeak.h"
#include "views/LibraryLines.h"
#include "views/MainWindow.h"
#include "views/PerformancePlot.h"
#include "views/RunPanel.h"
#include "views/SearchPanel.h"
#include "views/SizeFields.h"

using namespace lift;
using namespace lift::views;

class TestLibraryLines : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString poclSpec_, poclName_;

  static explore::SearchProblem problemOf(const QString& example, const arith::Env& sizes) {
    QFile f(QString(LIFT_SOURCE_DIR) + "/resources/examples/" + example + ".lift");
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(example));
    ir::Program p = lang::parseProgram(f.readAll().toStdString(), example.toStdString() + ".lift");
    return explore::SearchProblem::make(p, sizes);
  }
  static const LibraryLine* find(const LibraryLines& l, const QString& name) {
    for (const LibraryLine& line : l.lines)
      if (line.name == name) return &line;
    return nullptr;
  }
  static const MissingLine* findMissing(const LibraryLines& l, const QString& name) {
    for (const MissingLine& m : l.missing)
      if (m.name == name) return &m;
    return nullptr;
  }
  static QString describe(const LibraryLines& l) {
    QStringList out;
    for (const LibraryLine& line : l.lines) out << QString("%1 = %2 ms").arg(line.name).arg(line.ms);
    return (out + l.missingText()).join(" | ");
  }
  static bool clblastInstalled() {
    void* h = ::dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    return h != nullptr;  // kept open, as ClBlastLibrary keeps it
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove("libraryLines-v2");
    qputenv("LIFT_LIFTC", LIFT_LIFTC);
    QVERIFY(dir_.isValid());
    DeviceChoice devices;
    int pocl = devices.findDevice("Portable Computing Language");
    if (pocl >= 0) {
      poclSpec_ = devices.itemData(pocl).toString();
      poclName_ = QString::fromStdString(runtime::Device::find(poclSpec_.toStdString()).info().name);
    }
    if (!clblastInstalled())
      qInfo(
          "libclblast.so.1 is not installed (scripts/install-deps.sh lists libclblast-dev, which "
          "brings it): the tests check the words that say so");
  }

  // The FP32 lanes per SM (the CUDA Programming Guide's table) and the estimates made from them.
  void fmaPeakFromDeviceInfo() {
    QCOMPARE(nvidiaFp32LanesPerSm(9, 0), 128);  // H100
    QCOMPARE(nvidiaFp32LanesPerSm(8, 0), 64);   // A100
    QCOMPARE(nvidiaFp32LanesPerSm(8, 6), 128);  // RTX 30xx
    QCOMPARE(nvidiaFp32LanesPerSm(7, 0), 64);   // V100
    QCOMPARE(nvidiaFp32LanesPerSm(6, 1), 128);
    QCOMPARE(nvidiaFp32LanesPerSm(2, 0), 0);  // not in the table

    FmaPeakFacts h100{"GPU", "NVIDIA Corporation", 132, 1980, 1, 9, 0};
    FmaPeak p = fmaPeakOf(h100);
    QCOMPARE(p.gflops, 132.0 * 1980e6 * 2 * 128 / 1e9);  // 66.9 TFLOP/s, NVIDIA's FP32 figure
    QVERIFY2(p.how.contains("compute capability 9.0"), qPrintable(p.how));
    QVERIFY(p.why.isEmpty());

    FmaPeakFacts cpu{"CPU", "GenuineIntel", 8, 3000, 8, -1, -1};
    p = fmaPeakOf(cpu);
    QCOMPARE(p.gflops, 8 * 3000e6 * 2 * 8 * 2 / 1e9);
    QVERIFY2(p.how.startsWith("an estimate"), qPrintable(p.how));

    FmaPeakFacts amd{"GPU", "Advanced Micro Devices, Inc.", 60, 1800, 1, -1, -1};
    p = fmaPeakOf(amd);
    QCOMPARE(p.gflops, 0.0);
    QVERIFY2(p.why.contains("does not say how many FMA lanes"), qPrintable(p.why));

    FmaPeakFacts future{"GPU", "NVIDIA Corporation", 100, 2000, 1, 42, 0};
    p = fmaPeakOf(future);
    QCOMPARE(p.gflops, 0.0);
    QVERIFY2(p.why.contains("42.0"), qPrintable(p.why));

    FmaPeakFacts noClock{"CPU", "x", 4, 0, 8, -1, -1};
    QVERIFY(fmaPeakOf(noClock).gflops == 0 && !fmaPeakOf(noClock).why.isEmpty());
  }

  // sgemm on the CPU device: CLBlast's line beside OpenBLAS's and the copy bandwidth; the FMA
  // peak drawn in GFLOP/s only, for a compute-bound program.
  void clblastAndPeakForMatmulOnTheCpuDevice() {
    if (poclSpec_.isEmpty()) QSKIP("no PoCL device");
    explore::SearchProblem problem = problemOf("matmul", {{"M", 64}, {"N", 64}, {"K", 64}});
    std::optional<LibraryLines> lines = measureLibraryLines(problem, poclSpec_.toStdString(), LIFT_LIFTC);
    QVERIFY(lines);
    QString name = clblastLineName(poclName_);
    QCOMPARE(name, "CLBlast (defaults) on " + poclName_);
    if (clblastInstalled()) {
      const LibraryLine* l = find(*lines, name);
      QVERIFY2(l, qPrintable(describe(*lines)));
      QVERIFY(l->ms > 0 && l->gflops > 0 && l->gbs > 0);
      QVERIFY2(l->how.contains("sgemm m=64 n=64 k=64"), qPrintable(l->how));
      qInfo("CLBlast sgemm 64^3 on PoCL: %.3f ms, %.3g GFLOP/s", l->ms, l->gflops);
    } else {
      const MissingLine* m = findMissing(*lines, name);
      QVERIFY2(m && m->why.contains("libclblast.so.1 cannot be loaded"), qPrintable(describe(*lines)));
    }
    QVERIFY2(find(*lines, "OpenBLAS sgemm (host)"), qPrintable(describe(*lines)));
    QVERIFY2(find(*lines, "copy bandwidth (device)"), qPrintable(describe(*lines)));
    runtime::DeviceInfo info = runtime::Device::find(poclSpec_.toStdString()).info();
    if (info.maxClockMHz > 0 && info.nativeFloatVectorWidth > 0) {
      const LibraryLine* peak = find(*lines, kFmaPeakLineName);
      QVERIFY2(peak, qPrintable(describe(*lines)));
      QVERIFY(peak->gflops > 0);
      QCOMPARE(peak->ms, 0.0);  // drawn in GFLOP/s only
      QCOMPARE(peak->gbs, 0.0);
      QVERIFY2(peak->how.startsWith("an estimate"), qPrintable(peak->how));
    } else {
      const MissingLine* m = findMissing(*lines, kFmaPeakLineName);
      QVERIFY2(m && !m->why.isEmpty(), qPrintable(describe(*lines)));
    }
  }

  // sasum: CLBlastSasum over the whole vector; no FMA peak for a bandwidth-bound program, and the
  // reason in words.
  void clblastForAsumAndNoPeak() {
    if (poclSpec_.isEmpty()) QSKIP("no PoCL device");
    explore::SearchProblem problem = problemOf("asum", {{"N", 65536}});
    std::optional<LibraryLines> lines = measureLibraryLines(problem, poclSpec_.toStdString(), LIFT_LIFTC);
    QVERIFY(lines);
    QString name = clblastLineName(poclName_);
    if (clblastInstalled()) {
      const LibraryLine* l = find(*lines, name);
      QVERIFY2(l && l->ms > 0 && l->gbs > 0, qPrintable(describe(*lines)));
      QVERIFY2(l->how.contains("sasum n=65536"), qPrintable(l->how));
    } else {
      QVERIFY2(findMissing(*lines, name), qPrintable(describe(*lines)));
    }
    QVERIFY(!find(*lines, kFmaPeakLineName));
    const MissingLine* peak = findMissing(*lines, kFmaPeakLineName);
    QVERIFY2(peak && peak->why.contains("bandwidth-bound"), qPrintable(describe(*lines)));
  }

  // A program that computes no BLAS routine: neither library line, each with the reason.
  void noRoutineNoLibraryLines() {
    if (poclSpec_.isEmpty()) QSKIP("no PoCL device");
    explore::SearchProblem problem = problemOf("stencil3", {{"N", 4096}});
    std::optional<LibraryLines> lines = measureLibraryLines(problem, poclSpec_.toStdString(), LIFT_LIFTC);
    QVERIFY(lines);
    const MissingLine* m = findMissing(*lines, clblastLineName(poclName_));
    QVERIFY2(m && m->why.contains("suggests no BLAS routine"), qPrintable(describe(*lines)));
    QVERIFY2(find(*lines, "copy bandwidth (device)"), qPrintable(describe(*lines)));
  }

  // Stopped: nothing, so that nothing half-measured is cached.
  void aStoppedMeasurementGivesNothing() {
    if (poclSpec_.isEmpty()) QSKIP("no PoCL device");
    explore::SearchProblem problem = problemOf("matmul", {{"M", 64}, {"N", 64}, {"K", 64}});
    QVERIFY(!measureLibraryLines(problem, poclSpec_.toStdString(), LIFT_LIFTC, [] { return true; }));
  }

  // A search stopped while it measures the lines: the pane says they were not measured, and
  // nothing is cached for them.
  void aSearchStoppedWhileMeasuringCachesNothing() {
    if (poclSpec_.isEmpty()) QSKIP("no PoCL device");
    QSettings().remove("libraryLines-v2");
    MainWindow w;
    w.setHeadless(true);
    QVERIFY(w.openExample("gemv"));
    w.runPanel()->deviceChoice()->setCurrentIndex(
        w.runPanel()->deviceChoice()->findDevice("Portable Computing Language"));
    SearchPanel* s = w.searchPanel();
    s->setLimits(120, 2);
    s->setStorePath(dir_.filePath("stopped.sqlite"));
    s->start();
    QVERIFY(s->isRunning());
    s->stop();
    s->waitForSearch();
    QTRY_VERIFY(!s->isRunning());
    QString label = s->findChild<QLabel*>("libraryLines")->text();
    QVERIFY2(label.contains("not measured, the search stopped first"), qPrintable(label));
    QVERIFY(!QSettings().childGroups().contains("libraryLines-v2"));
  }

  // With CLBlast absent (LIFT_CLBLAST_LIBRARY names a file that is not there) a search on the CPU
  // device still runs, and the plot and the search pane say in words that CLBlast's line is not
  // drawn and why; with it present, the line is drawn, and the FMA peak only in GFLOP/s.
  void theWindowSaysWhatIsMissingAndDrawsTheRest() {
    if (poclSpec_.isEmpty()) QSKIP("no PoCL device");
    for (bool absent : {true, false}) {
      if (absent)
        qputenv("LIFT_CLBLAST_LIBRARY", QByteArray("/nonexistent/libclblast.so.1"));
      else
        qunsetenv("LIFT_CLBLAST_LIBRARY");
      QSettings().remove("libraryLines-v2");  // measured again
      MainWindow w;
      w.setHeadless(true);
      w.show();
      QVERIFY(w.openExample("matmul"));
      w.runPanel()->deviceChoice()->setCurrentIndex(
          w.runPanel()->deviceChoice()->findDevice("Portable Computing Language"));
      SearchPanel* s = w.searchPanel();
      s->sizeFields()->setTexts({{"M", "16"}, {"N", "16"}, {"K", "16"}});
      s->setLimits(120, 2);
      s->setStorePath(dir_.filePath(absent ? "absent.sqlite" : "present.sqlite"));
      s->start();
      QVERIFY(s->isRunning());
      s->waitForSearch();
      QCoreApplication::processEvents();
      PerformancePlot* plot = w.performancePlot();
      QString name = clblastLineName(poclName_);
      QString label = s->findChild<QLabel*>("libraryLines")->text();
      if (absent || !clblastInstalled()) {
        QVERIFY2(!plot->referenceNames().contains(name), qPrintable(plot->referenceNames().join(", ")));
        QString note = plot->referenceNotes().join(" | ");
        QVERIFY2(note.contains(name + ": not drawn: ") && note.contains("libclblast.so.1 cannot be loaded"),
                 qPrintable(note));
        QVERIFY2(plot->referenceNotesShown().contains(name + ": not drawn"),
                 qPrintable(plot->referenceNotesShown()));
        QVERIFY2(label.contains("not drawn") && label.contains("cannot be loaded"), qPrintable(label));
      } else {
        QVERIFY2(plot->referenceNames().contains(name), qPrintable(plot->referenceNames().join(", ")));
        QVERIFY2(!plot->referenceNotes().join(" ").contains("CLBlast"),
                 qPrintable(plot->referenceNotes().join(" | ")));
      }
      QVERIFY(plot->referenceNames().contains("OpenBLAS sgemm (host)"));
      QCOMPARE(plot->yAxis(), PerformancePlot::YAxis::Gflops);
      bool peak = plot->referenceNames().contains(kFmaPeakLineName);
      plot->setAxes(plot->xAxis(), PerformancePlot::YAxis::Gbs);
      QVERIFY(!plot->referenceNames().contains(kFmaPeakLineName));  // FLOP/s plots only
      plot->setAxes(plot->xAxis(), PerformancePlot::YAxis::Milliseconds);
      QVERIFY(!plot->referenceNames().contains(kFmaPeakLineName));
      plot->setAxes(plot->xAxis(), PerformancePlot::YAxis::Gflops);
      QCOMPARE(plot->referenceNames().contains(kFmaPeakLineName), peak);
    }
  }
};

QTEST_MAIN(TestLibraryLines)
#include "tst_library_lines.moc"
