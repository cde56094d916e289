// Construction of views, each typed from its parent the way the type checker types the
// corresponding pattern. A few constructors look through their argument (get of a tuple, get of
// an element of a zip) so that the chains the consumer walks stay short.
#include "codegen/View.h"

#include <fmt/format.h>

namespace lift::codegen::view {

namespace {

View make(ViewNode n) { return std::make_shared<const ViewNode>(std::move(n)); }

ViewNode node(ViewNode::Kind k, Type t, std::vector<View> parents = {}) {
  ViewNode n;
  n.kind = k;
  n.type = t;
  n.parents = std::move(parents);
  return n;
}

Type arrayOf(Type t) {
  LIFT_ASSERT(t && t.isArray(),
              "view of a non-array where an array is needed: " + (t ? t.toString() : "null"));
  return t;
}

}  // namespace

View mem(const Memory* m, Type t) {
  ViewNode n = node(ViewNode::Kind::Mem, t);
  n.mem = m;
  return make(std::move(n));
}

View value(c::ExprP e, Type t) {
  ViewNode n = node(ViewNode::Kind::Value, t);
  n.value = std::move(e);
  return make(std::move(n));
}

View literal(std::string text, Type t) {
  ViewNode n = node(ViewNode::Kind::Literal, t);
  n.text = std::move(text);
  return make(std::move(n));
}

View access(const View& v, arith::Expr i) {
  Type t = arrayOf(v->type);
  if (v->kind == ViewNode::Kind::Literal) return literal(v->text, t.elem());
  ViewNode n = node(ViewNode::Kind::Access, t.elem(), {v});
  n.a = i;
  return make(std::move(n));
}

View split(const View& v, arith::Expr chunk) {
  Type t = arrayOf(v->type);
  ViewNode n =
      node(ViewNode::Kind::Split, Type::array(Type::array(t.elem(), chunk), t.length() / chunk), {v});
  n.a = chunk;
  return make(std::move(n));
}

View join(const View& v) {
  Type t = arrayOf(v->type);
  Type inner = arrayOf(t.elem());
  ViewNode n = node(ViewNode::Kind::Join, Type::array(inner.elem(), inner.length() * t.length()), {v});
  n.a = inner.length();
  return make(std::move(n));
}

View transpose(const View& v) {
  Type t = arrayOf(v->type);
  Type inner = arrayOf(t.elem());
  if (v->kind == ViewNode::Kind::Transpose) return v->parent();
  return make(node(ViewNode::Kind::Transpose,
                   Type::array(Type::array(inner.elem(), t.length()), inner.length()), {v}));
}

View reindex(const View& v, const ir::IndexFun& f, bool inverse) {
  Type t = arrayOf(v->type);
  if (f.kind == ir::IndexFun::Kind::Identity) return v;
  ViewNode n = node(ViewNode::Kind::Reindex, t, {v});
  n.fn = f;
  n.inverse = inverse;
  return make(std::move(n));
}

View slide(const View& v, arith::Expr size, arith::Expr step) {
  Type t = arrayOf(v->type);
  ViewNode n = node(ViewNode::Kind::Slide,
                    Type::array(Type::array(t.elem(), size), (t.length() - size + step) / step), {v});
  n.a = size;
  n.b = step;
  return make(std::move(n));
}

View pad(const View& v, arith::Expr left, arith::Expr right, ir::PadMode mode, std::string value) {
  Type t = arrayOf(v->type);
  ViewNode n = node(ViewNode::Kind::Pad, Type::array(t.elem(), t.length() + left + right), {v});
  n.a = left;
  n.b = right;
  n.padMode = mode;
  n.text = std::move(value);
  return make(std::move(n));
}

View asVector(const View& v, int width) {
  Type t = arrayOf(v->type);
  ViewNode n =
      node(ViewNode::Kind::AsVector,
           Type::array(Type::vector(t.elem().scalarKind(), width), t.length() / arith::cst(width)), {v});
  n.a = arith::cst(width);
  if (v->kind == ViewNode::Kind::AsScalar && v->a == n.a) return v->parent();
  return make(std::move(n));
}

View asScalar(const View& v) {
  Type t = arrayOf(v->type);
  int w = t.elem().vectorWidth();
  ViewNode n = node(ViewNode::Kind::AsScalar,
                    Type::array(Type::scalar(t.elem().scalarKind()), t.length() * arith::cst(w)), {v});
  n.a = arith::cst(w);
  if (v->kind == ViewNode::Kind::AsVector && v->a == n.a) return v->parent();
  return make(std::move(n));
}

View lanes(const View& v) {
  LIFT_ASSERT(v->type.isVector(), "lanes of a non-vector");
  ViewNode n = node(ViewNode::Kind::Lanes,
                    Type::array(Type::scalar(v->type.scalarKind()), arith::cst(v->type.vectorWidth())), {v});
  return make(std::move(n));
}

View zip(std::vector<View> vs) {
  std::vector<Type> elems;
  for (auto& v : vs) elems.push_back(arrayOf(v->type).elem());
  Type t = Type::array(Type::tuple(std::move(elems)), vs.at(0)->type.length());
  return make(node(ViewNode::Kind::Zip, t, std::move(vs)));
}

View tuple(std::vector<View> vs) {
  std::vector<Type> elems;
  for (auto& v : vs) elems.push_back(v->type);
  return make(node(ViewNode::Kind::Tuple, Type::tuple(std::move(elems)), std::move(vs)));
}

View get(const View& v, int k) {
  LIFT_ASSERT(v->type.isTuple() && k >= 0 && k < static_cast<int>(v->type.tupleElems().size()),
              "get of a non-tuple view");
  if (v->kind == ViewNode::Kind::Tuple) return v->parents.at(k);
  if (v->kind == ViewNode::Kind::Access && v->parent()->kind == ViewNode::Kind::Zip)
    return access(v->parent()->parents.at(k), v->a);
  ViewNode n = node(ViewNode::Kind::Get, v->type.tupleElems()[k], {v});
  n.index = k;
  return make(std::move(n));
}

View retype(const View& v, Type t) {
  if (v->type == t) return v;
  return make(node(ViewNode::Kind::Retype, t, {v}));
}

View map(const View& inner, arith::Expr var, Type t) {
  ViewNode n = node(ViewNode::Kind::Map, t, {inner});
  n.a = var;
  return make(std::move(n));
}

View tag(const View& v, int tag) {
  ViewNode n = node(ViewNode::Kind::Tag, v->type, {v});
  n.index = tag;
  return make(std::move(n));
}

// ----- issue 16: the generated arrays -----
View generated(std::string fn, int dims, Type t) {
  ViewNode n = node(ViewNode::Kind::Generated, arrayOf(t));
  n.text = std::move(fn);
  n.index = dims;
  return make(std::move(n));
}

View generatedIndex(arith::Expr e, arith::Expr i, Type t) {
  ViewNode n = node(ViewNode::Kind::Generated, arrayOf(t));
  n.a = e;
  n.b = i;
  n.index = 1;
  return make(std::move(n));
}
// ----- end issue 16 -----

arith::Expr applyIndexFun(const ir::IndexFun& f, arith::Expr i, arith::Expr n) {
  using K = ir::IndexFun::Kind;
  switch (f.kind) {
    case K::Identity:
      return i;
    case K::Reverse:  // n - 1 - i
      return arith::rawAdd(arith::rawAdd(n, arith::cst(-1)), arith::rawMul(arith::cst(-1), i));
    case K::ReorderStride: {  // i / (n/s) + s * (i % (n/s))
      arith::Expr chunk = n / f.a;
      return arith::rawAdd(arith::rawDiv(i, chunk), arith::rawMul(f.a, arith::rawMod(i, chunk)));
    }
    case K::Transpose: {  // a rows x b cols, read column-major: (i % rows) * cols + i / rows
      return arith::rawAdd(arith::rawMul(arith::rawMod(i, f.a), f.b), arith::rawDiv(i, f.a));
    }
    case K::Shift:  // (i + k) % n
      return arith::rawMod(arith::rawAdd(i, f.a), n);
  }
  return i;
}

ir::IndexFun inverseIndexFun(const ir::IndexFun& f, arith::Expr n) {
  using K = ir::IndexFun::Kind;
  ir::IndexFun g = f;
  switch (f.kind) {
    case K::Identity:
    case K::Reverse:
      break;
    case K::ReorderStride:
      g.a = n / f.a;
      break;
    case K::Transpose:
      g.a = f.b;
      g.b = f.a;
      break;
    case K::Shift:  // rotated back by k: (i + n - k % n) % n
      g.a = n - f.a % n;
      break;
  }
  return g;
}

void memoriesOf(const View& v, std::vector<const Memory*>& out) {
  if (v->kind == ViewNode::Kind::Mem) {
    for (auto* m : out)
      if (m == v->mem) return;
    out.push_back(v->mem);
    return;
  }
  for (auto& p : v->parents) memoriesOf(p, out);
}

std::string describe(const View& v) {
  using K = ViewNode::Kind;
  auto sub = [&](size_t i) { return describe(v->parents.at(i)); };
  std::string s;
  switch (v->kind) {
    case K::Mem:
      return fmt::format("mem({})", v->mem ? v->mem->name : "?");
    case K::Value:
      return "value";
    case K::Literal:
      return fmt::format("literal({})", v->text);
    case K::Access:
      return fmt::format("access({}, {})", arith::toString(v->a), sub(0));
    case K::Split:
      return fmt::format("split({}, {})", arith::toString(v->a), sub(0));
    case K::Join:
      return fmt::format("join({})", sub(0));
    case K::Transpose:
      return fmt::format("transpose({})", sub(0));
    case K::Reindex:
      return fmt::format("reindex({})", sub(0));
    case K::Slide:
      return fmt::format("slide({})", sub(0));
    case K::Pad:
      return fmt::format("pad({})", sub(0));
    case K::AsVector:
      return fmt::format("asVector({}, {})", arith::toString(v->a), sub(0));
    case K::AsScalar:
      return fmt::format("asScalar({})", sub(0));
    case K::Lanes:
      return fmt::format("lanes({})", sub(0));
    case K::Zip:
    case K::Tuple:
      s = v->kind == K::Zip ? "zip(" : "tuple(";
      for (size_t i = 0; i < v->parents.size(); ++i) s += (i ? ", " : "") + sub(i);
      return s + ")";
    case K::Get:
      return fmt::format("get({}, {})", v->index, sub(0));
    case K::Retype:
      return fmt::format("retype({})", sub(0));
    case K::Map:
      return fmt::format("map({}, {})", arith::toString(v->a), sub(0));
    case K::Tag:
      return fmt::format("tag({}, {})", v->index, sub(0));
    case K::Generated:  // issue 16
      return v->text.empty()
                 ? fmt::format("generated({} => {})", arith::toString(v->b), arith::toString(v->a))
                 : fmt::format("generated({}, {})", v->text, v->index);
  }
  return "?";
}

}  // namespace lift::codegen::view
