// A window that uses the screen (issue 18, parts 1 and 6): it opens at a size that fits the
// available screen, the graph in the centre never squeezed below a useful width (a remembered
// layout included), fitted again on resize and on load; the rule preview starts at the change;
// the index table shows the simplified index before the long raw one; the graph has a legend
// under it; at 1920x1080 the graph is the widest column, a long device name notwithstanding, and
// the derivation pane shows its steps' rule names whole;
// the rule pane names the node in words, not by its location path.
#include <QtTest/QtTest>

#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QScreen>
#include <QScrollBar>
#include <QTableView>
#include <QTextBlock>
#include <QTextEdit>
#include <QTreeView>

#include "OffscreenScreen.h"
#include "views/DerivationHistory.h"
#include "views/DeviceChoice.h"
#include "views/GraphLegend.h"
#include "views/GraphPane.h"
#include "views/GraphView.h"
#include "views/IndexTableModel.h"
#include "views/KernelView.h"
#include "views/MainWindow.h"
#include "views/RulePalette.h"
#include "views/RunPanel.h"
#include "views/SearchPanel.h"
#include "views/Session.h"

using namespace lift;
using namespace lift::views;

class TestWindowLayout : public QObject {
  Q_OBJECT

  static void forgetLayout() {
    QSettings settings;
    settings.remove("window");
  }
  // The graph's bounds in the view's viewport.
  static QRect graphOnScreen(GraphView* g) { return g->mapFromScene(g->sceneRect()).boundingRect(); }
  // Fitted: the whole graph is in the viewport and fills it in one direction (or is at the
  // largest a fit enlarges it), or, too large for that with readable labels, it fills the
  // viewport at the readable scale.
  static bool isFitted(GraphView* g) {
    QRect r = graphOnScreen(g), v = g->viewport()->rect();
    if (qFuzzyCompare(g->transform().m11(), g->readableScale()))
      return r.width() >= v.width() - 4 || r.height() >= v.height() - 4;
    bool inside = v.adjusted(-2, -2, 2, 2).contains(r);
    bool fills = r.width() >= v.width() - 4 || r.height() >= v.height() - 4 || g->transform().m11() >= 1.49;
    return inside && fills;
  }

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void cleanup() { forgetLayout(); }

  void opensAtASizeThatFitsTheScreen() {
    forgetLayout();
    QCOMPARE(QGuiApplication::primaryScreen()->size(), QSize(1920, 1080));
    {
      MainWindow w;
      QRect avail = w.screen()->availableGeometry();
      QVERIFY2(w.width() <= avail.width() && w.height() <= avail.height(),
               qPrintable(QString("%1x%2 on %3x%4")
                              .arg(w.width())
                              .arg(w.height())
                              .arg(avail.width())
                              .arg(avail.height())));
      QVERIFY(w.width() >= avail.width() * 8 / 10);  // and uses it
      w.resize(avail.size() * 2);                    // remembered larger than the screen...
    }
    MainWindow again;  // ...comes back at a size that fits
    QRect avail = again.screen()->availableGeometry();
    QVERIFY2(again.width() <= avail.width() && again.height() <= avail.height(),
             qPrintable(QString("%1x%2 on %3x%4")
                            .arg(again.width())
                            .arg(again.height())
                            .arg(avail.width())
                            .arg(avail.height())));
  }

  // A layout remembered from before (a search had widened the right panes to 1100 px) cannot
  // squeeze the graph.
  void aRememberedLayoutKeepsTheGraphWide() {
    QByteArray state;
    {
      MainWindow old;
      old.resize(1400, 900);
      old.graphPane()->setMinimumWidth(0);  // as the window was before it had a minimum
      old.show();
      auto* search = old.findChild<QDockWidget*>("searchDock");
      old.resizeDocks({search}, {1100}, Qt::Horizontal);
      QApplication::processEvents();
      QVERIFY2(old.graphPane()->width() < MainWindow::kGraphMinWidth,
               qPrintable(QString::number(old.graphPane()->width())));
      state = old.saveState();
    }
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.restoreState(state));
    QApplication::processEvents();
    QVERIFY2(w.graphPane()->width() >= MainWindow::kGraphMinWidth,
             qPrintable(QString::number(w.graphPane()->width())));
    // Nor can a pane be dragged wider than that leaves.
    w.resizeDocks({w.findChild<QDockWidget*>("rewriteDock")}, {1300}, Qt::Horizontal);
    QApplication::processEvents();
    QVERIFY(w.graphPane()->width() >= MainWindow::kGraphMinWidth);
  }

  // At 1920x1080 the graph is the centre of the window: the widest column, however long the
  // device's name (the device box was as wide as its label: the right column took 700 px and
  // left the graph its 480 px minimum).
  void theGraphIsTheWidestColumnAt1920x1080() {
    forgetLayout();
    MainWindow w;
    w.setHeadless(true);
    DeviceChoice* device = w.runPanel()->deviceChoice();
    QString longName =
        "9: pthread-skylake-avx512-Intel(R) Xeon(R) Platinum 8488C Processor @ 2.80GHz with "
        "a name as long as a sentence (Portable Computing Language)";
    // Both panes list the same devices, and follow each other's choice.
    for (DeviceChoice* d : {device, w.searchPanel()->deviceChoice()}) d->addItem(longName, "9");
    device->setCurrentIndex(device->count() - 1);
    w.show();  // at the size a first start opens at
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openExample("matmul"));
    QApplication::processEvents();
    int graph = w.graphPane()->width();
    QString widths = QString("graph %1 px in a %2 px window;").arg(graph).arg(w.width());
    for (const char* name : {"programDock", "kernelDock", "rewriteDock", "runDock"}) {
      int dock = w.findChild<QDockWidget*>(name)->width();
      widths += QString(" %1 %2").arg(name).arg(dock);
      QVERIFY2(graph > dock, qPrintable(widths));
    }
    qInfo("%s", qPrintable(widths));
    QVERIFY2(graph >= w.width() / 3, qPrintable(widths));
    // The device's name is elided in the box, whole in its tooltip.
    QVERIFY(device->width() < device->fontMetrics().horizontalAdvance(longName));
    QVERIFY2(device->shownText().endsWith(QChar(0x2026)), qPrintable(device->shownText()));
    QCOMPARE(device->toolTip(), longName);
    // At Fit, the naive matmul's graph is whole in the view with readable labels.
    GraphView* g = w.graphView();
    QVERIFY(g->isFitting());
    QVERIFY(g->labelPixels() >= GraphView::kMinLabelPixels - 0.01);
    QVERIFY(g->viewport()->rect().adjusted(-2, -2, 2, 2).contains(graphOnScreen(g)));
  }

  // The derivation pane shows each step's rule name whole at the first start's layout: the check
  // and performance columns are as wide as their text, the step column takes the rest.
  void theDerivationPaneShowsTheRuleNames() {
    forgetLayout();
    MainWindow w;
    w.setHeadless(true);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openExample("matmul"));
    for (const char* spec : {"map-to-glb@0:dim=1", "map-to-glb@0.0.0.0:dim=0",
                             "reduce-map-fusion@0.0.0.0.0.0.0", "reduce-to-seq@0.0.0.0.0.0.0"})
      QVERIFY2(w.session()->applyRewrite(spec), spec);
    QApplication::processEvents();
    QTreeView* view = w.history()->view();
    auto* model = view->model();
    QCOMPARE(model->rowCount(), 5);
    for (int r = 1; r < model->rowCount(); ++r) {
      QModelIndex step = model->index(r, 0);
      QString rule = step.data().toString().section('@', 0, 0);  // "3. reduce-map-fusion"
      int needed = view->fontMetrics().horizontalAdvance(rule) +
                   2 * view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin);
      QVERIFY2(view->visualRect(step).width() >= needed,
               qPrintable(
                   QString("%1: %2 px for %3 px").arg(rule).arg(view->visualRect(step).width()).arg(needed)));
    }
  }

  void theGraphIsFittedOnResizeAndOnLoad() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("lowlevel/matmul_tiled_gpu"));
    QApplication::processEvents();
    GraphView* g = w.graphView();
    QVERIFY(isFitted(g));
    double before = g->transform().m11();
    w.resize(1800, 1000);
    QApplication::processEvents();
    QVERIFY(isFitted(g));
    QVERIFY(g->transform().m11() > before || qFuzzyCompare(before, g->readableScale()));
    // Zoomed by the user, the view keeps the zoom on a resize...
    g->zoomIn();
    QVERIFY(!g->isFitting());
    double zoomed = g->transform().m11();
    w.resize(1500, 950);
    QApplication::processEvents();
    QCOMPARE(g->transform().m11(), zoomed);
    // ...until another program is loaded (or Fit is pressed).
    QVERIFY(w.openExample("matmul"));
    QApplication::processEvents();
    QVERIFY(g->isFitting());
    QVERIFY(isFitted(g));
    g->zoomOut();
    w.graphPane()->fitAction()->trigger();
    QVERIFY(isFitted(g));
  }

  // The preview of a rule starts two lines above its first change, wherever that is.
  void thePreviewIsScrolledToTheChange() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("lowlevel/matmul_tiled_gpu"));
    auto* preview = w.rulePalette()->findChild<QTextEdit*>("rulePreview");
    QVERIFY(preview);
    const auto& nodes = w.graphView()->graph().nodes;
    bool scrolled = false;
    for (size_t i = nodes.size(); i-- > 0 && !scrolled;) {
      if (!w.selectNodeByLabel(QString::fromStdString(nodes[i].label))) continue;
      if (w.rulePalette()->applicableCount() == 0) continue;
      // The user picks a rule (none is picked for them): the first that applies.
      QVERIFY(w.rulePalette()->selectRule(w.rulePalette()->applicableSpecs().first().section('@', 0, 0)));
      QApplication::processEvents();
      if (preview->verticalScrollBar()->value() == 0) continue;
      scrolled = true;
      QTextBlock top = preview->cursorForPosition(QPoint(2, 2)).block();
      QTextBlock b = top;
      for (int k = 0; k < 2 && b.isValid(); ++k) {
        QVERIFY2(!b.text().startsWith("- ") && !b.text().startsWith("+ "), qPrintable(b.text()));
        b = b.next();
      }
      QVERIFY2(b.text().startsWith("- ") || b.text().startsWith("+ "), qPrintable(b.text()));
    }
    QVERIFY2(scrolled, "no rule changes a line below the preview's first screen");
  }

  void theIndexTableShowsTheSimplifiedIndexFirst() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("lowlevel/matmul_tiled_gpu"));
    auto* table = w.kernelView()->findChild<QTableView*>("indexTable");
    QVERIFY(table && table->model()->rowCount() > 0);
    QApplication::processEvents();
    auto header = [&](int c) { return table->model()->headerData(c, Qt::Horizontal).toString(); };
    QCOMPARE(header(IndexTableModel::Simplified), QString("Simplified index"));
    QCOMPARE(header(table->model()->columnCount() - 1), QString("Raw index"));
    QVERIFY(IndexTableModel::Simplified < IndexTableModel::Raw);
    QVERIFY(table->columnViewportPosition(IndexTableModel::Simplified) < table->viewport()->width());
  }

  void theGraphHasALegend() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("matmul"));
    GraphLegend* legend = w.graphPane()->legend();
    QVERIFY(legend->isVisible());
    QStringList entries = legend->entries();
    for (QString what :
         {"mapGlb", "mapWrg", "mapLcl", "toLocal", "user function", "data flows", "made by the last rewrite"})
      QVERIFY2(entries.filter(what).size() == 1, qPrintable(what + " in " + entries.join(" | ")));
    // Under the graph, not over it: no node is hidden behind the legend.
    QVERIFY(!legend->geometry().intersects(w.graphView()->geometry()));
    QVERIFY(legend->geometry().top() >= w.graphView()->geometry().bottom());
    w.graphPane()->legendAction()->trigger();
    QVERIFY(!legend->isVisible());
    w.graphPane()->legendAction()->trigger();
    QVERIFY(legend->isVisible());
  }

  // "map (line 8) — 2 rules apply", not "call of map at 0.0.0.0.2.1 — 2 rules apply".
  void theRulePaneNamesTheNodeInWords() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("matmul"));
    QVERIFY(w.session()->applyRewrite("map-map-interchange@0"));
    auto* header = w.rulePalette()->findChild<QLabel*>("ruleHeader");
    for (auto [label, word] : {std::pair{"zip", "zip"}, {"transpose", "transpose"}, {"map(mult)", "map"}}) {
      QVERIFY(w.selectNodeByLabel(label));
      QString text = header->text();
      QVERIFY2(QRegularExpression("^<b>" + QString(word) +
                                  " \\(line \\d+\\)</b> — (1 rule applies|\\d+ rules apply)$")
                   .match(text)
                   .hasMatch(),
               qPrintable(text));
    }
  }
};

// On a 1920x1080 screen, as the user had.
int main(int argc, char** argv) {
  if (!useOffscreenScreen1920x1080()) return 1;
  QApplication app(argc, argv);
  TestWindowLayout test;
  QTEST_SET_MAIN_SOURCE_PATH
  return QTest::qExec(&test, argc, argv);
}
#include "tst_window_layout.moc"
