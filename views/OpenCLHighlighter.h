// Syntax highlighting for OpenCL C in the kernel pane.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace lift::views {

class OpenCLHighlighter : public QSyntaxHighlighter {
 public:
  explicit OpenCLHighlighter(QTextDocument* doc);

 protected:
  void highlightBlock(const QString& text) override;

 private:
  struct Rule {
    QRegularExpression pattern;
    QTextCharFormat format;
  };
  std::vector<Rule> rules_;
  QTextCharFormat comment_;
};

}  // namespace lift::views
