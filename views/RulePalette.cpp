// The rewrite pane; see RulePalette.h.
#include "views/RulePalette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTextEdit>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "core/lang/Printer.h"
#include "core/support/TextDiff.h"

namespace lift::views {

namespace {
constexpr int kEntryRole = Qt::UserRole + 1;

constexpr const char* kChangeAnchor = "change";

// The diff as HTML, with the anchor kChangeAnchor two lines above the first change.
QString diffHtml(const std::string& before, const std::string& after) {
  QString html = "<pre style='margin:0'>";
  std::vector<DiffLine> lines = diffLines(before, after);
  size_t first = 0;
  while (first < lines.size() && lines[first].kind == DiffLine::Kind::Same) ++first;
  size_t anchor = first < lines.size() ? first - std::min<size_t>(first, 2) : lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    const DiffLine& l = lines[i];
    if (i == anchor) html += QString("<a name='%1'></a>").arg(kChangeAnchor);
    QString text = QString::fromStdString(l.text).toHtmlEscaped();
    switch (l.kind) {
      case DiffLine::Kind::Same:
        html += "  " + text + "\n";
        break;
      case DiffLine::Kind::Removed:
        html += "<span style='background:#ffd7d5;color:#82071e'>- " + text + "</span>\n";
        break;
      case DiffLine::Kind::Added:
        html += "<span style='background:#ccffd8;color:#055d20'>+ " + text + "</span>\n";
        break;
    }
  }
  return html + "</pre>";
}
}  // namespace

RulePalette::RulePalette(QWidget* parent) : QWidget(parent) {
  setObjectName("rulePalette");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  header_ = new QLabel("Click a node in the graph to see the rules that apply there.", this);
  finder_.onFailure([this](const QString& why) {
    header_->setText(QString("<b>%1</b> — the rules could not be listed: %2")
                         .arg(header_->property("what").toString().toHtmlEscaped(), why.toHtmlEscaped()));
  });
  header_->setObjectName("ruleHeader");
  header_->setWordWrap(true);
  showAll_ = new QCheckBox("Show rules that do not apply", this);
  tree_ = new QTreeWidget(this);
  tree_->setObjectName("ruleTree");
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({"Rule", "lhs => rhs"});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setUniformRowHeights(true);
  description_ = new QLabel(this);
  description_->setWordWrap(true);
  paramBox_ = new QWidget(this);
  paramForm_ = new QFormLayout(paramBox_);
  paramForm_->setContentsMargins(0, 0, 0, 0);
  preview_ = new QTextEdit(this);
  preview_->setObjectName("rulePreview");
  preview_->setReadOnly(true);
  preview_->setLineWrapMode(QTextEdit::NoWrap);
  apply_ = new QPushButton("Apply (Ctrl+Return)", this);  // the shortcut is the main window's Edit menu
  apply_->setObjectName("applyRule");
  apply_->setEnabled(false);

  // Tall enough to read: at least kMinRuleRows rules and kMinPreviewLines lines of the preview.
  int rowHeight =
      std::max(tree_->fontMetrics().height() + 4, tree_->style()->pixelMetric(QStyle::PM_SmallIconSize));
  tree_->setMinimumHeight(tree_->header()->sizeHint().height() + kMinRuleRows * rowHeight +
                          2 * tree_->frameWidth());
  QFontMetrics code(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  // The long lines of a narrow pane scroll sideways: the scroll bar's height comes on top.
  preview_->setMinimumHeight(kMinPreviewLines * code.lineSpacing() + 2 * preview_->frameWidth() +
                             2 * static_cast<int>(preview_->document()->documentMargin()) +
                             preview_->horizontalScrollBar()->sizeHint().height());
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(tree_);
  auto* lower = new QWidget(split);
  auto* lowerLayout = new QVBoxLayout(lower);
  lowerLayout->setContentsMargins(0, 0, 0, 0);
  lowerLayout->addWidget(description_);
  lowerLayout->addWidget(paramBox_);
  lowerLayout->addWidget(preview_, 1);
  lowerLayout->addWidget(apply_);
  split->addWidget(lower);
  layout->addWidget(header_);
  layout->addWidget(showAll_);
  layout->addWidget(split, 1);

  connect(showAll_, &QCheckBox::toggled, this, &RulePalette::populate);
  connect(tree_, &QTreeWidget::currentItemChanged, this, &RulePalette::showSelected);
  connect(tree_, &QTreeWidget::itemDoubleClicked, this, &RulePalette::applySelected);
  connect(apply_, &QPushButton::clicked, this, &RulePalette::applySelected);
}

void RulePalette::clear() {
  finder_.cancel();
  found_ = false;
  program_.reset();
  locations_.clear();
  entries_.clear();
  header_->setText("Click a node in the graph to see the rules that apply there.");
  header_->setProperty("what", QString());
  populate();
}

QString RulePalette::site() const { return program_ ? header_->property("what").toString() : QString(); }

void RulePalette::showNode(std::shared_ptr<const rewrite::TypedProgram> program, ir::NodeId id) {
  for (auto& located : rewrite::allLocations(program->main())) {
    const ir::NodeRef& n = located.node;
    if (!n.isExpr() || n.id() != id) continue;
    std::vector<rewrite::Location> locs{located.loc};
    if (ir::asCall(n.expr())) locs.push_back(located.loc.child(0));
    // Plain words: what the node is and where the program text has it, not its location path.
    QString what = QString::fromStdString(rewrite::describeNode(n));
    if (what.startsWith("call of ")) what = what.mid(8);
    if (SourceLoc at = program->program.locationOf(id); at.known())
      what += QString(" (line %1)").arg(at.line);
    setSite(std::move(program), std::move(locs), what);
    return;
  }
  clear();
}

void RulePalette::setSite(std::shared_ptr<const rewrite::TypedProgram> program,
                          std::vector<rewrite::Location> locations, const QString& what) {
  program_ = std::move(program);
  locations_ = std::move(locations);
  entries_.clear();
  found_ = false;
  header_->setText(QString("<b>%1</b> — finding rules…").arg(what.toHtmlEscaped()));
  header_->setProperty("what", what);
  populate();
  finder_.cancel();
  finder_.start(
      [prog = program_, locs = locations_] {
        std::vector<Entry> out;
        for (auto& loc : locs)
          for (auto& r : rewrite::rulesAt(*prog, loc, /*withPreview=*/true))
            out.push_back({std::move(r), loc});
        return out;
      },
      [this](std::vector<Entry> entries) {
        entries_ = std::move(entries);
        found_ = true;
        populate();
      });
}

void RulePalette::waitForRules() { finder_.wait(); }

int RulePalette::applicableCount() const {
  int n = 0;
  for (auto& e : entries_) n += e.rule.applies;
  return n;
}

QStringList RulePalette::applicableSpecs() const {
  QStringList specs;
  for (auto& e : entries_)
    if (e.rule.applies)
      specs << QString::fromStdString(rewrite::RewriteStep{e.rule.rule, e.loc, e.rule.params}.spec());
  return specs;
}

void RulePalette::populate() {
  tree_->clear();
  QString what = header_->property("what").toString();
  if (program_ && found_)
    header_->setText(QString("<b>%1</b> — %2")
                         .arg(what.toHtmlEscaped(), applicableCount() == 1
                                                        ? QString("1 rule applies")
                                                        : QString("%1 rules apply").arg(applicableCount())));
  std::map<int, QTreeWidgetItem*> families;
  for (size_t i = 0; i < entries_.size(); ++i) {
    auto& e = entries_[i];
    if (!e.rule.applies && !showAll_->isChecked()) continue;
    int fam = static_cast<int>(e.rule.rule->family);
    QTreeWidgetItem*& group = families[fam];
    if (!group) {
      group = new QTreeWidgetItem(
          tree_, {QString::fromUtf8(rewrite::familyName(e.rule.rule->family).data(),
                                    static_cast<int>(rewrite::familyName(e.rule.rule->family).size()))});
      group->setFirstColumnSpanned(true);
      group->setToolTip(0,
                        QString::fromStdString(std::string(rewrite::familyDescription(e.rule.rule->family))));
      QFont f = group->font(0);
      f.setBold(true);
      group->setFont(0, f);
      group->setExpanded(true);
    }
    auto* item = new QTreeWidgetItem(
        group, {QString::fromStdString(e.rule.rule->name), QString::fromStdString(e.rule.rule->display())});
    item->setData(0, kEntryRole, static_cast<int>(i));
    QString tip = QString::fromStdString(e.rule.rule->description + "\n" + e.rule.rule->display());
    if (!e.rule.applies) {
      item->setForeground(0, QColor("#999999"));
      item->setForeground(1, QColor("#999999"));
      tip += "\nDoes not apply: " + QString::fromStdString(e.rule.reason);
    }
    item->setToolTip(0, tip);
    item->setToolTip(1, tip);
  }
  // No rule is selected for the user: the first one is often a copy rule (add-id), which a
  // click on a node followed by Ctrl+Return would apply unseen. Apply waits for a choice.
  tree_->setCurrentItem(nullptr);
  showSelected();
}

void RulePalette::showSelected() {
  while (paramForm_->rowCount() > 0) paramForm_->removeRow(0);
  QTreeWidgetItem* item = tree_->currentItem();
  if (!item || !item->data(0, kEntryRole).isValid()) {
    description_->setText(applicableCount() > 0
                              ? "Pick a rule to see what it changes; Apply (or a double click) "
                                "then rewrites the program."
                              : QString());
    preview_->clear();
    apply_->setEnabled(false);
    return;
  }
  const Entry& e = entries_[item->data(0, kEntryRole).toInt()];
  QString desc = QString("<b>%1</b>: %2<br><code>%3</code>")
                     .arg(QString::fromStdString(e.rule.rule->name),
                          QString::fromStdString(e.rule.rule->description).toHtmlEscaped(),
                          QString::fromStdString(e.rule.rule->display()).toHtmlEscaped());
  description_->setToolTip("Rewrites the node at location " + QString::fromStdString(e.loc.toString()) +
                           " of the program (its path from the root: the step's RULE@LOCATION)");
  if (!e.rule.applies)
    desc += "<br><span style='color:#b00020'>Does not apply: " +
            QString::fromStdString(e.rule.reason).toHtmlEscaped() + "</span>";
  description_->setText(desc);
  for (auto& spec : e.rule.rule->params) {
    auto* box = new QComboBox(paramBox_);
    box->setEditable(true);
    box->setObjectName("param_" + QString::fromStdString(spec.name));
    QStringList values;
    if (const std::string* v = e.rule.params.find(spec.name)) values << QString::fromStdString(*v);
    for (auto& alt : e.rule.alternatives)
      if (const std::string* v = alt.find(spec.name)) values << QString::fromStdString(*v);
    for (auto& a : spec.allowed) values << QString::fromStdString(a);
    values.removeDuplicates();
    box->addItems(values);
    box->setToolTip(QString::fromStdString(spec.description));
    connect(box, &QComboBox::currentTextChanged, this, &RulePalette::updatePreview);
    paramForm_->addRow(QString::fromStdString(spec.name) + ":", box);
  }
  apply_->setEnabled(e.rule.applies);
  updatePreview();
}

QString RulePalette::currentSpec() const {
  QTreeWidgetItem* item = tree_->currentItem();
  if (!item || !item->data(0, kEntryRole).isValid()) return {};
  const Entry& e = entries_[item->data(0, kEntryRole).toInt()];
  if (!e.rule.applies) return {};
  rewrite::ParamValues params;
  for (auto& spec : e.rule.rule->params) {
    auto* box = paramBox_->findChild<QComboBox*>("param_" + QString::fromStdString(spec.name));
    if (box) params.set(spec.name, box->currentText().trimmed().toStdString());
  }
  return QString::fromStdString(rewrite::RewriteStep{e.rule.rule, e.loc, params}.spec());
}

void RulePalette::updatePreview() {
  QTreeWidgetItem* item = tree_->currentItem();
  if (!program_ || !item || !item->data(0, kEntryRole).isValid()) return;
  const Entry& e = entries_[item->data(0, kEntryRole).toInt()];
  if (!e.rule.applies) {
    preview_->setPlainText(QString::fromStdString(e.rule.reason));
    return;
  }
  std::string before = lang::printProgram(program_->program);
  try {
    rewrite::RewriteStep step = rewrite::RewriteStep::parse(currentSpec().toStdString());
    rewrite::RewriteResult r = rewrite::applyRewrite(*program_, step);
    if (!r) {
      preview_->setPlainText("Does not apply with these parameters: " + QString::fromStdString(r.message));
      apply_->setEnabled(false);
      return;
    }
    preview_->setHtml(diffHtml(before, lang::printProgram(r.program->program)));
    preview_->scrollToAnchor(kChangeAnchor);  // the change, not the top of the program
    apply_->setEnabled(true);
  } catch (const LiftError& err) {
    preview_->setPlainText(QString::fromStdString(err.diagnostic().message));
    apply_->setEnabled(false);
  }
}

QString RulePalette::previewText() const { return preview_->toPlainText(); }

bool RulePalette::selectRule(const QString& name) {
  for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
    auto* group = tree_->topLevelItem(g);
    for (int c = 0; c < group->childCount(); ++c) {
      auto* item = group->child(c);
      int idx = item->data(0, kEntryRole).toInt();
      if (item->text(0) == name && entries_[idx].rule.applies) {
        tree_->setCurrentItem(item);
        return true;
      }
    }
  }
  return false;
}

void RulePalette::applySelected() {
  QString spec = currentSpec();
  if (!spec.isEmpty() && apply_->isEnabled()) emit applyRequested(spec);
}

}  // namespace lift::views
