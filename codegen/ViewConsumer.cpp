// View consumption with the array and tuple stacks, and the choice of the OpenCL form of each
// access (element, lane, vload/vstore, lane-wise).
#include "codegen/ViewConsumer.h"

#include <fmt/format.h>

#include <map>

#include "core/cfun/CFunAst.h"

namespace lift::codegen {

namespace {

using arith::cst;
using arith::rawAdd;
using arith::rawDiv;
using arith::rawMod;
using arith::rawMul;

using Kind = ViewNode::Kind;

int widthOf(Type t) { return t.isVector() ? t.vectorWidth() : 1; }

arith::Expr pop(std::vector<arith::Expr>& s, const View& v) {
  LIFT_ASSERT(!s.empty(), "view consumption: array stack empty at " + view::describe(v));
  arith::Expr e = s.back();
  s.pop_back();
  return e;
}

arith::Expr rawSub(arith::Expr a, arith::Expr b) { return rawAdd(a, rawMul(cst(-1), b)); }

bool isZero(arith::Expr e) { return !e || (e.isCst() && e.value() == 0); }

// ----- issue 16: the element of a generated array at the indices on the stack (outermost on
// top): the generator's user function called with the indices and the lengths, or its index
// expression with the index put in.
c::ExprP generatedElement(const ViewNode& v, std::vector<arith::Expr>& stack) {
  auto text = [](arith::Expr e) { return c::text("(" + arith::toOpenCL(arith::simplify(e)) + ")"); };
  std::vector<arith::Expr> indices;
  std::vector<c::ExprP> args, lengths;
  Type t = v.type;
  for (int d = 0; d < v.index; ++d) {
    LIFT_ASSERT(!stack.empty(), "view consumption: a generated array read without its indices");
    indices.push_back(stack.back());
    stack.pop_back();
    args.push_back(text(indices.back()));
    lengths.push_back(text(t.length()));
    t = t.elem();
  }
  if (v.text.empty()) return text(arith::substitute(v.a, {{v.b, indices.at(0)}}));
  args.insert(args.end(), lengths.begin(), lengths.end());
  return c::call(v.text, std::move(args));
}

}  // namespace

std::string localIdName(int d) { return d == 0 ? std::string("l_id") : fmt::format("l_id_{}", d); }

std::string laneName(int k) {
  static const char* digits = "0123456789abcdef";
  return std::string(".s") + digits[k & 15];
}

arith::Expr laneVar(int width) { return arith::var("lane", cst(0), cst(width)); }

namespace {
// The node of the access being resolved (for SliceError).
thread_local ir::NodeId currentNode = 0;
struct AtNode {
  ir::NodeId saved;
  explicit AtNode(ir::NodeId n) : saved(currentNode) { currentNode = n; }
  ~AtNode() { currentNode = saved; }
};
}  // namespace

ResolvedAccess consume(const View& start, int width, arith::Expr lane) {
  ResolvedAccess r;
  std::vector<arith::Expr> stack;
  std::vector<int> tuples;
  std::map<arith::Expr, arith::Expr> env;  // map views' variables
  arith::Expr sub = cst(0);
  bool folded = false;
  View v = start;
  while (true) {
    switch (v->kind) {
      case Kind::Mem: {
        LIFT_ASSERT(tuples.empty(), "view consumption: tuple component of a memory");
        std::vector<arith::Expr> lengths;
        Type t = v->type;
        while (t.isArray()) {
          lengths.push_back(t.length());
          t = t.elem();
        }
        LIFT_ASSERT(stack.size() == lengths.size(),
                    fmt::format("view consumption: {} indices for a memory of {} dimensions ({})",
                                stack.size(), lengths.size(), view::describe(start)));
        arith::Expr flat;
        arith::Expr stride = cst(1);
        const std::vector<int>& lcl = v->mem->lclDims;
        std::optional<SliceError> violation;
        for (size_t d = lengths.size(); d-- > 0;) {
          arith::Expr idx = stack[stack.size() - 1 - d];
          if (d < lcl.size() && lcl[d] >= 0) {
            // A work-item holds only the slice its own l_id selects: the index must be that l_id.
            arith::Expr s = arith::simplify(idx);
            std::string want = localIdName(lcl[d]);
            bool own = (s.kind() == arith::Kind::Var && arith::varName(s) == want) ||
                       (lengths[d].isCst() && lengths[d].value() == 1 && s.isCst() && s.value() == 0);
            if (!own)
              violation = SliceError{
                  v->mem, currentNode,
                  fmt::format("{} is private to each work-item, split over the work-items by mapLcl{} "
                              "(dimension {} of its type {}), but it is accessed here at index {} of "
                              "that dimension instead of {}: a work-item would read or write an element "
                              "another work-item holds; access it through the same mapLcl dimensions "
                              "everywhere, or store it in local memory (toLocal)",
                              v->mem->name, lcl[d], d, v->type.toString(), arith::toString(s), want)};
            continue;
          }
          arith::Expr term = stride == cst(1) ? idx : rawMul(idx, stride);
          flat = flat ? rawAdd(term, flat) : term;
          // A padded local memory's rows are longer than its innermost dimension (LocalPadding.h).
          bool row = d + 1 == lengths.size() && v->mem->rowPadding > 0;
          stride = stride * (row ? lengths[d] + cst(v->mem->rowPadding) : lengths[d]);
        }
        if (violation) throw *violation;  // the outermost dimension accessed at another slice
        r.kind = ResolvedAccess::Kind::Memory;
        r.mem = v->mem;
        r.elemIndex = flat ? flat : cst(0);
        r.sub = sub;
        r.folded = folded;
        return r;
      }
      case Kind::Value:
      case Kind::Generated: {
        c::ExprP e = v->value;
        if (v->kind == Kind::Generated) e = generatedElement(*v, stack);
        LIFT_ASSERT(stack.empty(), "view consumption: indexing a value");
        while (!tuples.empty()) {
          e = c::member(e, fmt::format("._{}", tuples.back()));
          tuples.pop_back();
        }
        if (!isZero(sub)) {
          arith::Expr s = arith::simplify(sub);
          LIFT_ASSERT(s.isCst(), "view consumption: dynamic lane of a vector value");
          e = c::member(e, laneName(static_cast<int>(s.value())));
        }
        r.kind = ResolvedAccess::Kind::Value;
        r.value = e;
        return r;
      }
      case Kind::Literal:
        LIFT_ASSERT(tuples.empty(), "view consumption: tuple component of a literal");
        r.kind = ResolvedAccess::Kind::Literal;
        r.literal = v->text;
        r.literalType = v->type;
        return r;
      case Kind::Access: {
        auto it = env.find(v->a);
        stack.push_back(it == env.end() ? v->a : it->second);
        break;
      }
      case Kind::Split: {
        arith::Expr chunk = pop(stack, v), inner = pop(stack, v);
        stack.push_back(rawAdd(rawMul(chunk, v->a), inner));
        break;
      }
      case Kind::Join: {
        arith::Expr i = pop(stack, v);
        stack.push_back(rawMod(i, v->a));
        stack.push_back(rawDiv(i, v->a));
        break;
      }
      case Kind::Transpose: {
        arith::Expr a = pop(stack, v), b = pop(stack, v);
        stack.push_back(a);
        stack.push_back(b);
        break;
      }
      case Kind::Reindex: {
        arith::Expr i = pop(stack, v);
        arith::Expr n = v->type.length();
        ir::IndexFun f = v->inverse ? view::inverseIndexFun(v->fn, n) : v->fn;
        stack.push_back(view::applyIndexFun(f, i, n));
        break;
      }
      case Kind::Slide: {
        arith::Expr w = pop(stack, v), j = pop(stack, v);
        stack.push_back(rawAdd(rawMul(w, v->b), j));
        break;
      }
      case Kind::Pad: {
        arith::Expr i = pop(stack, v);
        arith::Expr n = v->parent()->type.length();
        arith::Expr j = rawSub(i, v->a);
        switch (v->padMode) {
          case ir::PadMode::Clamp:
            stack.push_back(arith::min(arith::max(j, cst(0)), n - 1));
            break;
          case ir::PadMode::Mirror: {
            arith::Expr m = arith::max(j, rawSub(cst(-1), j));
            stack.push_back(arith::min(m, rawSub(rawAdd(n, rawAdd(n, cst(-1))), m)));
            break;
          }
          case ir::PadMode::Wrap:
            stack.push_back(rawMod(rawAdd(rawMod(j, n), n), n));
            break;
          case ir::PadMode::Constant:
            r.guards.push_back({c::Guard{i, v->a, v->a + n}, v->text});
            stack.push_back(j);
            break;
        }
        break;
      }
      case Kind::AsVector: {
        arith::Expr i = pop(stack, v);
        arith::Expr idx = rawMul(i, v->a);
        if (!isZero(sub)) idx = rawAdd(idx, sub);
        if (width > 1 && !folded && lane) {
          idx = isZero(lane) ? idx : rawAdd(idx, lane);
          folded = true;
        }
        stack.push_back(idx);
        sub = cst(0);
        break;
      }
      case Kind::AsScalar: {
        arith::Expr j = pop(stack, v);
        LIFT_ASSERT(isZero(sub), "view consumption: lane offset inside a scalar");
        stack.push_back(rawDiv(j, v->a));
        sub = rawMod(j, v->a);
        break;
      }
      case Kind::Lanes: {
        arith::Expr k = pop(stack, v);
        sub = isZero(sub) ? k : rawAdd(sub, k);
        break;
      }
      case Kind::Zip:
      case Kind::Tuple:
        if (tuples.empty()) {
          r.kind = ResolvedAccess::Kind::Composite;
          r.arity = static_cast<int>(v->parents.size());
          return r;
        }
        v = v->parents.at(tuples.back());
        tuples.pop_back();
        continue;
      case Kind::Get:
        tuples.push_back(v->index);
        break;
      case Kind::Retype:
        break;
      case Kind::Map:
        env[v->a] = pop(stack, v);
        break;
      case Kind::Tag:
        r.tags.push_back(v->index);
        break;
    }
    v = v->parent();
  }
}

namespace {

thread_local const std::vector<int>* currentTags = nullptr;

c::Access makeAccess(const Memory* m, c::Access::Form form, arith::Expr raw, ir::NodeId node, bool write,
                     int width = 1, int lane = 0) {
  c::Access a;
  if (currentTags) a.tags = *currentTags;
  a.mem = m;
  a.form = form;
  a.raw = raw;
  a.simplified = arith::simplify(raw);
  a.width = width;
  a.lane = lane;
  a.write = write;
  a.node = node;
  return a;
}

// A single scalar at raw scalar offset `flat` of memory m.
c::ExprP scalarAt(const Memory* m, arith::Expr elemIndex, arith::Expr sub, ir::NodeId node, bool write) {
  int e = widthOf(m->elemType);
  if (e == 1) return c::access(makeAccess(m, c::Access::Form::Element, elemIndex, node, write));
  arith::Expr s = arith::simplify(sub);
  if (s.isCst())
    return c::access(
        makeAccess(m, c::Access::Form::Lane, elemIndex, node, write, 1, static_cast<int>(s.value())));
  return c::access(
      makeAccess(m, c::Access::Form::ScalarCast, rawAdd(rawMul(elemIndex, cst(e)), sub), node, write));
}

std::string literalText(const ResolvedAccess& r, Type t) {
  if (t.isVector() && !(r.literalType && r.literalType.isVector()))
    return fmt::format("({})({})", t.openclName(), r.literal);
  return r.literal;
}

c::ExprP withGuards(const ResolvedAccess& r, Type t, c::ExprP inside) {
  for (size_t i = r.guards.size(); i-- > 0;) {
    const auto& [g, text] = r.guards[i];
    std::string outside = t.isVector() ? fmt::format("({})({})", t.openclName(), text) : text;
    inside = c::guarded({g}, inside, c::text(outside));
  }
  return inside;
}

struct LeafAccess {
  enum class Kind { Single, Store, PerLane, Value } kind = Kind::Single;
  c::ExprP expr;                // Single/Store/Value
  std::vector<c::ExprP> lanes;  // PerLane
};

// The access to one scalar or vector leaf; `write` for destinations.
LeafAccess leaf(const View& v, Type t, ir::NodeId node, bool write, std::vector<int>* tags) {
  int r = widthOf(t);
  ResolvedAccess res = consume(v, r, r > 1 ? laneVar(r) : arith::Expr());
  if (tags) tags->insert(tags->end(), res.tags.begin(), res.tags.end());
  struct TagScope {
    explicit TagScope(const std::vector<int>* t) : saved(currentTags) { currentTags = t; }
    ~TagScope() { currentTags = saved; }
    const std::vector<int>* saved;
  } tagScope(&res.tags);
  LeafAccess out;
  switch (res.kind) {
    case ResolvedAccess::Kind::Composite:
      LIFT_ASSERT(false, "leaf access of a tuple");
      break;
    case ResolvedAccess::Kind::Literal:
      LIFT_ASSERT(!write, "write to a literal");
      out.kind = LeafAccess::Kind::Value;
      out.expr = withGuards(res, t, c::text(literalText(res, t)));
      return out;
    case ResolvedAccess::Kind::Value:
      LIFT_ASSERT(!write, "write to a value");
      out.kind = LeafAccess::Kind::Value;
      out.expr = withGuards(res, t, res.value);
      return out;
    case ResolvedAccess::Kind::Memory:
      break;
  }
  const Memory* m = res.mem;
  int e = widthOf(m->elemType);
  LIFT_ASSERT(!write || res.guards.empty(), "write through a constant pad");
  if (!res.folded) {
    c::ExprP a;
    if (r == e && isZero(res.sub)) {
      a = c::access(makeAccess(m, c::Access::Form::Element, res.elemIndex, node, write));
    } else if (r == 1) {
      a = scalarAt(m, res.elemIndex, res.sub, node, write);
    } else {
      // A vector inside a wider vector element: its lanes, or a load from the scalar positions.
      arith::Expr s = arith::simplify(res.sub);
      if (s.isCst() && s.value() + r <= e) {
        a = c::access(makeAccess(m, c::Access::Form::Swizzle, res.elemIndex, node, write, r, int(s.value())));
      } else {
        arith::Expr flat = rawAdd(rawMul(res.elemIndex, cst(e)), res.sub);
        a = c::access(makeAccess(m, c::Access::Form::VLoadAt, flat, node, write, r));
        out.kind = write ? LeafAccess::Kind::Store : LeafAccess::Kind::Single;
        out.expr = write ? a : withGuards(res, t, a);
        return out;
      }
    }
    out.expr = write ? a : withGuards(res, t, a);
    return out;
  }
  // Folded lanes: contiguous lanes become one vector access.
  auto flatOf = [&](const ResolvedAccess& x) {
    return e == 1 ? x.elemIndex : rawAdd(rawMul(x.elemIndex, cst(e)), x.sub);
  };
  ResolvedAccess first = consume(v, r, cst(0));
  arith::Expr flat0 = flatOf(first);
  arith::Expr flat0s = arith::simplify(flat0);
  bool contiguous = res.guards.empty() && arith::simplify(flatOf(res) - flat0s) == laneVar(r);
  if (contiguous) {
    c::ExprP a;
    if (e == r && arith::provablyDivisible(flat0s, cst(e))) {
      a = c::access(makeAccess(m, c::Access::Form::Element, rawDiv(flat0, cst(e)), node, write));
      out.kind = LeafAccess::Kind::Single;
    } else if (e > r && (arith::simplify(flat0s % cst(e)).isCst()) &&
               arith::simplify(flat0s % cst(e)).value() + r <= e) {
      int lane = static_cast<int>(arith::simplify(flat0s % cst(e)).value());
      a = c::access(makeAccess(m, c::Access::Form::Swizzle, rawDiv(flat0, cst(e)), node, write, r, lane));
      out.kind = LeafAccess::Kind::Single;
    } else if (e == 1 && arith::provablyDivisible(flat0s, cst(r))) {
      a = c::access(makeAccess(m, c::Access::Form::VLoad, rawDiv(flat0, cst(r)), node, write, r));
      out.kind = write ? LeafAccess::Kind::Store : LeafAccess::Kind::Single;
    } else {
      a = c::access(makeAccess(m, c::Access::Form::VLoadAt, flat0, node, write, r));
      out.kind = write ? LeafAccess::Kind::Store : LeafAccess::Kind::Single;
    }
    out.expr = a;
    return out;
  }
  out.kind = LeafAccess::Kind::PerLane;
  Type scalar = Type::scalar(t.scalarKind());
  for (int k = 0; k < r; ++k) {
    ResolvedAccess lk = consume(v, r, cst(k));
    c::ExprP a = scalarAt(lk.mem, lk.elemIndex, lk.sub, node, write);
    out.lanes.push_back(write ? a : withGuards(lk, scalar, a));
  }
  return out;
}

}  // namespace

c::ExprP readValue(const View& v, Type t, ir::NodeId node, std::vector<int>* tags) {
  AtNode at(node);
  if (t.isTuple()) {
    ResolvedAccess res = consume(v, 1, arith::Expr());
    if (res.kind == ResolvedAccess::Kind::Value) {
      if (tags) tags->insert(tags->end(), res.tags.begin(), res.tags.end());
      return res.value;
    }
    LIFT_ASSERT(res.kind == ResolvedAccess::Kind::Composite, "a tuple value stored in one memory");
    std::vector<c::ExprP> fields;
    for (size_t k = 0; k < t.tupleElems().size(); ++k)
      fields.push_back(readValue(view::get(v, static_cast<int>(k)), t.tupleElems()[k], node, tags));
    return c::tupleCons(cfun::tupleStructName(t), std::move(fields));
  }
  LeafAccess a = leaf(v, t, node, false, tags);
  if (a.kind == LeafAccess::Kind::PerLane) return c::vectorCons(t.openclName(), std::move(a.lanes));
  return a.expr;
}

WriteTarget writeTarget(const View& dest, Type t, ir::NodeId node) {
  AtNode at(node);
  LIFT_ASSERT(!t.isTuple() && !t.isArray(), "writeTarget of a tuple or array");
  LeafAccess a = leaf(dest, t, node, true, nullptr);
  WriteTarget w;
  switch (a.kind) {
    case LeafAccess::Kind::Single:
      w.kind = WriteTarget::Kind::Assign;
      w.lhs = a.expr;
      break;
    case LeafAccess::Kind::Store:
      w.kind = WriteTarget::Kind::Store;
      w.lhs = a.expr;
      break;
    case LeafAccess::Kind::PerLane:
      w.kind = WriteTarget::Kind::PerLane;
      w.lanes = std::move(a.lanes);
      break;
    case LeafAccess::Kind::Value:
      LIFT_ASSERT(false, "write to a value");
  }
  return w;
}

}  // namespace lift::codegen
