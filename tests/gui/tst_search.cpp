// The search pane driven like a user, on the PoCL CPU device with tiny sizes: Start (the button),
// the plot fills with streamed kernels and the pane reaches its finished state; clicking the best
// point loads that kernel's derivation (history, kernel pane); the stored search reopens with the
// same points and resumes without measuring again; Stop and F6 stop a running search; closing
// the window while a search runs neither crashes nor hangs.
#include <QtTest/QtTest>

#include <QCheckBox>

#include <qcustomplot.h>
#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPushButton>
#include <QTemporaryDir>
#include <QToolTip>

#include "core/lang/Parser.h"
#include "core/lang/Printer.h"
#include "rewrite/explore/ResultStore.h"
#include "rewrite/explore/SearchProblem.h"
#include "views/DerivationTreeModel.h"
#include "views/DeviceChoice.h"
#include "views/KernelView.h"
#include "views/MainWindow.h"
#include "views/PerformancePlot.h"
#include "views/RunPanel.h"
#include "views/SearchPanel.h"
#include "views/Session.h"
#include "views/SizeFields.h"

using namespace lift;
using namespace lift::views;

// The longest the GUI thread went without serving its event loop (a 10 ms timer's largest gap).
class LatencyProbe : public QObject {
 public:
  LatencyProbe() {
    clock_.start();
    timer_.setInterval(10);
    QObject::connect(&timer_, &QTimer::timeout, this, [this] {
      qint64 now = clock_.elapsed();
      maxGap_ = std::max(maxGap_, now - last_);
      last_ = now;
    });
    timer_.start();
  }
  qint64 maxGapMs() const { return maxGap_; }

 private:
  QElapsedTimer clock_;
  QTimer timer_;
  qint64 last_ = 0, maxGap_ = 0;
};

class TestSearch : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString store_;
  int firstPoints_ = 0;

  // matmul at 8x8x8 on the PoCL device, the store in the temporary folder.
  bool setUp(MainWindow& w, int seconds, int maxKernels) {
    w.resize(1400, 900);
    w.show();
    if (!w.openExample("matmul")) return false;
    SearchPanel* s = w.searchPanel();
    int pocl = s->deviceChoice()->findDevice("Portable Computing Language");
    if (pocl < 0) return false;
    s->deviceChoice()->setCurrentIndex(pocl);
    s->sizeFields()->setTexts({{"M", "8"}, {"N", "8"}, {"K", "8"}});
    s->setLimits(seconds, maxKernels);
    s->setStorePath(store_);
    return true;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    qputenv("LIFT_LIFTC", LIFT_LIFTC);
    QVERIFY(dir_.isValid());
    DeviceChoice devices;
    if (devices.findDevice("Portable Computing Language") < 0) QSKIP("no PoCL device");
    store_ = dir_.filePath("searches.sqlite");
  }

  void searchFillsThePlot() {
    MainWindow w;
    QVERIFY(setUp(w, 120, 5));
    SearchPanel* s = w.searchPanel();
    PerformancePlot* plot = w.performancePlot();
    QCOMPARE(plot->pointCount(), 0);
    auto* start = s->findChild<QPushButton*>("startSearch");
    QVERIFY(start->isEnabled());
    LatencyProbe probe;
    QTest::mouseClick(start, Qt::LeftButton);
    QVERIFY(s->isRunning());
    QVERIFY(s->findChild<QPushButton*>("stopSearch")->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!s->isRunning(), 180'000);
    // The search runs beside the event loop: it is served all along (a generous bound, as the
    // machine is shared; the typical gap is printed).
    qInfo("longest gap in the GUI thread's event loop during the search: %lld ms", probe.maxGapMs());
    QVERIFY2(probe.maxGapMs() < 250,
             qPrintable(QString("the GUI thread blocked for %1 ms").arg(probe.maxGapMs())));
    QCOMPARE(s->lastSummary().stopReason, explore::StopReason::KernelLimit);
    QCOMPARE(plot->pointCount(), 5);
    QVERIFY(plot->bestIndex() >= 0);
    QVERIFY(start->isEnabled());
    QVERIFY2(s->activityText().contains("kernel-limit"), qPrintable(s->activityText()));
    QVERIFY2(s->countsText().contains("evaluated <b>5</b>"), qPrintable(s->countsText()));
    // Every kernel is in the store.
    explore::ResultStore store(store_.toStdString());
    QCOMPARE(store.count(), 5);
    firstPoints_ = plot->pointCount();

    // Clicking the best point loads its derivation: a new root (the program at the searched
    // sizes) with the steps, and the kernel pane shows the kernel.
    QVERIFY(w.kernelView()->compiled() == nullptr);  // the high-level matmul has none
    int states = w.session()->tree()->stateCount();
    w.runPanel()->setSizeTexts({{"M", "1024"}, {"N", "1024"}, {"K", "1024"}});
    plot->clickPoint(plot->bestIndex());
    QTRY_VERIFY_WITH_TIMEOUT(!w.session()->isReplaying(), 30'000);
    QVERIFY(w.session()->tree()->stateCount() > states + 1);
    // The loaded kernel runs at the sizes it was searched at.
    QCOMPARE(w.runPanel()->sizeTexts().value("M"), QString("8"));
    QCOMPARE(w.runPanel()->sizeTexts().value("K"), QString("8"));
    QVERIFY(w.kernelView()->compiled() != nullptr);
    QVERIFY2(w.kernelView()->source().contains("void matmul("),
             qPrintable(w.kernelView()->source().left(400)));
    QVERIFY(w.session()
                ->tree()
                ->state(w.session()->tree()->rootOf(w.session()->tree()->current()))
                .origin.contains("search kernel"));
    // The loaded program declares the searched sizes, not the file's defaults.
    std::string shown =
        lang::printProgram(w.session()->tree()->state(w.session()->tree()->current()).program->program);
    QVERIFY2(shown.find("size M = 8") != std::string::npos, shown.c_str());
    QCOMPARE(plot->highlight(), plot->point(plot->bestIndex()).id);
    w.session()->waitForChecks();

    // Hovering a point shows its configuration.
    plot->customPlot()->replot();
    const PlotPoint& bp = plot->point(plot->bestIndex());
    QPoint at(int(plot->customPlot()->xAxis->coordToPixel(plot->bestIndex() + 1)),
              int(plot->customPlot()->yAxis->coordToPixel(bp.gflops)));
    QTest::mouseMove(plot->customPlot(), at);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(bp.label), qPrintable(QToolTip::text()));

    // The other axes: the fastest kernel is still the best one.
    int best = plot->bestIndex();
    plot->setAxes(PerformancePlot::XAxis::Time, PerformancePlot::YAxis::Milliseconds);
    QCOMPARE(plot->bestIndex(), best);
    plot->setAxes(PerformancePlot::XAxis::Evaluation, PerformancePlot::YAxis::Gflops);

    // File > Export > Plot.
    QVERIFY(w.exportPlot(dir_.filePath("plot.png")));
    QVERIFY(w.exportPlot(dir_.filePath("plot.pdf")));
    QVERIFY(QFileInfo(dir_.filePath("plot.png")).size() > 1000);
    QVERIFY(QFileInfo(dir_.filePath("plot.pdf")).size() > 1000);
  }

  void failedKernelShowsWhy() {
    // A store with one kernel that computed a wrong result.
    QString path = dir_.filePath("failed.sqlite");
    {
      explore::ResultStore store(path.toStdString());
      explore::SearchRecord r;
      r.program = "matmul.lift";
      r.strategy = "random";
      r.device = "some device";
      r.sizes = "K=8,M=8,N=8";
      int64_t id = store.beginSearch(r);
      explore::KernelRecord k;
      k.searchId = id;
      k.program = "matmul";
      k.derivation = "map-to-glb@0:dim=0";
      k.parameters = "local=1";
      k.device = r.device;
      k.sizes = r.sizes;
      k.programHash = "1";
      k.status = "wrong-result";
      k.message = "out[3] is 7, expected 8";
      store.addKernel(k);
      store.finishSearch(id, "kernel-limit", 1, 0, 0);
    }
    MainWindow w;
    QVERIFY(setUp(w, 10, 0));
    QVERIFY(w.searchPanel()->openStore(path));
    QCOMPARE(w.performancePlot()->pointCount(), 1);
    QCOMPARE(w.performancePlot()->bestIndex(), -1);
    int states = w.session()->tree()->stateCount();
    w.performancePlot()->clickPoint(0);
    QVERIFY(!w.session()->isReplaying());
    QCOMPARE(w.session()->tree()->stateCount(), states);
    QVERIFY2(w.searchPanel()->detailText().contains("wrong-result"),
             qPrintable(w.searchPanel()->detailText()));
    QVERIFY(w.searchPanel()->detailText().contains("expected 8"));
  }

  // A stored kernel found with the code generator's tuning switches (unroll=4,vload=1) shows in
  // the kernel pane as it was measured: clicking it sets the switches, clicking one found
  // without them clears them.
  void storedKernelShowsWithItsSwitches() {
    QString path = dir_.filePath("switches.sqlite");
    std::string matmul = LIFT_SOURCE_DIR "/resources/examples/matmul.lift";
    {
      explore::ResultStore store(path.toStdString());
      explore::SearchRecord r;
      r.program = matmul;
      r.startHash =
          explore::SearchProblem::make(lang::parseFile(matmul), {{"M", 8}, {"N", 8}, {"K", 8}}).startHash;
      r.strategy = "three-phase";
      r.device = "some GPU";
      r.sizes = "K=8,M=8,N=8";
      int64_t id = store.beginSearch(r);
      for (const char* parameters : {"dbuf=2,pfparts=2,tunroll=2,unroll=4,vload=1,local=8", "local=4"}) {
        explore::KernelRecord k;
        k.searchId = id;
        k.program = "matmul";
        k.startHash = r.startHash;
        k.derivation = "map-to-glb@0:dim=0";
        k.parameters = parameters;
        k.device = r.device;
        k.sizes = r.sizes;
        k.programHash = parameters;
        k.status = "ok";
        k.medianMs = k.minMs = k.maxMs = 1;
        k.gflops = 1;
        store.addKernel(k);
      }
      store.finishSearch(id, "kernel-limit", 2, 0, 0);
    }
    MainWindow w;
    QVERIFY(setUp(w, 10, 0));
    QString error;
    QVERIFY2(w.searchPanel()->openStore(path, 0, &error), qPrintable(error));
    QCOMPARE(w.performancePlot()->pointCount(), 2);
    QVERIFY(!w.session()->compileOptions().vectorLocalLoads);
    w.performancePlot()->clickPoint(0);
    QTRY_VERIFY_WITH_TIMEOUT(!w.session()->isReplaying(), 30'000);
    QVERIFY2(w.searchPanel()->loadedParameters().contains("unroll=4"),
             qPrintable(w.searchPanel()->loadedParameters()));
    QCOMPARE(w.session()->compileOptions().innerLoopUnroll, 4);
    QCOMPARE(w.session()->compileOptions().tileLoopUnroll, 2);
    // The toggles with a value show the stored kernel's.
    QCOMPARE(w.kernelView()->findChild<QCheckBox*>("toggleUnrollPragma")->text(),
             QString("Unroll inner loops x4"));
    QVERIFY(w.kernelView()->findChild<QCheckBox*>("toggleUnrollTiles")->isChecked());
    QVERIFY(w.session()->compileOptions().vectorLocalLoads);
    QVERIFY(w.session()->compileOptions().registerPrefetch);
    QCOMPARE(w.session()->compileOptions().prefetchParts, 2);
    QVERIFY(w.kernelView()->findChild<QCheckBox*>("togglePrefetchParts")->isChecked());
    w.performancePlot()->clickPoint(1);
    QTRY_VERIFY_WITH_TIMEOUT(!w.session()->isReplaying(), 30'000);
    QCOMPARE(w.session()->compileOptions().innerLoopUnroll, 1);
    QCOMPARE(w.session()->compileOptions().tileLoopUnroll, 1);
    QCOMPARE(w.session()->compileOptions().prefetchParts, 1);
    QVERIFY(!w.session()->compileOptions().vectorLocalLoads);
  }

  void reopenAndResume() {
    QVERIFY(firstPoints_ > 0);
    MainWindow w;
    QVERIFY(setUp(w, 120, 3));
    SearchPanel* s = w.searchPanel();
    PerformancePlot* plot = w.performancePlot();
    s->setStorePath(dir_.filePath("elsewhere.sqlite"));
    QString error;
    QVERIFY2(s->openStore(store_, 0, &error), qPrintable(error));
    QCOMPARE(s->storePath(), store_);
    QCOMPARE(plot->pointCount(), firstPoints_);
    QCOMPARE(s->sizeFields()->texts().value("M"), QString("8"));
    // A stored point loads like a live one.
    plot->clickPoint(plot->bestIndex());
    QTRY_VERIFY_WITH_TIMEOUT(!w.session()->isReplaying(), 30'000);
    QVERIFY(w.kernelView()->compiled() != nullptr);

    // Resuming: the stored kernels come back as stored, three new ones are measured. The search
    // starts from the searched program, not from the loaded kernel's (specialised) start.
    s->start();
    QVERIFY2(s->activityText().contains("matmul.lift at K=8,M=8,N=8"), qPrintable(s->activityText()));
    QTRY_VERIFY_WITH_TIMEOUT(!s->isRunning(), 180'000);
    QCOMPARE(s->lastSummary().stopReason, explore::StopReason::KernelLimit);
    QVERIFY(s->lastSummary().counts.cached >= 1);
    QCOMPARE(s->lastSummary().counts.evaluated, 3);
    QCOMPARE(plot->pointCount(), firstPoints_ + 3);
    QCOMPARE(explore::ResultStore(store_.toStdString()).count(), firstPoints_ + 3);

    // A file that is not a store is refused with a reason, and the plot stays.
    QFile junk(dir_.filePath("junk.sqlite"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("not a database at all, just text");
    junk.close();
    QVERIFY(!s->openStore(junk.fileName(), 0, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(plot->pointCount(), firstPoints_ + 3);
  }

  void stopAndShortcut() {
    MainWindow w;
    QVERIFY(setUp(w, 600, 0));
    SearchPanel* s = w.searchPanel();
    s->setStorePath(dir_.filePath("stop.sqlite"));
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(&w, Qt::Key_F6);  // Run > Start/stop search
    QVERIFY(s->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(w.performancePlot()->pointCount() >= 1, 120'000);
    QElapsedTimer t;
    t.start();
    QTest::mouseClick(s->findChild<QPushButton*>("stopSearch"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!s->isRunning(), 30'000);
    qInfo("stopped after %lld ms", static_cast<long long>(t.elapsed()));
    QCOMPARE(s->lastSummary().stopReason, explore::StopReason::Cancelled);

    // F6 again starts, and F6 stops.
    QTest::keyClick(&w, Qt::Key_F6);
    QVERIFY(s->isRunning());
    QTest::keyClick(&w, Qt::Key_F6);
    QTRY_VERIFY_WITH_TIMEOUT(!s->isRunning(), 30'000);
    QCOMPARE(s->lastSummary().stopReason, explore::StopReason::Cancelled);
  }

  // F6 pressed quickly several times (issue 18): an even number of presses leaves no search
  // running, however the presses fall between a search's start, its stopping and its end; an
  // odd number leaves one running, and the window says which.
  void quickF6PressesEndAsTheirCountSays() {
    MainWindow w;
    QVERIFY(setUp(w, 600, 0));
    SearchPanel* s = w.searchPanel();
    s->setStorePath(dir_.filePath("quick.sqlite"));
    QApplication::setActiveWindow(&w);
    QVERIFY(QTest::qWaitForWindowActive(&w));
    for (int presses : {2, 4, 3, 6}) {
      for (int i = 0; i < presses; ++i) {
        QTest::keyClick(&w, Qt::Key_F6);
        QTest::qWait(i % 2 ? 20 : 120);
      }
      if (presses % 2) {  // one left running: stop it
        QTRY_VERIFY_WITH_TIMEOUT(s->isRunning(), 30'000);
        QTest::keyClick(&w, Qt::Key_F6);
      }
      QTRY_VERIFY2_WITH_TIMEOUT(!s->isRunning(), qPrintable(QString::number(presses)), 30'000);
      QTest::qWait(500);  // nothing starts later on its own
      QVERIFY2(!s->isRunning(), qPrintable(QString::number(presses)));
      QVERIFY(w.searchAction()->isEnabled());
      QVERIFY2(s->findChild<QPushButton*>("startSearch")->isEnabled(), qPrintable(s->activityText()));
      QVERIFY2(!s->activityText().contains("Stopping"), qPrintable(s->activityText()));
    }
  }

  // Opening another example stops a running search of the old one: nothing it still reports
  // reaches the new program's plot, and its kernels stay in the store.
  void switchingExampleStopsTheSearch() {
    MainWindow w;
    QVERIFY(setUp(w, 120, 0));
    SearchPanel* s = w.searchPanel();
    s->start();
    QVERIFY(s->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(w.performancePlot()->pointCount() > 0, 60'000);
    QVERIFY(w.openExample("scal"));
    QCOMPARE(w.performancePlot()->pointCount(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!s->isRunning(), 60'000);
    QCOMPARE(w.performancePlot()->pointCount(), 0);
    QVERIFY2(s->activityText().contains("stopped"), qPrintable(s->activityText()));
    QVERIFY(w.searchAction()->isEnabled());  // scal can be searched now
  }

  void closingWhileSearching() {
    auto* w = new MainWindow;
    QVERIFY(setUp(*w, 600, 0));
    w->searchPanel()->setStorePath(dir_.filePath("close.sqlite"));
    w->searchPanel()->start();
    QVERIFY(w->searchPanel()->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(w->performancePlot()->pointCount() >= 1, 120'000);
    QElapsedTimer t;
    t.start();
    w->close();
    delete w;  // cancels the search and joins its thread
    qInfo("closed in %lld ms", static_cast<long long>(t.elapsed()));
    QVERIFY(t.elapsed() < 10'000);
    QCoreApplication::processEvents();  // events the search queued for the closed window are dropped

    // Also while the search is still setting up (worker start, phase 1).
    for (int wait : {0, 300, 1500}) {
      auto* early = new MainWindow;
      QVERIFY(setUp(*early, 600, 0));
      early->searchPanel()->setStorePath(dir_.filePath("close-early.sqlite"));
      early->searchPanel()->start();
      QTest::qWait(wait);
      t.restart();
      delete early;
      qInfo("closed %d ms after the start in %lld ms", wait, static_cast<long long>(t.elapsed()));
      QVERIFY(t.elapsed() < 10'000);
    }
  }

  void badSettingsAreExplained() {
    MainWindow w;
    QVERIFY(setUp(w, 0, 0));
    SearchPanel* s = w.searchPanel();
    s->start();
    QVERIFY(!s->isRunning());
    QVERIFY(s->activityText().contains("budget"));
    s->setLimits(10, 0);
    s->sizeFields()->setTexts({{"M", "zero"}});
    s->start();
    QVERIFY(!s->isRunning());
    QVERIFY(s->activityText().contains("positive integer"));
  }

  // The plot follows the palette: dark background and light labels under a dark palette.
  void plotFollowsThePalette() {
    views::PerformancePlot plot;
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(220, 220, 220));
    plot.setPalette(dark);
    QCOMPARE(plot.customPlot()->xAxis->tickLabelColor(), QColor(220, 220, 220));
    QCOMPARE(plot.customPlot()->legend->textColor(), QColor(220, 220, 220));
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    plot.setPalette(light);
    QCOMPARE(plot.customPlot()->yAxis->tickLabelColor(), QColor(Qt::black));
  }
};

QTEST_MAIN(TestSearch)
#include "tst_search.moc"
