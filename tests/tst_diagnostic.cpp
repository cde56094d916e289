// Diagnostics: location formatting and the caret line.
#include <QtTest/QtTest>

#include "core/support/Diagnostic.h"

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
  void errorCarriesDiagnostic() {
    LiftError e("bad size", SourceLoc{"f.lift", 3, 4});
    QCOMPARE(QString(e.what()), QString("f.lift:3:4: error: bad size"));
    QCOMPARE(e.diagnostic().loc.col, 4);
  }
};

QTEST_APPLESS_MAIN(TestDiagnostic)
#include "tst_diagnostic.moc"
