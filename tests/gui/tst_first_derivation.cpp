// The README's first derivation, done as it tells a newcomer to (issue 18, part 7): naive matmul,
// four times a click on the named node, a rule picked in the rewrite pane (a parameter set) and
// Apply; then a kernel in the kernel pane, every step verified, and Run (Ctrl+R) gives a valid
// result at the quick sizes on the CPU device. The README's command line does the same steps.
#include <QtTest/QtTest>

#include <QComboBox>
#include <QPushButton>
#include <QTreeWidget>

#include "views/DerivationTreeModel.h"
#include "views/DeviceChoice.h"
#include "views/GraphView.h"
#include "views/KernelView.h"
#include "views/MainWindow.h"
#include "views/ProgramEditor.h"
#include "views/RulePalette.h"
#include "views/RunPanel.h"
#include "views/Session.h"

using namespace lift;
using namespace lift::views;

class TestFirstDerivation : public QObject {
  Q_OBJECT

  // Clicks, one after the other, the nodes whose label starts with `label` until the rewrite pane offers
  // `rule` at a location starting with `at`; false if none does.
  static bool clickNodeOffering(MainWindow& w, const QString& label, const QString& rule, const QString& at) {
    GraphView* g = w.graphView();
    for (auto& n : g->graph().nodes) {
      if (!QString::fromStdString(n.label).startsWith(label)) continue;
      QRectF r = g->nodeRect(n.irId);
      g->centerOn(r.center());
      QTest::mouseClick(g->viewport(), Qt::LeftButton, {}, g->mapFromScene(r.center()));
      w.rulePalette()->waitForRules();
      for (const QString& spec : w.rulePalette()->applicableSpecs())
        if (spec.startsWith(rule + "@" + at)) return true;
    }
    QStringList labels;
    for (auto& n : g->graph().nodes) labels << QString::fromStdString(n.label);
    qWarning("no node labelled %s offers %s@%s; the nodes: %s", qPrintable(label), qPrintable(rule),
             qPrintable(at), qPrintable(labels.join(", ")));
    return false;
  }
  // Picks `rule` in the tree (a click), sets its parameter `param` to `value` (if given), Apply.
  static bool apply(MainWindow& w, const QString& rule, const QString& param = {},
                    const QString& value = {}) {
    RulePalette* rules = w.rulePalette();
    auto* tree = rules->findChild<QTreeWidget*>("ruleTree");
    QTreeWidgetItem* item = nullptr;
    for (int g = 0; g < tree->topLevelItemCount() && !item; ++g)
      for (int c = 0; c < tree->topLevelItem(g)->childCount(); ++c)
        if (tree->topLevelItem(g)->child(c)->text(0) == rule) item = tree->topLevelItem(g)->child(c);
    if (!item) return false;
    tree->scrollToItem(item);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
    if (!param.isEmpty()) {
      auto* box = rules->findChild<QComboBox*>("param_" + param);
      if (!box) return false;
      box->setCurrentText(value);
    }
    auto* button = rules->findChild<QPushButton*>("applyRule");
    int states = w.session()->tree()->stateCount();
    if (!button->isEnabled()) return false;
    QTest::mouseClick(button, Qt::LeftButton);
    return w.session()->tree()->stateCount() == states + 1;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    qputenv("LIFT_LIFTC", LIFT_LIFTC);
  }

  void naiveMatmulToARunningKernel() {
    MainWindow w;
    w.setHeadless(true);
    w.resize(1600, 1000);
    w.show();
    QVERIFY(w.openExample("matmul"));
    QVERIFY(w.kernelView()->compiled() == nullptr);
    // 1. The outer map (over the rows of A): map-to-glb, dim 1.
    QVERIFY(clickNodeOffering(w, "map", "map-to-glb", "0:"));
    QVERIFY(apply(w, "map-to-glb", "dim", "1"));
    QVERIFY(w.programEditor()->text().contains("mapGlb1"));
    // 2. The inner map (over the columns of B): map-to-glb, dim 0.
    QVERIFY(clickNodeOffering(w, "map", "map-to-glb", "0.0.0.0:"));
    QVERIFY(apply(w, "map-to-glb", "dim", "0"));
    QVERIFY(w.programEditor()->text().contains("mapGlb0"));
    // 3. reduce: reduce-map-fusion.
    QVERIFY(clickNodeOffering(w, "reduce", "reduce-map-fusion", "0.0.0.0.0.0.0"));
    QVERIFY(apply(w, "reduce-map-fusion"));
    // 4. reduce again: reduce-to-seq.
    QVERIFY(clickNodeOffering(w, "reduce", "reduce-to-seq", "0.0.0.0.0.0.0"));
    QVERIFY(apply(w, "reduce-to-seq"));
    QVERIFY(w.programEditor()->text().contains("reduceSeq"));
    // Now the kernel pane shows the kernel: a thread per element of the result, a loop over K.
    QVERIFY2(w.kernelView()->compiled() != nullptr, qPrintable(w.kernelView()->errorText()));
    QVERIFY(w.kernelView()->source().contains("get_global_id(1)"));
    QVERIFY(w.kernelView()->source().contains("for (int i = 0; i < K;"));
    w.session()->waitForChecks();
    QCOMPARE(w.session()->tree()->stateCount(), 5);
    for (int i = 1; i < 5; ++i)
      QVERIFY2(w.session()->tree()->state(i).check == DerivationTreeModel::Check::Verified,
               qPrintable(w.session()->tree()->state(i).checkMessage));

    // 5. Ctrl+R: run at the quick sizes on the CPU device.
    int pocl = w.runPanel()->deviceChoice()->findDevice("Portable Computing Language");
    if (pocl < 0) QSKIP("no PoCL device");
    w.runPanel()->deviceChoice()->setCurrentIndex(pocl);
    w.runAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!w.runPanel()->isRunning(), 120'000);
    QVERIFY2(w.runPanel()->resultText().contains("ok: median"), qPrintable(w.runPanel()->resultText()));
  }
};

QTEST_MAIN(TestFirstDerivation)
#include "tst_first_derivation.moc"
