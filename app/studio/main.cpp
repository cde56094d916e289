// lift-studio: the desktop application. `--screenshot FILE [--example NAME]` renders the main
// window to a PNG and exits (for documentation and tests, under QT_QPA_PLATFORM=offscreen).
#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QTimer>
#include <cstdio>

#include "views/GraphView.h"
#include "views/MainWindow.h"
#include "views/RunPanel.h"

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
  QCommandLineOption apply("apply", "Apply the rewrite SPEC (RULE@LOC[:PARAMS]) after loading; repeatable.", "SPEC");
  QCommandLineOption select("select", "Select the graph node whose label contains TEXT (shows its rules).", "TEXT");
  cli.addOption(screenshot);
  cli.addOption(example);
  QCommandLineOption runOpt("run", "Run the current kernel on the selected device (after --apply) and wait.");
  cli.addOption(runOpt);
  cli.addOption(apply);
  cli.addOption(select);
  cli.addPositionalArgument("file", "A .lift program to open.", "[file]");
  cli.process(app);

  lift::views::MainWindow window;
  bool ok = true;
  // A file or example named on the command line wins; otherwise the last session comes back
  // (autosaved after every change), and on the very first start the matmul example opens.
  if (!cli.positionalArguments().isEmpty())
    ok = window.openFile(cli.positionalArguments().first());
  else if (cli.isSet(example) || cli.isSet(screenshot) || !QFile::exists(lift::views::MainWindow::autosavePath()) ||
           !window.openSession(lift::views::MainWindow::autosavePath()))
    ok = window.openExample(cli.value(example));
  if (!ok && cli.isSet(screenshot)) std::fprintf(stderr, "lift-studio: the program did not load\n");
  for (const QString& spec : cli.values(apply)) {
    QString error;
    if (!window.applyRewrite(spec, &error)) {
      std::fprintf(stderr, "lift-studio: cannot apply %s: %s\n", qPrintable(spec), qPrintable(error));
      ok = false;
    }
  }
  if (cli.isSet(select) && !window.selectNodeByLabel(cli.value(select))) {
    std::fprintf(stderr, "lift-studio: no node matches '%s'\n", qPrintable(cli.value(select)));
    ok = false;
  }

  if (cli.isSet(runOpt)) {
    window.runPanel()->run();
    window.runPanel()->waitForRun();
  }
  if (cli.isSet(screenshot)) {
    bool saved = window.saveScreenshot(cli.value(screenshot));
    if (!saved) std::fprintf(stderr, "lift-studio: cannot write %s\n", qPrintable(cli.value(screenshot)));
    return saved && ok ? 0 : 2;
  }
  window.show();
  QTimer::singleShot(0, window.graphView(), [&window] { window.graphView()->fit(); });
  return app.exec();
}
