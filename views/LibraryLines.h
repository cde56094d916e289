// The library lines of the performance plot: what libraries reach on the searched program's
// routine at its sizes, measured by the application itself instead of typed in: OpenBLAS on the
// host (for a program that computes a BLAS routine its name suggests, bound as the run's
// validation binds it) and the device's copy bandwidth (a float4 copy kernel moving as many bytes
// as the program, run through the worker). Measured once per device, program and sizes, and
// cached in the settings (group "libraryLines"), so a later search shows them at once.
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "rewrite/explore/SearchProblem.h"

namespace lift::views {

struct LibraryLine {
  QString name;  // "OpenBLAS sgemm (host)", "copy bandwidth (device)"
  // In the plot's three units, for the program's work (its flops and bytes) at the searched sizes.
  double ms = 0, gflops = 0, gbs = 0;
};

struct LibraryLines {
  std::vector<LibraryLine> lines;
  QString notes;  // what could not be measured, and why ("no BLAS routine: ...")
};

// The cache key of a device (its name, as the device list shows it) and a problem.
QString libraryLinesKey(const QString& deviceName, const explore::SearchProblem& problem);
std::optional<LibraryLines> cachedLibraryLines(const QString& key);
void cacheLibraryLines(const QString& key, const LibraryLines& lines);

// Measures the lines (blocking: seconds; call it in the background). `deviceSpec` is the
// worker's ("0", "1", ...); `liftc` the worker's executable.
LibraryLines measureLibraryLines(const explore::SearchProblem& problem, const std::string& deviceSpec,
                                 const std::string& liftc);

}  // namespace lift::views
