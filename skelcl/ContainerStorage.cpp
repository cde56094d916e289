// Lazy transfers and redistribution of a container's rows.
#include "skelcl/ContainerStorage.h"

#include <fmt/format.h>

#include <cstring>

#include "skelcl/Transfers.h"

namespace lift::skelcl {

ContainerStorage::ContainerStorage(std::shared_ptr<DeviceSet> devices, size_t elementBytes, size_t rows,
                                   size_t rowLength)
    : devices_(std::move(devices)), elementBytes_(elementBytes), rows_(rows), rowLength_(rowLength) {
  if (!devices_) throw LiftError("a container needs a device set");
  if (rowLength_ == 0) throw LiftError("a matrix needs at least one column");
}

void ContainerStorage::setDistribution(const Distribution& d) const {
  if (distribution_ == d) return;
  std::vector<Part> parts = partsOf(d, rows_, devices_->size());  // checks the devices first
  ensureOnHost();
  distribution_ = d;
  parts_ = std::move(parts);
  buffers_.clear();
  devicesValid_ = false;
}

void ContainerStorage::allocateBuffers() const {
  buffers_.clear();  // back to the pool first: a part of the same size may take one again
  buffers_.resize(parts_.size());
  for (size_t i = 0; i < parts_.size(); ++i) {
    const Part& p = parts_[i];
    devices_->guarded(p.device, fmt::format("allocating {} bytes", p.storedRows() * rowBytes()), [&] {
      buffers_[i] =
          devices_->bufferPool().acquire(devices_->context(p.device).context(), p.storedRows() * rowBytes());
    });
  }
}

void ContainerStorage::prepareOnDevices(const Distribution& d) const {
  setDistribution(d);
  if (devicesValid_) return;
  if (buffers_.size() != parts_.size()) allocateBuffers();
  const std::byte* host = currentHostBytes();
  std::vector<Transfer> uploads;
  for (size_t i = 0; i < parts_.size(); ++i) {
    const Part& p = parts_[i];
    const size_t bytes = p.storedRows() * rowBytes();
    uploads.push_back({bytes, [this, i, p, bytes, host] {
                         devices_->guarded(p.device, fmt::format("uploading {} bytes", bytes), [&] {
                           devices_->context(p.device).queue().enqueueWriteBuffer(
                               buffers_[i].buffer(), CL_TRUE, 0, bytes, host + p.storedBegin * rowBytes());
                         });
                       }});
  }
  runTransfers(uploads, TransferDirection::Upload, stats_);
  devicesValid_ = true;
}

void ContainerStorage::allocateOnDevices(const Distribution& d) {
  std::vector<Part> parts = partsOf(d, rows_, devices_->size());
  // A skeleton writing into this container again, in the same distribution, reuses its device
  // memory (its old contents are overwritten).
  const bool same = distribution_ == d && parts == parts_ && buffers_.size() == parts.size();
  parts_ = std::move(parts);
  distribution_ = d;
  if (!same) allocateBuffers();
  hostValid_ = false;
  devicesValid_ = false;
}

void ContainerStorage::ensureOnHost() const {
  if (hostValid_) return;
  // A new block's pages are touched first by the thread that downloads into them; those of a
  // block from the pool or of the container's earlier host copy are faulted in already.
  bool firstTouch = false;
  if (host_.empty()) {
    host_ = HostStorage::allocate(elementCount() * elementBytes_, devices_->hostMemory(), *devices_);
    firstTouch = !host_.reused();
  }
  std::byte* host = host_.data();
  std::vector<Transfer> downloads;
  for (size_t i = 0; i < parts_.size(); ++i) {
    const Part& p = parts_[i];
    // Every copy holds all rows; one download is enough.
    if (distribution_->kind() == Distribution::Kind::Copy && i > 0) break;
    const size_t bytes = p.rows() * rowBytes();
    downloads.push_back({bytes, [this, i, p, bytes, host, firstTouch] {
                           std::byte* into = host + p.begin * rowBytes();
                           if (firstTouch) HostStorage::touchPages(into, bytes);
                           devices_->guarded(p.device, fmt::format("downloading {} bytes", bytes), [&] {
                             devices_->context(p.device).queue().enqueueReadBuffer(
                                 buffers_[i].buffer(), CL_TRUE, (p.begin - p.storedBegin) * rowBytes(), bytes,
                                 into);
                           });
                         }});
  }
  runTransfers(downloads, TransferDirection::Download, stats_);
  hostValid_ = true;
}

std::byte* ContainerStorage::currentHostBytes() const {
  ensureOnHost();
  if (host_.empty() && elementCount() > 0) {
    host_ = HostStorage::allocate(elementCount() * elementBytes_, devices_->hostMemory(), *devices_);
    std::memset(host_.data(), 0, host_.size());
  }
  return host_.data();
}

std::byte* ContainerStorage::allocateHost() {
  host_ = HostStorage::allocate(elementCount() * elementBytes_, devices_->hostMemory(), *devices_);
  hostValid_ = true;
  devicesValid_ = false;
  return host_.data();
}

void ContainerStorage::markWrittenOnHost() {
  ensureOnHost();
  devicesValid_ = false;
}

}  // namespace lift::skelcl
