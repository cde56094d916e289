// DerivationTreeModel under QAbstractItemModelTester: states added as a line, a branch, a line
// inside the branch, a second root, checks and performance set, the current state moved, and a
// reset — the model stays consistent, and shows each state where the derivation pane expects
// it (a first child after its parent, a later child nested under it).
#include <QtTest/QtTest>

#include <QAbstractItemModelTester>
#include <QFont>

#include "views/DerivationTreeModel.h"

using namespace lift::views;
using Check = DerivationTreeModel::Check;

class TestDerivationTreeModel : public QObject {
  Q_OBJECT

  static QString label(const DerivationTreeModel& m, int state, int column = 0) {
    return m.indexOf(state, column).data().toString();
  }

 private slots:
  void linesAndBranches() {
    DerivationTreeModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m.columnCount(), 3);
    QCOMPARE(m.headerData(1, Qt::Horizontal).toString(), QString("Check"));

    int root = m.addRoot(nullptr, "matmul.lift", "text");
    int a = m.addStep(root, "map-map-interchange@0", nullptr);
    int b = m.addStep(a, "map-to-glb@0:dim=0", nullptr);
    // A line of steps: one level, in order.
    QCOMPARE(m.rowCount(), 3);
    QCOMPARE(m.index(0, 0).data(DerivationTreeModel::StateRole).toInt(), root);
    QCOMPARE(m.index(1, 0).data(DerivationTreeModel::StateRole).toInt(), a);
    QCOMPARE(m.index(2, 0).data(DerivationTreeModel::StateRole).toInt(), b);
    QCOMPARE(label(m, root), QString("start: matmul.lift"));
    QCOMPARE(label(m, b), QString("2. map-to-glb@0:dim=0"));

    // A second step from the root starts a branch nested under it; a step from the branch
    // continues inside it.
    int c = m.addStep(root, "map-to-glb@0:dim=0", nullptr);
    int d = m.addStep(c, "map-to-glb@0.0:dim=1", nullptr);
    QCOMPARE(m.rowCount(), 3);
    QModelIndex rootIndex = m.indexOf(root);
    QCOMPARE(m.rowCount(rootIndex), 2);
    QCOMPARE(m.parent(m.indexOf(c)), rootIndex);
    QCOMPARE(m.parent(m.indexOf(d)), rootIndex);
    QCOMPARE(m.indexOf(d).row(), m.indexOf(c).row() + 1);
    QCOMPARE(label(m, d), QString("2. map-to-glb@0.0:dim=1"));
    // A branch of the first line's second step goes under that step.
    int e = m.addStep(a, "split-join@0:n=4", nullptr);
    QCOMPARE(m.parent(m.indexOf(e)), m.indexOf(a));
    // A step from the last state of a branch continues that branch (first child, after it).
    int f = m.addStep(e, "split-join@0:n=2", nullptr);
    QCOMPARE(m.parent(m.indexOf(f)), m.indexOf(a));
    QCOMPARE(m.indexOf(f).row(), m.indexOf(e).row() + 1);

    QCOMPARE(m.rootOf(d), root);
    QCOMPARE(m.specsTo(d), (QStringList{"map-to-glb@0:dim=0", "map-to-glb@0.0:dim=1"}));
    std::string text = m.derivationTo(b, "matmul.lift").toText();
    QVERIFY2(text.find("map-map-interchange@0") != std::string::npos, text.c_str());

    int root2 = m.addRoot(nullptr, "edited matmul.lift", "text 2");
    QCOMPARE(m.rowCount(), 4);
    QCOMPARE(m.indexOf(root2).row(), 3);
    QCOMPARE(m.stateCount(), 8);
  }

  void checksPerformanceAndCurrent() {
    DerivationTreeModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    int root = m.addRoot(nullptr, "scal.lift", "text");
    int a = m.addStep(root, "map-to-glb@0:dim=0", nullptr);
    QCOMPARE(label(m, root, 1), QString());
    QCOMPARE(label(m, a, 1), QString("not checked"));
    QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
    m.setCheck(a, Check::Pending, {});
    QCOMPARE(label(m, a, 1), QString("checking…"));
    m.setCheck(a, Check::Verified, "same results");
    QCOMPARE(label(m, a, 1), QString("✓ verified"));
    QCOMPARE(m.indexOf(a, 1).data(Qt::ToolTipRole).toString(), QString("same results"));
    QCOMPARE(m.state(a).check, Check::Verified);
    m.setCheck(a, Check::Failed, "out[1] differs");
    QCOMPARE(label(m, a, 1), QString("✗ differs"));
    m.setPerformance(a, "12.5 GFLOP/s");
    QCOMPARE(label(m, a, 2), QString("12.5 GFLOP/s"));
    QCOMPARE(changed.count(), 4);

    QSignalSpy current(&m, &DerivationTreeModel::currentChanged);
    m.setCurrent(a);
    QCOMPARE(m.current(), a);
    QCOMPARE(current.count(), 1);
    QVERIFY(m.indexOf(a).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(!m.indexOf(root).data(Qt::FontRole).isValid());

    m.replaceRoot(root, nullptr, "new text");
    QCOMPARE(m.state(root).text, QString("new text"));
    m.clear();
    QCOMPARE(m.rowCount(), 0);
    QCOMPARE(m.current(), -1);
  }
};

QTEST_MAIN(TestDerivationTreeModel)
#include "tst_derivation_tree_model.moc"
