// Splitting a tile copy into loads into registers and stores from them (RegisterPrefetch.h).
#include "codegen/RegisterPrefetch.h"

#include <fmt/format.h>

namespace lift::codegen {
namespace {

class Stager {
 public:
  Stager(MemoryAllocator& memories, int maxScalars) : memories_(memories), maxScalars_(maxScalars) {}

  bool block(const c::Block& in, c::Block& loads, c::Block& stores) {
    for (auto& s : in)
      if (!stmt(*s, loads, stores)) return false;
    return true;
  }

  c::Block declarations;

 private:
  static c::StmtP make(c::Stmt::Kind kind, const c::Stmt& like) {
    auto s = std::make_unique<c::Stmt>();
    s->kind = kind;
    s->node = like.node;
    s->pattern = like.pattern;
    return s;
  }

  static c::StmtP intDecl(const c::Stmt& like, const std::string& name, const std::string& value) {
    auto d = make(c::Stmt::Kind::Decl, like);
    d->text = "int";
    d->name = name;
    d->rhs = c::text(value);
    return d;
  }

  // One iteration of a loop: a scope in each part that sets the loop variable, then the body.
  bool iteration(const c::Stmt& loop, const std::string& value, c::Block& loads, c::Block& stores) {
    auto l = make(c::Stmt::Kind::Scope, loop), s = make(c::Stmt::Kind::Scope, loop);
    l->body.push_back(intDecl(loop, loop.text, value));
    s->body.push_back(intDecl(loop, loop.text, value));
    if (!block(loop.body, l->body, s->body)) return false;
    loads.push_back(std::move(l));
    stores.push_back(std::move(s));
    return true;
  }

  bool stmt(const c::Stmt& s, c::Block& loads, c::Block& stores) {
    switch (s.kind) {
      case c::Stmt::Kind::Comment:
        return true;
      case c::Stmt::Kind::Scope:
      case c::Stmt::Kind::If: {
        auto l = make(s.kind, s), st = make(s.kind, s);
        l->cond = st->cond = s.cond;
        if (!block(s.body, l->body, st->body)) return false;
        loads.push_back(std::move(l));
        stores.push_back(std::move(st));
        return true;
      }
      case c::Stmt::Kind::Decl: {
        if (c::readsMemory(s.rhs)) return false;
        for (c::Block* part : {&loads, &stores}) {
          auto d = make(c::Stmt::Kind::Decl, s);
          d->text = s.text;
          d->name = s.name;
          d->rhs = s.rhs;
          part->push_back(std::move(d));
        }
        return true;
      }
      case c::Stmt::Kind::For: {
        if (s.parallelTrips > 0) {  // each work-item: id, id + stride, ...
          for (int64_t r = 0; r < s.parallelTrips; ++r) {
            std::string value = r == 0 ? s.init : fmt::format("{} + {}", s.init, r * s.parallelStride);
            if (!iteration(s, value, loads, stores)) return false;
          }
          return true;
        }
        if (s.trips > 0 && s.init == "0" && s.step == s.text + " += 1") {
          for (int64_t r = 0; r < s.trips; ++r)
            if (!iteration(s, std::to_string(r), loads, stores)) return false;
          return true;
        }
        return false;
      }
      case c::Stmt::Kind::Assign: {
        if (!s.lhs || s.lhs->kind != c::Expr::Kind::Access) return false;
        const c::Access& a = *s.lhs->access;
        if (!a.write || a.mem->space != AddressSpace::Local || a.form != c::Access::Form::Element)
          return false;
        Type t = a.mem->elemType;
        scalars_ += t.isVector() ? t.vectorWidth() : 1;
        if (scalars_ > maxScalars_) return false;
        std::string name = memories_.freshName("pf");
        memories_.reserve(name);
        auto d = make(c::Stmt::Kind::Decl, s);
        d->text = t.openclName();
        d->name = name;
        declarations.push_back(std::move(d));
        auto load = make(c::Stmt::Kind::Assign, s);
        load->lhs = c::text(name);
        load->rhs = s.rhs;
        loads.push_back(std::move(load));
        auto store = make(c::Stmt::Kind::Assign, s);
        store->lhs = s.lhs;
        store->rhs = c::text(name);
        stores.push_back(std::move(store));
        return true;
      }
      default:
        return false;
    }
  }

  MemoryAllocator& memories_;
  int maxScalars_;
  int scalars_ = 0;
};

}  // namespace

bool stageThroughRegisters(const c::Block& copy, MemoryAllocator& memories, StagedCopy& out, int maxScalars) {
  Stager stager(memories, maxScalars);
  StagedCopy staged;
  if (!stager.block(copy, staged.loads, staged.stores) || stager.declarations.empty()) return false;
  staged.declarations = std::move(stager.declarations);
  out = std::move(staged);
  return true;
}

}  // namespace lift::codegen
