// slide2D and pad2D as compositions of 1-D patterns, allPairs as a nest of two maps, and their
// recognition (see Prelude.h).
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

Expr allPairs(const Param& a, const Param& b, Expr body, Expr x, Expr y) {
  Expr row = CallNode::make(map(lambda({b}, std::move(body))), {std::move(y)});
  return CallNode::make(map(lambda({a}, std::move(row))), {std::move(x)});
}

Expr allPairs(const Fun& f, Expr x, Expr y) {
  if (auto* l = asLambda(f)) {
    LIFT_ASSERT(l->params().size() == 2, "allPairs of a lambda of two parameters");
    return allPairs(l->params()[0], l->params()[1], l->body(), std::move(x), std::move(y));
  }
  Param a = param("a"), b = param("b");
  return allPairs(a, b, CallNode::make(f, {a, b}), std::move(x), std::move(y));
}

Fun allPairsZipReduce(const Callable& r, const Callable& z, LocationMap* locs) {
  Param a = param("a"), b = param("b");
  return lambda({a, b}, r.apply({CallNode::make(map(z), {zip({a, b})})}, locs));
}

const Expr& AllPairsMatch::x() const { return outer->args()[0]; }
const Expr& AllPairsMatch::y() const { return inner->args()[0]; }
const Param& AllPairsMatch::a() const { return rows->params()[0]; }
const Param& AllPairsMatch::b() const { return cols->params()[0]; }
const Expr& AllPairsMatch::body() const { return cols->body(); }

std::string AllPairsMatch::label() const {
  if (reduction) {
    auto* r = asPattern(reduction->fun());
    auto* f = r->params().funs.empty() ? nullptr : asUserFun(r->params().funs[0]);
    auto* init = asLiteral(reduction->args()[0]);
    if (f && init && (init->type().isScalar() || init->type().isVector())) {
      std::string value = init->type().isVector()
                              ? fmt::format("({}){}", init->type().toString(), init->text())
                              : init->text();
      std::string part = r->pattern() == PatternKind::PartRed && !r->params().sizes.empty()
                             ? ", " + arith::toString(r->size())
                             : "";
      return fmt::format("allPairs({}({}, {}{}), {})", patternName(r->pattern()), f->def().name, value, part,
                         zipFun->def().name);
    }
  }
  return fmt::format("allPairs(λ {}, {})", a()->name(), b()->name());
}

namespace {

// The map of one nested lambda of one parameter applied to one argument, or null.
const LambdaNode* mappedLambda(const CallNode& c) {
  auto* m = patternOf(c.fun(), PatternKind::Map);
  if (!m || c.args().size() != 1 || m->params().funs.size() != 1) return nullptr;
  auto* l = asLambda(m->params().funs[0]);
  return l && l->params().size() == 1 ? l : nullptr;
}

// Whether `e` is r o map(z) $ zip(a, b): sets the reduction's call and z in `m`.
void matchZipReduce(AllPairsMatch& m) {
  const ParamNode* a = m.a().get();
  const ParamNode* b = m.b().get();
  if (m.a()->declaredType() || m.b()->declaredType()) return;
  auto* red = asCall(m.body());
  auto* r = red ? asPattern(red->fun()) : nullptr;
  if (!r || !isReduceLike(r->pattern()) || red->args().size() != 2) return;
  if (occursIn(a, red->fun()) || occursIn(b, red->fun()) || occursIn(a, red->args()[0]) ||
      occursIn(b, red->args()[0]))
    return;
  auto* mapCall = asCall(red->args()[1]);
  auto* mp = mapCall ? patternOf(mapCall->fun(), PatternKind::Map) : nullptr;
  if (!mp || mapCall->args().size() != 1 || mp->params().funs.size() != 1) return;
  auto* z = asUserFun(mp->params().funs[0]);
  auto* zipCall = asCall(mapCall->args()[0]);
  auto* zp = zipCall ? patternOf(zipCall->fun(), PatternKind::Zip) : nullptr;
  if (!z || !zp || zipCall->args().size() != 2 || zipCall->args()[0].get() != a ||
      zipCall->args()[1].get() != b)
    return;
  m.reduction = red;
  m.zipFun = z;
}

}  // namespace

std::optional<AllPairsMatch> matchAllPairs(const CallNode& outer) {
  AllPairsMatch m;
  m.outer = &outer;
  m.rows = mappedLambda(outer);
  if (!m.rows) return std::nullopt;
  m.inner = asCall(m.rows->body());
  m.cols = m.inner ? mappedLambda(*m.inner) : nullptr;
  if (!m.cols || occursIn(m.a().get(), m.y())) return std::nullopt;
  matchZipReduce(m);
  return m;
}

const std::vector<std::string>& preludeNames() {
  static const std::vector<std::string> names = {"slide2D", "pad2D", "allPairs"};
  return names;
}

}  // namespace lift::ir
