// The live performance plot (QCustomPlot): every evaluated kernel as a point (x: evaluation
// index or seconds since the search started; y: GFLOP/s, GB/s or runtime in ms), failed kernels
// as red crosses on the axis, the best-so-far line, and horizontal reference lines (a peer such
// as CLBlast on the same device, the device's peak). Hovering shows a point's configuration;
// clicking one emits its id so the app can load that kernel's derivation. Beside it, a sortable
// table of the best kernels (BestKernelsTable), whose rows click as the points do.
#pragma once

#include <QString>
#include <QWidget>
#include <limits>
#include <vector>

class QCustomPlot;
class QCPItemText;
class QCPTextElement;
class QComboBox;
class QEvent;
class QSplitter;
class QMouseEvent;

namespace lift::views {

class BestKernelsTable;

struct PlotPoint {
  qint64 id = 0;       // e.g. the result store's kernel id
  double seconds = 0;  // since the search started
  bool valid = false;  // ran and validated
  double gflops = 0, gbs = 0, ms = 0;
  QString status;  // for failed points: "wrong-result", "timeout", ...
  QString label;   // short: "kernel 17"
  QString detail;  // the configuration (derivation, parameters), for the tooltip
};

class PerformancePlot : public QWidget {
  Q_OBJECT
 public:
  enum class XAxis { Evaluation, Time };
  enum class YAxis { Gflops, Gbs, Milliseconds };

  explicit PerformancePlot(QWidget* parent = nullptr);

  void clear();
  void addPoint(const PlotPoint& p);
  // A horizontal reference line (in the unit of `axis`), e.g. ("OpenBLAS sgemm", 14.2, Gflops);
  // a name may have a line for each axis, shown while that axis is.
  void setReference(const QString& name, double value, YAxis axis);
  // Removes the name's lines on every axis.
  void removeReference(const QString& name);
  void clearReferences();
  // The reference lines that are not drawn, and why, in words ("CLBlast (defaults) on X: not
  // drawn: libclblast.so.1 cannot be loaded (...)"): a row under the legend (each note cut to one
  // short line) and, in full, the tooltip of that row. Empty: no row.
  void setReferenceNotes(const QStringList& notes);
  QStringList referenceNotes() const { return referenceNotes_; }
  // The row's text as drawn (for tests).
  QString referenceNotesShown() const;
  int referenceCount() const { return static_cast<int>(references_.size()); }
  void setAxes(XAxis x, YAxis y);
  XAxis xAxis() const { return x_; }
  YAxis yAxis() const { return y_; }

  int pointCount() const { return static_cast<int>(points_.size()); }
  const PlotPoint& point(int i) const { return points_.at(static_cast<size_t>(i)); }
  // Index of the best valid point (highest GFLOP/s or GB/s, lowest ms), -1 if none.
  int bestIndex() const;
  // The points as drawn (for tests): best-so-far values in order of evaluation.
  std::vector<double> bestSoFar() const;
  // Rings the point with this id (the kernel loaded in the window); 0: none.
  void setHighlight(qint64 id);
  qint64 highlight() const { return highlight_; }
  // Emits pointClicked for point i, as a click on it would.
  void clickPoint(int i);
  bool savePng(const QString& path, int width = 1000, int height = 600);
  bool savePdf(const QString& path);
  QCustomPlot* customPlot() const { return plot_; }
  BestKernelsTable* bestKernels() const { return table_; }
  // The names of the reference lines drawn on the current y axis.
  QStringList referenceNames() const;

 signals:
  void pointClicked(qint64 id);

 protected:
  void changeEvent(QEvent* e) override;

 private:
  // Background, axes, grid and legend in the colours of the widget's palette (light or dark).
  void applyPalette();
  double yOf(const PlotPoint& p) const;
  // Higher is better on the current y axis (the runtime negated).
  double scoreOf(const PlotPoint& p) const;
  double xOf(const PlotPoint& p, int index) const;
  void rebuild();
  void placeHighlight();
  // Every point, and the reference lines of the y axis, in view with a margin.
  void fitRanges();
  // The height of a label of a reference line, as a share of the axes' height.
  double labelStep() const;
  // The reference lines' labels: beside their line, or stacked at the top with an arrow when the
  // line is above the y range.
  void placeReferenceTexts();
  int nearestPoint(const QPointF& pixel, double maxDistance) const;
  void onMouseMove(QMouseEvent* e);
  void onMousePress(QMouseEvent* e);

  struct Reference {
    QString name;
    double value;
    YAxis axis;
  };
  QCustomPlot* plot_;
  BestKernelsTable* table_;
  QComboBox* xChoice_;
  QComboBox* yChoice_;
  std::vector<PlotPoint> points_;
  std::vector<Reference> references_;
  struct ReferenceText {
    QCPItemText* item;
    QString name;
    double value;
  };
  std::vector<ReferenceText> referenceTexts_;  // this axis's, as drawn
  QStringList referenceNotes_;
  QCPTextElement* notesElement_ = nullptr;  // in the plot's layout under the legend while there are notes
  XAxis x_ = XAxis::Evaluation;
  YAxis y_ = YAxis::Gflops;
  qint64 highlight_ = 0;
  double runningBest_ = std::numeric_limits<double>::quiet_NaN();  // the best-so-far line's last value
};

}  // namespace lift::views
