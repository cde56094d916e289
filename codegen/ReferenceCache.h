// Prepared references (Evaluation.h) kept on disk between searches, so that a search of the same
// program at the same sizes and input seed (a tuning run's several strategies and seeds) does
// not generate the inputs and compute the expected outputs again: for a 2^14 x 2^14 GEMV that is
// a 1 GiB random matrix and OpenBLAS on it, seconds before the first kernel. A reference is kept
// under the hash of its key: the program's printed text, the sizes, the seed and the reference
// choice (and the interpreter's budget, which decides what `auto` chooses). Only references whose
// inputs and expected result are flat arrays of float, double or int are kept; a file holds the
// key itself (a load checks it), the reference's description and the values' scalars in their
// own type. The directory holds at most `maxBytes`: after a store, the least recently used files
// go first (a load marks its file used).
//
//   codegen::ReferenceCache cache(dir);
//   auto ref = cache.load(program, request);         // nullopt: not kept (or damaged)
//   if (!ref) { ref = prepareReference(program, request); cache.store(program, request, *ref); }
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "codegen/Evaluation.h"

namespace lift::codegen {

class ReferenceCache {
 public:
  explicit ReferenceCache(std::filesystem::path dir, uint64_t maxBytes = uint64_t{8} << 30);

  // The reference kept for this program and request; nullopt when none is (or its file is
  // damaged or has another key: it is removed). Its work is counted again (interp::countWork).
  std::optional<PreparedReference> load(const ir::Program& p, const EvaluationRequest& request) const;
  // Keeps `ref` (prepared for p and request); false when it cannot be kept (not flat arrays, a
  // reference larger than maxBytes, or the directory is not writable). Never throws.
  bool store(const ir::Program& p, const EvaluationRequest& request, const PreparedReference& ref) const;

  // The key's text and the file it is kept in.
  static std::string keyOf(const ir::Program& p, const EvaluationRequest& request);
  std::filesystem::path fileOf(const ir::Program& p, const EvaluationRequest& request) const;
  const std::filesystem::path& dir() const { return dir_; }
  // The default directory: next to the workers' build cache ($XDG_CACHE_HOME or ~/.cache,
  // lift-studio/references); empty when neither is set.
  static std::filesystem::path defaultDir();

 private:
  std::filesystem::path dir_;
  uint64_t maxBytes_;
};

}  // namespace lift::codegen
