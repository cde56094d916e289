// Opening the devices of a SkelCL program and guarding their OpenCL calls.
#include "skelcl/DeviceSet.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <thread>

#include "skelcl/DeviceError.h"

namespace lift::skelcl {

std::shared_ptr<DeviceSet> DeviceSet::open(const std::vector<std::string>& specs,
                                           std::shared_ptr<runtime::BuildCache> cache) {
  if (specs.empty()) throw LiftError("a device set needs at least one OpenCL device");
  std::shared_ptr<DeviceSet> set(new DeviceSet);
  set->cache_ = cache ? std::move(cache) : std::make_shared<runtime::BuildCache>();
  for (const auto& spec : specs) {
    runtime::Device device = runtime::Device::find(spec);
    try {
      set->contexts_.push_back(std::make_unique<runtime::DeviceContext>(device));
    } catch (const cl::Error& e) {
      throw DeviceError(set->size(), device.info().name, "creating its context", e.err());
    }
  }
  uint64_t smallest = std::numeric_limits<uint64_t>::max();
  for (const auto& c : set->contexts_) smallest = std::min(smallest, c->device().info().globalMemBytes);
  set->bufferPool_ = DeviceBufferPool::create(static_cast<size_t>(smallest / 4));
  return set;
}

void DeviceSet::checkIndex(int index, const std::string& what) const {
  if (index < 0 || index >= size())
    throw LiftError(fmt::format("{}: there is no device {}; the device set has {} device{} (0..{})", what,
                                index, size(), size() == 1 ? "" : "s", size() - 1));
}

runtime::DeviceContext& DeviceSet::context(int index) {
  checkIndex(index, "device set");
  return *contexts_[static_cast<size_t>(index)];
}

std::string DeviceSet::name(int index) const {
  checkIndex(index, "device set");
  return contexts_[static_cast<size_t>(index)]->device().info().name;
}

void DeviceSet::guarded(int index, const std::string& operation, const std::function<void()>& op) {
  try {
    op();
  } catch (const cl::Error& e) {
    throw DeviceError(index, name(index), operation, e.err());
  }
}

void DeviceSet::concurrently(const std::vector<std::function<void()>>& ops) {
  if (ops.size() == 1) return ops.front()();
  std::vector<std::exception_ptr> failures(ops.size());
  {
    std::vector<std::jthread> threads;
    threads.reserve(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
      threads.emplace_back([&, i] {
        try {
          ops[i]();
        } catch (...) {
          failures[i] = std::current_exception();
        }
      });
  }
  for (const std::exception_ptr& f : failures)
    if (f) std::rethrow_exception(f);
}

}  // namespace lift::skelcl
