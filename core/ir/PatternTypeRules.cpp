// The typing rule of every pattern (see PatternTypeRules.h), one function per pattern family.
// A rule checks what its result type needs: the number and shape of the arguments, and parameters
// the type is meaningless without (a positive factor, a vector width, a constant count's growth).
#include "core/ir/PatternTypeRules.h"

#include <fmt/format.h>

#include "core/ir/TypeCheck.h"

namespace lift::ir {

InferredType InferredType::ok(Type t, std::vector<Type> iterations) {
  LIFT_ASSERT(t, "a typing rule succeeded without a type");
  InferredType r;
  r.type_ = t;
  r.iterations_ = std::move(iterations);
  return r;
}

InferredType InferredType::fail(Blame blame, std::string reason) {
  InferredType r;
  r.blame_ = blame;
  r.reason_ = std::move(reason);
  return r;
}

arith::Expr iterateBodyLength(const PatternNode& iterate) {
  return arith::sizeVar(fmt::format("iterLen{}", iterate.id()));
}

std::string diagnosticLabel(const PatternNode& p) {
  std::string s(patternName(p.pattern()));
  switch (p.pattern()) {
    case PatternKind::MapGlb:
    case PatternKind::MapWrg:
    case PatternKind::MapLcl:
    case PatternKind::MapAtomWrg:
    case PatternKind::MapAtomLcl:
      return s + std::to_string(p.index());
    case PatternKind::Get:
      return fmt::format("get {}", p.index());
    default:
      break;
  }
  for (size_t i = 0; i < p.params().sizes.size(); ++i)
    s += (i ? ", " : " ") + arith::toString(p.params().sizes[i]);
  return s;
}

namespace {

using Blame = InferredType::Blame;
// The typing of a pattern's first (for all patterns but md_hom, only) nested function.
using FunTyping = std::function<Type(const std::vector<Type>& args)>;

// Constant counts up to this are typed one iteration at a time; larger ones like symbolic ones.
constexpr int64_t kMaxTypedIterations = 256;

std::string str(arith::Expr e) { return arith::toString(e); }

std::string ordinal(size_t i) {
  static const char* names[] = {"first", "second", "third", "fourth", "fifth"};
  return i < 5 ? names[i] : fmt::format("{}th", i + 1);
}

InferredType argumentError(std::string reason) {
  return InferredType::fail(Blame::Arguments, std::move(reason));
}
InferredType parameterError(std::string reason) {
  return InferredType::fail(Blame::Parameters, std::move(reason));
}

// The checks every rule starts with, as optional failures: nullopt when the condition holds.
std::optional<InferredType> arityError(const PatternNode& p, const std::vector<Type>& args, size_t n) {
  if (args.size() == n) return std::nullopt;
  return argumentError(fmt::format("{} takes {} argument{} but is applied to {}", diagnosticLabel(p), n,
                                   n == 1 ? "" : "s", args.size()));
}

std::optional<InferredType> notArrayError(const PatternNode& p, Type t, const std::string& which = "") {
  if (t.isArray()) return std::nullopt;
  return argumentError(fmt::format("{} expects an array{}, got {}", diagnosticLabel(p), which, t.toString()));
}

// A factor the type divides by (split n, partRed m, reorderStride s).
std::optional<InferredType> nonPositiveFactor(const PatternNode& p, arith::Expr by) {
  if (!(by.isCst() && by.value() <= 0)) return std::nullopt;
  return parameterError(fmt::format("{}: the factor must be positive, got {}", diagnosticLabel(p), str(by)));
}

InferredType typeMap(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  if (auto failure = notArrayError(p, args[0])) return *failure;
  return InferredType::ok(Type::array(typeF({args[0].elem()}), args[0].length()));
}

InferredType typeMapVec(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (!in.isVector()) return argumentError(fmt::format("mapVec expects a vector, got {}", in.toString()));
  Type out = typeF({Type::scalar(in.scalarKind())});
  if (!out.isScalar())
    return argumentError(
        fmt::format("mapVec: the function must return a scalar, but returns {}", out.toString()));
  return InferredType::ok(Type::vector(out.scalarKind(), in.vectorWidth()));
}

// reduce, reduceSeq, reduceSeqUnroll and partRed, applied to (init, xs).
InferredType typeReduce(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  if (auto failure = arityError(p, args, 2)) return *failure;
  Type init = args[0], in = args[1];
  if (auto failure = notArrayError(p, in, " to reduce")) return *failure;
  Type acc = typeF({init, in.elem()});
  if (acc != init)
    return argumentError(fmt::format("{}: the function returns {} but the initial value has type {}",
                                     diagnosticLabel(p), acc.toString(), init.toString()));
  if (p.pattern() != PatternKind::PartRed) return InferredType::ok(Type::array(init, arith::cst(1)));
  if (p.params().sizes.empty()) return parameterError("partRed needs the size of the parts");
  arith::Expr m = p.params().sizes[0];
  if (auto failure = nonPositiveFactor(p, m)) return *failure;
  return InferredType::ok(Type::array(init, in.length() / m));
}

// scan(f, z) $ xs: f(acc, x) returns the accumulator's type. The high-level scan is the parallel
// one, so its f combines two elements: the accumulator is the element type. scanSeq, run in
// order, may carry another type, as reduceSeq does.
InferredType typeScan(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  if (auto failure = arityError(p, args, 2)) return *failure;
  Type init = args[0], in = args[1];
  if (auto failure = notArrayError(p, in, " to scan")) return *failure;
  if (p.pattern() == PatternKind::Scan && init != in.elem())
    return argumentError(
        fmt::format("scan: the initial value has type {} but the elements have type {} (a "
                    "parallel scan combines elements with f; scanSeq may carry another type)",
                    init.toString(), in.elem().toString()));
  Type acc = typeF({init, in.elem()});
  if (acc != init)
    return argumentError(fmt::format("{}: the function returns {} but the initial value has type {}",
                                     diagnosticLabel(p), acc.toString(), init.toString()));
  return InferredType::ok(Type::array(init, in.length()));
}

// zip and tuple carry their arity as a parameter, which must match the call.
InferredType typeZip(const PatternNode& p, const std::vector<Type>& args) {
  if (args.size() < 2)
    return argumentError(fmt::format("zip needs at least two arrays, got {}", args.size()));
  if (p.index() != static_cast<int>(args.size()))
    return argumentError(fmt::format("zip of {} arrays applied to {}", p.index(), args.size()));
  std::vector<Type> elems;
  for (size_t i = 0; i < args.size(); ++i) {
    if (auto failure = notArrayError(p, args[i], fmt::format(" as {} argument", ordinal(i)))) return *failure;
    if (args[i].length() != args[0].length())
      return argumentError(
          fmt::format("zip of arrays of different lengths: the first has length {}, the {} has length {}",
                      str(args[0].length()), ordinal(i), str(args[i].length())));
    elems.push_back(args[i].elem());
  }
  return InferredType::ok(Type::array(Type::tuple(std::move(elems)), args[0].length()));
}

InferredType typeTuple(const PatternNode& p, const std::vector<Type>& args) {
  if (args.size() < 2)
    return argumentError(fmt::format("tuple needs at least two components, got {}", args.size()));
  if (p.index() != static_cast<int>(args.size()))
    return argumentError(fmt::format("tuple of {} components applied to {}", p.index(), args.size()));
  return InferredType::ok(Type::tuple(args));
}

InferredType typeUnzip(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  if (!in.elem().isTuple())
    return argumentError(fmt::format("unzip expects an array of tuples, got {}", in.toString()));
  std::vector<Type> arrays;
  for (Type e : in.elem().tupleElems()) arrays.push_back(Type::array(e, in.length()));
  return InferredType::ok(Type::tuple(std::move(arrays)));
}

InferredType typeSplit(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  arith::Expr n = p.size(0);
  if (auto failure = nonPositiveFactor(p, n)) return *failure;
  return InferredType::ok(Type::array(Type::array(in.elem(), n), in.length() / n));
}

InferredType typeJoin(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  if (!in.elem().isArray())
    return argumentError(fmt::format("join expects an array of arrays, got {}", in.toString()));
  return InferredType::ok(Type::array(in.elem().elem(), in.elem().length() * in.length()));
}

InferredType typeTranspose(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  if (!in.elem().isArray())
    return argumentError(fmt::format("transpose expects a two-dimensional array, got {}", in.toString()));
  return InferredType::ok(Type::array(Type::array(in.elem().elem(), in.length()), in.elem().length()));
}

// gather, scatter and reorderStride permute an array: the type stays.
InferredType typePermutation(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  if (auto failure = notArrayError(p, args[0])) return *failure;
  const IndexFun& f = p.params().indexFun;
  arith::Expr stride = p.pattern() == PatternKind::ReorderStride ? p.size(0)
                       : f.kind == IndexFun::Kind::ReorderStride ? f.a
                                                                 : arith::Expr();
  if (stride)
    if (auto failure = nonPositiveFactor(p, stride)) return *failure;
  if (f.kind == IndexFun::Kind::Shift && f.a.isCst() && f.a.value() < 0)
    return parameterError(
        fmt::format("{}(shift({})): the amount must not be negative", patternName(p.pattern()), str(f.a)));
  return InferredType::ok(args[0]);
}

InferredType typeSlide(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  arith::Expr size = p.size(0), step = p.size(1);
  for (auto [e, what] : {std::pair{size, "the window size"}, std::pair{step, "the step"}})
    if (e.isCst() && e.value() <= 0)
      return parameterError(fmt::format("{}: {} must be positive, got {}", diagnosticLabel(p), what, str(e)));
  return InferredType::ok(Type::array(Type::array(in.elem(), size), (in.length() - size + step) / step));
}

// ----- issue 16: MapSeqSlide -----
// mapSeqSlide(size, step, f): [T]n -> [U](n - size + step) / step for f: [T]size -> U, the type
// of map(f) o slide(size, step).
InferredType typeMapSeqSlide(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  InferredType windows = typeSlide(p, args);
  if (!windows) return windows;
  Type w = windows.type();
  return InferredType::ok(Type::array(typeF({w.elem()}), w.length()));
}
// ----- end issue 16: MapSeqSlide -----

// ----- issue 16: the array generators -----
// arrayFromValue(v, n): T -> [T]n; arrayFromGenerator(n, i => e): [int]n; arrayFromUserFun(f, n),
// array2DFromUserFun(f, m, n), array3DFromUserFun(f, o, m, n): [T]n, [[T]n]m, [[[T]n]m]o for f of
// (int, ..., int) -> T taking the indices and then the lengths.
InferredType typeGenerator(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  size_t dims = static_cast<size_t>(generatorDims(p.pattern()));
  const auto& lengths = p.params().sizes;
  if (auto failure = arityError(p, args, p.pattern() == PatternKind::ArrayFromValue ? 1 : 0)) return *failure;
  for (size_t d = 0; d < dims; ++d)
    if (lengths.at(d).isCst() && lengths.at(d).value() <= 0)
      return parameterError(fmt::format("{}: the length must be positive, got {}", patternName(p.pattern()),
                                        str(lengths.at(d))));
  Type elem;
  switch (p.pattern()) {
    case PatternKind::ArrayFromValue:
      elem = args[0];
      break;
    case PatternKind::ArrayFromGenerator:
      elem = Type::scalar(ScalarKind::Int);
      break;
    default:
      if (p.params().funs.empty() || !asUserFun(p.f()))
        return parameterError(fmt::format("{}: the function must be a user function of {} int parameters",
                                          patternName(p.pattern()), 2 * dims));
      elem = typeF(std::vector<Type>(2 * dims, Type::scalar(ScalarKind::Int)));
      if (elem.isArray())
        return argumentError(fmt::format("{}: the function must return a scalar, vector or tuple, not {}",
                                         patternName(p.pattern()), elem.toString()));
  }
  Type t = elem;
  for (size_t d = dims; d-- > 0;) t = Type::array(t, lengths.at(d));
  return InferredType::ok(t);
}
// ----- end issue 16: the array generators -----

InferredType typePad(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  const auto& ps = p.params();
  arith::Expr l = ps.sizes.at(0), r = ps.sizes.at(1);
  for (arith::Expr e : {l, r})
    if (e.isCst() && e.value() < 0) return parameterError(fmt::format("pad: negative padding {}", str(e)));
  if (ps.padMode == PadMode::Constant) {
    Type v = scalarLiteralType(ps.padValue);
    Type elem = in.elem();
    Type scalarElem = elem.isVector() ? Type::scalar(elem.scalarKind()) : elem;
    if (!v || v != scalarElem)
      return parameterError(fmt::format("pad: the value {} ({}) does not match the element type {}",
                                        ps.padValue, v ? v.toString() : "not a scalar literal",
                                        elem.toString()));
  }
  return InferredType::ok(Type::array(in.elem(), in.length() + l + r));
}

// k^n for a count n; a constant count must keep it within 64 bits.
std::optional<arith::Expr> power(int64_t k, arith::Expr n) {
  if (!n.isCst()) return arith::pow(arith::cst(k), n);
  int64_t r = 1;
  for (int64_t i = 0; i < n.value(); ++i)
    if (__builtin_mul_overflow(r, k, &r)) return std::nullopt;
  return arith::cst(r);
}

// iterate(n, f): f applied n times. A constant count (up to kMaxTypedIterations) is typed one
// iteration at a time, each with its own input type. Otherwise f is typed once on the symbolic
// length L of iterateBodyLength and must keep the length (L), or divide (L/k) or multiply (L*k)
// it by a constant k; the result's length is the input's divided or multiplied by k^n.
InferredType typeIterate(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  arith::Expr n = p.size(0);
  if (n.isCst() && n.value() < 0) return parameterError(fmt::format("iterate: negative count {}", str(n)));
  if (n.isCst() && n.value() <= kMaxTypedIterations) {
    std::vector<Type> types{in};
    for (int64_t i = 0; i < n.value(); ++i) types.push_back(typeF({types.back()}));
    if (n.value() == 0) typeF({in});  // the body is typed even where it never runs
    Type out = types.back();
    return InferredType::ok(out, std::move(types));
  }
  if (auto failure = notArrayError(p, in)) return *failure;
  arith::Expr L = iterateBodyLength(p);
  Type out = typeF({Type::array(in.elem(), L)});
  if (!out.isArray() || out.elem() != in.elem())
    return argumentError(
        fmt::format("iterate {}: the iterated function must keep the element type {}, but returns {}", str(n),
                    in.elem().toString(), out.toString()));
  arith::Expr g = out.length();
  if (g == L) return InferredType::ok(in);
  // L/k is a division node (L, k), L*k a product holding the constant k.
  bool divides = g.kind() == arith::Kind::Div;
  int64_t k = 0;
  for (arith::Expr o : g.operands())
    if (o.isCst()) k = o.value();
  if (k > 1 && (divides ? g == L / k : g == L * k)) {
    std::optional<arith::Expr> kn = power(k, n);
    if (!kn)
      return argumentError(fmt::format(
          "iterate {}: the length changes by a factor of {}^{}, which is out of range", str(n), k, str(n)));
    return InferredType::ok(Type::array(in.elem(), divides ? in.length() / *kn : in.length() * *kn));
  }
  return argumentError(fmt::format(
      "iterate {}: with a symbolic count the iterated function must keep the length or divide or multiply it "
      "by a constant, but turns length L into {}",
      str(n), str(g)));
}

InferredType typeGet(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type t = args[0];
  if (t.isArray()) {
    // Element i of an array of a constant length (a stencil's neighbourhood).
    if (!t.length().isCst())
      return argumentError(
          fmt::format("get {} of an array needs a constant length, got {}", p.index(), t.toString()));
    int64_t n = t.length().value();
    if (p.index() < 0 || p.index() >= n)
      return argumentError(fmt::format("get {} of an array of {} elements {}: the index must be in 0..{}",
                                       p.index(), n, t.toString(), n - 1));
    return InferredType::ok(t.elem());
  }
  if (!t.isTuple())
    return argumentError(fmt::format("get {} expects a tuple or an array, got {}", p.index(), t.toString()));
  int n = static_cast<int>(t.tupleElems().size());
  if (p.index() < 0 || p.index() >= n)
    return argumentError(fmt::format("get {} of a tuple with {} components {}: the index must be in 0..{}",
                                     p.index(), n, t.toString(), n - 1));
  return InferredType::ok(t.tupleElems()[p.index()]);
}

InferredType typeId(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  return InferredType::ok(args[0]);
}

InferredType typeAsVector(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  arith::Expr n = p.size(0);
  if (!n.isCst() || (n.value() != 2 && n.value() != 3 && n.value() != 4 && n.value() != 8 && n.value() != 16))
    return parameterError(fmt::format("asVector {}: the width must be 2, 3, 4, 8 or 16", str(n)));
  if (!in.elem().isScalar())
    return argumentError(
        fmt::format("{} needs an array of scalars, got {}", diagnosticLabel(p), in.toString()));
  return InferredType::ok(
      Type::array(Type::vector(in.elem().scalarKind(), static_cast<int>(n.value())), in.length() / n));
}

InferredType typeAsScalar(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  if (!in.elem().isVector())
    return argumentError(fmt::format("asScalar needs an array of vectors, got {}", in.toString()));
  return InferredType::ok(
      Type::array(Type::scalar(in.elem().scalarKind()), in.length() * in.elem().vectorWidth()));
}

// vectorize(n, f): f on scalars becomes a function on vectors of width n (tuples of vectors are
// taken apart component-wise, as a zip of vectorised arrays gives).
InferredType typeVectorize(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  arith::Expr n = p.size(0);
  if (!n.isCst()) return parameterError("vectorize: the width must be a constant");
  int width = static_cast<int>(n.value());
  std::optional<Type> notVector;
  std::function<Type(Type)> scalarOf = [&](Type t) -> Type {
    if (t.isTuple()) {
      std::vector<Type> elems;
      for (Type e : t.tupleElems()) elems.push_back(scalarOf(e));
      return Type::tuple(std::move(elems));
    }
    if (!t.isVector() || t.vectorWidth() != width) {
      if (!notVector) notVector = t;
      return t;
    }
    return Type::scalar(t.scalarKind());
  };
  std::vector<Type> scalars;
  for (Type a : args) scalars.push_back(scalarOf(a));
  if (notVector)
    return argumentError(fmt::format("vectorize {}: expected vectors of width {}, got {}", width, width,
                                     notVector->toString()));
  Type out = typeF(scalars);
  if (!out.isScalar())
    return argumentError(fmt::format("vectorize {}: the function must return a scalar, but returns {}", width,
                                     out.toString()));
  return InferredType::ok(Type::vector(out.scalarKind(), width));
}

InferredType typeDot(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 2)) return *failure;
  if (!args[0].isVector() || args[0] != args[1] ||
      (args[0].scalarKind() != ScalarKind::Float && args[0].scalarKind() != ScalarKind::Double))
    return argumentError(
        fmt::format("dot expects two float or double vectors of the same width, got {} and {}",
                    args[0].toString(), args[1].toString()));
  return InferredType::ok(Type::scalar(args[0].scalarKind()));
}

// fma(a, b, c) = a * b + c, rounded once: three float or double scalars or vectors of one type.
InferredType typeFma(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 3)) return *failure;
  Type t = args[0];
  bool floating = (t.isScalar() || t.isVector()) &&
                  (t.scalarKind() == ScalarKind::Float || t.scalarKind() == ScalarKind::Double);
  if (!floating || args[1] != t || args[2] != t)
    return argumentError(
        fmt::format("fma expects three float or double values of the same type, got {}, {} and {}",
                    args[0].toString(), args[1].toString(), args[2].toString()));
  return InferredType::ok(t);
}

// head: [T]N -> [T]1 (Lift's Head); tail: [T]N -> [T]N-1, refused where N is the constant 1.
InferredType typeHeadTail(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  if (p.pattern() == PatternKind::Head) return InferredType::ok(Type::array(in.elem(), arith::cst(1)));
  if (in.length().isCst() && in.length().value() < 2)
    return argumentError(fmt::format("tail of {}: the array must have at least two elements", in.toString()));
  return InferredType::ok(Type::array(in.elem(), in.length() - 1));
}

// at(xs, i), checkedAt(xs, i, d) with an int index i (and d of the element type), filter(xs, ids)
// with an array of int indices.
InferredType typeAccess(const PatternNode& p, const std::vector<Type>& args) {
  size_t arity = p.pattern() == PatternKind::CheckedAt ? 3 : 2;
  if (auto failure = arityError(p, args, arity)) return *failure;
  Type xs = args[0], ix = args[1];
  if (auto failure = notArrayError(p, xs, " as first argument")) return *failure;
  Type intT = Type::scalar(ScalarKind::Int);
  if (p.pattern() == PatternKind::Filter) {
    if (!ix.isArray() || ix.elem() != intT)
      return argumentError(
          fmt::format("filter expects an array of int indices as second argument, got {}", ix.toString()));
    return InferredType::ok(Type::array(xs.elem(), ix.length()));
  }
  if (ix != intT)
    return argumentError(fmt::format("{} expects an int index as second argument, got {}",
                                     patternName(p.pattern()), ix.toString()));
  if (p.pattern() == PatternKind::CheckedAt && args[2] != xs.elem())
    return argumentError(fmt::format("checkedAt: the default value has type {} but the elements have type {}",
                                     args[2].toString(), xs.elem().toString()));
  return InferredType::ok(xs.elem());
}

// ----- issue 17: search, early exit, filter and sort (lift17p) -----

// Predicates and comparisons return an int (Lift's convention: 0 is false).
bool isTruth(Type t) { return t == Type::int_(); }

// bSearch(cmp, d) and lSearch(cmp, d), applied to (d, xs): cmp: T -> int, d: T, giving [T]1.
InferredType typeSearch(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  if (auto failure = arityError(p, args, 2)) return *failure;
  Type d = args[0], in = args[1];
  if (auto failure = notArrayError(p, in, " to search")) return *failure;
  if (d != in.elem())
    return argumentError(fmt::format("{}: the default value has type {} but the elements have type {}",
                                     diagnosticLabel(p), d.toString(), in.elem().toString()));
  Type r = typeF({in.elem()});
  if (r != Type::int_())
    return argumentError(fmt::format(
        "{}: the comparison must return an int (< 0: the element is after the one looked for, 0: found, "
        "> 0: before), but returns {}",
        diagnosticLabel(p), r.toString()));
  return InferredType::ok(Type::array(d, arith::cst(1)));
}

// reduceWhileSeq(f, p, z), applied to (z, xs): f: (A, T) -> A, p: (A, T) -> int; [A]1.
InferredType typeReduceWhile(const PatternNode& p, const std::vector<Type>& args,
                             const NestedTyping& typeFun) {
  if (auto failure = arityError(p, args, 2)) return *failure;
  if (p.params().funs.size() != 2)
    return parameterError("reduceWhileSeq needs a function and a predicate: reduceWhileSeq(f, p, init)");
  Type init = args[0], in = args[1];
  if (auto failure = notArrayError(p, in, " to reduce")) return *failure;
  Type acc = typeFun({init, in.elem()}, 0);
  if (acc != init)
    return argumentError(
        fmt::format("reduceWhileSeq: the function returns {} but the initial value has type {}",
                    acc.toString(), init.toString()));
  Type go = typeFun({init, in.elem()}, 1);
  if (!isTruth(go))
    return argumentError(
        fmt::format("reduceWhileSeq: the predicate p(acc, x) must return an int (0: stop), but returns {}",
                    go.toString()));
  return InferredType::ok(Type::array(init, arith::cst(1)));
}

// filterSeq(p): [T]N -> ([T]N, [int]1) for p: T -> int (the kept elements first, then the
// others; the count of the kept ones). insertionSortSeq(less): [T]N -> [T]N for
// less: (T, T) -> int.
InferredType typeFilterOrSort(const PatternNode& p, const std::vector<Type>& args, const FunTyping& typeF) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  Type in = args[0];
  if (auto failure = notArrayError(p, in)) return *failure;
  bool filter = p.pattern() == PatternKind::FilterSeq;
  Type r = filter ? typeF({in.elem()}) : typeF({in.elem(), in.elem()});
  if (!isTruth(r))
    return argumentError(fmt::format("{}: the {} must return an int (0: false), but returns {}",
                                     diagnosticLabel(p), filter ? "predicate" : "comparison less(x, y)",
                                     r.toString()));
  if (!filter) return InferredType::ok(in);
  return InferredType::ok(Type::tuple({in, Type::array(Type::int_(), arith::cst(1))}));
}

// ----- end of issue 17 (lift17p) -----

// The combine operators of md_hom as written: "++" or the operator's name, per dimension.
std::string combineList(const PatternNode& p) {
  std::string s;
  size_t op = 1;
  for (size_t k = 0; k < p.params().concat.size(); ++k) {
    std::string name = "++";
    if (!p.params().concat[k]) {
      const Fun& f = p.params().funs.at(op++);
      auto* u = asUserFun(f);
      name = u ? u->def().name : "a function";
    }
    s += (k ? ", " : "") + name;
  }
  return "(" + s + ")";
}

// How many parameters a function written as a user function or a lambda takes (nullopt for a
// pattern, whose arity its own rule decides).
std::optional<size_t> declaredArity(const Fun& f) {
  if (auto* u = asUserFun(f)) return u->def().params.size();
  if (auto* l = asLambda(f)) return l->params().size();
  return std::nullopt;
}

// md_hom(f, (⊛1, ..., ⊛d)) applied to a d-dimensional array of T, with f : T -> T' and every
// combine operator but ++ of type T' x T' -> T'. The result keeps the dimensions combined by ++
// (in order, their lengths those of the input) and drops the others: T' nested in one array
// per ++ dimension, T' itself when there is none.
InferredType typeMdHom(const PatternNode& p, const std::vector<Type>& args, const NestedTyping& typeFun) {
  if (auto failure = arityError(p, args, 1)) return *failure;
  const auto& ps = p.params();
  size_t d = ps.concat.size();
  size_t operators = 0;
  for (bool c : ps.concat) operators += c ? 0 : 1;
  if (d == 0) return parameterError("md_hom needs one combine operator per dimension, got none");
  if (ps.funs.size() != 1 + operators)
    return parameterError(fmt::format("md_hom: {} combine functions for {} dimensions that are not ++",
                                      ps.funs.size() - 1, operators));
  std::vector<arith::Expr> lengths;
  Type elem = args[0];
  for (size_t k = 0; k < d; ++k) {
    if (!elem.isArray())
      return argumentError(fmt::format(
          "md_hom with {} combine operator{} {} needs a {}-dimensional array, but is applied to {} ({} "
          "dimension{}): give one combine operator per dimension",
          d, d == 1 ? "" : "s", combineList(p), d, args[0].toString(), k, k == 1 ? "" : "s"));
    lengths.push_back(elem.length());
    elem = elem.elem();
  }
  Type value = typeFun({elem}, 0);
  size_t op = 1;
  for (size_t k = 0; k < d; ++k) {
    if (ps.concat[k]) continue;
    size_t fun = op++;
    std::optional<size_t> arity = declaredArity(ps.funs[fun]);
    if (arity && *arity != 2)
      return parameterError(fmt::format(
          "md_hom {}: the combine operator of dimension {} takes {} argument{}, but a combine operator "
          "is binary ({} x {} -> {}), associative and commutative",
          combineList(p), k + 1, *arity, *arity == 1 ? "" : "s", value.toString(), value.toString(),
          value.toString()));
    Type combined = typeFun({value, value}, fun);
    if (combined != value)
      return parameterError(fmt::format(
          "md_hom {}: the combine operator of dimension {} returns {}, but must combine two results of "
          "the scalar function into one of the same type ({} x {} -> {})",
          combineList(p), k + 1, combined.toString(), value.toString(), value.toString(), value.toString()));
  }
  Type out = value;
  for (size_t k = d; k-- > 0;)
    if (ps.concat[k]) out = Type::array(out, lengths[k]);
  return InferredType::ok(out);
}

// pair_vv(x, y): [T]N x [U]N -> [(T, U)]N; pair_mv(M, v): [[T]K]N x [U]K -> [[(T, U)]K]N;
// pair_mm(A, B): [[T]K]M x [[U]N]K -> [[[(T, U)]K]N]M (point (i, j, k) pairs A[i][k] with B[k][j]).
InferredType typeMdHomView(const PatternNode& p, const std::vector<Type>& args) {
  if (auto failure = arityError(p, args, 2)) return *failure;
  std::string name(patternName(p.pattern()));
  Type a = args[0], b = args[1];
  auto sameLength = [&](arith::Expr x, arith::Expr y, const char* what) -> std::optional<InferredType> {
    if (x == y) return std::nullopt;
    return argumentError(fmt::format("{}: {} differ ({} and {}) in {} and {}", name, what, str(x), str(y),
                                     a.toString(), b.toString()));
  };
  bool matrixA = p.pattern() != PatternKind::PairVV, matrixB = p.pattern() == PatternKind::PairMM;
  if (!a.isArray() || (matrixA && !a.elem().isArray()))
    return argumentError(fmt::format("{} expects a {} as first argument, got {}", name,
                                     matrixA ? "matrix" : "vector", a.toString()));
  if (!b.isArray() || (matrixB && !b.elem().isArray()))
    return argumentError(fmt::format("{} expects a {} as second argument, got {}", name,
                                     matrixB ? "matrix" : "vector", b.toString()));
  switch (p.pattern()) {
    case PatternKind::PairVV:
      if (auto failure = sameLength(a.length(), b.length(), "the lengths")) return *failure;
      return InferredType::ok(Type::array(Type::tuple({a.elem(), b.elem()}), a.length()));
    case PatternKind::PairMV:
      if (auto failure =
              sameLength(a.elem().length(), b.length(), "the matrix's columns and the vector's length"))
        return *failure;
      return InferredType::ok(
          Type::array(Type::array(Type::tuple({a.elem().elem(), b.elem()}), b.length()), a.length()));
    default: {
      arith::Expr m = a.length(), k = a.elem().length(), n = b.elem().length();
      if (auto failure = sameLength(k, b.length(), "the first matrix's columns and the second's rows"))
        return *failure;
      Type pair = Type::tuple({a.elem().elem(), b.elem().elem()});
      return InferredType::ok(Type::array(Type::array(Type::array(pair, k), n), m));
    }
  }
}

}  // namespace

InferredType inferPatternType(const PatternNode& p, const std::vector<Type>& args,
                              const NestedTyping& typeFun) {
  FunTyping typeF = [&](const std::vector<Type>& fArgs) { return typeFun(fArgs, 0); };
  switch (p.pattern()) {
    case PatternKind::Map:
    case PatternKind::MapSeq:
    case PatternKind::MapSeqUnroll:
    case PatternKind::MapGlb:
    case PatternKind::MapWrg:
    case PatternKind::MapLcl:
    case PatternKind::MapWarp:
    case PatternKind::MapLane:
    case PatternKind::MapAtomWrg:
    case PatternKind::MapAtomLcl:
      return typeMap(p, args, typeF);
    case PatternKind::MapVec:
      return typeMapVec(p, args, typeF);
    case PatternKind::Reduce:
    case PatternKind::ReduceSeq:
    case PatternKind::ReduceSeqUnroll:
    case PatternKind::PartRed:
      return typeReduce(p, args, typeF);
    case PatternKind::Scan:
    case PatternKind::ScanSeq:
      return typeScan(p, args, typeF);
    case PatternKind::Zip:
      return typeZip(p, args);
    case PatternKind::Tuple:
      return typeTuple(p, args);
    case PatternKind::Unzip:
      return typeUnzip(p, args);
    case PatternKind::Split:
      return typeSplit(p, args);
    case PatternKind::Join:
      return typeJoin(p, args);
    case PatternKind::Transpose:
    case PatternKind::TransposeW:
      return typeTranspose(p, args);
    case PatternKind::Gather:
    case PatternKind::Scatter:
    case PatternKind::ReorderStride:
      return typePermutation(p, args);
    case PatternKind::Slide:
      return typeSlide(p, args);
    case PatternKind::MapSeqSlide:
      return typeMapSeqSlide(p, args, typeF);
    case PatternKind::ArrayFromValue:
    case PatternKind::ArrayFromGenerator:
    case PatternKind::ArrayFromUserFun:
    case PatternKind::Array2DFromUserFun:
    case PatternKind::Array3DFromUserFun:
      return typeGenerator(p, args, typeF);
    case PatternKind::Pad:
      return typePad(p, args);
    case PatternKind::Iterate:
      return typeIterate(p, args, typeF);
    case PatternKind::Get:
      return typeGet(p, args);
    case PatternKind::Id:
      return typeId(p, args);
    case PatternKind::AsVector:
      return typeAsVector(p, args);
    case PatternKind::AsScalar:
      return typeAsScalar(p, args);
    case PatternKind::Vectorize:
      return typeVectorize(p, args, typeF);
    case PatternKind::ToGlobal:
    case PatternKind::ToLocal:
    case PatternKind::ToPrivate:
      return InferredType::ok(typeF(args));
    case PatternKind::Let:
      if (auto failure = arityError(p, args, 1)) return *failure;
      return InferredType::ok(typeF(args));
    case PatternKind::Fma:
      return typeFma(p, args);
    case PatternKind::Head:
    case PatternKind::Tail:
      return typeHeadTail(p, args);
    case PatternKind::At:
    case PatternKind::CheckedAt:
    case PatternKind::Filter:
      return typeAccess(p, args);
    case PatternKind::Dot:
      return typeDot(p, args);
    // issue 17 (lift17p)
    case PatternKind::BSearch:
    case PatternKind::LSearch:
      return typeSearch(p, args, typeF);
    case PatternKind::ReduceWhileSeq:
      return typeReduceWhile(p, args, typeFun);
    case PatternKind::FilterSeq:
    case PatternKind::InsertionSort:
      return typeFilterOrSort(p, args, typeF);
    case PatternKind::MdHom:
      return typeMdHom(p, args, typeFun);
    case PatternKind::PairVV:
    case PatternKind::PairMV:
    case PatternKind::PairMM:
      return typeMdHomView(p, args);
  }
  return argumentError("unknown pattern");
}

}  // namespace lift::ir
