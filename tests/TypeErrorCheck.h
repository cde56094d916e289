// A test helper shared by the type checker's tests: type-checking a one-line program function
// must fail at a given column of its line, with a message that contains given parts.
#pragma once

#include <QtTest/QtTest>

#include <string>
#include <vector>

#include "core/ir/TypeCheck.h"
#include "core/support/Diagnostic.h"

namespace lift::test {

// Type-checks `p` (read from "t.lift", the function `fun` on line `line`) and checks that it
// fails at column `col` (1-based) of that line with a message containing each of `parts` and
// the source line for the caret.
inline void expectTypeErrorAt(const ir::Program& p, const std::string& fun, int line, int col,
                              const std::vector<std::string>& parts) {
  try {
    ir::typeCheck(p);
    QFAIL(qPrintable(QString("no error for: %1").arg(QString::fromStdString(fun))));
  } catch (const LiftError& e) {
    const Diagnostic& d = e.diagnostic();
    QString msg = QString::fromStdString(d.format());
    for (auto& part : parts) QVERIFY2(d.message.find(part) != std::string::npos, qPrintable(msg));
    QCOMPARE(d.loc.file, std::string("t.lift"));
    QVERIFY2(d.loc.line == line, qPrintable(msg));
    QVERIFY2(d.loc.col == col, qPrintable(msg));
    QVERIFY2(!d.sourceLine.empty(), qPrintable(msg));  // with the caret line
  }
}

}  // namespace lift::test
