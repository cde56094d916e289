// The rewrite pane: for the node clicked in the graph, every rule grouped by family — those
// that apply with their parameters and a preview of the result (removed lines red, added
// green), those that do not (optionally) with the reason. Apply emits the step's spec.
// The rules are tried in the background, so clicking a node never freezes the window.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "rewrite/Engine.h"
#include "views/BackgroundJobs.h"

class QCheckBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QTextEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace lift::views {

class RulePalette : public QWidget {
  Q_OBJECT
 public:
  explicit RulePalette(QWidget* parent = nullptr);
  // The pane is never shorter than what shows this many rules and lines of the preview.
  static constexpr int kMinRuleRows = 8;
  static constexpr int kMinPreviewLines = 10;

  // Shows the rules at `locations` (e.g. a call and its function) of `program`. `what`
  // names the node for the header ("map (line 8)").
  void setSite(std::shared_ptr<const rewrite::TypedProgram> program, std::vector<rewrite::Location> locations,
               const QString& what);
  // Shows the rules at graph node `id` of `program`: at the node, and for a call also at the
  // function it calls. Clears the pane when no location shows that node.
  void showNode(std::shared_ptr<const rewrite::TypedProgram> program, ir::NodeId id);
  void clear();
  // The node whose rules are shown, as the header names it ("map (line 8)"; "" when none).
  QString site() const;
  // Blocks until the rules for the current site are known (tests, screenshots).
  void waitForRules();

  int applicableCount() const;
  QStringList applicableSpecs() const;
  // Selects the first applicable rule with this name; false if none.
  bool selectRule(const QString& name);
  // The spec of the selected rule with the parameters from the fields ("" if none applies).
  QString currentSpec() const;
  QString previewText() const;

 public slots:
  // Emits applyRequested for the selected rule.
  void applySelected();

 signals:
  void applyRequested(const QString& spec);

 private:
  struct Entry {
    rewrite::RuleAtLocation rule;
    rewrite::Location loc;
  };
  void populate();
  void showSelected();
  void updatePreview();

  std::shared_ptr<const rewrite::TypedProgram> program_;
  std::vector<rewrite::Location> locations_;
  std::vector<Entry> entries_;
  bool found_ = false;           // entries_ are the rules at locations_
  BackgroundJobs finder_{this};  // a newer click cancels the search of the older one

  QLabel* header_;
  QCheckBox* showAll_;
  QTreeWidget* tree_;
  QLabel* description_;
  QWidget* paramBox_;
  QFormLayout* paramForm_;
  QTextEdit* preview_;
  QPushButton* apply_;
};

}  // namespace lift::views
