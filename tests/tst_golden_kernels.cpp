// Golden kernels: the OpenCL that code generation gives for every low-level example and every
// test program, checked in under tests/golden/ and compared byte for byte, so that any change in
// generated code shows up as a readable diff in review. Three variants per program: symbolic
// sizes with every optimisation on (NAME.cl), sizes fixed (NAME.sized.cl: the program's defaults,
// else valid sizes of at least 64), and every optimisation off (NAME.plain.cl); a program that does not
// compile freezes its message instead (NAME.error.txt). Each file starts with the launch configuration and
// the parameters; a program that needs several kernels has each, after a line naming it (kernel i
// of n).
//
// Regenerate after an intended change: `LIFT_UPDATE_GOLDEN=1 build/tests/tst_golden_kernels`
// (or `bash scripts/update-golden.sh`), then review `git diff tests/golden`.
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "codegen/ProgramCompiler.h"
#include "core/interp/Sizes.h"
#include "core/lang/Parser.h"
#include "core/support/Diagnostic.h"

using namespace lift;
namespace fs = std::filesystem;

namespace {

const std::string kSource = LIFT_SOURCE_DIR;

// The folders whose programs are frozen, and the name of their folder under tests/golden/.
const std::vector<std::pair<std::string, std::string>> kFolders = {
    {"resources/examples/lowlevel", "lowlevel"},
    {"tests/data/codegen", "codegen"},
};

bool updating() { return qEnvironmentVariableIsSet("LIFT_UPDATE_GOLDEN"); }

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string relative(std::string text) {
  for (size_t at = text.find(kSource + "/"); at != std::string::npos; at = text.find(kSource + "/"))
    text.erase(at, kSource.size() + 1);
  return text;
}

std::string exprList(const std::vector<arith::Expr>& es) {
  std::string s;
  for (auto& e : es) s += (s.empty() ? "" : ", ") + arith::toString(e);
  return s.empty() ? "(runtime's choice)" : s;
}

// The kernel as a reviewer wants to read it: what it is launched with, then its source.
std::string render(const std::string& title, const codegen::CompiledKernel& k) {
  std::string s = "// golden: " + title + "\n";
  s += "// kernel " + k.kernelName + ", global " + exprList(k.launch.global) + ", local " +
       exprList(k.launch.local) + (k.launch.fixed ? " (fixed)" : "") + "\n";
  for (auto& p : k.params) {
    s += std::string("// param ") + codegen::toString(p.kind) + " " + p.name;
    if (p.isBuffer()) s += " [" + arith::toString(p.count) + "]";
    s += "\n";
  }
  return s + "\n" + k.source;
}

// A program's kernels: one rendered as above; several each after a line naming it.
std::string render(const std::string& title, const codegen::CompiledProgram& p) {
  if (p.singleKernel()) return render(title, p.stages.front().kernel);
  std::string s;
  for (size_t i = 0; i < p.stages.size(); ++i)
    s += (i ? "\n\n" : "") + std::string("// ===== ") + p.stageTitle(i) + "\n" +
         render(title, p.stages[i].kernel);
  return s;
}

struct Variant {
  std::string suffix, title;
};

// What one variant of one program gives: the rendered kernel, or the message that refused it
// (with the suffix of the file it goes to).
std::pair<std::string, std::string> generate(const ir::Program& program, const std::string& rel,
                                             const std::string& variant) {
  try {
    codegen::CompileOptions options;
    ir::Program p = program;
    std::string title = rel + ", ";
    if (variant == "sized") {
      // The program's defaults, else sizes large enough that no loop over them is unrolled away.
      interp::SizeHint hint;
      hint.useDefaults = true;
      hint.atLeast = 64;
      arith::Env sizes = interp::chooseSizes(p, hint);
      std::string list;
      for (auto& s : p.sizes)
        list += (list.empty() ? "" : ",") + s.name + "=" + std::to_string(sizes[s.name]);
      p = interp::specialize(p, sizes);
      title += "sizes " + (list.empty() ? std::string("(none)") : list);
    } else if (variant == "plain") {
      options.simplifyIndices = options.barrierElimination = options.cfgSimplification = options.unrolling =
          options.fusedMultiplyAdd = false;
      title += "every optimisation off";
    } else {
      title += "symbolic sizes, default options";
    }
    return {".cl", relative(render(title, codegen::compileProgram(p, options)))};
  } catch (const LiftError& e) {
    return {".error.txt", relative(e.what()) + "\n"};
  }
}

// Golden files whose program is gone (a file NAME.VARIANT... belongs to NAME.lift).
std::vector<fs::path> staleGoldenFiles() {
  std::vector<fs::path> stale;
  for (auto& [folder, name] : kFolders) {
    fs::path dir = kSource + "/tests/golden/" + name;
    if (!fs::exists(dir)) continue;
    for (auto& entry : fs::directory_iterator(dir)) {
      std::string stem = entry.path().filename().string();
      stem = stem.substr(0, stem.find('.'));
      if (!fs::exists(kSource + "/" + folder + "/" + stem + ".lift")) stale.push_back(entry.path());
    }
  }
  return stale;
}

}  // namespace

class TestGoldenKernels : public QObject {
  Q_OBJECT

 private slots:
  void kernels_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("golden");
    for (auto& [folder, name] : kFolders) {
      std::vector<fs::path> files;
      for (auto& entry : fs::directory_iterator(kSource + "/" + folder))
        if (entry.path().extension() == ".lift") files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      for (auto& f : files) {
        std::string rel = folder + "/" + f.filename().string();
        std::string golden = "tests/golden/" + name + "/" + f.stem().string();
        QTest::newRow(rel.c_str()) << QString::fromStdString(rel) << QString::fromStdString(golden);
      }
    }
  }

  void kernels() {
    QFETCH(QString, program);
    QFETCH(QString, golden);
    std::string rel = program.toStdString();
    ir::Program p = lang::parseFile(kSource + "/" + rel);
    for (std::string variant : {"", "sized", "plain"}) {
      auto [ext, text] = generate(p, rel, variant);
      std::string base = kSource + "/" + golden.toStdString() + (variant.empty() ? "" : "." + variant);
      fs::path file = base + ext;
      // A program that used to compile and now does not (or the reverse) leaves a file of the
      // other kind behind: that is a difference too.
      fs::path other = base + (ext == ".cl" ? ".error.txt" : ".cl");
      if (updating()) {
        fs::create_directories(file.parent_path());
        fs::remove(other);
        std::ofstream(file, std::ios::binary) << text;
        continue;
      }
      QVERIFY2(!fs::exists(other), qPrintable(QString::fromStdString("expected " + other.string() + ", got " +
                                                                     file.string() + ":\n" + text)));
      QVERIFY2(fs::exists(file),
               qPrintable(QString::fromStdString("no golden file " + file.string() +
                                                 " (LIFT_UPDATE_GOLDEN=1 tst_golden_kernels writes it)")));
      std::string expected = readFile(file);
      if (expected == text) continue;
      // Show the first line that differs, with its neighbours; `git diff` after regenerating
      // shows all of them.
      std::istringstream a(expected), b(text);
      std::string la, lb, around;
      int line = 1;
      while (std::getline(a, la) && std::getline(b, lb) && la == lb) {
        around = la;
        ++line;
      }
      QFAIL(qPrintable(QString::fromStdString(
          relative(file.string()) + ":" + std::to_string(line) +
          ": generated code differs from the golden kernel\n  after:    " + around + "\n  expected: " + la +
          "\n  got:      " + lb + "\n(LIFT_UPDATE_GOLDEN=1 tst_golden_kernels, then git diff)")));
    }
  }

  // Every golden file belongs to a program that still exists.
  void noStaleGoldenFiles() {
    if (updating()) {
      for (const fs::path& f : staleGoldenFiles()) fs::remove(f);
      return;
    }
    for (auto& [folder, name] : kFolders) {
      fs::path dir = kSource + "/tests/golden/" + name;
      QVERIFY2(fs::exists(dir), qPrintable(QString::fromStdString("no folder " + dir.string())));
    }
    for (const fs::path& f : staleGoldenFiles())
      QFAIL(qPrintable(QString::fromStdString(f.string() + " has no program")));
  }
};

QTEST_GUILESS_MAIN(TestGoldenKernels)
#include "tst_golden_kernels.moc"
