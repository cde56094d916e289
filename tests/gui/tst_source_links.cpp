// Source, graph and kernel linked both ways, also after a rewrite (issue 18, part 2): the
// editor then shows the re-printed program, and every position — a selected node's
// highlighted text, the line a message names, the node under the caret — is a position in
// that text. A click on a kernel line or an index row selects its node everywhere: the graph,
// the program text, the rule pane and the kernel's own lines.
#include <QtTest/QtTest>

#include <QLabel>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTextBlock>
#include <QUndoStack>

#include "core/ir/Pattern.h"
#include "views/GraphView.h"
#include "views/IndexTableModel.h"
#include "views/KernelView.h"
#include "views/MainWindow.h"
#include "views/ProgramEditor.h"
#include "views/RulePalette.h"
#include "views/Session.h"

using namespace lift;
using namespace lift::views;

class TestSourceLinks : public QObject {
  Q_OBJECT

  // Line `line` (1-based) of the program text.
  static QString editorLine(MainWindow& w, int line) {
    return w.programEditor()->editor()->document()->findBlockByNumber(line - 1).text();
  }
  // The graph's node labelled exactly `label` (0 when none).
  static ir::NodeId nodeLabelled(MainWindow& w, const QString& label) {
    for (auto& n : w.graphView()->graph().nodes)
      if (QString::fromStdString(n.label) == label) return n.irId;
    return 0;
  }

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  // matmul.lift has comments above the program: after a rewrite the file's positions would be
  // six lines off (selecting zip highlighted `size`).
  void selectingANodeAfterARewriteHighlightsItsText() {
    MainWindow w;
    w.setHeadless(true);
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("matmul"));
    QVERIFY(w.session()->applyRewrite("map-map-interchange@0"));
    QVERIFY(!w.programEditor()->text().contains("// Matrix"));  // the re-printed program
    // "map(mult)" is the call of map: its text is the word map.
    for (auto [label, word] : {std::pair{"zip", "zip"}, {"transpose", "transpose"}, {"map(mult)", "map"}}) {
      QVERIFY2(w.selectNodeByLabel(label), label);
      QCOMPARE(w.programEditor()->highlightedText(), QString(word));
      int line = w.programEditor()->editor()->textCursor().blockNumber() + 1;
      QVERIFY2(editorLine(w, line).contains(label), qPrintable(editorLine(w, line)));
      // The rule pane names the node and its line, in words.
      QVERIFY2(w.rulePalette()->site().startsWith(QString(word) + " (line " + QString::number(line) + ")"),
               qPrintable(w.rulePalette()->site()));
    }
    // Undo and redo move between states: each one's positions are its own text's.
    w.session()->undoStack()->undo();
    QVERIFY(w.programEditor()->text().contains("// Matrix"));
    QVERIFY(w.selectNodeByLabel("zip"));
    QCOMPARE(w.programEditor()->highlightedText(), QString("zip"));
  }

  // A message about the rewritten program names the line of the shown text it is about: the
  // kernel pane's "No kernel yet" names a map that is not lowered (matmul's are allPairs's).
  void aMessageNamesTheLineOfTheShownText() {
    MainWindow w;
    w.setHeadless(true);
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("matmul"));
    QVERIFY(w.session()->applyRewrite("map-map-interchange@0"));
    QString info;
    for (QLabel* l : w.kernelView()->findChildren<QLabel*>())
      if (l->text().contains("No kernel yet")) info = l->text();
    QRegularExpressionMatch m = QRegularExpression("\\(line (\\d+):(\\d+)\\)").match(info);
    QVERIFY2(m.hasMatch(), qPrintable(info));
    int line = m.captured(1).toInt(), col = m.captured(2).toInt();
    QString text = editorLine(w, line);
    QVERIFY2(col >= 1 && col <= text.size(), qPrintable(text));
    // The map, or the allPairs (the prelude's nest of maps) it is part of: its maps have its position.
    QVERIFY2(text.mid(col - 1).startsWith("map") || text.mid(col - 1).startsWith("allPairs("),
             qPrintable(text + " @ " + QString::number(col)));
  }

  // The caret in the program text selects the node under it, as a click in the graph would.
  void theCaretSelectsTheNodeUnderIt() {
    MainWindow w;
    w.setHeadless(true);
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("matmul"));
    QVERIFY(w.session()->applyRewrite("map-map-interchange@0"));
    QPlainTextEdit* edit = w.programEditor()->editor();
    int at = edit->toPlainText().indexOf("zip(");
    QVERIFY(at > 0);
    QTextCursor c(edit->document());
    c.setPosition(at + 1);  // inside the word
    edit->setTextCursor(c);
    QCOMPARE(w.graphView()->selectedNode(), nodeLabelled(w, "zip"));
    w.rulePalette()->waitForRules();
    QVERIFY2(w.rulePalette()->site().startsWith("zip (line"), qPrintable(w.rulePalette()->site()));
    QCOMPARE(edit->textCursor().position(), at + 1);  // the caret stays where the user put it
  }

  // A kernel line and an index row select their node: the graph, the program text, its rules
  // and all of the node's kernel lines.
  void kernelLinesAndIndexRowsSelectTheirNode() {
    MainWindow w;
    w.setHeadless(true);
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openExample("lowlevel/dot"));
    const codegen::CompiledProgram* k = w.kernelView()->compiled();
    QVERIFY(k);
    const std::vector<ir::NodeId>& lineNodes = w.kernelView()->lineNodes();
    auto* code = w.kernelView()->findChild<QPlainTextEdit*>("kernelSource");
    QVERIFY(code);
    int line = 0;  // the last line that comes from a node shown in the graph
    for (size_t i = 0; i < lineNodes.size(); ++i)
      if (lineNodes[i] && w.graphView()->nodeRect(lineNodes[i]).isValid()) line = static_cast<int>(i);
    QVERIFY(line > 0);
    ir::NodeId node = lineNodes[static_cast<size_t>(line)];
    QTextCursor c(code->document()->findBlockByNumber(line));
    code->setTextCursor(c);
    QCOMPARE(w.graphView()->selectedNode(), node);
    QVERIFY(!w.programEditor()->highlightedText().isEmpty());
    QCOMPARE(w.kernelView()->highlightedLineCount(), static_cast<int>(w.kernelView()->linesOf(node).size()));
    QCOMPARE(code->textCursor().blockNumber(), line);  // the clicked line keeps the caret
    w.rulePalette()->waitForRules();
    QVERIFY(!w.rulePalette()->site().isEmpty());

    // An index row: clicked with the mouse.
    w.graphView()->selectNode(0);
    auto* table = w.kernelView()->findChild<QTableView*>("indexTable");
    QVERIFY(table && table->model()->rowCount() > 0);
    int row = -1;
    for (int r = 0; r < table->model()->rowCount() && row < 0; ++r)
      if (w.graphView()->nodeRect(w.kernelView()->indexModel()->entry(r).node).isValid()) row = r;
    QVERIFY(row >= 0);
    ir::NodeId rowNode = w.kernelView()->indexModel()->entry(row).node;
    QModelIndex idx = table->model()->index(row, 0);
    table->scrollTo(idx);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(idx).center());
    QCOMPARE(w.graphView()->selectedNode(), rowNode);
    QVERIFY(w.kernelView()->highlightedLineCount() > 0);
    w.rulePalette()->waitForRules();
    QVERIFY(!w.rulePalette()->site().isEmpty());
  }
};

QTEST_MAIN(TestSourceLinks)
#include "tst_source_links.moc"
