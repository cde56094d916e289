// The split of a program into kernels (KernelSplit.h).
#include "codegen/KernelSplit.h"

#include <algorithm>

#include "codegen/LoweringCheck.h"
#include "codegen/ProgramIndex.h"
#include "core/ir/TypeCheck.h"

namespace lift::codegen {

namespace {

// One call of the chain of compositions from the body inwards, with the argument that carries
// the data on (-1: none does, the chain ends here).
struct SpineStep {
  ir::Expr expr;
  const ir::CallNode* call = nullptr;
  int dataArg = -1;
};

int dataArgument(const ir::CallNode& c) {
  if (c.args().size() == 1) return 0;
  const ir::PatternNode* p = unwrapAddressSpace(c.fun());
  if (p && (p->pattern() == ir::PatternKind::ReduceSeq || p->pattern() == ir::PatternKind::ScanSeq) &&
      c.args().size() == 2)
    return 1;
  return -1;
}

std::vector<SpineStep> spineOf(const ir::Expr& body) {
  std::vector<SpineStep> spine;
  ir::Expr cur = body;
  while (auto* c = ir::asCall(cur)) {
    int arg = dataArgument(*c);
    spine.push_back({cur, c, arg});
    if (arg < 0) break;
    cur = c->args()[static_cast<size_t>(arg)];
  }
  return spine;
}

bool isParallelMap(const ir::PatternNode* p) {
  return p && (p->pattern() == ir::PatternKind::MapGlb || ir::isWorkGroupMap(p->pattern()));
}

// The position on the spine of the call whose data argument must be computed by an earlier
// kernel: the first consumer, going outwards from the innermost mapGlb/mapWrg, that reads its
// result through data-layout patterns and is not the same parallel map applied element-wise
// (to elements that one work-item or work-group made whole: spreadsElements, LoweringCheck.h).
// -1 when there is none.
int splitPoint(const std::vector<SpineStep>& spine) {
  int producer = -1;
  for (int i = static_cast<int>(spine.size()) - 1; i >= 0 && producer < 0; --i)
    if (isParallelMap(unwrapAddressSpace(spine[static_cast<size_t>(i)].call->fun()))) producer = i;
  if (producer < 0) return -1;
  const ir::PatternNode* made = unwrapAddressSpace(spine[static_cast<size_t>(producer)].call->fun());
  bool direct = true;  // no data-layout pattern between the producer and the consumer
  for (int j = producer - 1; j >= 0; --j) {
    const ir::Fun& f = spine[static_cast<size_t>(j)].call->fun();
    const ir::PatternNode* p = unwrapAddressSpace(f);
    if (p && (isViewFunction(f) || p->pattern() == ir::PatternKind::Id)) {
      direct = false;
      continue;
    }
    if (p && direct && p->pattern() == made->pattern() && p->index() == made->index() &&
        !spreadsElements(*made)) {
      made = p;  // element-wise: the same work-items go on with its result
      continue;
    }
    return j;
  }
  return -1;
}

// Whether the value of `e` is made by a parallel map (under data-layout patterns) whose elements
// a nested parallel map spreads over other work-items or work-groups.
bool madeAcross(const ir::Expr& e) {
  for (const SpineStep& s : spineOf(e)) {
    const ir::PatternNode* p = unwrapAddressSpace(s.call->fun());
    if (isParallelMap(p)) return spreadsElements(*p);
    if (!(p && (isViewFunction(s.call->fun()) || p->pattern() == ir::PatternKind::Id))) return false;
  }
  return false;
}

bool isWholeArrayFold(const ir::PatternNode* p) {
  return p && (p->pattern() == ir::PatternKind::ReduceSeq || p->pattern() == ir::PatternKind::ScanSeq);
}

// Whether `e` is a sequential reduction or scan over a whole array, seen through data-layout
// patterns of one argument (`split(N) o scanSeq(f, z) $ x`: the scan as one chunk).
bool isWholeArrayFoldUnderViews(const ir::Expr& e) {
  auto* c = ir::asCall(e);
  while (c && c->args().size() == 1 && isViewFunction(c->fun())) c = ir::asCall(c->args()[0]);
  return c && isWholeArrayFold(unwrapAddressSpace(c->fun()));
}

// Where the spine ends in a call of several arrays (a zip) that a parallel map consumes: the
// first of them made by a sequential reduction or scan over a whole array, which a kernel of its
// own computes (one work-item: the scanned totals of a chunked scan), so that the parallel map's
// work-items can read it. -1 when none. (A zipped array another parallel map makes is not cut:
// the code generator refuses it, tests/data/codegen/bad_sync.lift.)
int zipArgumentToCut(const std::vector<SpineStep>& spine) {
  if (spine.size() < 2 || spine.back().dataArg >= 0 || spine.back().call->args().size() < 2) return -1;
  if (!isParallelMap(unwrapAddressSpace(spine[spine.size() - 2].call->fun()))) return -1;
  const std::vector<ir::Expr>& args = spine.back().call->args();
  for (size_t k = 0; k < args.size(); ++k)
    if (isWholeArrayFoldUnderViews(args[k])) return static_cast<int>(k);
  return -1;
}

// The parameters of `all` that `e` uses, in the order of `all`.
std::vector<ir::Param> usedParams(const std::vector<ir::Param>& all, const ir::Expr& e) {
  std::vector<ir::Param> free = ir::freeParams(e), out;
  for (auto& p : all)
    if (std::find(free.begin(), free.end(), p) != free.end()) out.push_back(p);
  return out;
}

std::vector<StageValue> inputsOf(const std::vector<ir::Param>& used, const std::vector<ir::Param>& all) {
  std::vector<StageValue> out;
  for (auto& p : used)
    out.push_back({StageValue::Kind::ProgramInput,
                   static_cast<int>(std::find(all.begin(), all.end(), p) - all.begin())});
  return out;
}

// Appends the parts of `more` to `out`: their program inputs are `sources` (in `more`'s
// numbering of its program's parameters), their temporaries renumbered after `out`'s, and the
// result of `more`'s last part becomes `result`.
void append(ProgramSplit& out, ProgramSplit more, const std::vector<StageValue>& sources, StageValue result) {
  int offset = static_cast<int>(out.temporaries.size());
  for (ProgramPart& part : more.parts) {
    for (StageValue& v : part.inputs)
      v = v.kind == StageValue::Kind::ProgramInput ? sources[static_cast<size_t>(v.index)]
                                                   : StageValue{v.kind, v.index + offset};
    if (part.result.kind == StageValue::Kind::Temporary)
      part.result.index += offset;
    else
      part.result = result;
    out.parts.push_back(std::move(part));
  }
  for (Type t : more.temporaries) out.temporaries.push_back(t);
  for (bool r : more.reducedTemporaries) out.reducedTemporaries.push_back(r);
}

ProgramSplit split(const ir::Program& p) {
  ProgramSplit out;
  std::vector<SpineStep> spine = spineOf(p.main->body());
  int at = splitPoint(spine);
  int cutArg = at < 0 ? -1 : spine[static_cast<size_t>(at)].dataArg;
  if (at < 0 && (cutArg = zipArgumentToCut(spine)) >= 0) at = static_cast<int>(spine.size()) - 1;
  const std::vector<ir::Param>& params = p.main->params();
  if (at < 0) {
    ProgramPart whole{p, {}, {StageValue::Kind::ProgramResult, 0}};
    for (size_t i = 0; i < params.size(); ++i)
      whole.inputs.push_back({StageValue::Kind::ProgramInput, static_cast<int>(i)});
    out.parts.push_back(std::move(whole));
    return out;
  }
  const SpineStep& consumer = spine[static_cast<size_t>(at)];
  ir::Expr cut = consumer.call->args()[static_cast<size_t>(cutArg)];
  Type cutType = ir::typeCheck(p).typeOf(cut);

  // Earlier kernels compute the cut value into a temporary (it may need several itself).
  ir::Program first = p;
  std::vector<ir::Param> firstParams = usedParams(params, cut);
  first.main = ir::LambdaNode::make(firstParams, cut);
  ProgramSplit firstParts = split(first);
  int cutTemporary = static_cast<int>(out.temporaries.size() + firstParts.temporaries.size());
  append(out, std::move(firstParts), inputsOf(firstParams, params),
         {StageValue::Kind::Temporary, cutTemporary});
  out.temporaries.push_back(cutType);
  // Finished on the device: a reduction or scan reads the parallel map's results whole, or
  // work-groups reduce them (a mapWrg whose function reduces: the work-group tree of
  // reduce-to-tree over the whole of them), or a parallel map reduces each element of results
  // whose elements a nested parallel map spread (a split GEMV: each row's partial sums, made by
  // the work-items or work-groups of another dimension, summed per row), or the cut value is
  // itself a whole-array reduction or scan (a chunked scan's offsets).
  const ir::PatternNode* reader = unwrapAddressSpace(consumer.call->fun());
  bool readerReduces =
      reader && isParallelMap(reader) && ir::containsPattern(reader->f(), {ir::PatternKind::ReduceSeq});
  bool groupsReduce = readerReduces && (reader->pattern() == ir::PatternKind::MapWrg || madeAcross(cut));
  out.reducedTemporaries.push_back((reader && consumer.dataArg == cutArg &&
                                    (reader->pattern() == ir::PatternKind::ReduceSeq ||
                                     reader->pattern() == ir::PatternKind::ScanSeq || groupsReduce)) ||
                                   (consumer.dataArg != cutArg && isWholeArrayFoldUnderViews(cut)));

  // The rest reads it from a parameter instead: the spine rebuilt from the consumer outwards.
  ir::Param tmp = ir::ParamNode::make("tmp", cutType);
  ir::Expr body = tmp;
  for (int j = at; j >= 0; --j) {
    const SpineStep& s = spine[static_cast<size_t>(j)];
    std::vector<ir::Expr> args = s.call->args();
    args[static_cast<size_t>(j == at ? cutArg : s.dataArg)] = body;
    body = ir::CallNode::make(s.call->fun(), std::move(args));
  }
  std::vector<ir::Param> restParams = usedParams(params, body);
  std::vector<StageValue> restSources = inputsOf(restParams, params);
  restParams.push_back(tmp);
  restSources.push_back({StageValue::Kind::Temporary, cutTemporary});
  ir::Program rest = p;
  rest.main = ir::LambdaNode::make(restParams, body);

  // The rest may need splitting again; its inputs and temporaries are renumbered into ours.
  append(out, split(rest), restSources, {StageValue::Kind::ProgramResult, 0});
  return out;
}

}  // namespace

ProgramSplit splitIntoKernels(const ir::Program& p) {
  ProgramSplit s = split(p);
  if (s.parts.size() > 1)
    for (size_t i = 0; i < s.parts.size(); ++i)
      s.parts[i].program.name =
          (p.name.empty() ? std::string("KERNEL") : p.name) + "_" + std::to_string(i + 1);
  return s;
}

}  // namespace lift::codegen
