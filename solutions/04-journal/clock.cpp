#include "clock.hpp"

#include <algorithm>
#include <thread>

namespace hz {

Clock::time_point SystemClock::now() const { return std::chrono::steady_clock::now(); }

void SystemClock::sleep_for(std::chrono::milliseconds delay) {
  if (wake_ == nullptr) {
    std::this_thread::sleep_for(delay);
    return;
  }
  // Em fatias curtas, para acordar logo depois de um Ctrl-C.
  constexpr std::chrono::milliseconds kSlice{50};
  const time_point end = now() + delay;
  while (!wake_->load()) {
    const time_point at = now();
    if (at >= end) return;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(end - at, kSlice));
  }
}

Clock& system_clock() {
  static SystemClock clock;
  return clock;
}

}  // namespace hz
