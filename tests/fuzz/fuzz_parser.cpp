// libFuzzer target for the front end: any input is either rejected with a LiftError or parsed;
// a parsed program prints to text that parses back to the same program, and type checking it
// either succeeds or throws a LiftError. Anything else (a crash, a sanitizer report, another
// exception, a differing round trip) is a finding. See CMakeLists.txt for how to run it.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/ir/TypeCheck.h"
#include "core/lang/Parser.h"
#include "core/lang/Printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lift;
  if (size > 64 * 1024) return 0;  // keep runs fast; size limits are not what is tested
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ir::Program p = lang::parseProgram(text, "fuzz.lift");
    std::string printed = lang::printProgram(p);
    ir::Program q = lang::parseProgram(printed, "printed.lift");
    if (!ir::alphaEqual(ir::Fun(p.main), ir::Fun(q.main)) || lang::printProgram(q) != printed) std::abort();
    ir::typeCheck(p);
  } catch (const LiftError&) {
    // rejected with a diagnostic: fine
  }
  return 0;
}
