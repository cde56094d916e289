// The program graph pane: a known program gives the expected nodes, edges and clusters, the
// layout places every node, selection and search work, and the main window loads examples (md_hom's
// node among them).
#include <QtTest/QtTest>

#include <QGraphicsSimpleTextItem>

#include "core/ir/ProgramGraph.h"
#include "core/lang/Parser.h"
#include "views/GraphLayout.h"
#include "views/GraphView.h"
#include "views/MainWindow.h"
#include "views/ProgramEditor.h"
#include "views/Session.h"

using namespace lift;

static const char* kDot = R"(
size N = 1024;
userfun mult(float x, float y) -> float { return x * y; }
userfun add(float acc, float x) -> float { return acc + x; }
fun dotProduct(x: [float]N, y: [float]N) =
  reduce(add, 0.0f) o map(fun(p => mult(get(0, p), get(1, p)))) $ zip(x, y)
)";

class TestGraphView : public QObject {
  Q_OBJECT
 private slots:
  void graphOfKnownProgram() {
    ir::Program p = lang::parseProgram(kDot, "dot.lift");
    ir::ProgramGraph g = ir::buildProgramGraph(p);
    QStringList labels;
    for (auto& n : g.nodes) labels << QString::fromStdString(n.label);
    // Inputs, the zip, the map with its lambda cluster, the reduction with its literal.
    QVERIFY2(labels.contains("x") && labels.contains("y"), qPrintable(labels.join(",")));
    QVERIFY2(labels.contains("zip"), qPrintable(labels.join(",")));
    QVERIFY2(labels.contains("map"), qPrintable(labels.join(",")));
    QVERIFY2(labels.contains("mult"), qPrintable(labels.join(",")));
    QVERIFY2(labels.contains("0.0f"), qPrintable(labels.join(",")));
    QVERIFY(g.clusters.size() >= 1);
    // x and y flow into zip.
    int zip = static_cast<int>(labels.indexOf("zip"));
    int x = static_cast<int>(labels.indexOf("x"));
    bool xToZip = false;
    for (auto& e : g.edges) xToZip = xToZip || (e.from == x && e.to == zip);
    QVERIFY(xToZip);
    QVERIFY(g.result >= 0);
    QVERIFY(QString::fromStdString(ir::toDot(g)).contains("subgraph cluster_0"));
  }

  void layoutPlacesEveryNode() {
    ir::Program p = lang::parseProgram(kDot, "dot.lift");
    ir::ProgramGraph g = ir::buildProgramGraph(p);
    views::GraphGeometry geo = views::layoutGraph(g);
    QCOMPARE(geo.nodes.size(), g.nodes.size());
    QCOMPARE(geo.edges.size(), g.edges.size());
    QCOMPARE(geo.clusters.size(), g.clusters.size());
    for (auto& r : geo.nodes) {
      QVERIFY(r.width() > 10 && r.height() > 10);
      QVERIFY(geo.bounds.adjusted(-1, -1, 1, 1).contains(r));
    }
    // Data flows downwards: the zip lies above the reduction that consumes it.
    int zip = g.findNode(0), red = -1;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      if (g.nodes[i].label == "zip") zip = static_cast<int>(i);
      if (g.nodes[i].label.rfind("reduce", 0) == 0) red = static_cast<int>(i);
    }
    QVERIFY(zip >= 0 && red >= 0);
    QVERIFY(geo.nodes[zip].center().y() < geo.nodes[red].center().y());
  }

  void selectionAndSearch() {
    ir::Program p = lang::parseProgram(kDot, "dot.lift");
    views::GraphView view;
    view.setGraph(ir::buildProgramGraph(p));
    QSignalSpy spy(&view, &views::GraphView::nodeSelected);
    QVERIFY(view.findNext("zip"));
    QCOMPARE(spy.count(), 1);
    QVERIFY(view.selectedNode() != 0);
    QVERIFY(!view.findNext("no-such-node"));
  }

  void mainWindowLoadsExamplesAndShowsErrors() {
    views::MainWindow w;
    QStringList examples = views::MainWindow::bundledExamples();
    QVERIFY2(examples.contains("matmul"), qPrintable(examples.join(",")));
    QVERIFY(w.openExample("matmul"));
    QVERIFY(w.session()->program() != nullptr);
    QVERIFY(w.graphView()->nodeItemCount() > 5);
    int nodes = w.graphView()->nodeItemCount();
    // A broken edit shows a located diagnostic and keeps the last good graph.
    w.programEditor()->setText(w.programEditor()->text() + "\n$$$");
    w.session()->reparse();
    QVERIFY(!w.session()->diagnostic().message.empty());
    QVERIFY(w.session()->diagnostic().loc.line > 0);
    QVERIFY(!w.programEditor()->diagnosticText().isEmpty());
    QCOMPARE(w.graphView()->nodeItemCount(), nodes);
    QVERIFY(!w.openExample("no-such-example"));
  }

  void mainWindowShowsMdHom() {
    views::MainWindow w;
    QVERIFY(w.openExample("md_gemv"));
    QVERIFY(w.session()->program() != nullptr);
    QSignalSpy spy(w.graphView(), &views::GraphView::nodeSelected);
    // The node names its scalar function, its combine operators and its dimensions.
    QVERIFY(w.graphView()->findNext("md_hom(mult, (++, add)) 2D"));
    QCOMPARE(spy.count(), 1);
    QVERIFY(w.graphView()->findNext("pair_mv"));
  }

  // allPairs (the prelude) is a cluster of its name around the nest of maps it stands for: laid
  // out around its nodes, drawn with its label in the main window's graph.
  void mainWindowShowsAllPairs() {
    views::MainWindow w;
    QVERIFY(w.openExample("matmul"));
    QVERIFY(w.session()->program() != nullptr);
    const QString label = "allPairs(reduce(add, 0.0f), mult)";
    bool drawn = false;
    for (QGraphicsItem* item : w.graphView()->scene()->items())
      if (auto* t = qgraphicsitem_cast<QGraphicsSimpleTextItem*>(item)) drawn = drawn || t->text() == label;
    QVERIFY(drawn);
    ir::ProgramGraph g = ir::buildProgramGraph(w.session()->program()->program);
    views::GraphGeometry geo = views::layoutGraph(g);
    QCOMPARE(QString::fromStdString(g.clusters.at(0).label), label);
    int inside = 0;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      int c = g.nodes[i].cluster;
      while (c > 0) c = g.clusters[static_cast<size_t>(c)].parent;
      if (c != 0) continue;
      QVERIFY2(geo.clusters[0].adjusted(-1, -1, 1, 1).contains(geo.nodes[i]), g.nodes[i].label.c_str());
      ++inside;
    }
    QVERIFY(inside >= 6);  // the maps, the reduction, the zip, the rows
    // The nodes of the nest are still there: the rules' locations find them by clicking.
    QVERIFY(w.graphView()->findNext("zip"));
    // A general row function: the cluster names the rows.
    QVERIFY(w.openExample("cosine_similarity"));
    drawn = false;
    for (QGraphicsItem* item : w.graphView()->scene()->items())
      if (auto* t = qgraphicsitem_cast<QGraphicsSimpleTextItem*>(item))
        drawn = drawn || t->text() == QString("allPairs(λ a, b)");
    QVERIFY(drawn);
  }
};

QTEST_MAIN(TestGraphView)
#include "tst_graphview.moc"
