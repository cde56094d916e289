// Barrier insertion and elimination (CGO 2017, section 5.4), safety first: every mapLcl is
// followed by a barrier unless one of these rules proves it unneeded.
//
//  R1  Element-wise consumer: the mapLcl's result flows, through zips only, into the array of
//      a mapLcl of the same dimension. Both loops give iteration i to the same work-item, and
//      element i of the result is only read by iteration i: no other work-item reads it.
//  R2  Independent zip branches: the mapLcl computes an argument of a zip (or tuple) and a
//      later argument is computed by a mapLcl whose barrier is kept; the branches do not read
//      each other's results, so that later barrier also orders this one's writes.
//  R3  End of the work-group: the result flows, through data-layout patterns only, to the
//      result of the mapWrg's function and on to the kernel's output, and every enclosing
//      mapWrg runs one iteration per work-group: no code of the work-group follows.
//  R4  Nested in another mapLcl: the result is the result of an enclosing mapLcl's function;
//      the enclosing mapLcl's barrier orders it (and a barrier inside a loop that not every
//      work-item enters would be invalid OpenCL, so this rule holds with elimination off).
//      Also through a mapSeq whose whole function is the mapLcl (mapLcl1(mapSeq(mapLcl0(f)))):
//      its iterations write disjoint parts of its result, so no barrier inside its loop.
//
// A mapLcl that writes only private memory needs no barrier. The fence is local, global or
// both after what the mapLcl wrote.
//
// Barriers are placed in two steps. The code generator (SyncTracker.h) emits every barrier
// that may be needed, each after a mapLcl recording that mapLcl (c::Stmt::pattern), except
// R4's, which would be invalid; it decides nothing else. Then passes over the C AST:
// eliminateBarriers removes the mapLcl barriers the rules prove unneeded (the optimisation
// CompileOptions::barrierElimination switches off), dropRepeatedBarriers removes a barrier
// that directly follows another, and checkBarrierPlacement rejects a barrier left inside a
// mapLcl loop that not every work-item enters.
#pragma once

#include <functional>
#include <unordered_map>

#include "codegen/CAst.h"
#include "codegen/ProgramIndex.h"

namespace lift::codegen {

class BarrierPlan {
 public:
  struct Facts {
    bool elementwiseConsumer = false;            // R1
    const ir::FunNode* laterSibling = nullptr;   // R2: the mapLcl computing a later argument
    std::vector<const ir::FunNode*> workGroups;  // R3: the mapWrg whose results it ends
    bool endsWorkGroup = false;                  // R3 holds if those run one iteration each
    bool nestedInLocal = false;                  // R4
  };

  // Whether the mapLcl pattern node needs a barrier after it. `singleIteration` says whether
  // a mapWrg pattern node was generated without a loop.
  bool needed(const ir::FunNode* mapLcl,
              const std::function<bool(const ir::FunNode*)>& singleIteration) const;
  const Facts* facts(const ir::FunNode* mapLcl) const;

  std::unordered_map<const ir::FunNode*, Facts> facts_;
};

BarrierPlan planBarriers(const ProgramIndex& index);

// Removes the barriers after mapLcls that the plan proves unneeded (R1-R3).
void eliminateBarriers(c::Block& body, const BarrierPlan& plan);
// Removes a barrier whose preceding statement is a barrier or a block that ends with one: the
// work-items are already synchronised there.
void dropRepeatedBarriers(c::Block& body);
// Throws LiftError, located at the mapLcl, for a barrier inside a mapLcl loop or guard that
// not every work-item runs exactly once (invalid OpenCL).
void checkBarrierPlacement(const c::Block& body, const ir::Program& program);

}  // namespace lift::codegen
