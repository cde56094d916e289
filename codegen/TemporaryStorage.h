// Where the values that need storage of their own are kept: temporaries in private, local or
// global memory, replicated over the enclosing parallel iterations, sized for the largest
// value of the loop variables in their lengths; private values a work-group's mapLcl makes are
// split over its work-items (Memory::lclDims) when every work-item holds one slice. The
// limits of private and local memory are checked here.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/EmitContext.h"
#include "codegen/KernelBuilder.h"
#include "codegen/MemoryAllocator.h"

namespace lift::codegen {

class TemporaryStorage {
 public:
  TemporaryStorage(const ir::Program& program, const EmitContext& ctx, KernelModel& model)
      : prog_(program), ctx_(ctx), model_(model), mem_(model.memories) {}

  // A temporary of type t made at `site` (`isExplicit`: the program asked for `space`). With
  // lclDims, a private value split over the work-items by those mapLcl dimensions; one that
  // cannot be split is an error, or, with `wholeIfUnsplittable`, stored whole, and the reason
  // is kept for unsplitReason().
  View allocate(Type t, AddressSpace space, ir::NodeId site, bool isExplicit, const char* prefix = nullptr,
                const std::vector<int>& lclDims = {}, bool wholeIfUnsplittable = false);

  // The temporary a computed value is read from: the value of applying f (at `call`, if any;
  // `firstArg`: the expression of its first argument) of type t, made at `site`. In the space
  // the program gives (toGlobal, toLocal, toPrivate), else by AddressSpaceInference; a
  // private value a work-group's mapLcl makes is split over the work-items when it can be.
  View forResult(const ir::Fun& f, const ir::Expr* call, const ir::Expr* firstArg, Type t, ir::NodeId site);
  // The space the program gives the result of applying f, if any.
  std::optional<AddressSpace> explicitSpaceOf(const ir::Fun& f) { return spaces_.explicitSpaceOf(f); }

  // Why a private value in dest was stored whole rather than split over the work-items (empty:
  // it was not a candidate).
  std::string unsplitReason(const View& dest) const;

  // Loop variables in lengths (iterate's size) and their largest values.
  void bound(arith::Expr var, arith::Expr largest) { bounds_[var] = largest; }
  void unbound(arith::Expr var) { bounds_.erase(var); }
  const MemoryAllocator::Bounds& bounds() const { return bounds_; }
  // t with every bounded loop variable at its largest value.
  Type largest(Type t) const;

  // The mapLcl dimensions selecting the outer dimensions of the value of f applied at
  // work-group level (-1 where none does); `firstArg`: the expression of its first argument.
  static std::vector<int> workItemDims(const ir::Fun& f, const ir::Expr* firstArg);
  // The lclDims of a per-work-item view's memory for the dimensions of v's type.
  static std::vector<int> workItemDimsOfView(const View& v);
  // Whether every memory of v is per-work-item private (Memory::lclDims).
  static bool perWorkItem(const View& v);
  static bool allPrivate(const View& v);
  // Whether a loop reads or writes a private array or the lanes of a private vector, which
  // stay in registers only with constant indices.
  static bool touchesPrivateArray(const View& a, const View& b);

 private:
  // Into how many slices lclDims split a value of type t over the work-items, or why it cannot.
  struct WorkItemSplit {
    int64_t slices = 1;
    std::string whyNot;
  };
  WorkItemSplit splitOverWorkItems(Type t, const std::vector<int>& lclDims) const;
  [[noreturn]] void fail(ir::NodeId at, const std::string& msg) const;

  const ir::Program& prog_;
  const EmitContext& ctx_;
  KernelModel& model_;
  MemoryAllocator& mem_;
  MemoryAllocator::Bounds bounds_;
  AddressSpaceInference spaces_;
  std::unordered_map<const Memory*, std::string> unsplit_;  // private values left whole, and why
};

}  // namespace lift::codegen
