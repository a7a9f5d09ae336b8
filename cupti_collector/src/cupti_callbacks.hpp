#pragma once
// The collector's CUPTI subscriber (CUPTI allows one per process). It keeps the cubins the driver loads
// (ModuleCubins) and, while asked to, counts the kernels a profiled call launches. The range profiler keeps a full
// room's first kernels and need not say that it dropped others (bench/RESULTS-collector-speed.md, finding 8): with
// the count, a room that holds exactly the call's kernels is known to hold all of them, so the room need not keep a
// place free, and a call that outgrows it names the room it needs.

#include <atomic>
#include <cstddef>

typedef struct CUpti_Subscriber_st* CUpti_SubscriberHandle;
typedef struct CUctx_st* CUcontext;

namespace bankgate::detail {

class ModuleCubins;

struct LaunchCount {
  std::size_t kernels = 0;  // kernel launches the driver accepted into the profiled context
  // false where some launch's kernels went uncounted (a CUDA graph's, a multi-device cooperative launch's, a later
  // replay pass that launched another number, or counting could not be switched on or was not asked for): the
  // count then says nothing of what a full room dropped.
  bool complete = true;
  bool graph = false;  // a CUDA graph was launched
};

class CuptiCallbacks {
 public:
  explicit CuptiCallbacks(ModuleCubins& cubins);
  ~CuptiCallbacks();
  CuptiCallbacks(const CuptiCallbacks&) = delete;
  CuptiCallbacks& operator=(const CuptiCallbacks&) = delete;

  // Launches are counted only between these two: the driver calls back on every launch while counting is on, and
  // the timing phase's launches are the gate's hottest loop.
  void start_counting_launches(CUcontext context);
  LaunchCount stop_counting_launches();

  void on_module_loaded(const void* resource_data);
  void on_driver_call(unsigned id, const void* callback_data);

 private:
  bool switch_launch_callbacks(bool on);

  ModuleCubins& cubins_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  bool counting_ = false;
  std::atomic<CUcontext> context_{nullptr};  // the profiled context: launches into others are not the call's
  bool switch_failed_ = false;
  std::atomic<std::size_t> kernels_{0};
  std::atomic<bool> uncounted_{false};
  std::atomic<bool> graph_{false};
};

}  // namespace bankgate::detail
