// An opt-in timeline for finding where time goes between the search, the evaluation and the
// worker: with LIFT_TRACE set in the environment, `trace("what")` prints
// `[lift-trace <pid> <wall-clock ms, modulo 10^6>] what` to stderr (a worker's lines
// are passed on by its parent). Without it, a call is one load of a cached flag.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace lift::support {

inline bool tracing() {
  static const bool on = std::getenv("LIFT_TRACE") != nullptr;
  return on;
}

inline void trace(const std::string& what) {
  if (!tracing()) return;
  using Clock = std::chrono::system_clock;  // comparable between the parent and its worker
  const double ms = std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
  std::fprintf(stderr, "[lift-trace %d %.1f] %s\n", static_cast<int>(::getpid()), std::fmod(ms, 1e6),
               what.c_str());
}

}  // namespace lift::support
