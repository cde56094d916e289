// The code generator's walk over the program (KernelBuilder.h): `produce(e, dest)` and
// `read(e)` dispatch on expressions and functions, and one emitter per pattern family writes
// the pattern's code — maps (EmitMap.cpp), reductions (EmitReduce.cpp), scans (EmitScan.cpp), iterate
// (EmitIterate.cpp), vectors and data layout (EmitLayout.cpp), values and user functions
// (KernelGenerator.cpp). The policies are units of their own: what parameters stand for
// (Bindings), where temporaries live (TemporaryStorage), which barriers may be needed
// (SyncTracker) and where statements go (EmitContext). Internal to codegen/.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/AddressSpaceInference.h"
#include "codegen/Bindings.h"
#include "codegen/EmitContext.h"
#include "codegen/KernelBuilder.h"
#include "codegen/SyncTracker.h"
#include "codegen/TemporaryStorage.h"

namespace lift::codegen {

class KernelGenerator {
 public:
  KernelGenerator(const ir::Program& p, const CompileOptions& o, const NDRange& nd, const BarrierPlan& b,
                  KernelModel& m);

  // Generates the kernel's body into the model.
  void run();

 private:
  [[noreturn]] void fail(ir::NodeId at, const std::string& msg) const;

  // ----- the walk (KernelGenerator.cpp) -----
  View read(const ir::Expr& e);
  void produce(const ir::Expr& e, const View& dest);
  View readApply(const ir::Fun& f, std::vector<Arg>& args, ir::NodeId site, const ir::Expr* call);
  void produceApply(const ir::Fun& f, std::vector<Arg>& args, const View& dest, ir::NodeId site);
  View readProducer(const ir::Fun& f, std::vector<Arg>& args, ir::NodeId site, const ir::Expr* call);
  // The emitters that need a pattern as a function value (to type its application, to push a
  // destination through it) take the program's own node, `pattern`, a PatternNode.
  View readPattern(const ir::Fun& pattern, std::vector<Arg>& args, ir::NodeId site, const ir::Expr* call);
  void producePattern(const ir::Fun& pattern, std::vector<Arg>& args, const View& dest, ir::NodeId site);
  View readArg(Arg& a);
  void produceArg(Arg& a, const View& dest, ir::NodeId site);
  Bindings::Saved bind(const ir::LambdaNode& l, std::vector<Arg>& args, ir::NodeId site);

  // ----- values and user functions (KernelGenerator.cpp) -----
  void assign(const View& dest, c::ExprP value, Type t, ir::NodeId node);
  void copyValue(const View& src, const View& dest, ir::NodeId node);
  c::ExprP userFunValue(const ir::UserFunNode& u, std::vector<Arg>& args, ir::NodeId site);
  c::ExprP inlineValue(const ir::Expr& e, Type t);
  c::ExprP fmaValue(std::vector<Arg>& args, ir::NodeId site);
  std::string userFunName(const ir::UserFunDef& d);
  void useTuple(Type t);

  // ----- maps (EmitMap.cpp) -----
  void map(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site);
  void checkPrivateResult(const ir::PatternNode& mapLcl, const View& dest, ir::NodeId site);
  void warpOrAtomicMap(const ir::PatternNode& p, const View& av, const View& dest, ir::NodeId site,
                       const std::function<void(arith::Expr)>& body);
  void copySplit(const View& src, const View& dest, const std::vector<int>& dims, size_t d, ir::NodeId node);

  // ----- reductions (EmitReduce.cpp) -----
  void reduce(const ir::PatternNode& p, Arg& init, Arg& arr, const View& dest, ir::NodeId site);
  // The accumulator loop of reductions and scans: for i in [0, n) (in `form`), `first(i)` (if
  // any), then acc = f(acc, a[i]) — in place when no read of the old accumulator can see a value
  // the iteration already wrote (InPlaceUpdate.h), else into a second accumulator `makeNext()`
  // copied back each iteration.
  void accumulate(const ir::PatternNode& p, const View& acc, const View& av, arith::Expr n, LoopForm form,
                  ir::NodeId site, const std::function<void(arith::Expr)>& first,
                  const std::function<View()>& makeNext);

  // ----- scans (EmitScan.cpp) -----
  void scan(const ir::PatternNode& p, Arg& init, Arg& arr, const View& dest, ir::NodeId site);

  // ----- issue 16: mapSeqSlide (EmitMapSeqSlide.cpp) -----
  // The windows of slide(size, step) over arr through one private window shifted each step,
  // f of each produced into dest.
  void mapSeqSlide(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site);

  // ----- issue 16: the array generators (EmitGenerator.cpp) -----
  // The view of a generated array: its elements computed where they are read.
  View generatedArray(const ir::PatternNode& p, std::vector<Arg>& args, ir::NodeId site);

  // ----- iterate (EmitIterate.cpp) -----
  View iterate(const ir::Fun& pattern, Arg& x, const View* dest, ir::NodeId site);

  // ----- element access by a computed index (EmitAccess.cpp) -----
  // at(xs, i) read, checkedAt(xs, i, d) and filter(xs, ids) produced: each index is read once
  // into a variable.
  View access(std::vector<Arg>& args, ir::NodeId site);
  void checkedAccess(std::vector<Arg>& args, const View& dest, ir::NodeId site);
  void filter(std::vector<Arg>& args, const View& dest, ir::NodeId site);
  // A fresh int variable declared here with the value `index`, of range lo <= v < hi.
  arith::Expr indexVariable(const View& index, arith::Expr lo, arith::Expr hi, ir::NodeId site);
  // to = src where 0 <= i < n, else alt (element by element, each read guarded).
  void guardedCopy(arith::Expr i, arith::Expr n, const View& src, const View& alt, const View& to,
                   ir::NodeId site);

  // ----- issue 17: loops that depend on the data (EmitDataDependent.cpp, lift17p) -----
  // bSearch and lSearch produced from (default, xs); filterSeq and insertionSortSeq from xs.
  void search(const ir::PatternNode& p, Arg& dflt, Arg& arr, const View& dest, ir::NodeId site);
  void filterSeq(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site);
  void insertionSort(const ir::PatternNode& p, Arg& arr, const View& dest, ir::NodeId site);
  // reduceWhileSeq's test before each element: `if (!pred(acc, x)) break;`.
  void stopUnless(const ir::Fun& pred, const View& acc, const View& x, ir::NodeId site);
  // A fresh int variable declared here with `value`; f applied to args into a fresh int.
  std::string intVariable(const std::string& base, c::ExprP value, ir::NodeId site);
  std::string truthVariable(const std::string& base, const ir::Fun& f, std::vector<Arg>& args,
                            ir::NodeId site);
  // A loop `for (int var = init; cond; step)` whose body the caller fills; `if (cond) body`; a line.
  c::Stmt& openLoop(const std::string& var, const std::string& init, const std::string& cond,
                    const std::string& step, ir::NodeId site);
  void whenThen(const std::string& cond, ir::NodeId site, const std::function<void()>& body);
  void line(const std::string& text, ir::NodeId site);
  // ----- end of issue 17 (lift17p) -----

  // ----- vectors and data layout (EmitLayout.cpp) -----
  std::optional<View> readLayout(const ir::Fun& pattern, std::vector<Arg>& args, ir::NodeId site);
  std::optional<View> destOfArg(const ir::Fun& f, const View& dest, Type argType);
  std::optional<View> destThrough(const ir::Expr& e, const View& dest, const ir::ParamNode* p, Type pType);
  void mapVec(const ir::PatternNode& p, Arg& v, const View& dest, ir::NodeId site);
  void vectorize(const ir::PatternNode& p, std::vector<Arg>& args, const View& dest, ir::NodeId site);

  const ir::Program& prog_;
  const CompileOptions& opts_;
  const BarrierPlan& barriers_;
  KernelModel& model_;
  MemoryAllocator& mem_;
  EmitContext ctx_;
  Bindings env_;
  TemporaryStorage storage_;
  SyncTracker sync_;

  std::unordered_map<const ir::UserFunDef*, std::string> funNames_;
  int iterDepth_ = 0;
  int tags_ = 0;
  int mapVars_ = 0;
  int indexVars_ = 0;
};

}  // namespace lift::codegen
