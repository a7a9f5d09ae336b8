#pragma once
// Splits a stretch of host work into consecutive phases: each add_lap charges the time since the previous one
// (or since construction) to the phase it is given.

#include <chrono>

namespace bankgate::detail {

class LapTimer {
 public:
  void add_lap(double& phase_ms) {
    const auto now = std::chrono::steady_clock::now();
    phase_ms += std::chrono::duration<double, std::milli>(now - mark_).count();
    mark_ = now;
  }

 private:
  std::chrono::steady_clock::time_point mark_ = std::chrono::steady_clock::now();
};

}  // namespace bankgate::detail
