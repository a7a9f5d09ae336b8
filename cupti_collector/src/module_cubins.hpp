#pragma once
// Keeps a copy of every cubin the CUDA driver loads after construction (CUPTI resource callback), so that a
// patched instruction reported by its cubin's CRC and offset can be mapped to a source line and an opcode.
// The copies are small (a module of the catalogue is tens of kilobytes) and live as long as the collector.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

typedef struct CUpti_Subscriber_st* CUpti_SubscriberHandle;

namespace bankgate::detail {

class ModuleCubins {
 public:
  ModuleCubins();
  ~ModuleCubins();
  ModuleCubins(const ModuleCubins&) = delete;
  ModuleCubins& operator=(const ModuleCubins&) = delete;

  // The cubin with this CRC (as the SASS Metrics API reports it: the low 32 bits of cuptiGetCubinCrc), or,
  // where none matches, every cubin that was captured; the caller tries them in turn.
  std::vector<std::vector<char>> candidates(std::uint32_t crc) const;

  void add(const char* cubin, std::size_t size);  // called from the resource callback

 private:
  CUpti_SubscriberHandle subscriber_ = nullptr;
  mutable std::mutex mutex_;
  std::map<std::uint32_t, std::vector<char>> cubins_;
};

}  // namespace bankgate::detail
