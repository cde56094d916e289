// OpenCL C text of a generated kernel, with provenance and the index report.
#include "codegen/KernelPrinter.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/Vectorization.h"
#include "codegen/ViewConsumer.h"
#include "core/cfun/CFunAst.h"
#include "core/cfun/CFunPrinter.h"

namespace lift::codegen {

std::string parameterDeclaration(const KernelParam& p) {
  switch (p.kind) {
    case KernelParam::Kind::Input:
      return fmt::format("const global {}* restrict", p.elemType.openclName());
    case KernelParam::Kind::Output:
    case KernelParam::Kind::Temporary:
      return fmt::format("global {}* restrict", p.elemType.openclName());
    case KernelParam::Kind::Counter:  // atomic_inc's argument: volatile
      return fmt::format("volatile global {}*", p.elemType.openclName());
    case KernelParam::Kind::LocalBuffer:
      return fmt::format("local {}*", p.elemType.openclName());
    case KernelParam::Kind::Scalar:
      return p.elemType.openclName();
    case KernelParam::Kind::Size:
      return "int";
  }
  return "";
}

namespace {

class Printer {
 public:
  Printer(const KernelModel& m, bool simplify) : m_(m), simplify_(simplify) {}

  void line(const std::string& text, ir::NodeId node) {
    out_ += std::string(static_cast<size_t>(indent_) * 2, ' ');
    out_ += text;
    out_ += '\n';
    nodes_.push_back(node);
  }
  // Lines of a multi-line text (user functions), all with the same provenance.
  void lines(const std::string& text, ir::NodeId node) {
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      line(text.substr(start, end - start), node);
      if (end == text.size()) break;
      start = end + 1;
    }
  }

  std::string index(const c::Access& a) const {
    if (!simplify_) return arith::toOpenCL(a.raw);
    auto t = m_.indexTemporaries.find(&a);
    return arith::toOpenCL(t != m_.indexTemporaries.end() ? t->second : a.simplified);
  }

  std::string pointerCast(const Memory* m) const {
    Type s = Type::scalar(m->elemType.scalarKind());
    std::string q = m->space == AddressSpace::Private ? "" : std::string(qualifier(m->space)) + " ";
    std::string c = m->role == Memory::Role::Input || m->role == Memory::Role::Pointer ? "const " : "";
    std::string base = m->isPrivateScalar() && m->role != Memory::Role::Pointer ? "&" + m->name : m->name;
    return fmt::format("(({}{}{}*){})", c, q, s.openclName(), base);
  }

  std::string access(const c::Access& a) {
    const Memory* m = a.mem;
    std::string idx = index(a);
    IndexEntry e;
    e.buffer = m->name;
    e.raw = arith::toString(a.raw);
    e.simplified = arith::toString(a.simplified);
    e.rawExpr = a.raw;
    e.simplifiedExpr = a.simplified;
    e.node = a.node;
    e.write = a.write;
    e.line = static_cast<int>(nodes_.size()) + 1;
    std::string text;
    auto element = [&]() -> std::string {
      if (m->isPrivateScalar() && m->role != Memory::Role::Pointer) return m->name;
      if (m->scalarized && a.simplified.isCst()) return fmt::format("{}_{}", m->name, a.simplified.value());
      return fmt::format("{}[{}]", m->name, idx);
    };
    switch (a.form) {
      case c::Access::Form::Element:
        e.form = "element";
        text = element();
        break;
      case c::Access::Form::Lane:
        e.form = "lane";
        text = element() + laneName(a.lane);
        break;
      case c::Access::Form::Swizzle: {
        e.form = "lanes";
        static const char* digits = "0123456789abcdef";
        text = element() + ".s";
        for (int k = 0; k < a.width; ++k) text += digits[(a.lane + k) & 15];
        break;
      }
      case c::Access::Form::ScalarCast:
        e.form = "scalar";
        text = fmt::format("{}[{}]", pointerCast(m), idx);
        break;
      case c::Access::Form::VLoad:
        e.form = fmt::format("{}{}", a.write ? "vstore" : "vload", a.width);
        if (m->scalarized && !a.write && a.simplified.isCst()) {
          text = fmt::format("({}{})(", Type::scalar(m->elemType.scalarKind()).openclName(), a.width);
          for (int k = 0; k < a.width; ++k)
            text += fmt::format("{}{}_{}", k ? ", " : "", m->name, a.simplified.value() * a.width + k);
          text += ")";
          break;
        }
        text = a.write ? fmt::format("{}, {}", idx, m->name)
                       : fmt::format("vload{}({}, {})", a.width, idx, m->name);
        break;
      case c::Access::Form::VectorCast: {
        e.form = fmt::format("vector{}", a.width);
        std::string q = m->space == AddressSpace::Private ? "" : std::string(qualifier(m->space)) + " ";
        std::string c = m->role == Memory::Role::Input ? "const " : "";
        text = fmt::format("(({}{}{}{}*){})[{}]", c, q, Type::scalar(m->elemType.scalarKind()).openclName(),
                           a.width, m->name, idx);
        break;
      }
      case c::Access::Form::VLoadAt: {
        e.form = fmt::format("{}{}", a.write ? "vstore" : "vload", a.width);
        std::string base = m->elemType.isVector() ? pointerCast(m) : m->name;
        std::string at = fmt::format("{} + {}", base, idx);
        text = a.write ? fmt::format("0, {}", at) : fmt::format("vload{}(0, {})", a.width, at);
        break;
      }
    }
    indices_.push_back(std::move(e));
    return text;
  }

  std::string guard(const c::Guard& g) const {
    std::vector<std::string> parts;
    arith::Expr i = arith::simplify(g.index);
    std::string is = arith::toOpenCL(simplify_ ? i : g.index);
    if (!arith::provablyLessEqual(g.lo, i))
      parts.push_back(fmt::format("{} <= {}", arith::toOpenCL(g.lo), is));
    if (!arith::provablyLess(i, g.hi)) parts.push_back(fmt::format("{} < {}", is, arith::toOpenCL(g.hi)));
    std::string s;
    for (size_t k = 0; k < parts.size(); ++k) s += (k ? " && " : "") + parts[k];
    return s;
  }

  std::string expr(const c::ExprP& e) {
    switch (e->kind) {
      case c::Expr::Kind::Text:
        return e->text;
      case c::Expr::Kind::Access:
        return access(*e->access);
      case c::Expr::Kind::Call: {
        if (e->text == "+" && e->ops.size() == 2)
          return fmt::format("({} + {})", expr(e->ops[0]), expr(e->ops[1]));
        std::string s = e->text + "(";
        for (size_t i = 0; i < e->ops.size(); ++i) s += (i ? ", " : "") + expr(e->ops[i]);
        return s + ")";
      }
      case c::Expr::Kind::Member: {
        const auto& b = e->ops[0];
        bool paren = b->kind == c::Expr::Kind::VectorCons || b->kind == c::Expr::Kind::TupleCons ||
                     b->kind == c::Expr::Kind::Guarded;
        std::string base = expr(b);
        return (paren ? "(" + base + ")" : base) + e->text;
      }
      case c::Expr::Kind::VectorCons: {
        std::string s = "(" + e->text + ")(";
        for (size_t i = 0; i < e->ops.size(); ++i) s += (i ? ", " : "") + expr(e->ops[i]);
        return s + ")";
      }
      case c::Expr::Kind::TupleCons: {
        std::string s = "(" + e->text + "){";
        for (size_t i = 0; i < e->ops.size(); ++i) s += (i ? ", " : "") + expr(e->ops[i]);
        return s + "}";
      }
      case c::Expr::Kind::Guarded: {
        std::string cond;
        for (auto& g : e->guards) {
          std::string c = guard(g);
          if (!c.empty()) cond += (cond.empty() ? "" : " && ") + c;
        }
        std::string inside = expr(e->ops[0]);
        if (cond.empty()) return inside;
        return fmt::format("({} ? {} : {})", cond, inside, expr(e->ops[1]));
      }
    }
    return "";
  }

  void stmt(const c::Stmt& s) {
    switch (s.kind) {
      case c::Stmt::Kind::Scope:
        line("{", s.node);
        block(s.body);
        line("}", s.node);
        return;
      case c::Stmt::Kind::Decl:
        if (s.rhs)
          line(fmt::format("{} {} = {};", s.text, s.name, expr(s.rhs)), s.node);
        else
          line(fmt::format("{} {};", s.text, s.name), s.node);
        return;
      case c::Stmt::Kind::Assign: {
        std::string rhs = expr(s.rhs);
        std::string lhs = expr(s.lhs);
        line(fmt::format("{} = {};", lhs, rhs), s.node);
        return;
      }
      case c::Stmt::Kind::Store: {
        std::string rhs = expr(s.rhs);
        std::string where = expr(s.lhs);
        line(fmt::format("vstore{}({}, {});", s.lhs->access->width, rhs, where), s.node);
        return;
      }
      case c::Stmt::Kind::For:
        if (s.unroll > 0) line(fmt::format("#pragma unroll {}", s.unroll), s.node);
        line(fmt::format("for (int {} = {}; {}; {}) {{", s.text, s.init, s.cond, s.step), s.node);
        block(s.body);
        line("}", s.node);
        return;
      case c::Stmt::Kind::If:
        line(fmt::format("if ({}) {{", s.cond), s.node);
        block(s.body);
        line("}", s.node);
        return;
      case c::Stmt::Kind::Barrier:
        line(fmt::format("barrier({});", s.text), s.node);
        return;
      case c::Stmt::Kind::Comment:
        line("// " + s.text, s.node);
        return;
      case c::Stmt::Kind::Line:
        line(s.text, s.node);
        return;
    }
  }

  void block(const c::Block& b) {
    ++indent_;
    for (auto& s : b) stmt(*s);
    --indent_;
  }

  std::string out_;
  std::vector<ir::NodeId> nodes_;
  std::vector<IndexEntry> indices_;
  int indent_ = 0;

 private:
  const KernelModel& m_;
  bool simplify_;
};

std::string declaration(const Memory& m) {
  std::string type = m.elemType.openclName();
  std::string aligned = m.alignment > 0 ? fmt::format(" __attribute__((aligned({})))", m.alignment) : "";
  if (m.space == AddressSpace::Local)
    return fmt::format("local {} {}[{}]{};", type, m.name, arith::toOpenCL(m.count), aligned);
  if (m.isPrivateScalar()) return fmt::format("{} {};", type, m.name);
  if (m.scalarized) {
    std::string s = type + " ";
    for (int64_t k = 0; k < m.count.value(); ++k) s += fmt::format("{}{}_{}", k ? ", " : "", m.name, k);
    return s + ";";
  }
  return fmt::format("{} {}[{}];", type, m.name, arith::toOpenCL(m.count));
}

}  // namespace

PrintedKernel printKernel(const KernelModel& model, const std::vector<KernelParam>& params,
                          const CompileOptions& options, const std::string& header,
                          const std::string& attributes) {
  Printer p(model, options.simplifyIndices);
  cfun::PrintOptions userFunOptions;
  userFunOptions.fusedMultiplyAdd = options.fusedMultiplyAdd;
  p.lines(header, 0);
  if (model.usesDouble) p.line("#pragma OPENCL EXTENSION cl_khr_fp64 : enable", 0);
  p.line("", 0);

  // Tuple structs: those of the user functions and those the kernel builds, components first.
  std::vector<Type> tuples;
  auto addTuple = [&](Type t, auto& self) -> void {
    if (std::find(tuples.begin(), tuples.end(), t) != tuples.end()) return;
    for (Type e : t.tupleElems())
      if (e.isTuple()) self(e, self);
    tuples.push_back(t);
  };
  for (auto* d : model.userFuns)
    if (d->body)
      for (Type t : cfun::tupleTypesUsed(*d->body)) addTuple(t, addTuple);
  for (Type t : model.tupleTypes) addTuple(t, addTuple);
  for (Type t : tuples) p.line(cfun::tupleStructDefinition(t), 0);
  if (!tuples.empty()) p.line("", 0);

  for (auto* d : model.userFuns) {
    std::string name = model.userFunNames.at(d);
    if (d->body) {
      p.lines(cfun::printFunction(name, *d->body, userFunOptions), 0);
    } else {
      std::string sig = cfun::cTypeName(d->returnType) + " " + name + "(";
      for (size_t i = 0; i < d->params.size(); ++i)
        sig += (i ? ", " : "") + cfun::cTypeName(d->params[i].second) + " " + d->params[i].first;
      p.lines(sig + ") {" + d->bodyText + "}", 0);
    }
    p.line("", 0);
  }
  for (auto& v : model.vectorized) {
    p.line(printVectorized(*v.def, v.name, v.width, userFunOptions), 0);
    p.line("", 0);
  }

  // The kernel.
  std::vector<std::string> decls;
  for (auto& prm : params) decls.push_back(parameterDeclaration(prm) + " " + prm.name);
  std::string sig = fmt::format("kernel {}void {}(", attributes, model.name);
  size_t total = sig.size();
  for (auto& d : decls) total += d.size() + 2;
  if (total <= 100) {
    for (size_t i = 0; i < decls.size(); ++i) sig += (i ? ", " : "") + decls[i];
    p.line(sig + ") {", 0);
  } else {
    p.line(sig, 0);
    p.indent_ += 2;
    for (size_t i = 0; i < decls.size(); ++i) p.line(decls[i] + (i + 1 < decls.size() ? "," : ") {"), 0);
    p.indent_ -= 2;
    if (decls.empty()) p.line(") {", 0);
  }
  ++p.indent_;
  for (auto& m : model.memories.memories()) {
    if (m->role != Memory::Role::Temporary || m->isParameter()) continue;
    if (m->space == AddressSpace::Local) {
      p.line(declaration(*m), m->node);
    }
  }
  for (auto& m : model.memories.memories()) {
    if (m->role != Memory::Role::Temporary || m->isParameter()) continue;
    if (m->space == AddressSpace::Private) {
      p.line(declaration(*m), m->node);
    }
  }
  for (auto& s : model.body) p.stmt(*s);
  --p.indent_;
  p.line("}", 0);

  PrintedKernel out;
  out.source = std::move(p.out_);
  out.lineNodes = std::move(p.nodes_);
  out.indices = std::move(p.indices_);
  return out;
}

}  // namespace lift::codegen
