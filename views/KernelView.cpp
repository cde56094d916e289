// See KernelView.h.
#include "views/KernelView.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QSplitter>
#include <QStringList>
#include <QTableView>
#include <QTextBlock>
#include <QVBoxLayout>
#include <algorithm>

#include "codegen/ProgramCompiler.h"
#include "core/support/TextDiff.h"
#include "views/FlowLayout.h"
#include "views/IndexTableModel.h"
#include "views/OpenCLHighlighter.h"

namespace lift::views {

KernelView::KernelView(QWidget* parent) : QWidget(parent) {
  setObjectName("kernelView");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* switches = new QWidget(this);  // in as many rows as the pane's width needs
  auto* toggles = new FlowLayout(switches, 12);
  toggles->setContentsMargins(0, 0, 0, 0);
  simplify_ = new QCheckBox("Simplify indices", this);
  barriers_ = new QCheckBox("Eliminate barriers", this);
  cfg_ = new QCheckBox("Simplify control flow", this);
  unroll_ = new QCheckBox("Unroll", this);
  fma_ = new QCheckBox("fma", this);
  vectorLoads_ = new QCheckBox("float4 local reads", this);
  auto valueToggle = [this](ValueToggle& t, const QString& label, int value, int off) {
    t = ValueToggle{new QCheckBox(label.arg(value), this), label, value, off};
  };
  valueToggle(unrollPragma_, "Unroll inner loops x%1", 8, 1);
  valueToggle(unrollTiles_, "Unroll tile loop x%1", 2, 1);
  unrollTiles_.box->setObjectName("toggleUnrollTiles");
  unrollTiles_.box->setToolTip(
      "#pragma unroll on the loops over K tiles (the loops with a barrier inside): two steps of a "
      "double-buffered loop at once; off by default, tuned by the search on GPUs");
  doubleBuffer_ = new QCheckBox("Double-buffer tiles", this);
  doubleBuffer_->setObjectName("toggleDoubleBuffer");
  prefetch_ = new QCheckBox("Prefetch to registers", this);
  vectorStores_ = new QCheckBox("float4 global writes", this);
  vectorStores_->setObjectName("toggleVectorStores");
  vectorStores_->setToolTip(
      "Write four consecutive elements of a global array as one float4 (a register block's rows of "
      "results); off by default, tuned by the search on GPUs");
  prefetch_->setObjectName("togglePrefetch");
  valueToggle(prefetchParts_, "Prefetch in %1 parts", 2, 1);
  prefetchParts_.box->setObjectName("togglePrefetchParts");
  prefetchParts_.box->setToolTip(
      "With the prefetch to registers: each step's loop along k cut into parts, each loading its share of "
      "the next tiles before its steps and storing it after, so fewer are held in registers at once; off "
      "by default, tuned by the search on GPUs");
  valueToggle(padLocal_, "Pad local rows +%1", 1, 0);
  padLocal_.box->setObjectName("togglePadLocal");
  padLocal_.box->setToolTip(
      "Unused elements after each row of a local tile, so that work-items going down a column reach "
      "different memory banks; off by default");
  cseIndices_ = new QCheckBox("Index temporaries", this);
  cseIndices_->setObjectName("toggleCseIndices");
  cseIndices_->setToolTip(
      "Repeated index subexpressions as const int temporaries, each declared once in the outermost scope "
      "where its variables are defined; off by default");
  // Two work-groups on each of an H100's 132 compute units.
  valueToggle(streamK_, "Stream-K x%1", 264, 0);
  streamK_.box->setObjectName("toggleStreamK");
  streamK_.box->setToolTip(
      "Stream-K for a K-tiled reduction: the whole waves of tiles (as many as the device runs at once: "
      "two a compute unit on an H100) one work-group a tile, then that many work-groups share the steps "
      "of the tiles left; a tile split between two is summed in global memory. Needs constant sizes, as "
      "the search's kernels have; off by default, tuned by the search on GPUs");
  // Two work-groups of 256 work-items on an NVIDIA SM's 64K registers.
  valueToggle(registerCap_, QString::fromUtf8("Registers \u2264 %1"), 128, 0);
  registerCap_.box->setObjectName("toggleRegisterCap");
  registerCap_.box->setToolTip(
      "At most this many registers a work-item (NVIDIA: .maxnreg in the kernel's PTX; other devices "
      "build without a cap): more work-groups fit a compute unit, at the cost of spills; off by "
      "default");
  diff_ = new QCheckBox("Diff with previous step", this);
  vectorLoads_->setObjectName("toggleVectorLoads");
  unrollPragma_.box->setObjectName("toggleUnrollPragma");
  simplify_->setObjectName("toggleSimplify");
  barriers_->setObjectName("toggleBarriers");
  cfg_->setObjectName("toggleCfg");
  unroll_->setObjectName("toggleUnroll");
  fma_->setObjectName("toggleFma");
  simplify_->setToolTip("Range-aware simplification of every array index (CGO 2017, 5.4)");
  barriers_->setToolTip("Remove barriers proven unnecessary (CGO 2017, 5.5)");
  cfg_->setToolTip(
      "No loop when each thread runs exactly one iteration, an if when at most one (CGO 2017, 5.6)");
  unroll_->setToolTip("Unroll small loops over private arrays, turning them into scalars");
  fma_->setToolTip("Emit a user function's floating-point a + b * c as fma(b, c, a)");
  vectorLoads_->setToolTip(
      "Read four consecutive elements of a local array as one float4 (a tile's columns in a K-blocked "
      "matmul); off by default, tuned by the search on GPUs");
  unrollPragma_.box->setToolTip(
      "#pragma unroll on the innermost loops of a constant length (a K tile's loop over a register "
      "block); off by default, tuned by the search on GPUs");
  doubleBuffer_->setToolTip(
      "Two local buffers for the tiles a loop copies: the next tiles are copied while the current ones "
      "are used, one barrier a step; off by default");
  prefetch_->setToolTip(
      "Double buffering with the next tiles loaded into registers before the computation and stored "
      "to local memory after it, so the loads are in flight while the current tiles are used; off by "
      "default, tuned by the search on GPUs");
  diff_->setToolTip("Show the kernel as a diff against the kernel of the previous derivation step");
  for (QCheckBox* c : {simplify_, barriers_, cfg_, unroll_, fma_}) {
    c->setChecked(true);
    toggles->addWidget(c);
    connect(c, &QCheckBox::toggled, this, &KernelView::recompile);
  }
  for (QCheckBox* c :
       {vectorLoads_, vectorStores_, unrollPragma_.box, unrollTiles_.box, doubleBuffer_, prefetch_,
        prefetchParts_.box, padLocal_.box, cseIndices_, streamK_.box, registerCap_.box}) {
    toggles->addWidget(c);
    connect(c, &QCheckBox::toggled, this, &KernelView::recompile);
  }
  toggles->addWidget(diff_);
  connect(diff_, &QCheckBox::toggled, this, &KernelView::showCode);
  info_ = new QLabel(this);
  info_->setObjectName("kernelInfo");
  info_->setWordWrap(true);
  info_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  code_ = new QPlainTextEdit(this);
  code_->setObjectName("kernelSource");
  code_->setReadOnly(true);
  code_->setLineWrapMode(QPlainTextEdit::NoWrap);
  code_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  new OpenCLHighlighter(code_->document());
  model_ = new IndexTableModel(this);
  table_ = new QTableView(this);
  table_->setObjectName("indexTable");
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);

  split_ = new QSplitter(Qt::Horizontal, this);
  split_->setObjectName("kernelSplit");
  split_->addWidget(code_);
  split_->addWidget(table_);
  split_->setChildrenCollapsible(false);
  layout->addWidget(switches);
  layout->addWidget(info_);
  layout->addWidget(split_, 1);

  connect(code_, &QPlainTextEdit::cursorPositionChanged, this, [this] {
    if (!compiled_ || showingDiff_) return;
    int line = code_->textCursor().blockNumber();
    if (line >= 0 && line < static_cast<int>(lineNodes_.size()) && lineNodes_[line] != 0)
      emit nodeActivated(lineNodes_[line]);
  });
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& idx) {
    ir::NodeId node = model_->data(idx, IndexTableModel::NodeRole).toULongLong();
    if (node) emit nodeActivated(node);
  });
}

codegen::CompileOptions KernelView::options() const {
  codegen::CompileOptions o;
  o.simplifyIndices = simplify_->isChecked();
  o.barrierElimination = barriers_->isChecked();
  o.cfgSimplification = cfg_->isChecked();
  o.unrolling = unroll_->isChecked();
  o.fusedMultiplyAdd = fma_->isChecked();
  o.vectorLocalLoads = vectorLoads_->isChecked();
  o.innerLoopUnroll = unrollPragma_.current();
  o.tileLoopUnroll = unrollTiles_.current();
  o.doubleBuffering = doubleBuffer_->isChecked();
  o.registerPrefetch = prefetch_->isChecked();
  o.prefetchParts = prefetchParts_.current();
  o.vectorGlobalStores = vectorStores_->isChecked();
  o.localPadding = padLocal_.current();
  o.indexCse = cseIndices_->isChecked();
  o.streamK = streamK_.current();
  o.maxRegisters = registerCap_.current();
  return o;
}

void KernelView::setOptions(const codegen::CompileOptions& o) {
  const QSignalBlocker b1(simplify_), b2(barriers_), b3(cfg_), b4(unroll_), b5(fma_), b6(vectorLoads_),
      b7(unrollPragma_.box), b8(doubleBuffer_), b9(prefetch_), b10(vectorStores_), b11(padLocal_.box),
      b12(cseIndices_), b13(streamK_.box), b14(registerCap_.box), b15(unrollTiles_.box),
      b16(prefetchParts_.box);
  simplify_->setChecked(o.simplifyIndices);
  barriers_->setChecked(o.barrierElimination);
  cfg_->setChecked(o.cfgSimplification);
  unroll_->setChecked(o.unrolling);
  fma_->setChecked(o.fusedMultiplyAdd);
  vectorLoads_->setChecked(o.vectorLocalLoads);
  doubleBuffer_->setChecked(o.doubleBuffering);
  prefetch_->setChecked(o.registerPrefetch);
  prefetchParts_.show(o.prefetchParts);
  vectorStores_->setChecked(o.vectorGlobalStores);
  unrollPragma_.show(o.innerLoopUnroll);
  unrollTiles_.show(o.tileLoopUnroll);
  cseIndices_->setChecked(o.indexCse);
  padLocal_.show(o.localPadding);
  streamK_.show(o.streamK);
  registerCap_.show(o.maxRegisters);
  recompile();
}

int KernelView::ValueToggle::current() const { return box->isChecked() ? value : off; }

void KernelView::ValueToggle::show(int v) {
  box->setChecked(v > off);
  if (v > off) value = v;
  box->setText(label.arg(value));
}

void KernelView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  // A tall pane (a column beside the graph) has the index table under the code, a wide one beside
  // it; the code keeps most of the room either way.
  Qt::Orientation o = height() > width() ? Qt::Vertical : Qt::Horizontal;
  if (o == split_->orientation() && splitPlaced_) return;
  split_->setOrientation(o);
  int code = o == Qt::Vertical ? 4 : 3, table = o == Qt::Vertical ? 1 : 2;
  split_->setStretchFactor(0, code);
  split_->setStretchFactor(1, table);
  int room = o == Qt::Vertical ? split_->height() : split_->width();
  split_->setSizes({room * code / (code + table), room * table / (code + table)});
  splitPlaced_ = true;
}

int KernelView::visibleCodeLines() const {
  return code_->viewport()->height() / std::max(1, code_->fontMetrics().lineSpacing());
}

void KernelView::setProgram(std::shared_ptr<const rewrite::TypedProgram> p) {
  program_ = std::move(p);
  recompile();
}

void KernelView::setBaseline(const QString& source, const QString& label) {
  baseline_ = source;
  baselineLabel_ = label;
  diff_->setEnabled(!source.isEmpty());
  if (diff_->isChecked()) showCode();
}

namespace {

QString rangeText(const std::vector<arith::Expr>& range) {
  QStringList parts;
  for (auto& e : range) parts << QString::fromStdString(arith::toString(e));
  return parts.join(", ");
}

// "<b>dot</b>: global (N/128), local (128)": one kernel and where it runs.
QString kernelSummary(const codegen::CompiledKernel& k) {
  return QString("<b>%1</b>: global (%2), local (%3)")
      .arg(QString::fromStdString(k.kernelName), rangeText(k.launch.global),
           k.launch.local.empty() ? "any" : rangeText(k.launch.local));
}

// Where each kernel's source starts in the text of all (CompiledProgram::source): the number of
// lines before it.
std::vector<int> lineOffsets(const codegen::CompiledProgram& c, const std::string& text) {
  std::vector<int> offsets;
  size_t from = 0;
  for (const codegen::KernelStage& stage : c.stages) {
    size_t at = text.find(stage.kernel.source, from);
    if (at == std::string::npos) at = from;
    offsets.push_back(static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')));
    from = at + stage.kernel.source.size();
  }
  return offsets;
}

}  // namespace

void KernelView::recompile() {
  compiled_.reset();
  source_.clear();
  lineNodes_.clear();
  lineOffsets_.clear();
  error_.clear();
  if (!program_) {
    info_->setText("No program.");
    code_->clear();
    model_->setEntries({});
    emit kernelChanged();
    return;
  }
  QElapsedTimer timer;
  timer.start();
  try {
    compiled_ = codegen::compileProgram(program_->program, options());
    qint64 us = timer.nsecsElapsed() / 1000;
    const codegen::CompiledProgram& c = *compiled_;
    const std::string text = c.source();
    source_ = QString::fromStdString(text);
    lineOffsets_ = lineOffsets(c, text);
    // The kernels' lines and accesses at their lines in the text of all.
    std::vector<codegen::IndexEntry> indices;
    for (size_t i = 0; i < c.stages.size(); ++i) {
      const codegen::CompiledKernel& k = c.stages[i].kernel;
      lineNodes_.resize(static_cast<size_t>(lineOffsets_[i]), 0);
      lineNodes_.insert(lineNodes_.end(), k.lineNodes.begin(), k.lineNodes.end());
      for (codegen::IndexEntry e : k.indices) {
        e.line += lineOffsets_[i];
        indices.push_back(std::move(e));
      }
    }
    QString where;
    if (c.singleKernel()) {
      where = "Kernel " + kernelSummary(c.stages.front().kernel);
    } else {
      QStringList kernels;
      for (const codegen::KernelStage& stage : c.stages) kernels << kernelSummary(stage.kernel);
      where = QString("%1 kernels, run in this order: %2").arg(c.stages.size()).arg(kernels.join("; "));
    }
    // Switches asked for that apply to some kernels only: whether they apply here. Stream-K
    // (StreamK.h):
    QString notes;
    if (options().streamK > 0) {
      int groups = 0;
      for (const codegen::KernelStage& stage : c.stages)
        groups = std::max(groups, stage.kernel.launch.streamKGroups);
      notes = groups > 0 ? QString(" — stream-K over %1 work-groups").arg(groups)
                         : QString(
                               " — stream-K does not apply here: it needs a loop over K tiles that adds into "
                               "zeroed accumulators, at constant sizes (as the search's kernels have), and "
                               "tiles that do not fill whole waves of its work-groups");
    }
    // The step in parts asked for (with the prefetch): whether it applies (PrefetchParts.h).
    if (options().registerPrefetch && options().prefetchParts > 1 &&
        std::none_of(c.stages.begin(), c.stages.end(),
                     [](const codegen::KernelStage& s) { return s.kernel.loopsInParts > 0; }))
      notes +=
          QString(
              " — prefetch in %1 parts does not apply here: it needs a loop over tiles whose next tiles go "
              "through registers and whose step computes in one loop of a constant trip count that %1 "
              "divides")
              .arg(options().prefetchParts);
    info_->setText(QString("%1 — %2 lines, %3 bytes, %4 memory accesses — generated in %5 ms%6")
                       .arg(where)
                       .arg(lineNodes_.size())
                       .arg(source_.toUtf8().size())
                       .arg(indices.size())
                       .arg(us / 1000.0, 0, 'f', 2)
                       .arg(notes));
    model_->setEntries(std::move(indices), options().simplifyIndices);
    table_->resizeColumnsToContents();
  } catch (const LiftError& e) {
    error_ = QString::fromStdString(e.diagnostic().message);
    SourceLoc loc = e.diagnostic().loc;
    info_->setText("<span style='color:#9a6700'>No kernel yet: " + error_.toHtmlEscaped() +
                   (loc.known() ? QString(" (line %1:%2)").arg(loc.line).arg(loc.col) : QString()) +
                   "</span><br>Lower the program with the OpenCL rules (map-to-glb, map-to-wrg, map-to-seq, "
                   "…) to generate a kernel.");
    model_->setEntries({});
  }
  showCode();
  emit kernelChanged();
}

void KernelView::showCode() {
  showingDiff_ = diff_->isChecked() && !baseline_.isEmpty() && compiled_;
  if (!showingDiff_) {
    code_->setPlainText(source_);
    return;
  }
  QString html = "<pre style='margin:0'>";
  for (const DiffLine& l : diffLines(baseline_.toStdString(), source_.toStdString())) {
    QString t = QString::fromStdString(l.text).toHtmlEscaped();
    if (l.kind == DiffLine::Kind::Same)
      html += "  " + t + "\n";
    else if (l.kind == DiffLine::Kind::Removed)
      html += "<span style='background:#ffd7d5'>- " + t + "</span>\n";
    else
      html += "<span style='background:#ccffd8'>+ " + t + "</span>\n";
  }
  code_->clear();
  code_->appendHtml(html + "</pre>");
}

void KernelView::highlightNode(ir::NodeId id) {
  QList<QTextEdit::ExtraSelection> sels;
  highlightedLines_ = 0;
  if (compiled_ && !showingDiff_) {
    std::vector<int> lines = linesOf(id);
    // A click on one of the node's lines keeps the caret there; otherwise show the first.
    bool onIt = std::find(lines.begin(), lines.end(), code_->textCursor().blockNumber() + 1) != lines.end();
    for (int line : lines) {
      QTextEdit::ExtraSelection sel;
      sel.cursor = QTextCursor(code_->document()->findBlockByNumber(line - 1));
      sel.format.setBackground(QColor(190, 215, 255));
      sel.format.setProperty(QTextFormat::FullWidthSelection, true);
      sels.append(sel);
      if (highlightedLines_++ == 0 && !onIt) {
        const QSignalBlocker block(code_);
        QTextCursor c(code_->document()->findBlockByNumber(line - 1));
        code_->setTextCursor(c);
        code_->centerCursor();
      }
    }
  }
  code_->setExtraSelections(sels);
  table_->clearSelection();
  for (int r = 0; r < model_->rowCount(); ++r)
    if (model_->entry(r).node == id)
      table_->selectionModel()->select(model_->index(r, 0),
                                       QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

QString KernelView::source() const { return source_; }

std::vector<int> KernelView::linesOf(ir::NodeId node) const {
  std::vector<int> lines;
  for (size_t i = 0; compiled_ && i < compiled_->stages.size(); ++i)
    for (int line : compiled_->stages[i].kernel.linesOf(node)) lines.push_back(lineOffsets_[i] + line);
  return lines;
}
QString KernelView::errorText() const { return error_; }

}  // namespace lift::views
