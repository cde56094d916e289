// See OpenCLHighlighter.h.
#include "views/OpenCLHighlighter.h"

namespace lift::views {

static QTextCharFormat makeFormat(const char* color, bool bold = false) {
  QTextCharFormat f;
  f.setForeground(QColor(color));
  if (bold) f.setFontWeight(QFont::Bold);
  return f;
}

OpenCLHighlighter::OpenCLHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {
  rules_.push_back(
      {QRegularExpression(
           R"(\b(kernel|__kernel|global|__global|local|__local|private|constant|restrict|const|void|return|for|if|else|while|__attribute__|reqd_work_group_size)\b)"),
       makeFormat("#8250df", true)});
  rules_.push_back({QRegularExpression(R"(\b(float|double|int|uint|bool|char|long|size_t)(2|3|4|8|16)?\b)"),
                    makeFormat("#0550ae", true)});
  rules_.push_back(
      {QRegularExpression(
           R"(\b(barrier|get_global_id|get_local_id|get_group_id|get_num_groups|get_local_size|get_global_size|vload\d+|vstore\d+|CLK_LOCAL_MEM_FENCE|CLK_GLOBAL_MEM_FENCE)\b)"),
       makeFormat("#cf222e")});
  rules_.push_back({QRegularExpression(R"(\b\d+(\.\d*)?f?\b)"), makeFormat("#0a3069")});
  comment_ = makeFormat("#6e7781");
  comment_.setFontItalic(true);
}

void OpenCLHighlighter::highlightBlock(const QString& text) {
  for (const Rule& r : rules_) {
    auto it = r.pattern.globalMatch(text);
    while (it.hasNext()) {
      auto m = it.next();
      setFormat(static_cast<int>(m.capturedStart()), static_cast<int>(m.capturedLength()), r.format);
    }
  }
  qsizetype c = text.indexOf("//");
  if (c >= 0) setFormat(static_cast<int>(c), static_cast<int>(text.size() - c), comment_);
}

}  // namespace lift::views
