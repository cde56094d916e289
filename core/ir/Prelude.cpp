// slide2D and pad2D as compositions of 1-D patterns, and their recognition (see Prelude.h).
#include "core/ir/Prelude.h"

#include <fmt/format.h>

namespace lift::ir {

Callable slide2D(arith::Expr rowSize, arith::Expr rowStep, arith::Expr colSize, arith::Expr colStep) {
  return Callable::compose({map(transpose()), slide(rowSize, rowStep), map(slide(colSize, colStep))});
}

Callable pad2D(arith::Expr top, arith::Expr bottom, arith::Expr left, arith::Expr right, PadMode mode,
               const std::string& value) {
  if (mode != PadMode::Constant)
    return Callable::compose({map(pad(left, right, mode)), pad(top, bottom, mode)});
  // A constant pads scalars only: the rows are padded as the columns of the transpose.
  return Callable::compose(
      {transpose(), map(padConstant(top, bottom, value)), transpose(), map(padConstant(left, right, value))});
}

namespace {

// The pattern `f` of kind k, or null.
const PatternNode* patternOf(const Fun& f, PatternKind k) {
  auto* p = asPattern(f);
  return p && p->pattern() == k ? p : nullptr;
}

// map(g) with g the pattern of kind k: that pattern, or null.
const PatternNode* mapped(const Fun& f, PatternKind k) {
  auto* m = patternOf(f, PatternKind::Map);
  if (!m || m->params().funs.size() != 1) return nullptr;
  return patternOf(m->params().funs[0], k);
}

// The call of one argument that `c` is applied to, or null.
const CallNode* inner(const CallNode& c) {
  if (c.args().size() != 1) return nullptr;
  auto* a = asCall(c.args()[0]);
  return a && a->args().size() == 1 ? a : nullptr;
}

std::string sizes(const arith::Expr& a, const arith::Expr& b, const arith::Expr& c, const arith::Expr& d) {
  if (a == c && b == d) return fmt::format("{}, {}", arith::toString(a), arith::toString(b));
  return fmt::format("{}, {}, {}, {}", arith::toString(a), arith::toString(b), arith::toString(c),
                     arith::toString(d));
}

std::string padModeText(const PatternNode& p) {
  static const char* modes[] = {"clamp", "mirror", "wrap"};
  auto& ps = p.params();
  return ps.padMode == PadMode::Constant ? ps.padValue : modes[static_cast<int>(ps.padMode)];
}

bool samePadding(const PatternNode& a, const PatternNode& b) {
  return a.params().padMode == b.params().padMode && a.params().padValue == b.params().padValue;
}

}  // namespace

std::optional<PreludeMatch> matchPrelude(const CallNode& outer) {
  if (outer.args().size() != 1) return std::nullopt;
  const CallNode* second = inner(outer);
  if (!second) return std::nullopt;
  // slide2D: map(transpose) o slide(a, b) o map(slide(c, d))
  if (mapped(outer.fun(), PatternKind::Transpose)) {
    auto* rows = patternOf(second->fun(), PatternKind::Slide);
    const CallNode* third = inner(*second);
    if (!rows || !third) return std::nullopt;
    auto* cols = mapped(third->fun(), PatternKind::Slide);
    if (!cols) return std::nullopt;
    return PreludeMatch{
        fmt::format("slide2D({})", sizes(rows->size(0), rows->size(1), cols->size(0), cols->size(1))),
        {&outer, second, third}};
  }
  // pad2D with a constant: transpose o map(pad(t, b, v)) o transpose o map(pad(l, r, v))
  if (patternOf(outer.fun(), PatternKind::Transpose)) {
    auto* rows = mapped(second->fun(), PatternKind::Pad);
    const CallNode* third = inner(*second);
    const CallNode* fourth = third ? inner(*third) : nullptr;
    if (!rows || !fourth || !patternOf(third->fun(), PatternKind::Transpose)) return std::nullopt;
    auto* cols = mapped(fourth->fun(), PatternKind::Pad);
    if (!cols || !samePadding(*rows, *cols) || rows->params().padMode != PadMode::Constant)
      return std::nullopt;
    return PreludeMatch{
        fmt::format("pad2D({}, {})", sizes(rows->size(0), rows->size(1), cols->size(0), cols->size(1)),
                    padModeText(*rows)),
        {&outer, second, third, fourth}};
  }
  // pad2D: map(pad(l, r, m)) o pad(t, b, m)
  if (auto* cols = mapped(outer.fun(), PatternKind::Pad)) {
    auto* rows = patternOf(second->fun(), PatternKind::Pad);
    if (!rows || !samePadding(*rows, *cols)) return std::nullopt;
    return PreludeMatch{
        fmt::format("pad2D({}, {})", sizes(rows->size(0), rows->size(1), cols->size(0), cols->size(1)),
                    padModeText(*rows)),
        {&outer, second}};
  }
  return std::nullopt;
}

const std::vector<std::string>& preludeNames() {
  static const std::vector<std::string> names = {"slide2D", "pad2D"};
  return names;
}

}  // namespace lift::ir
