// See DerivationReport.h.
#include "rewrite/explore/DerivationReport.h"

#include <fmt/format.h>

#include <optional>

#include "codegen/Compiler.h"
#include "core/lang/Printer.h"
#include "core/support/TextDiff.h"

namespace lift::explore {

namespace {

using rewrite::RewriteResult;
using rewrite::RewriteStep;
using rewrite::TypedProgram;

std::string htmlEscape(const std::string& s) {
  std::string r;
  for (char c : s) {
    switch (c) {
      case '<':
        r += "&lt;";
        break;
      case '>':
        r += "&gt;";
        break;
      case '&':
        r += "&amp;";
        break;
      default:
        r += c;
    }
  }
  return r;
}

// Writes headings, paragraphs and code or diffs in one of the two formats.
class Writer {
 public:
  explicit Writer(bool html) : html_(html) {}
  void heading(int level, const std::string& text) {
    if (html_)
      out_ += fmt::format("<h{0}>{1}</h{0}>\n", level, htmlEscape(text));
    else
      out_ += std::string(static_cast<size_t>(level), '#') + " " + text + "\n\n";
  }
  void paragraph(const std::string& text) {
    if (html_)
      out_ += "<p>" + htmlEscape(text) + "</p>\n";
    else
      out_ += text + "\n\n";
  }
  void code(const std::string& text, const std::string& lang) {
    if (html_)
      out_ += "<pre class=\"code\">" + htmlEscape(text) + "</pre>\n";
    else
      out_ += "```" + lang + "\n" + text + (text.empty() || text.back() != '\n' ? "\n" : "") + "```\n\n";
  }
  void diff(const std::string& before, const std::string& after) {
    std::vector<DiffLine> d = diffLines(before, after);
    if (!html_) {
      code(unifiedDiff(d), "diff");
      return;
    }
    out_ += "<pre class=\"diff\">";
    for (auto& l : d) {
      std::string t = htmlEscape(l.text);
      if (l.kind == DiffLine::Kind::Same)
        out_ += "  " + t + "\n";
      else if (l.kind == DiffLine::Kind::Removed)
        out_ += "<span class=\"del\">- " + t + "</span>\n";
      else
        out_ += "<span class=\"add\">+ " + t + "</span>\n";
    }
    out_ += "</pre>\n";
  }
  std::string finish(const std::string& title) {
    if (!html_) return out_;
    return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + htmlEscape(title) +
           "</title><style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
           "pre{background:#f6f8fa;padding:.6em;overflow-x:auto}.del{background:#ffd7d5}.add{background:#"
           "ccffd8}"
           "</style></head><body>\n" +
           out_ + "</body></html>\n";
  }

 private:
  bool html_;
  std::string out_;
};

std::optional<std::string> kernelOf(const TypedProgram& p) {
  try {
    return codegen::compileKernel(p.program).source;
  } catch (const LiftError&) {
    return std::nullopt;
  }
}

}  // namespace

std::string derivationReport(const rewrite::TypedProgram& start, const std::vector<RewriteStep>& steps,
                             const ReportOptions& options) {
  Writer w(options.html);
  w.heading(1, options.title);
  w.paragraph(
      fmt::format("{} rewrite steps, each checked to keep the program well-typed. Start:", steps.size()));
  std::string before = lang::printProgram(start.program);
  w.code(before, "");
  TypedProgram current = start;
  std::optional<std::string> kernel = options.kernels ? kernelOf(current) : std::nullopt;
  for (size_t i = 0; i < steps.size(); ++i) {
    const RewriteStep& step = steps[i];
    w.heading(2, fmt::format("Step {}: {}", i + 1, step.spec()));
    if (step.rule) {
      w.paragraph(step.rule->description);
      w.code(step.rule->display(), "");
    }
    RewriteResult r = rewrite::applyRewrite(current, step);
    if (!r) {
      w.paragraph("This step does not apply: " + r.message);
      break;
    }
    std::string after = lang::printProgram(r.program->program);
    w.paragraph("Program:");
    w.diff(before, after);
    if (options.kernels) {
      std::optional<std::string> next = kernelOf(*r.program);
      if (next && kernel) {
        if (*next != *kernel) {
          w.paragraph("OpenCL kernel:");
          w.diff(*kernel, *next);
        }
      } else if (next) {
        w.paragraph("The program is now fully lowered; its OpenCL kernel:");
        w.code(*next, "c");
      }
      kernel = next;
    }
    before = std::move(after);
    current = std::move(*r.program);
  }
  return w.finish(options.title);
}

}  // namespace lift::explore
