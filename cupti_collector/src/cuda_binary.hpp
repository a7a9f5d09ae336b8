#pragma once
// What CUDA device code says of itself, read from its bytes alone (no CUDA, no CUPTI, no GPU): a cubin (the ELF
// image the driver loads), PTX text, and the fatbinaries a host program embeds in its .nv_fatbin section. For two
// questions a measurement cannot answer by itself: was the code the GPU ran compiled for it ahead of time, or by
// the driver from the PTX of another architecture (JIT: other instructions, other counters)? And which kernels
// does a program hold, so that a case naming another is told before anything runs?
//
// A cubin's ELF header carries the architecture of its instructions (e_flags: bits 0-7 in the ELF ABI of CUDA 12
// and before, bits 8-15 in ABI version 8 of CUDA 12.8 and later), and its .note.nv.cuinfo note the virtual
// architecture of the PTX it was compiled from: a cubin nvcc made with -arch=sm_90 says 90 and 90, one the driver
// compiled from sm_80 PTX says 90 and 80. Kernels are its function symbols marked as entry points. A fatbinary
// entry may be compressed (nvcc compresses PTX by default, and cubins with -compress-mode=size); its contents are
// then unknown here, and said to be.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bankgate::detail {

// One piece of device code: a cubin (sm != 0) or PTX, which the driver compiles when it loads it (sm == 0).
struct DeviceCode {
  int sm = 0;            // the architecture of a cubin's instructions, e.g. 90 (sm_90 and sm_90a alike); 0 for PTX
  int virtual_sm = 0;    // the architecture of the PTX it is or was compiled from, e.g. 80; 0 where not recorded
  bool readable = true;  // false: compressed, so neither its kernels nor its virtual architecture are known
  std::vector<std::string> kernels;  // the kernels it defines, mangled as the compiler named them
};

// A cubin; nullopt where `image` is no CUDA ELF image or is cut short.
std::optional<DeviceCode> read_cubin(std::string_view image);
// PTX text: its .target and .entry names; nullopt where `text` is no PTX.
std::optional<DeviceCode> read_ptx(std::string_view text);

// The fatbinaries in `data` (a host program's .nv_fatbin section, or one fatbinary): each as the device code it
// offers for the same source, one entry per architecture. Empty where there is none.
using Fatbin = std::vector<DeviceCode>;
std::vector<Fatbin> read_fatbins(std::string_view data);

// Device code as the CUPTI module callback hands it over: a cubin, PTX or a fatbinary.
std::vector<DeviceCode> read_module_image(std::string_view image);

// Section `name` of the host ELF file at `path`; nullopt where the file is no 64-bit ELF file, has no such section,
// or cannot be read. A section larger than `max_bytes` is not read: nullopt, and `too_large` set.
std::optional<std::string> read_elf_section(const std::filesystem::path& path, std::string_view name,
                                            std::size_t max_bytes, bool& too_large);

// Why the code a GPU of compute capability major.minor ran, chosen by the driver from `offered` (the pieces of code
// one module or fatbinary holds for one kernel), is not what the build made for that GPU: "built for sm_80, this GPU
// is sm_90: the driver JIT-compiled PTX; set CMAKE_CUDA_ARCHITECTURES=90 (90a for wgmma)". Empty where a cubin for
// the GPU's architecture (or one it runs unchanged: same major version, not newer) compiled from that
// architecture's PTX is among them, or where nothing readable is.
std::string foreign_code_reason(const std::vector<DeviceCode>& offered, int major, int minor);

}  // namespace bankgate::detail
