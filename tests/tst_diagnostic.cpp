// Diagnostics: location formatting and the caret line (control bytes shown, never cutting the
// message; the caret counted in characters), and LineIndex against lineColOf.
#include <QtTest/QtTest>

#include "core/support/Diagnostic.h"
#include "core/support/LineIndex.h"
#include "core/support/SourceExcerpt.h"

using namespace lift;

class TestDiagnostic : public QObject {
  Q_OBJECT
 private slots:
  void formatsLocationAndCaret() {
    std::string text = "size N;\nmap(f) $ x y\n";
    auto d = makeDiagnostic("prog.lift", text, 2, 12, "unexpected 'y'");
    QCOMPARE(QString::fromStdString(d.format()),
             QString("prog.lift:2:12: error: unexpected 'y'\n  map(f) $ x y\n             ^"));
  }
  void lineColOfOffsets() {
    std::string text = "ab\ncd";
    QCOMPARE(lineColOf(text, 0), std::make_pair(1, 1));
    QCOMPARE(lineColOf(text, 4), std::make_pair(2, 2));
  }
  void nulByteIsShownAndKeepsTheCaret() {
    // A NUL used to end the printed message at the byte: the caret line was lost.
    std::string text = std::string("fun f(x: [float]N) = ") + '\0' + "map(g) $ x\n";
    auto d = makeDiagnostic("nul.lift", text, 1, 22, "unexpected byte 0x00");
    std::string shown = d.format();
    QCOMPARE(shown.find('\0'), std::string::npos);
    QCOMPARE(
        QString::fromStdString(shown),
        QString::fromUtf8("nul.lift:1:22: error: unexpected byte 0x00\n  fun f(x: [float]N) = \u2400map(g) $ "
                          "x\n                       ^"));
  }
  void caretCountsCharactersNotBytes() {
    // "é" is two bytes, one column; a CRLF's '\r' is not shown.
    QCOMPARE(QString::fromStdString(sourceExcerpt("// \xC3\xA9 x\r", 7)),
             QString::fromUtf8("  // é x\n       ^"));
    QCOMPARE(QString::fromStdString(sourceExcerpt("\tx\x7f", 3)), QString::fromUtf8("  \tx\u2421\n  \t ^"));
  }
  void farColumnShowsThePartAroundIt() {
    // An error at column 2977 of a long line printed the line's first 200 bytes and no caret.
    std::string line(3000, 'a');
    line[2976] = 'X';
    std::string shown = sourceExcerpt(line, 2977);
    size_t nl = shown.find('\n');
    std::string text = shown.substr(0, nl), caret = shown.substr(nl + 1);
    QVERIFY(text.rfind("  …", 0) == 0);
    QCOMPARE(caret.size(), size_t(2 + 1 + 80 + 1));  // "  ", the "…", 80 bytes before the column, '^'
    // The caret is under the X: its byte offset less "  " and the two bytes of "…" beyond one column.
    QCOMPARE(text.find('X') - 2 - 2 + 1, caret.size() - 2);
  }
  void byteOrderMarkTakesNoColumn() {
    std::string text = "\xEF\xBB\xBFsize N;";
    auto d = makeDiagnostic("bom.lift", text, 1, 6, "here");
    QCOMPARE(QString::fromStdString(d.sourceLine), QString("  size N;\n       ^"));
  }
  void lineIndexAgreesWithLineColOf() {
    std::string text = "ab\n\ncd\ne\n";
    LineIndex index(text);
    for (size_t at = 0; at <= text.size() + 2; ++at) QCOMPARE(index.lineColOf(at), lineColOf(text, at));
    QCOMPARE(LineIndex("").lineColOf(0), std::make_pair(1, 1));
  }
  void errorCarriesDiagnostic() {
    LiftError e("bad size", SourceLoc{"f.lift", 3, 4});
    QCOMPARE(QString(e.what()), QString("f.lift:3:4: error: bad size"));
    QCOMPARE(e.diagnostic().loc.col, 4);
  }
};

QTEST_APPLESS_MAIN(TestDiagnostic)
#include "tst_diagnostic.moc"
