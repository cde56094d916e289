// parallelFor(n, body): body(from, to) over [0, n) cut into one contiguous range per hardware
// thread, run at once (this thread takes the first range) and joined before it returns. For the
// passes over big host arrays (random inputs, conversions of a 1 GiB matrix), where one core
// is the bottleneck. Below `serialBelow` elements, or when no thread can be started, the body
// runs here. The ranges depend only on n and the number of hardware threads; a body whose
// results depend only on the index gives the same results for any number of them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

namespace lift::support {

template <class Body>
void parallelFor(size_t n, Body&& body, size_t serialBelow = size_t(1) << 20) {
  const size_t threads = n < serialBelow ? 1 : std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 64);
  if (threads == 1) {
    body(size_t(0), n);
    return;
  }
  const size_t chunk = (n + threads - 1) / threads;
  std::vector<std::jthread> workers;
  for (size_t from = chunk; from < n; from += chunk) {
    const size_t to = std::min(n, from + chunk);
    try {
      workers.emplace_back([&body, from, to] { body(from, to); });
    } catch (const std::system_error&) {
      body(from, to);  // no thread to be had: this one does it
    }
  }
  body(size_t(0), std::min(n, chunk));
}

}  // namespace lift::support
