// The index matrix: its dimensions and distribution, checked.
#include "skelcl/IndexMatrix.h"

#include <fmt/format.h>

#include <limits>

#include "core/support/Diagnostic.h"

namespace lift::skelcl {

IndexMatrix::IndexMatrix(std::shared_ptr<DeviceSet> devices, size_t rows, size_t columns)
    : devices_(std::move(devices)), rows_(rows), columns_(columns) {
  constexpr size_t kMax = std::numeric_limits<int>::max();
  if (rows > kMax || columns > kMax)
    throw LiftError(fmt::format("IndexMatrix: {} x {} indices, more than an OpenCL int numbers ({})", rows,
                                columns, kMax));
}

void IndexMatrix::setDistribution(const Distribution& d) {
  if (d.kind() == Distribution::Kind::Overlap)
    throw LiftError(
        fmt::format("IndexMatrix: distributed as {}; an index matrix is single, copy or block "
                    "(the halos would be computed twice)",
                    d.describe()));
  if (d.kind() == Distribution::Kind::Single) devices_->checkIndex(d.device(), "IndexMatrix");
  distribution_ = d;
}

}  // namespace lift::skelcl
