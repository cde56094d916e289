// See LibraryLines.h.
#include "views/LibraryLines.h"

#include <QSettings>
#include <QVariantList>
#include <QVariantMap>
#include <algorithm>
#include <cmath>

#include "codegen/BlasDims.h"
#include "codegen/BlasReference.h"
#include "codegen/Evaluation.h"
#include "codegen/runtime/Device.h"
#include "codegen/runtime/Worker.h"
#include "core/interp/WorkCount.h"
#include "core/lang/Parser.h"
#include "views/ClBlastLibrary.h"
#include "views/ClBlastTiming.h"
#include "views/FmaPeak.h"

namespace lift::views {

namespace {
// Copies [float]N*4 as N float4 vectors, one per global thread.
const char* const kCopyProgram = R"(
size N = 1024;
userfun copy(float x) -> float { return x; }
fun copy4(x: [float]N*4) = asScalar o mapGlb0(toGlobal(vectorize(4, copy))) $ asVector(4) $ x
)";

LibraryLine lineFor(const QString& name, double ms, const interp::WorkCount& work, const QString& how = {}) {
  return {name, ms, work.gflopsPerSecond(ms), work.gigabytesPerSecond(ms), how};
}

QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QStringList LibraryLines::missingText() const {
  // Lines missing for one reason share a sentence (OpenBLAS and CLBlast for a program that computes
  // no BLAS routine).
  QStringList names, whys;
  for (const MissingLine& m : missing) {
    qsizetype i = whys.indexOf(m.why);
    if (i < 0) {
      names << m.name;
      whys << m.why;
    } else {
      names[i] += ", " + m.name;
    }
  }
  QStringList out;
  for (qsizetype i = 0; i < names.size(); ++i) out << QString("%1: not drawn: %2").arg(names[i], whys[i]);
  return out;
}

QString clblastLineName(const QString& deviceName) { return "CLBlast (defaults) on " + deviceName; }

QString libraryLinesKey(const QString& deviceName, const explore::SearchProblem& problem) {
  QString device = deviceName;
  device.replace('/', '_').replace('\\', '_');
  return QString("libraryLines-v2/%1/%2@%3")
      .arg(device, QString::fromStdString(explore::programHash(problem.original)),
           QString::fromStdString(problem.sizesText));
}

std::optional<LibraryLines> cachedLibraryLines(const QString& key) {
  QSettings settings;
  if (!settings.contains(key + "/lines")) return std::nullopt;
  LibraryLines out;
  for (const QVariant& v : settings.value(key + "/lines").toList()) {
    QVariantMap m = v.toMap();
    out.lines.push_back({m["name"].toString(), m["ms"].toDouble(), m["gflops"].toDouble(),
                         m["gbs"].toDouble(), m["how"].toString()});
  }
  for (const QVariant& v : settings.value(key + "/missing").toList()) {
    QVariantMap m = v.toMap();
    out.missing.push_back({m["name"].toString(), m["why"].toString()});
  }
  return out;
}

void cacheLibraryLines(const QString& key, const LibraryLines& lines) {
  QVariantList list, missing;
  for (const LibraryLine& l : lines.lines)
    list << QVariantMap{{"name", l.name}, {"ms", l.ms}, {"gflops", l.gflops}, {"gbs", l.gbs}, {"how", l.how}};
  for (const MissingLine& m : lines.missing) missing << QVariantMap{{"name", m.name}, {"why", m.why}};
  QSettings settings;
  settings.setValue(key + "/lines", list);
  settings.setValue(key + "/missing", missing);
}

std::optional<LibraryLines> measureLibraryLines(const explore::SearchProblem& problem,
                                                const std::string& deviceSpec, const std::string& liftc,
                                                const std::function<bool()>& cancelled) {
  auto stop = [&] { return cancelled && cancelled(); };
  LibraryLines out;
  interp::WorkCount work = interp::countWork(problem.original, problem.sizes);
  std::optional<runtime::Device> device;
  QString deviceWhy;
  try {
    device = runtime::Device::find(deviceSpec);
  } catch (const LiftError& e) {
    deviceWhy = qs(e.diagnostic().message);
  }
  QString clblastName =
      clblastLineName(device ? qs(device->info().name) : QString("device %1").arg(qs(deviceSpec)));

  // The BLAS routine the program computes, bound by trial (needs OpenBLAS): OpenBLAS on the host
  // and CLBlast on the device call it.
  std::optional<codegen::BlasBinding> binding;
  QString bindingWhy;
  auto routine = codegen::blasRoutineSuggestedBy(problem.name);
  if (!routine) {
    bindingWhy = "the program's name suggests no BLAS routine";
  } else {
    try {
      std::string why;
      binding = codegen::bindBlas(problem.original, *routine, &why);
      if (!binding)
        bindingWhy =
            QString("the program does not compute %1 (%2)").arg(codegen::toString(*routine), qs(why));
    } catch (const LiftError& e) {
      bindingWhy = QString("cannot tell how %1 applies to the program: %2")
                       .arg(codegen::toString(*routine), qs(e.diagnostic().message));
    }
  }

  // OpenBLAS on the host.
  QString openblasName = QString("OpenBLAS %1 (host)").arg(routine ? codegen::toString(*routine) : "");
  if (!binding) {
    out.missing.push_back({routine ? openblasName : "OpenBLAS", bindingWhy});
  } else {
    try {
      double ms = binding->medianMs(problem.original, problem.sizes);
      out.lines.push_back(lineFor(openblasName, ms, work, qs(binding->describe(problem.original))));
    } catch (const LiftError& e) {
      out.missing.push_back({openblasName, qs(e.diagnostic().message)});
    }
  }
  if (stop()) return std::nullopt;

  // CLBlast with its default parameters on the device.
  if (!binding) {
    out.missing.push_back({clblastName, bindingWhy});
  } else if (!device) {
    out.missing.push_back({clblastName, deviceWhy});
  } else {
    try {
      codegen::BlasDims dims = codegen::blasDims(*binding, problem.original, problem.sizes);
      std::optional<double> ms =
          clblastMedianMs(ClBlastLibrary::load(), *device, *binding, dims, /*repetitions=*/5, cancelled);
      if (!ms) return std::nullopt;
      out.lines.push_back(lineFor(clblastName, *ms, work, qs(describeClBlastCall(*binding, dims))));
    } catch (const LiftError& e) {
      out.missing.push_back({clblastName, qs(e.diagnostic().message)});
    }
  }
  if (stop()) return std::nullopt;

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
      out.lines.push_back(lineFor("copy bandwidth (device)", ms, work,
                                  QString("a float4 copy of %1 MB: %2 GB/s")
                                      .arg(static_cast<double>(vectors) * 16 / 1e6, 0, 'g', 3)
                                      .arg(e.gbps, 0, 'g', 4)));
    } else {
      out.missing.push_back({"copy bandwidth (device)", qs(e.summary())});
    }
  } catch (const LiftError& e) {
    out.missing.push_back({"copy bandwidth (device)", qs(e.diagnostic().message)});
  }
  if (stop()) return std::nullopt;

  // The device's FMA peak, for a compute-bound program (whose plot is in GFLOP/s).
  if (!work.computeBound()) {
    out.missing.push_back({kFmaPeakLineName, "the program is bandwidth-bound: its plot is in GB/s"});
  } else if (!device) {
    out.missing.push_back({kFmaPeakLineName, deviceWhy});
  } else {
    FmaPeak peak = fmaPeakOf(fmaPeakFactsOf(*device));
    if (peak.gflops > 0)
      out.lines.push_back({kFmaPeakLineName, 0, peak.gflops, 0, peak.how});
    else
      out.missing.push_back({kFmaPeakLineName, peak.why});
  }
  return out;
}

}  // namespace lift::views
