#pragma once
// Keeps a copy of every cubin the CUDA driver loads (CuptiCallbacks hands them on from CUPTI's resource callback), so
// that a patched instruction reported by its cubin's CRC and offset can be mapped to a source line and an opcode, and
// what each module's code says of itself (cuda_binary.hpp), so that code the driver compiled from the PTX of another
// architecture is told. The copies are small (a module of the catalogue is tens of kilobytes) and live as long as
// the collector.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cuda_binary.hpp"

namespace bankgate::detail {

class ModuleCubins {
 public:
  ModuleCubins() = default;
  ModuleCubins(const ModuleCubins&) = delete;
  ModuleCubins& operator=(const ModuleCubins&) = delete;

  // The cubin with this CRC (as the SASS Metrics API reports it: the low 32 bits of cuptiGetCubinCrc), or,
  // where none matches, every cubin that was captured; the caller tries them in turn.
  std::vector<std::vector<char>> candidates(std::uint32_t crc) const;

  // The device code of each module loaded since construction, in load order (read_module_image()).
  std::vector<std::vector<DeviceCode>> loaded_code() const;

  void add(const char* cubin, std::size_t size);  // called from the resource callback

 private:
  mutable std::mutex mutex_;
  std::map<std::uint32_t, std::vector<char>> cubins_;
  std::vector<std::vector<DeviceCode>> code_;
};

}  // namespace bankgate::detail
