// Common-subexpression elimination of printed indices (IndexCse.h).
#include "codegen/IndexCse.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/support/Diagnostic.h"

namespace lift::codegen {
namespace {

constexpr int kPoisoned = -1;  // mentions a variable assigned after its declaration
constexpr int kMaxTemporaries = 256;

// A block on the way from the kernel's body to a statement.
struct Frame {
  int id = 0;
  c::Block* block = nullptr;
  std::string loopVar;                                // a For's body: its variable
  std::vector<std::pair<std::string, size_t>> decls;  // declared by its Decls, after position
};

// Where an expression is evaluated: the frames from the kernel's body inward and the position
// of the statement taken in each (a temporary's definition: the frames up to its own, where it
// comes before the statement at that position).
struct Site {
  std::vector<const Frame*> frames;
  std::vector<size_t> pos;
};

struct Use {
  const c::Access* access = nullptr;  // null: the definition of temporary `temp`
  size_t temp = 0;
  arith::Expr expr;
  Site site;
};

struct Temporary {
  std::string name;
  arith::Expr var, def;
  const Frame* frame = nullptr;
  size_t pos = 0;  // declared before the statement at pos of frame->block
  ir::NodeId node = 0;
};

bool worthATemporary(arith::Expr e) {
  using K = arith::Kind;
  switch (e.kind()) {
    case K::Cst:
    case K::Var:
      return false;
    case K::Sum:
    case K::Prod:
      return e.size() >= 4;
    default:
      return true;
  }
}

class Eliminator {
 public:
  explicit Eliminator(KernelModel& m) : m_(m) {}

  int run() {
    countAccesses(m_.body);
    walk(m_.body, Site{}, "");
    for (const Use& u : uses_)
      for (arith::Expr v : arith::variables(u.expr)) names_.insert(arith::varName(v));
    while (temps_.size() < kMaxTemporaries && step()) {
    }
    insertDeclarations();
    for (const Use& u : uses_)
      if (u.access && u.expr != u.access->simplified) m_.indexTemporaries[u.access] = u.expr;
    return static_cast<int>(temps_.size());
  }

 private:
  KernelModel& m_;
  std::deque<Frame> frames_;
  std::vector<Use> uses_;
  std::vector<Temporary> temps_;
  std::set<std::string> mutable_, names_;
  std::map<const c::Access*, int> accessCount_;

  void countAccesses(const c::Block& b) {
    c::forEachExpr(b, [&](const c::Expr& e) {
      if (e.kind == c::Expr::Kind::Access && e.access) ++accessCount_[e.access.get()];
    });
  }

  void walk(c::Block& b, Site site, const std::string& loopVar) {
    frames_.push_back(Frame{static_cast<int>(frames_.size()), &b, loopVar, {}});
    Frame* f = &frames_.back();
    site.frames.push_back(f);
    site.pos.push_back(0);
    if (!loopVar.empty()) names_.insert(loopVar);
    for (size_t k = 0; k < b.size(); ++k) {
      c::Stmt& s = *b[k];
      site.pos.back() = k;
      auto visit = [&](const c::Expr& e) {
        if (e.kind != c::Expr::Kind::Access || !e.access || accessCount_[e.access.get()] != 1) return;
        if (!e.access->simplified || e.access->simplified.kind() == arith::Kind::Cst) return;
        uses_.push_back(Use{e.access.get(), 0, e.access->simplified, site});
      };
      if (s.lhs) c::forEachExpr(*s.lhs, visit);
      if (s.rhs) c::forEachExpr(*s.rhs, visit);
      if (!s.body.empty() || s.kind == c::Stmt::Kind::For)
        walk(s.body, site, s.kind == c::Stmt::Kind::For ? s.text : std::string());
      if (s.kind == c::Stmt::Kind::Decl) {
        f->decls.emplace_back(s.name, k);
        names_.insert(s.name);
      }
      // `size = ...;` (iterate's lengths), `cnt += 1;` (filterSeq's count) and assignments to
      // variables change them after their declaration: no temporary may hold a value computed
      // from them.
      if (s.kind == c::Stmt::Kind::Line) {
        auto eq = s.text.find(" = ");
        if (eq != std::string::npos) mutable_.insert(s.text.substr(0, eq));
        if (auto name = compoundAssigned(s.text)) mutable_.insert(*name);
      }
      if (s.kind == c::Stmt::Kind::Assign && s.lhs && s.lhs->kind == c::Expr::Kind::Text)
        mutable_.insert(s.lhs->text);
    }
  }

  // The variable a line such as `cnt1 += 1;` or `j--;` changes in place, if it is one.
  static std::optional<std::string> compoundAssigned(const std::string& text) {
    size_t end = 0;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_'))
      ++end;
    if (end == 0) return std::nullopt;
    size_t op = text.find_first_not_of(' ', end);
    if (op == std::string::npos || op + 1 >= text.size()) return std::nullopt;
    std::string two = text.substr(op, 2);
    for (const char* o : {"+=", "-=", "*=", "/=", "%=", "++", "--"})
      if (two == o) return text.substr(0, end);
    return std::nullopt;
  }

  // The level (index into site.frames) of the frame that defines `name` at the site.
  int levelOf(const std::string& name, const Site& site) const {
    if (mutable_.count(name)) return kPoisoned;
    for (const Temporary& t : temps_) {
      if (t.name != name) continue;
      for (size_t l = 0; l < site.frames.size(); ++l)
        if (site.frames[l] == t.frame) return static_cast<int>(l);
      return kPoisoned;  // not visible here (cannot happen for a use that mentions it)
    }
    for (size_t l = site.frames.size(); l-- > 0;) {
      const Frame* f = site.frames[l];
      if (f->loopVar == name) return static_cast<int>(l);
      for (auto& [n, p] : f->decls)
        if (n == name && p < site.pos[l]) return static_cast<int>(l);
    }
    return 0;  // a size or other kernel parameter
  }

  struct Candidate {
    arith::Expr expr;
    const Frame* frame = nullptr;
    int level = 0;
    int count = 0;
    std::vector<size_t> firstPos;  // the earliest site's positions up to the frame
    size_t firstUse = 0;
    ir::NodeId node = 0;
  };

  // The level of e at the site (kPoisoned if it cannot be a temporary); counts e and its
  // subexpressions worth a temporary in `found`, keyed by node and frame.
  int count(arith::Expr e, size_t useIndex, std::map<std::pair<const void*, int>, Candidate>& found) {
    const Use& u = uses_[useIndex];
    int level = 0;
    if (e.kind() == arith::Kind::Var) return levelOf(arith::varName(e), u.site);
    for (arith::Expr o : e.operands()) {
      int l = count(o, useIndex, found);
      level = l == kPoisoned || level == kPoisoned ? kPoisoned : std::max(level, l);
    }
    if (level == kPoisoned || !worthATemporary(e)) return level;
    // a temporary's own definition is not an occurrence of it
    if (!u.access && temps_[u.temp].def == e) return level;
    const Frame* frame = u.site.frames[static_cast<size_t>(level)];
    Candidate& c = found[{e.node(), frame->id}];
    std::vector<size_t> pos(u.site.pos.begin(), u.site.pos.begin() + level + 1);
    bool earlier = c.count == 0 || pos < c.firstPos || (pos == c.firstPos && useIndex < c.firstUse);
    if (earlier) {
      c.expr = e;
      c.frame = frame;
      c.level = level;
      c.firstPos = pos;
      c.firstUse = useIndex;
    }
    if (u.access && (!c.node || earlier)) c.node = u.access->node;
    ++c.count;
    return level;
  }

  // Whether a temporary may be called n: no other name of the kernel is n (`own`: names of
  // temporaries, which are being renumbered).
  bool available(const std::string& n, const std::set<std::string>& own = {}) const {
    if ((names_.count(n) && !own.count(n)) || m_.memories.taken(n)) return false;
    for (auto& s : m_.scalars)
      if (s.name == n) return false;
    for (auto& [d, fn] : m_.userFunNames)
      if (fn == n) return false;
    return true;
  }

  std::string freshName() const {
    for (int k = static_cast<int>(temps_.size()) + 1;; ++k)
      if (std::string n = fmt::format("ix{}", k); available(n)) return n;
  }

  // Makes one temporary: the largest repeated subexpression (the earliest of equal sizes).
  bool step() {
    std::map<std::pair<const void*, int>, Candidate> found;
    for (size_t i = 0; i < uses_.size(); ++i) count(uses_[i].expr, i, found);
    const Candidate* best = nullptr;
    for (auto& [key, c] : found) {
      if (c.count < 2) continue;
      if (!best || c.expr.size() > best->expr.size() ||
          (c.expr.size() == best->expr.size() &&
           std::tie(c.firstPos, c.firstUse) < std::tie(best->firstPos, best->firstUse)))
        best = &c;
    }
    if (!best) return false;
    Temporary t;
    t.name = freshName();
    names_.insert(t.name);
    arith::ConstBounds b = arith::constantBounds(best->expr);
    arith::Expr lo = b.lo ? arith::cst(*b.lo) : arith::Expr();
    arith::Expr hi = b.hi && *b.hi < INT64_MAX ? arith::cst(*b.hi + 1) : arith::Expr();
    t.var = arith::var(t.name, lo, hi);
    t.def = best->expr;
    t.frame = best->frame;
    t.pos = best->firstPos.back();
    t.node = best->node;
    Site defSite;
    for (int l = 0; l <= best->level; ++l) {
      defSite.frames.push_back(uses_[best->firstUse].site.frames[static_cast<size_t>(l)]);
      defSite.pos.push_back(best->firstPos[static_cast<size_t>(l)]);
    }
    // Replace it where it is evaluated in the same frame (the level is that of its variables).
    std::unordered_map<arith::Expr, arith::Expr> repl{{t.def, t.var}};
    for (Use& u : uses_) {
      if (u.site.frames.size() <= static_cast<size_t>(best->level) ||
          u.site.frames[static_cast<size_t>(best->level)] != t.frame)
        continue;
      u.expr = arith::replaceSubexpressions(u.expr, repl);
    }
    temps_.push_back(t);
    uses_.push_back(Use{nullptr, temps_.size() - 1, t.def, defSite});
    return true;
  }

  // The declarations, each before the statement that first uses it (and the comments just
  // before that statement); at one place, a temporary after those its definition mentions.
  // Then the temporaries are numbered in the order they print.
  void insertDeclarations() {
    std::map<std::pair<c::Block*, size_t>, std::vector<size_t>> at;
    for (size_t i = 0; i < temps_.size(); ++i) at[{temps_[i].frame->block, temps_[i].pos}].push_back(i);
    std::vector<arith::Expr> defs(temps_.size());
    for (const Use& u : uses_)
      if (!u.access) defs[u.temp] = u.expr;
    std::map<const c::Stmt*, size_t> declOf;
    // from the last place of each block backwards, so that positions stay valid
    for (auto it = at.rbegin(); it != at.rend(); ++it) {
      auto [block, pos] = it->first;
      std::vector<size_t> order, pending = it->second;
      while (!pending.empty()) {
        size_t before = pending.size();
        for (auto p = pending.begin(); p != pending.end();) {
          bool ready = true;
          for (arith::Expr v : arith::variables(defs[*p]))
            for (size_t q : pending)
              if (q != *p && temps_[q].name == arith::varName(v)) ready = false;
          if (ready) {
            order.push_back(*p);
            p = pending.erase(p);
          } else {
            ++p;
          }
        }
        LIFT_ASSERT(pending.size() < before, "temporaries that mention each other");
      }
      while (pos > 0 && (*block)[pos - 1]->kind == c::Stmt::Kind::Comment) --pos;
      std::vector<c::StmtP> decls;
      for (size_t i : order) {
        auto s = std::make_unique<c::Stmt>();
        s->kind = c::Stmt::Kind::Decl;
        s->node = temps_[i].node;
        s->text = "const int";
        declOf[s.get()] = i;
        decls.push_back(std::move(s));
      }
      block->insert(block->begin() + static_cast<std::ptrdiff_t>(pos), std::make_move_iterator(decls.begin()),
                    std::make_move_iterator(decls.end()));
    }
    std::vector<size_t> printOrder;
    collect(m_.body, declOf, printOrder);
    std::unordered_map<arith::Expr, arith::Expr> rename;
    std::set<std::string> own;
    for (const Temporary& t : temps_) own.insert(t.name);
    int next = 1;
    for (size_t i : printOrder) {
      Temporary& t = temps_[i];
      arith::Expr v = t.var;
      std::string name;
      do name = fmt::format("ix{}", next++);
      while (!available(name, own));
      if (name != t.name) {
        rename[v] = arith::var(name, arith::varLo(v), arith::varHi(v));
        t.name = name;
      }
    }
    for (Use& u : uses_) u.expr = arith::replaceSubexpressions(u.expr, rename);
    for (auto& d : defs) d = arith::replaceSubexpressions(d, rename);
    for (auto& [stmt, i] : declOf) {
      auto* s = const_cast<c::Stmt*>(stmt);
      s->name = temps_[i].name;
      s->rhs = c::text(arith::toOpenCL(defs[i]));
    }
  }

  static void collect(const c::Block& b, const std::map<const c::Stmt*, size_t>& declOf,
                      std::vector<size_t>& out) {
    for (auto& s : b) {
      auto it = declOf.find(s.get());
      if (it != declOf.end()) out.push_back(it->second);
      collect(s->body, declOf, out);
    }
  }
};

}  // namespace

int eliminateCommonIndexSubexpressions(KernelModel& model) { return Eliminator(model).run(); }

}  // namespace lift::codegen
