// The table beside the performance plot: the best valid kernels of the search shown (at most
// kRows, best first on the plot's y axis), sortable by any column; clicking a row does what
// clicking the kernel's point does (PerformancePlot::clickPoint: its derivation is loaded).
#pragma once

#include <QTableWidget>
#include <vector>

namespace lift::views {

struct PlotPoint;

class BestKernelsTable : public QTableWidget {
  Q_OBJECT
 public:
  static constexpr int kRows = 50;
  enum Column { Evaluation, Milliseconds, Gflops, Gbs, Parameters, ColumnCount };

  explicit BestKernelsTable(QWidget* parent = nullptr);

  // Starts over with `points`: the best of them by `score` (higher is better).
  void showBest(const std::vector<PlotPoint>& points, const std::vector<double>& scores);
  // Considers one more point (index `i` of the plot's points) with its score.
  void consider(const PlotPoint& p, int i, double score);
  // The plot's index of the point in `row` (as sorted now).
  int pointOf(int row) const;

 signals:
  // A row was clicked: the plot's index of its point.
  void pointChosen(int index);

 private:
  struct Entry {
    int index;
    double score;
    double ms, gflops, gbs;
    QString label, parameters;
  };
  void refill();

  std::vector<Entry> best_;  // best first, at most kRows
};

}  // namespace lift::views
