// The kernel pane: the generated OpenCL (syntax-highlighted) side by side with the table of
// every memory access (raw vs simplified index), toggles for each code-generator optimisation,
// cross-highlighting with the graph (a node's lines and index rows), and a diff against the
// kernel of the previous derivation step. A program that needs several kernels (a reduction
// finished on the device) shows them one after the other, each under a line naming it and its
// NDRange, and the accesses of all in one table. A program that is not yet lowered shows why.
#pragma once

#include <QWidget>
#include <memory>
#include <optional>

#include "codegen/CompiledProgram.h"
#include "rewrite/Engine.h"

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QSplitter;
class QTableView;

namespace lift::views {

class IndexTableModel;

class KernelView : public QWidget {
  Q_OBJECT
 public:
  explicit KernelView(QWidget* parent = nullptr);

  // Compiles `p` with the current switches (a program that is not lowered shows the reason).
  void setProgram(std::shared_ptr<const rewrite::TypedProgram> p);
  // The kernel source to diff against (e.g. the previous step's); empty disables the diff.
  void setBaseline(const QString& source, const QString& label);
  // Highlights the kernel lines and index rows that IR node `id` produced.
  void highlightNode(ir::NodeId id);

  codegen::CompileOptions options() const;
  void setOptions(const codegen::CompileOptions& o);
  // The kernels generated (null when the program could not be compiled).
  const codegen::CompiledProgram* compiled() const { return compiled_ ? &*compiled_ : nullptr; }
  // The text shown: every kernel's source (CompiledProgram::source).
  QString source() const;
  // For the text shown: the node each line came from (0: none), and the lines (1-based) that
  // node `node` produced in every kernel.
  const std::vector<ir::NodeId>& lineNodes() const { return lineNodes_; }
  std::vector<int> linesOf(ir::NodeId node) const;
  QString errorText() const;
  IndexTableModel* indexModel() const { return model_; }
  int highlightedLineCount() const { return highlightedLines_; }
  // How many lines of kernel code the pane shows at once.
  int visibleCodeLines() const;
  // The least the main window's default layout gives it (issue 18: about 14 were too few).
  static constexpr int kMinVisibleLines = 35;

 signals:
  // The user clicked a kernel line or an index row that came from IR node `id`.
  void nodeActivated(lift::ir::NodeId id);
  // New kernels were generated (or the program could not be compiled: compiled() is null).
  void kernelChanged();

 private:
  void resizeEvent(QResizeEvent* e) override;
  void recompile();
  void showCode();

  std::shared_ptr<const rewrite::TypedProgram> program_;
  std::optional<codegen::CompiledProgram> compiled_;
  QString source_;                     // compiled_->source()
  std::vector<ir::NodeId> lineNodes_;  // per line of source_
  std::vector<int> lineOffsets_;       // per kernel: the lines of source_ before its source
  QString error_;
  QString baseline_, baselineLabel_;
  QCheckBox* simplify_;
  QCheckBox* barriers_;
  QCheckBox* cfg_;
  QCheckBox* unroll_;
  QCheckBox* fma_;
  QCheckBox* vectorLoads_;  // CompileOptions::vectorLocalLoads
  // A switch with a value (a factor, a count): `value` when checked, `off` when not. Options with
  // another value check it and keep that value, which the label (its %1) shows.
  struct ValueToggle {
    QCheckBox* box = nullptr;
    QString label;
    int value = 0;
    int off = 0;
    int current() const;
    void show(int v);
  };
  ValueToggle unrollPragma_;   // CompileOptions::innerLoopUnroll
  ValueToggle unrollTiles_;    // CompileOptions::tileLoopUnroll
  QCheckBox* doubleBuffer_;    // CompileOptions::doubleBuffering
  QCheckBox* prefetch_;        // CompileOptions::registerPrefetch
  ValueToggle prefetchParts_;  // CompileOptions::prefetchParts
  QCheckBox* vectorStores_;    // CompileOptions::vectorGlobalStores
  ValueToggle padLocal_;       // CompileOptions::localPadding
  QCheckBox* cseIndices_;      // CompileOptions::indexCse
  ValueToggle streamK_;        // CompileOptions::streamK
  ValueToggle registerCap_;    // CompileOptions::maxRegisters
  QCheckBox* diff_;
  QLabel* info_;
  QPlainTextEdit* code_;
  QTableView* table_;
  QSplitter* split_;
  bool splitPlaced_ = false;  // the splitter's sizes were set for its orientation
  IndexTableModel* model_;
  int highlightedLines_ = 0;
  bool showingDiff_ = false;
};

}  // namespace lift::views
