// The tiled matmul programs the compiler benchmarks time (issue 14's "kernel generation for the
// tiled matmul under 10 ms, rule enumeration at any node under 5 ms"): the shipped derivation
// resources/derivations/matmul_tiled_blocked.derivation, and the explorer's best of the GPU
// searches (bench/gpu/derived/vectorized-local.derivation.in at 64:64:16:4:4:4, replayed from
// matmul.lift at n³ as the explorer derives it). Both replayed once, outside the timed loops.
#pragma once

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/lang/Parser.h"
#include "rewrite/Derivation.h"

namespace lift::bench {

inline std::string readSource(const std::string& relative) {
  std::ifstream in(std::string(LIFT_SOURCE_DIR "/") + relative);
  if (!in) throw std::runtime_error("cannot read " + std::string(LIFT_SOURCE_DIR "/") + relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline rewrite::TypedProgram shippedTiledMatmul() {
  return rewrite::replay(rewrite::Derivation::load(LIFT_SOURCE_DIR
                                                   "/resources/derivations/matmul_tiled_blocked.derivation"))
      .result;
}

// matmul.lift with M = N = K = n in its types, as bench/gpu/sgemm-hand-variants.sh writes it.
inline rewrite::TypedProgram explorersBestMatmul(int n) {
  std::string program = readSource("resources/examples/matmul.lift");
  const std::string size = std::to_string(n);
  program = std::regex_replace(program, std::regex("\\nsize M[^\\n]*"), "\n");
  program = std::regex_replace(program, std::regex("\\[\\[float\\]K\\]M|\\[\\[float\\]N\\]K"),
                               "[[float]" + size + "]" + size);
  rewrite::TypedProgram start = rewrite::TypedProgram::check(lang::parseProgram(program, "matmul.lift"));
  std::string steps = readSource("bench/gpu/derived/vectorized-local.derivation.in");
  for (auto [from, to] : {std::pair{"@PROGRAM@", "matmul.lift"},
                          {"@TX@", "64"},
                          {"@TY@", "64"},
                          {"@K@", "16"},
                          {"@X@", "4"},
                          {"@Y@", "4"},
                          {"@W@", "4"}})
    steps = std::regex_replace(steps, std::regex(from), to);
  return rewrite::replay(rewrite::Derivation::parse(steps), start).result;
}

}  // namespace lift::bench
