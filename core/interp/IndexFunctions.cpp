// Gather/scatter index functions, symbolic and numeric (see IndexFunctions.h).
#include "core/interp/IndexFunctions.h"

namespace lift::interp {

arith::Expr indexFunction(const ir::IndexFun& f, arith::Expr i, arith::Expr n) {
  switch (f.kind) {
    case ir::IndexFun::Kind::Identity:
      return i;
    case ir::IndexFun::Kind::Reverse:
      return n - 1 - i;
    case ir::IndexFun::Kind::ReorderStride: {
      arith::Expr chunk = n / f.a;
      return i / chunk + f.a * (i % chunk);
    }
    case ir::IndexFun::Kind::Transpose:
      return (i % f.a) * f.b + i / f.a;
    case ir::IndexFun::Kind::Shift:
      return (i + f.a) % n;
  }
  return i;
}

int64_t indexFunction(const ir::IndexFun& f, int64_t i, int64_t n, const arith::Env& sizes) {
  switch (f.kind) {
    case ir::IndexFun::Kind::Identity:
      return i;
    case ir::IndexFun::Kind::Reverse:
      return n - 1 - i;
    case ir::IndexFun::Kind::ReorderStride: {
      int64_t s = arith::evaluate(f.a, sizes);
      int64_t chunk = s == 0 ? 0 : n / s;
      if (chunk == 0) return -1;  // reported as out of bounds by the caller
      return i / chunk + s * (i % chunk);
    }
    case ir::IndexFun::Kind::Transpose: {
      int64_t rows = arith::evaluate(f.a, sizes), cols = arith::evaluate(f.b, sizes);
      if (rows <= 0) return -1;
      return (i % rows) * cols + i / rows;
    }
    case ir::IndexFun::Kind::Shift: {
      int64_t k = arith::evaluate(f.a, sizes);
      if (k < 0 || n <= 0) return -1;
      return static_cast<int64_t>((static_cast<uint64_t>(i) + static_cast<uint64_t>(k)) %
                                  static_cast<uint64_t>(n));
    }
  }
  return i;
}

}  // namespace lift::interp
