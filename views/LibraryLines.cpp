// See LibraryLines.h.
#include "views/LibraryLines.h"

#include <QSettings>
#include <QVariantList>
#include <QVariantMap>
#include <algorithm>
#include <cmath>

#include "codegen/BlasReference.h"
#include "codegen/Evaluation.h"
#include "codegen/runtime/Worker.h"
#include "core/interp/WorkCount.h"
#include "core/lang/Parser.h"

namespace lift::views {

namespace {
// Copies [float]N*4 as N float4 vectors, one per global thread.
const char* const kCopyProgram = R"(
size N = 1024;
userfun copy(float x) -> float { return x; }
fun copy4(x: [float]N*4) = asScalar o mapGlb0(toGlobal(vectorize(4, copy))) $ asVector(4) $ x
)";

LibraryLine lineFor(const QString& name, double ms, const interp::WorkCount& work) {
  return {name, ms, work.gflopsPerSecond(ms), work.gigabytesPerSecond(ms)};
}
}  // namespace

QString libraryLinesKey(const QString& deviceName, const explore::SearchProblem& problem) {
  QString device = deviceName;
  device.replace('/', '_').replace('\\', '_');
  return QString("libraryLines/%1/%2@%3")
      .arg(device, QString::fromStdString(explore::programHash(problem.original)),
           QString::fromStdString(problem.sizesText));
}

std::optional<LibraryLines> cachedLibraryLines(const QString& key) {
  QSettings settings;
  if (!settings.contains(key + "/lines")) return std::nullopt;
  LibraryLines out;
  for (const QVariant& v : settings.value(key + "/lines").toList()) {
    QVariantMap m = v.toMap();
    out.lines.push_back(
        {m["name"].toString(), m["ms"].toDouble(), m["gflops"].toDouble(), m["gbs"].toDouble()});
  }
  out.notes = settings.value(key + "/notes").toString();
  return out;
}

void cacheLibraryLines(const QString& key, const LibraryLines& lines) {
  QVariantList list;
  for (const LibraryLine& l : lines.lines)
    list << QVariantMap{{"name", l.name}, {"ms", l.ms}, {"gflops", l.gflops}, {"gbs", l.gbs}};
  QSettings settings;
  settings.setValue(key + "/lines", list);
  settings.setValue(key + "/notes", lines.notes);
}

LibraryLines measureLibraryLines(const explore::SearchProblem& problem, const std::string& deviceSpec,
                                 const std::string& liftc) {
  LibraryLines out;
  QStringList notes;
  interp::WorkCount work = interp::countWork(problem.original, problem.sizes);

  // OpenBLAS on the host, for the routine the program computes.
  if (auto routine = codegen::blasRoutineSuggestedBy(problem.name)) {
    try {
      std::string why;
      if (auto binding = codegen::bindBlas(problem.original, *routine, &why)) {
        double ms = binding->medianMs(problem.original, problem.sizes);
        out.lines.push_back(
            lineFor(QString("OpenBLAS %1 (host)").arg(codegen::toString(*routine)), ms, work));
      } else {
        notes << QString("OpenBLAS: the program does not compute %1 (%2)")
                     .arg(codegen::toString(*routine), QString::fromStdString(why));
      }
    } catch (const LiftError& e) {
      notes << "OpenBLAS: " + QString::fromStdString(e.diagnostic().message);
    }
  } else {
    notes << "OpenBLAS: the program's name suggests no BLAS routine";
  }

  // The device's copy bandwidth, for as many bytes as the program moves (at least 1 MB).
  try {
    int64_t vectors = 1;
    while (static_cast<double>(vectors) * 16 * 2 < std::max(work.bytes(), 1e6)) vectors *= 2;
    ir::Program copy = lang::parseProgram(kCopyProgram, "copy.lift");
    runtime::WorkerOptions o;
    o.liftcPath = liftc;
    o.device = deviceSpec;
    runtime::WorkerClient worker(o);
    codegen::EvaluationRequest req;
    req.sizes = {{"N", vectors}};
    req.reference = codegen::ReferenceChoice::parse("none");
    req.run.repetitions = 10;
    codegen::Evaluation e = codegen::evaluate(copy, req, worker);
    if (e.ok() && e.gbps > 0) {
      double ms = work.bytes() / (e.gbps * 1e6);  // the program's bytes at the copy's bandwidth
      out.lines.push_back(lineFor("copy bandwidth (device)", ms, work));
    } else {
      notes << "copy bandwidth: " + QString::fromStdString(e.summary());
    }
  } catch (const LiftError& e) {
    notes << "copy bandwidth: " + QString::fromStdString(e.diagnostic().message);
  }
  out.notes = notes.join("; ");
  return out;
}

}  // namespace lift::views
