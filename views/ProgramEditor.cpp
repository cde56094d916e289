// Program text pane; see ProgramEditor.h.
#include "views/ProgramEditor.h"

#include <QFontDatabase>
#include <QLabel>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

namespace lift::views {

ProgramEditor::ProgramEditor(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  edit_ = new QPlainTextEdit(this);
  edit_->setObjectName("programText");
  edit_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  edit_->setLineWrapMode(QPlainTextEdit::NoWrap);
  edit_->setTabStopDistance(edit_->fontMetrics().horizontalAdvance(' ') * 2);
  message_ = new QLabel(this);
  message_->setObjectName("programDiagnostic");
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->setStyleSheet("QLabel { color: #b00020; font-family: monospace; padding: 2px; }");
  message_->hide();
  layout->addWidget(edit_, 1);
  layout->addWidget(message_);

  auto* debounce = new QTimer(this);
  debounce->setSingleShot(true);
  debounce->setInterval(350);
  connect(edit_, &QPlainTextEdit::textChanged, this, [this, debounce] {
    if (!settingText_) debounce->start();
  });
  connect(debounce, &QTimer::timeout, this, &ProgramEditor::textEdited);
  connect(edit_, &QPlainTextEdit::cursorPositionChanged, this, [this] {
    if (settingText_) return;
    QTextCursor c = edit_->textCursor();
    emit caretMoved(c.blockNumber() + 1, c.positionInBlock() + 1);
  });
}

QString ProgramEditor::text() const { return edit_->toPlainText(); }

void ProgramEditor::setText(const QString& text) {
  settingText_ = true;
  edit_->setPlainText(text);
  settingText_ = false;
  highlightSelections_.clear();
  refreshSelections();
}

static QTextCursor cursorAt(QPlainTextEdit* edit, int line, int col) {
  QTextBlock block = edit->document()->findBlockByNumber(line - 1);
  QTextCursor c(edit->document());
  if (!block.isValid()) return c;
  c.setPosition(block.position() + std::min(std::max(col - 1, 0), std::max(block.length() - 1, 0)));
  return c;
}

void ProgramEditor::setDiagnostic(const Diagnostic& d) {
  diagnosticSelections_.clear();
  if (d.message.empty()) {
    clearDiagnostic();
    return;
  }
  if (d.loc.known()) {
    QTextEdit::ExtraSelection sel;
    sel.cursor = cursorAt(edit_, d.loc.line, d.loc.col);
    sel.cursor.movePosition(QTextCursor::EndOfWord, QTextCursor::KeepAnchor);
    if (!sel.cursor.hasSelection()) sel.cursor.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor);
    sel.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    sel.format.setUnderlineColor(QColor("#d00000"));
    sel.format.setBackground(QColor(255, 220, 220));
    sel.format.setToolTip(QString::fromStdString(d.message));
    diagnosticSelections_.append(sel);
  }
  QString where = d.loc.known() ? QString("%1:%2: ").arg(d.loc.line).arg(d.loc.col) : QString();
  message_->setText(where + QString::fromStdString(d.message));
  message_->show();
  refreshSelections();
}

void ProgramEditor::clearDiagnostic() {
  diagnosticSelections_.clear();
  message_->clear();
  message_->hide();
  refreshSelections();
}

QString ProgramEditor::diagnosticText() const { return message_->isHidden() ? QString() : message_->text(); }

void ProgramEditor::highlightLocation(int line, int col) {
  highlightSelections_.clear();
  if (line > 0) {
    QTextEdit::ExtraSelection sel;
    sel.cursor = cursorAt(edit_, line, col);
    sel.cursor.movePosition(QTextCursor::EndOfWord, QTextCursor::KeepAnchor);
    sel.format.setBackground(QColor(190, 215, 255));
    highlightSelections_.append(sel);
    settingText_ = true;  // a programmatic move is not the user's caret
    edit_->setTextCursor(cursorAt(edit_, line, col));
    edit_->ensureCursorVisible();
    settingText_ = false;
  }
  refreshSelections();
}

QString ProgramEditor::highlightedText() const {
  return highlightSelections_.isEmpty() ? QString() : highlightSelections_.first().cursor.selectedText();
}

void ProgramEditor::refreshSelections() {
  edit_->setExtraSelections(highlightSelections_ + diagnosticSelections_);
}

}  // namespace lift::views
