// lift-studio: the desktop application. `--screenshot FILE [--example NAME]` renders the main
// window to a PNG and exits (for documentation and tests, under QT_QPA_PLATFORM=offscreen);
// `--search SECONDS` first runs a search of that budget on the shown program and waits for it.
// Scripted runs (--screenshot, --search, --run, --apply, --select, --load-best) never write the
// user's settings or autosaved session; each interactive instance autosaves to its own file.
#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <optional>

#include "core/interp/SizeList.h"
#include "core/support/Diagnostic.h"
#include "rewrite/explore/SearchProblem.h"
#include "rewrite/explore/SearchStrategy.h"

#include "views/AutosaveSlot.h"
#include "views/DeviceChoice.h"
#include "views/GraphView.h"
#include "views/MainWindow.h"
#include "views/PerformancePlot.h"
#include "views/RunPanel.h"
#include "views/SearchPanel.h"
#include "views/Session.h"
#include "views/SizeFields.h"

// The last session (autosaved at `path` after every change), when `wanted` and there is one that
// restores at least one state; its states are replayed before anything else happens.
static bool restoreSession(lift::views::MainWindow& window, const QString& path, bool wanted) {
  if (!wanted || path.isEmpty() || !QFile::exists(path) || !window.openSession(path)) return false;
  window.session()->waitForReplay();
  return window.session()->program() != nullptr;
}

// A pane's rich text as plain text for stderr.
static QString plain(const QString& html) { return QTextDocumentFragment::fromHtml(html).toPlainText(); }

// The integer value of `option`, from `min` to `max`; false, with a message on stderr, otherwise.
static bool integerOption(const QCommandLineParser& cli, const QCommandLineOption& option, int min, int max,
                          int* value) {
  bool isInt = false;
  *value = cli.value(option).toInt(&isInt);
  if (isInt && *value >= min && *value <= max) return true;
  std::fprintf(stderr, "lift-studio: --%s: expected an integer from %d to %d, got '%s'\n",
               qPrintable(option.names().first()), min, max, qPrintable(cli.value(option)));
  return false;
}

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName("LiftStudio");
  QApplication::setApplicationName("lift-studio");
  QApplication::setApplicationVersion("0.1");

  QCommandLineParser cli;
  cli.setApplicationDescription("Derive fast OpenCL kernels from functional programs by rewriting.");
  cli.addHelpOption();
  cli.addVersionOption();
  QCommandLineOption screenshot("screenshot", "Render the main window to FILE (PNG) and exit.", "FILE");
  QCommandLineOption example("example", "Open the bundled example NAME (default: matmul).", "NAME", "matmul");
  QCommandLineOption apply("apply", "Apply the rewrite SPEC (RULE@LOC[:PARAMS]) after loading; repeatable.",
                           "SPEC");
  QCommandLineOption select("select", "Select the graph node whose label contains TEXT (shows its rules).",
                            "TEXT");
  cli.addOption(screenshot);
  cli.addOption(example);
  QCommandLineOption runOpt("run", "Run the current kernel on the selected device (after --apply) and wait.");
  cli.addOption(runOpt);
  cli.addOption(apply);
  cli.addOption(select);
  QCommandLineOption sizeOpt("size", "Sizes for running and searching, e.g. M=64,N=64,K=64; repeatable.",
                             "N=V,...");
  QCommandLineOption deviceOpt(
      "device",
      "The device to run and search on, as liftc's --device names it: its index, its type "
      "(cpu, gpu) or a part of its name or its platform's.",
      "DEVICE");
  QCommandLineOption searchOpt(
      "search", "Search the shown program for SECONDS (after --apply) and wait for it.", "SECONDS");
  QCommandLineOption maxKernelsOpt("max-kernels", "With --search: stop after K kernels.", "K");
  QCommandLineOption strategyOpt("strategy", "With --search: three-phase (default), random or evolution.",
                                 "NAME", "three-phase");
  QCommandLineOption storeOpt("store",
                              "The result store searches write to (default: searches.sqlite in the "
                              "application's data folder).",
                              "FILE");
  QCommandLineOption loadBestOpt("load-best",
                                 "After --search: load the best kernel's derivation, as a click on its "
                                 "point does.");
  cli.addOptions({sizeOpt, deviceOpt, searchOpt, maxKernelsOpt, strategyOpt, storeOpt, loadBestOpt});
  cli.addPositionalArgument("file", "A .lift program to open.", "[file]");
  cli.process(app);

  // A scripted run leaves the user's settings (window layout, theme, recent files, search
  // settings) alone: its own live in a scratch folder that goes away at exit. It autosaves
  // nothing, and may read the first instance's autosave (written atomically) to start from.
  bool scripted = cli.isSet(screenshot) || cli.isSet(searchOpt) || cli.isSet(runOpt) || cli.isSet(apply) ||
                  cli.isSet(select) || cli.isSet(loadBestOpt);
  QTemporaryDir scratchSettings;
  if (scripted) {
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, scratchSettings.path());
  }
  QString autosaveFolder = QFileInfo(lift::views::Session::defaultAutosavePath()).path();
  lift::views::AutosaveSlot autosave;
  bool autosaving = !scripted && autosave.acquire(autosaveFolder);

  lift::views::MainWindow window;
  if (autosaving) window.session()->setAutosavePath(autosave.path());
  // A screenshot run exits by itself: no dialog may wait for a click.
  window.setHeadless(cli.isSet(screenshot));
  if (cli.isSet(screenshot)) {  // the same picture whatever size and layout the user left
    window.resetLayout();
    window.resize(1920, 1080);
  }
  bool ok = true;
  // A file or example named on the command line wins; otherwise the last session comes back
  // (autosaved after every change), and on the very first start the matmul example opens.
  if (!cli.positionalArguments().isEmpty())
    ok = window.openFile(cli.positionalArguments().first());
  else if (!restoreSession(window,
                           scripted ? lift::views::AutosaveSlot::pathOf(autosaveFolder, 1) : autosave.path(),
                           !cli.isSet(example) && !cli.isSet(screenshot)))
    ok = window.openExample(cli.value(example));
  if (!ok && cli.isSet(screenshot)) std::fprintf(stderr, "lift-studio: the program did not load\n");
  for (const QString& spec : cli.values(apply)) {
    QString error;
    if (!window.session()->applyRewrite(spec, &error)) {
      std::fprintf(stderr, "lift-studio: cannot apply %s: %s\n", qPrintable(spec), qPrintable(error));
      ok = false;
    }
  }
  if (cli.isSet(select) && !window.selectNodeByLabel(cli.value(select))) {
    std::fprintf(stderr, "lift-studio: no node matches '%s'\n", qPrintable(cli.value(select)));
    ok = false;
  }

  lift::views::SearchPanel* search = window.searchPanel();
  if (cli.isSet(deviceOpt)) {
    QString d = cli.value(deviceOpt);
    auto* choice = window.runPanel()->deviceChoice();
    int i = choice->findData(d);
    if (i < 0) i = choice->findDevice(d);
    if (i >= 0) {
      choice->setCurrentIndex(i);  // the search pane follows
    } else {
      QString devices;
      for (int k = 0; k < choice->deviceCount(); ++k) devices += "\n  " + choice->itemText(k);
      std::fprintf(stderr, "lift-studio: no device matches '%s'; the devices are:%s\n", qPrintable(d),
                   devices.isEmpty() ? " none" : qPrintable(devices));
      ok = false;
    }
  }
  if (cli.isSet(sizeOpt)) {
    lift::arith::Env sizes;
    try {
      for (const QString& s : cli.values(sizeOpt)) lift::interp::parseSizeList(s.toStdString(), sizes);
    } catch (const lift::LiftError& e) {
      std::fprintf(stderr, "lift-studio: --size: %s\n", e.diagnostic().message.c_str());
      ok = false;
    }
    window.runPanel()->setSizeTexts(lift::views::sizeTexts(sizes));
    search->sizeFields()->setTexts(lift::views::sizeTexts(sizes));
  }
  if (cli.isSet(storeOpt)) search->setStorePath(cli.value(storeOpt));
  std::vector<std::string> strategies = lift::explore::strategyNames();
  if (std::find(strategies.begin(), strategies.end(), cli.value(strategyOpt).toStdString()) ==
      strategies.end()) {
    std::fprintf(stderr, "lift-studio: --strategy: no strategy '%s' (three-phase, random or evolution)\n",
                 qPrintable(cli.value(strategyOpt)));
    ok = false;
  } else if (cli.isSet(strategyOpt) || cli.isSet(searchOpt)) {
    search->setStrategy(cli.value(strategyOpt));
  }
  int seconds = 0, maxKernels = 0;
  if (cli.isSet(searchOpt) && !integerOption(cli, searchOpt, 1, 7 * 24 * 3600, &seconds)) ok = false;
  if (cli.isSet(maxKernelsOpt) && !integerOption(cli, maxKernelsOpt, 1, 10'000'000, &maxKernels)) ok = false;
  if (cli.isSet(searchOpt) && ok) {
    search->setLimits(seconds, maxKernels);
    search->start();
    if (!search->isRunning()) {
      std::fprintf(stderr, "lift-studio: the search did not start: %s\n",
                   qPrintable(plain(search->activityText())));
      ok = false;
    }
    search->waitForSearch();
    // The pane's counts (and the plot's points): kernels measured by this search, and those a
    // resumed search found in the store.
    const auto& summary = search->lastSummary();
    const auto& tally = search->tally();
    std::fprintf(
        stderr,
        "lift-studio: search %s: evaluated %lld, valid %lld, stored before %lld (valid %lld), best %.4g "
        "ms\n",
        lift::explore::toString(summary.stopReason), static_cast<long long>(tally.measured),
        static_cast<long long>(tally.measuredValid), static_cast<long long>(tally.stored),
        static_cast<long long>(tally.storedValid), summary.bestMs);
    if (summary.stopReason == lift::explore::StopReason::Error) ok = false;
    if (cli.isSet(loadBestOpt)) {
      lift::views::PerformancePlot* plot = window.performancePlot();
      if (plot->bestIndex() < 0) {
        std::fprintf(stderr, "lift-studio: the search found no valid kernel to load\n");
        ok = false;
      } else {
        plot->clickPoint(plot->bestIndex());
        window.session()->waitForReplay();
      }
    }
  }

  if (cli.isSet(runOpt) && ok) {
    std::optional<lift::codegen::Evaluation> ran;
    QObject::connect(window.runPanel(), &lift::views::RunPanel::finished,
                     [&ran](const std::shared_ptr<const lift::rewrite::TypedProgram>&,
                            const lift::codegen::Evaluation& e) { ran = e; });
    window.runPanel()->run();
    window.runPanel()->waitForRun();
    if (!ran || !ran->ok()) {  // did not start (no device, bad sizes) or failed
      std::fprintf(stderr, "lift-studio: the run failed: %s\n",
                   qPrintable(plain(window.runPanel()->resultText())));
      ok = false;
    }
  }
  if (cli.isSet(screenshot)) {
    if (!ok) return 2;  // what went wrong is on stderr; no picture of a half-done run
    bool saved = window.saveScreenshot(cli.value(screenshot));
    if (!saved) std::fprintf(stderr, "lift-studio: cannot write %s\n", qPrintable(cli.value(screenshot)));
    return saved ? 0 : 2;
  }
  window.show();
  QTimer::singleShot(0, window.graphView(), [&window] { window.graphView()->fit(); });
  if (!scripted && !autosaving)
    QMessageBox::warning(&window, "Autosave",
                         "Too many Lift Studio windows are open: this one does not autosave its session. Use "
                         "File › Save session to keep it.");
  else if (autosave.number() > 1)
    window.statusBar()->showMessage(QString("Another Lift Studio is open: this one autosaves to %1")
                                        .arg(QFileInfo(autosave.path()).fileName()),
                                    20000);
  return app.exec();
}
