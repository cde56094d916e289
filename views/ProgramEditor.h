// The program text pane: a plain-text editor with line numbers, inline diagnostics (the
// offending span underlined, the message under the editor) and selection sync by position.
#pragma once

#include <QPlainTextEdit>

#include "core/support/Diagnostic.h"

class QLabel;

namespace lift::views {

class ProgramEditor : public QWidget {
  Q_OBJECT
 public:
  explicit ProgramEditor(QWidget* parent = nullptr);

  QString text() const;
  // Replaces the text (undo history of the editor is reset).
  void setText(const QString& text);
  // Shows `d` inline (underline at its line:col and the message); an empty message clears.
  void setDiagnostic(const Diagnostic& d);
  void clearDiagnostic();
  QString diagnosticText() const;
  // Highlights (without moving the caret) the given 1-based line:col, e.g. a selected node.
  void highlightLocation(int line, int col);
  // The text highlighted by highlightLocation ("" when none).
  QString highlightedText() const;
  QPlainTextEdit* editor() const { return edit_; }

 signals:
  // Emitted (debounced) after the user changed the text.
  void textEdited();
  // The caret moved to line:col (1-based) by the user.
  void caretMoved(int line, int col);

 private:
  void refreshSelections();

  QPlainTextEdit* edit_;
  QLabel* message_;
  QList<QTextEdit::ExtraSelection> diagnosticSelections_;
  QList<QTextEdit::ExtraSelection> highlightSelections_;
  bool settingText_ = false;
};

}  // namespace lift::views
