// Type helpers of the user-function AST: slot layout of values and the C names of types.
#include "core/cfun/CFunAst.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/support/SourceExcerpt.h"

namespace lift::cfun {

uint32_t slotCount(Type t) {
  switch (t.kind()) {
    case Type::Kind::Scalar:
      return 1;
    case Type::Kind::Vector:
      return static_cast<uint32_t>(t.vectorWidth());
    case Type::Kind::Tuple: {
      uint32_t n = 0;
      for (Type e : t.tupleElems()) n += slotCount(e);
      return n;
    }
    case Type::Kind::Array:
      break;
  }
  LIFT_ASSERT(false, "arrays have no slot layout in user functions: " + t.toString());
}

uint32_t fieldOffset(Type tuple, size_t k) {
  uint32_t off = 0;
  auto elems = tuple.tupleElems();
  for (size_t i = 0; i < k && i < elems.size(); ++i) off += slotCount(elems[i]);
  return off;
}

void setType(Expr& e, Type t) {
  e.type = t;
  e.numSlots = slotCount(t);
  e.width = t.isScalar() ? 1 : t.isVector() ? static_cast<uint8_t>(t.vectorWidth()) : 0;
  e.scalar = t.isScalar() || t.isVector() ? t.scalarKind() : ScalarKind::Int;
}

std::string tupleStructName(Type tuple) {
  std::string name = fmt::format("Tuple{}", tuple.tupleElems().size());
  for (Type e : tuple.tupleElems()) name += "_" + cTypeName(e);
  return name;
}

std::string cTypeName(Type t) {
  if (t.isTuple()) return tupleStructName(t);
  return t.openclName();
}

Diagnostic bodyDiagnostic(const std::string& file, const std::string& text, Loc start, Loc loc,
                          std::string message) {
  Diagnostic d;
  d.loc = {file, loc.line, loc.col};
  d.message = std::move(message);
  int rel = loc.line - start.line + 1;  // line within the body text
  if (rel < 1 || loc.col < 1) return d;
  size_t begin = 0;
  for (int i = 1; i < rel; ++i) {
    begin = text.find('\n', begin);
    if (begin == std::string::npos) return d;
    ++begin;
  }
  size_t end = text.find('\n', begin);
  std::string src = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  // The first line of the body starts in the middle of the file's line: indent it to its column.
  if (rel == 1) src = std::string(static_cast<size_t>(std::max(0, start.col - 1)), ' ') + src;
  d.sourceLine = sourceExcerpt(std::move(src), loc.col);
  return d;
}

}  // namespace lift::cfun
