// Fast, honest defaults (issue 18, part 5): every bundled example opens at sizes that run in
// seconds on the CPU device, its declared (GPU) sizes one click away; Run shows that it runs and
// Stop cancels it while the window stays usable; the search's counts, what --search prints and
// the plot agree; the y axis follows the program (GB/s for a bandwidth-bound one) and scales to
// the data; a sortable table of the best kernels, whose rows click as points do; library lines
// the app measures itself, once per device, program and sizes (cached in the settings).
#include <QtTest/QtTest>

#include <qcustomplot.h>
#include <QLabel>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>

#include "codegen/runtime/Device.h"
#include "core/interp/WorkCount.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/SearchRunner.h"
#include "views/BestKernelsTable.h"
#include "views/DeviceChoice.h"
#include "views/LibraryLines.h"
#include "views/MainWindow.h"
#include "views/PerformancePlot.h"
#include "views/QuickSizes.h"
#include "views/RunPanel.h"
#include "views/SearchPanel.h"
#include "views/Session.h"
#include "views/SizeFields.h"

using namespace lift;
using namespace lift::views;

class TestHonestDefaults : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  static bool usePocl(MainWindow& w) {
    int pocl = w.runPanel()->deviceChoice()->findDevice("Portable Computing Language");
    if (pocl < 0) return false;
    w.runPanel()->deviceChoice()->setCurrentIndex(pocl);  // the search pane follows
    return true;
  }
  // A search of `example` at `sizes` on the PoCL device for at most `kernels` kernels.
  bool search(MainWindow& w, const QString& example, const QMap<QString, QString>& sizes, int kernels) {
    if (!w.openExample(example) || !usePocl(w)) return false;
    SearchPanel* s = w.searchPanel();
    s->sizeFields()->setTexts(sizes);
    s->setLimits(120, kernels);
    s->setStorePath(dir_.filePath("searches.sqlite"));
    s->start();
    if (!s->isRunning()) return false;
    s->waitForSearch();
    QCoreApplication::processEvents();
    return !s->isRunning();
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove("libraryLines-v2");
    qputenv("LIFT_LIFTC", LIFT_LIFTC);
    QVERIFY(dir_.isValid());
  }

  // Each example opens at quick sizes (within the quick work, so the interpreter checks a run in
  // about a second), and the declared sizes are one click away (and back).
  void examplesOpenAtQuickSizes() {
    MainWindow w;
    w.setHeadless(true);
    for (const QString& name : MainWindow::bundledExamples()) {
      QVERIFY2(w.openExample(name), qPrintable(name));
      SizeFields* f = w.runPanel()->sizeFields();
      auto p = w.session()->program();
      if (p->program.sizes.empty()) continue;
      QCOMPARE(w.runPanel()->sizeTexts(), sizeTexts(quickSizes(p->program)));
      QCOMPARE(w.searchPanel()->sizeFields()->texts(), sizeTexts(quickSizes(p->program)));
      arith::Env quick;
      QVERIFY(f->values(quick, nullptr));
      QVERIFY2(interp::countWork(p->program, quick).applications <= kQuickWork, qPrintable(name));
      QTest::mouseClick(f->findChild<QPushButton*>("declaredSizes"), Qt::LeftButton);
      QCOMPARE(f->texts(), sizeTexts(codegen::runSizes(p->program)));
      QTest::mouseClick(f->findChild<QPushButton*>("quickSizes"), Qt::LeftButton);
      QCOMPARE(f->texts(), sizeTexts(quick));
    }
    // matmul declares 1024^3 for a GPU and opens smaller.
    QVERIFY(w.openExample("matmul"));
    QVERIFY(w.runPanel()->sizeTexts().value("M").toInt() < 1024);
  }

  // A lowered example runs at its quick sizes in seconds on the CPU device, checked by the interpreter.
  void aQuickRunTakesSeconds() {
    MainWindow w;
    w.setHeadless(true);
    QVERIFY(w.openExample("lowlevel/matmul"));
    if (!usePocl(w)) QSKIP("no PoCL device");
    QElapsedTimer t;
    t.start();
    w.runPanel()->run();
    QTRY_VERIFY_WITH_TIMEOUT(!w.runPanel()->isRunning(), 60'000);
    qInfo("lowlevel/matmul at its quick sizes ran in %lld ms", t.elapsed());
    QVERIFY2(w.runPanel()->resultText().contains("ok: median"), qPrintable(w.runPanel()->resultText()));
    QVERIFY2(w.runPanel()->resultText().contains("interpreter"), qPrintable(w.runPanel()->resultText()));
    QVERIFY(t.elapsed() < 30'000);
  }

  // At the declared sizes Run takes long: it shows that it runs, the window stays usable, and
  // Stop cancels it.
  void aLongRunShowsProgressAndStops() {
    MainWindow w;
    w.setHeadless(true);
    w.show();
    QVERIFY(w.openExample("lowlevel/matmul"));
    if (!usePocl(w)) QSKIP("no PoCL device");
    RunPanel* r = w.runPanel();
    QTest::mouseClick(r->sizeFields()->findChild<QPushButton*>("declaredSizes"), Qt::LeftButton);
    r->run();
    QVERIFY(r->isRunning());
    auto* busy = r->findChild<QProgressBar*>("runProgress");
    QVERIFY(busy && busy->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(r->resultText().contains(" s (Stop cancels it)"), 5'000);
    // Usable meanwhile: a node selected shows its rules.
    QVERIFY(w.selectNodeByLabel("map"));
    QVERIFY(r->isRunning());
    QElapsedTimer t;
    t.start();
    r->stop();
    QTRY_VERIFY_WITH_TIMEOUT(!r->isRunning(), 20'000);
    qInfo("stopped after %lld ms", t.elapsed());
    QVERIFY2(r->resultText().contains("cancelled"), qPrintable(r->resultText()));
    QVERIFY(!busy->isVisible());
  }

  // The counts in the pane, the plot's points and what `lift-studio --search` prints agree; the
  // y axis is GFLOP/s for matmul; the best-kernels table lists the valid kernels best first and
  // a click on a row loads that kernel as a click on its point does; the library lines are
  // measured and cached.
  void searchFeedbackAgrees() {
    DeviceChoice devices;
    if (devices.findDevice("Portable Computing Language") < 0) QSKIP("no PoCL device");
    MainWindow w;
    w.setHeadless(true);
    w.show();
    QVERIFY(search(w, "matmul", {{"M", "8"}, {"N", "8"}, {"K", "8"}}, 4));
    SearchPanel* s = w.searchPanel();
    PerformancePlot* plot = w.performancePlot();
    QCOMPARE(plot->yAxis(), PerformancePlot::YAxis::Gflops);
    const SearchPanel::Tally& tally = s->tally();
    QCOMPARE(plot->pointCount(), static_cast<int>(tally.measured + tally.stored));
    QVERIFY2(
        s->countsText().contains(
            QString("evaluated <b>%1</b> · valid <b>%2</b>").arg(tally.measured).arg(tally.measuredValid)),
        qPrintable(s->countsText()));
    QVERIFY(tally.measuredValid > 0);

    // The table: every valid kernel, the best (highest GFLOP/s) first.
    BestKernelsTable* table = plot->bestKernels();
    QCOMPARE(table->rowCount(), static_cast<int>(tally.measuredValid + tally.storedValid));
    QCOMPARE(table->pointOf(0), plot->bestIndex());
    for (int r = 1; r < table->rowCount(); ++r)
      QVERIFY(table->item(r - 1, BestKernelsTable::Gflops)->data(Qt::DisplayRole).toDouble() >=
              table->item(r, BestKernelsTable::Gflops)->data(Qt::DisplayRole).toDouble());
    // Sortable: by the evaluation order.
    table->sortByColumn(BestKernelsTable::Evaluation, Qt::AscendingOrder);
    for (int r = 1; r < table->rowCount(); ++r) QVERIFY(table->pointOf(r - 1) < table->pointOf(r));
    // A row clicks as its point does: the kernel is loaded and ringed in the plot.
    int row = table->rowCount() - 1, point = table->pointOf(row);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(table->model()->index(row, 0)).center());
    QTRY_VERIFY_WITH_TIMEOUT(!w.session()->isReplaying(), 30'000);
    QCOMPARE(plot->highlight(), plot->point(point).id);

    // The library lines, measured by the app: OpenBLAS (sgemm, on the host) and the device's
    // copy bandwidth, drawn on the plot and cached for this device, program and sizes.
    QStringList lines = plot->referenceNames();
    QVERIFY2(lines.contains("OpenBLAS sgemm (host)"), qPrintable(lines.join(", ")));
    QVERIFY2(lines.contains("copy bandwidth (device)"), qPrintable(lines.join(", ")));
    auto cached = cachedLibraryLines(libraryLinesKey(
        devices.itemText(devices.findDevice("Portable Computing Language")).section(':', 1).trimmed(),
        *s->problem()));
    QVERIFY(cached && cached->lines.size() >= 2);  // and CLBlast's and the FMA peak (tst_library_lines)
    for (const LibraryLine& l : cached->lines)
      QVERIFY(l.gflops > 0 && (l.name == kFmaPeakLineName || (l.ms > 0 && l.gbs > 0)));
    // A second search takes them from the cache: shown at once.
    s->start();
    QVERIFY(s->isRunning());
    QVERIFY2(s->findChild<QLabel*>("libraryLines")->text().startsWith("Library lines (measured)"),
             qPrintable(s->findChild<QLabel*>("libraryLines")->text()));
    s->stop();
    s->waitForSearch();

    // What --search prints says the same as the pane.
    QTemporaryDir home;
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("HOME", home.path());
    env.insert("XDG_CONFIG_HOME", home.filePath("config"));
    env.insert("XDG_DATA_HOME", home.filePath("data"));
    // The OpenCL driver's kernel cache stays the user's (PoCL's is under XDG_CACHE_HOME), as it
    // would for a user: else every kernel, CLBlast's for the library line too, is built again.
    env.insert("XDG_CACHE_HOME", qEnvironmentVariable("XDG_CACHE_HOME", QDir::homePath() + "/.cache"));
    app.setProcessEnvironment(env);
    QString store = home.filePath("s.sqlite");
    app.start(LIFT_STUDIO,
              {"--example", "matmul", "--size", "M=8,N=8,K=8", "--device", "Portable", "--search", "120",
               "--max-kernels", "3", "--store", store, "--screenshot", home.filePath("x.png")});
    QVERIFY(app.waitForFinished(600'000));  // a loaded two-core machine
    QString err = QString::fromUtf8(app.readAllStandardError());
    QVERIFY2(app.exitCode() == 0, qPrintable(err));
    explore::ResultStore results(store.toStdString());
    explore::KernelQuery all;
    int valid = 0;
    for (const auto& k : results.kernels(all)) valid += k.ok();
    QVERIFY2(err.contains(QString("evaluated %1, valid %2, stored before 0").arg(results.count()).arg(valid)),
             qPrintable(err));
  }

  // `lift-studio --device` (and a stored search's device) names a device as `liftc --device`
  // does: its index, its type in any case ("cpu", "GPU"), or a part of its name; the first of a
  // type wins; a stored search's "NAME (PLATFORM)" finds its device; a name that matches nothing
  // finds nothing.
  void devicesAreNamedAsLiftcNamesThem() {
    DeviceChoice devices;
    if (devices.deviceCount() == 0) QSKIP("no OpenCL device");
    const auto& all = runtime::Device::all();
    auto row = [&](size_t i) { return devices.findData(QString::number(all[i].info().index)); };
    for (size_t i = 0; i < all.size(); ++i) {
      QCOMPARE(devices.findDevice(QString::number(i)), row(i));
      QString type = QString::fromStdString(all[i].info().type);
      size_t first = 0;
      while (all[first].info().type != all[i].info().type) ++first;
      QCOMPARE(devices.findDevice(type.toLower()), row(first));
      QCOMPARE(devices.findDevice(type.toUpper()), row(first));
    }
    QVERIFY(devices.findDevice(QString::fromStdString(all[0].info().name).mid(2, 6)) >= 0);
    for (size_t i = 0; i < all.size(); ++i)  // a stored search's device
      QCOMPARE(devices.findDevice(QString::fromStdString(explore::deviceName(all[i].info()))), row(i));
    QCOMPARE(devices.findDevice("no such device anywhere"), -1);
  }

  // asum is bandwidth-bound: its plot is in GB/s.
  void theYAxisFollowsTheProgram() {
    DeviceChoice devices;
    if (devices.findDevice("Portable Computing Language") < 0) QSKIP("no PoCL device");
    MainWindow w;
    w.setHeadless(true);
    QVERIFY(search(w, "asum", {{"N", "4096"}}, 2));
    QCOMPARE(w.performancePlot()->yAxis(), PerformancePlot::YAxis::Gbs);
    QVERIFY(w.performancePlot()->customPlot()->yAxis->label().contains("GB/s"));
  }

  // Before any search the empty plot already shows the program's unit: a newcomer who opens the
  // dot product sees GB/s there, as its run reports, not GFLOP/s (the axis was set only when a
  // search started).
  void theEmptyPlotShowsTheProgramsUnit() {
    MainWindow w;
    w.setHeadless(true);
    for (auto [example, unit] : {std::pair{"asum", PerformancePlot::YAxis::Gbs},
                                 {"matmul", PerformancePlot::YAxis::Gflops},
                                 {"lowlevel/dot", PerformancePlot::YAxis::Gbs}}) {
      QVERIFY(w.openExample(example));
      QCOMPARE(w.performancePlot()->pointCount(), 0);
      QVERIFY2(w.performancePlot()->yAxis() == unit, example);
    }
  }

  // The labels of library lines far above the points stack at the top right, where the latest
  // and best points are: the axis leaves them room, so that no label covers a point (the search
  // screenshot had "↑ OpenBLAS sgemm (host)" over the best kernel).
  void libraryLabelsCoverNoPoint() {
    PerformancePlot plot;
    plot.resize(900, 320);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    for (int i = 0; i < 30; ++i) {
      PlotPoint p;
      p.id = i + 1;
      p.valid = true;
      p.gflops = i == 29 ? 15 : 1 + i % 5;  // the best point last, at the right
      p.ms = 1;
      plot.addPoint(p);
    }
    plot.setReference("OpenBLAS sgemm (host)", 117, PerformancePlot::YAxis::Gflops);
    plot.setReference("copy bandwidth (device)", 350, PerformancePlot::YAxis::Gflops);
    plot.setReference("FMA peak (estimate)", 358, PerformancePlot::YAxis::Gflops);
    QCustomPlot* cp = plot.customPlot();
    cp->replot();
    double bestY = cp->yAxis->coordToPixel(15);
    int labels = 0;
    for (int i = 0; i < cp->itemCount(); ++i) {
      auto* text = qobject_cast<QCPItemText*>(cp->item(i));
      if (!text || !text->text().startsWith(QString::fromUtf8("↑"))) continue;
      ++labels;
      QVERIFY2(text->bottom->pixelPosition().y() < bestY - 3,
               qPrintable(QString("%1 ends at y %2, the best point is at %3")
                              .arg(text->text())
                              .arg(text->bottom->pixelPosition().y())
                              .arg(bestY)));
    }
    QCOMPARE(labels, 3);
  }

  // The y axis scales to the points (not to 0..1 nor to a far reference line); a single point
  // too (QCustomPlot's own rescale kept the axes' old width around it: -4 to 6).
  void theAxesFollowTheData() {
    {
      PerformancePlot one;
      PlotPoint p;
      p.id = 1;
      p.valid = true;
      p.gflops = 3;
      one.addPoint(p);
      QCPRange x = one.customPlot()->xAxis->range(), y = one.customPlot()->yAxis->range();
      QVERIFY2(x.lower == 0 && x.upper < 2, qPrintable(QString("%1 to %2").arg(x.lower).arg(x.upper)));
      QVERIFY2(y.lower == 0 && y.upper >= 3 && y.upper < 3.5, qPrintable(QString::number(y.upper)));
    }
    PerformancePlot plot;
    plot.setAxes(PerformancePlot::XAxis::Evaluation, PerformancePlot::YAxis::Gbs);
    for (int i = 0; i < 5; ++i) {
      PlotPoint p;
      p.id = i + 1;
      p.valid = true;
      p.gbs = 0.002 * (i + 1);
      p.ms = 1;
      plot.addPoint(p);
    }
    plot.setReference("far", 50, PerformancePlot::YAxis::Gbs);
    plot.setReference("near", 0.015, PerformancePlot::YAxis::Gbs);
    QCPRange y = plot.customPlot()->yAxis->range();
    QVERIFY2(y.upper >= 0.015 && y.upper < 0.02, qPrintable(QString::number(y.upper)));
    QCOMPARE(y.lower, 0.0);
    QCPRange x = plot.customPlot()->xAxis->range();
    QVERIFY(x.lower <= 1 && x.upper >= 5 && x.upper < 6);
  }
};

QTEST_MAIN(TestHonestDefaults)
#include "tst_honest_defaults.moc"
