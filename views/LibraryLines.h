// The library lines of the performance plot: what libraries reach on the searched program's
// routine at its sizes, measured by the application itself instead of typed in: OpenBLAS on the
// host (for a program that computes a BLAS routine its name suggests, bound as the run's
// validation binds it), CLBlast with its default parameters on the selected device (the same
// routine, loaded at run time: ClBlastLibrary.h), the device's copy bandwidth (a float4 copy
// kernel moving as many bytes as the program, run through the worker) and, for a compute-bound
// program, the device's FMA peak (FmaPeak.h, from its device info). Measured once per device,
// program and sizes, and cached in the settings (group "libraryLines-v2"), so a later search
// shows them at once. A line that cannot be had is listed as missing, with why, in words.
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <vector>

#include "rewrite/explore/SearchProblem.h"

namespace lift::views {

struct LibraryLine {
  // "OpenBLAS sgemm (host)", "CLBlast (defaults) on NAME", "copy bandwidth (device)",
  // "FMA peak (estimate)".
  QString name;
  // In the plot's three units, for the program's work (its flops and bytes) at the searched
  // sizes; 0 where the line is not drawn (the FMA peak is drawn in GFLOP/s only).
  double ms = 0, gflops = 0, gbs = 0;
  QString how;  // what was measured or computed, for the tooltip ("sgemm m=512 n=512 k=512")
};

// A line that could not be had, and why ("CLBlast (defaults) on NAME", "libclblast.so.1 cannot
// be loaded (...)").
struct MissingLine {
  QString name, why;
};

struct LibraryLines {
  std::vector<LibraryLine> lines;
  std::vector<MissingLine> missing;
  // The missing lines as sentences, "NAME: not drawn: WHY" (names missing for one reason share one).
  QStringList missingText() const;
};

// The names of the lines on a device.
QString clblastLineName(const QString& deviceName);
constexpr const char* kFmaPeakLineName = "FMA peak (estimate)";

// The cache key of a device (its name, as the device list shows it) and a problem.
QString libraryLinesKey(const QString& deviceName, const explore::SearchProblem& problem);
std::optional<LibraryLines> cachedLibraryLines(const QString& key);
void cacheLibraryLines(const QString& key, const LibraryLines& lines);

// Measures the lines (blocking: seconds; call it in the background). `deviceSpec` is the
// worker's ("0", "1", ...); `liftc` the worker's executable. nullopt once `cancelled` says so
// (checked between the lines and between CLBlast's calls): nothing half-measured is cached.
std::optional<LibraryLines> measureLibraryLines(const explore::SearchProblem& problem,
                                                const std::string& deviceSpec, const std::string& liftc,
                                                const std::function<bool()>& cancelled = {});

}  // namespace lift::views
