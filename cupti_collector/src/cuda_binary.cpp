// Reading CUDA device code from its bytes (cuda_binary.hpp). The ELF structures are the system's (<elf.h>); every
// offset read from the data is checked against its size first, since a program's sections come from its build
// and a module image from the driver, and neither may crash the reader.
#include "cuda_binary.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>

namespace bankgate::detail {
namespace {

constexpr std::uint32_t fatbin_magic = 0xBA55ED50;
constexpr unsigned char cuda_entry_symbol = 0x10;    // st_other of a kernel's symbol (STO_CUDA_ENTRY)
constexpr unsigned char first_abi_with_wide_sm = 8;  // EI_ABIVERSION from which e_flags hold the sm in bits 8-15

// A T at `offset` of `bytes`, where it fits.
template <typename T>
std::optional<T> read_at(std::string_view bytes, std::uint64_t offset) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

// `length` bytes at `offset`, where they fit.
std::optional<std::string_view> slice(std::string_view bytes, std::uint64_t offset, std::uint64_t length) {
  if (offset > bytes.size() || bytes.size() - offset < length) return std::nullopt;
  return bytes.substr(offset, length);
}

// The NUL-terminated string at `offset` of a string table.
std::string string_at(std::string_view table, std::uint64_t offset) {
  if (offset >= table.size()) return "";
  const std::string_view rest = table.substr(offset);
  return std::string(rest.substr(0, rest.find('\0')));
}

bool is_elf64(std::string_view bytes) {
  return bytes.size() >= sizeof(Elf64_Ehdr) && std::memcmp(bytes.data(), ELFMAG, SELFMAG) == 0 &&
         bytes[EI_CLASS] == ELFCLASS64;
}

// The section headers of an ELF image and its section-name table; empty where they do not fit.
struct Sections {
  std::vector<Elf64_Shdr> headers;
  std::string_view names;
};

Sections sections_of(std::string_view image, const Elf64_Ehdr& header) {
  Sections s;
  if (header.e_shentsize != sizeof(Elf64_Shdr)) return s;
  for (std::uint64_t i = 0; i < header.e_shnum; ++i) {
    const auto section = read_at<Elf64_Shdr>(image, header.e_shoff + i * sizeof(Elf64_Shdr));
    if (!section) return {};
    s.headers.push_back(*section);
  }
  if (header.e_shstrndx < s.headers.size()) {
    const Elf64_Shdr& names = s.headers[header.e_shstrndx];
    s.names = slice(image, names.sh_offset, names.sh_size).value_or(std::string_view{});
  }
  return s;
}

// The virtual architecture in a .note.nv.cuinfo section: notes of NVIDIA whose description is a 16-bit version, the
// 16-bit virtual sm and the toolkit's 32-bit version.
int virtual_sm_in_note(std::string_view notes) {
  for (std::uint64_t at = 0; at + sizeof(Elf64_Nhdr) <= notes.size();) {
    const auto note = read_at<Elf64_Nhdr>(notes, at);
    const std::uint64_t name_at = at + sizeof(Elf64_Nhdr);
    const std::uint64_t description_at = name_at + ((note->n_namesz + 3u) & ~3u);
    const auto description = slice(notes, description_at, note->n_descsz);
    if (!description) return 0;
    if (note->n_descsz >= 4) {
      std::uint16_t sm = 0;
      std::memcpy(&sm, description->data() + 2, sizeof sm);
      return sm;
    }
    at = description_at + ((note->n_descsz + 3u) & ~3u);
  }
  return 0;
}

// The names of the kernels (function symbols marked as entry points) of a symbol table.
std::vector<std::string> kernels_in(std::string_view symbols, std::string_view names) {
  std::vector<std::string> kernels;
  for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= symbols.size(); at += sizeof(Elf64_Sym)) {
    const auto symbol = read_at<Elf64_Sym>(symbols, at);
    if (ELF64_ST_TYPE(symbol->st_info) == STT_FUNC && (symbol->st_other & cuda_entry_symbol) != 0)
      kernels.push_back(string_at(names, symbol->st_name));
  }
  return kernels;
}

bool printable_text(std::string_view bytes) {
  return !bytes.empty() &&
         std::all_of(bytes.begin(),
                     bytes.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(bytes.size(), 256)),
                     [](char c) { return c == '\n' || c == '\r' || c == '\t' || (c >= ' ' && c < 127) || c == '\0'; });
}

// One entry of a fatbinary: a 64-bit header of at least 32 bytes (its kind, 1 PTX or 2 cubin, at 0; its own size at
// 4; the payload's size at 8; the architecture at 28), then the payload.
std::optional<DeviceCode> fatbin_entry(std::string_view entry_header, std::string_view payload) {
  const auto kind = read_at<std::uint16_t>(entry_header, 0);
  const auto arch = read_at<std::uint32_t>(entry_header, 28);
  if (!kind || !arch) return std::nullopt;
  if (*kind == 2) {
    if (auto cubin = read_cubin(payload)) return cubin;
    return DeviceCode{.sm = static_cast<int>(*arch), .virtual_sm = 0, .readable = false, .kernels = {}};
  }
  if (*kind == 1) {
    if (auto ptx = read_ptx(payload)) return ptx;
    return DeviceCode{.sm = 0, .virtual_sm = static_cast<int>(*arch), .readable = false, .kernels = {}};
  }
  return std::nullopt;
}

// The entries of one fatbinary, whose header (16 bytes: magic, version, header size, size of the entries) is at
// `at`; `end` is set past it.
Fatbin fatbin_at(std::string_view data, std::uint64_t at, std::uint64_t& end) {
  Fatbin fatbin;
  const auto header_size = read_at<std::uint16_t>(data, at + 6);
  const auto size = read_at<std::uint64_t>(data, at + 8);
  end = data.size();
  if (!header_size || !size || *size > data.size()) return fatbin;
  const std::uint64_t first = at + *header_size;
  end = std::min<std::uint64_t>(data.size(), first + *size);
  for (std::uint64_t entry = first; entry + 16 <= end;) {
    const auto entry_header_size = read_at<std::uint32_t>(data, entry + 4);
    const auto payload_size = read_at<std::uint64_t>(data, entry + 8);
    if (!entry_header_size || !payload_size || *entry_header_size < 32) break;
    const auto header = slice(data, entry, *entry_header_size);
    const auto payload = slice(data, entry + *entry_header_size, *payload_size);
    if (!header || !payload) break;
    if (auto code = fatbin_entry(*header, *payload)) fatbin.push_back(std::move(*code));
    entry += *entry_header_size + *payload_size;
  }
  return fatbin;
}

}  // namespace

std::optional<DeviceCode> read_cubin(std::string_view image) {
  if (!is_elf64(image)) return std::nullopt;
  const auto header = read_at<Elf64_Ehdr>(image, 0);
  if (header->e_machine != EM_CUDA) return std::nullopt;
  DeviceCode code;
  const unsigned char abi = header->e_ident[EI_ABIVERSION];
  code.sm = static_cast<int>(abi >= first_abi_with_wide_sm ? (header->e_flags >> 8) & 0xff : header->e_flags & 0xff);
  if (abi < first_abi_with_wide_sm) code.virtual_sm = static_cast<int>((header->e_flags >> 16) & 0xff);
  const Sections sections = sections_of(image, *header);
  for (const Elf64_Shdr& section : sections.headers) {
    const std::string name = string_at(sections.names, section.sh_name);
    const auto bytes = slice(image, section.sh_offset, section.sh_size);
    if (!bytes || section.sh_type == SHT_NOBITS) continue;
    if (name == ".note.nv.cuinfo") {
      if (const int from_note = virtual_sm_in_note(*bytes); from_note != 0) code.virtual_sm = from_note;
    } else if (section.sh_type == SHT_SYMTAB && section.sh_link < sections.headers.size()) {
      const Elf64_Shdr& strings = sections.headers[section.sh_link];
      const auto names = slice(image, strings.sh_offset, strings.sh_size);
      if (names) code.kernels = kernels_in(*bytes, *names);
    }
  }
  return code;
}

std::optional<DeviceCode> read_ptx(std::string_view text) {
  if (!printable_text(text) || text.find(".version") == std::string_view::npos) return std::nullopt;
  DeviceCode code;
  const std::string ptx(text.substr(0, text.find('\0')));
  static const std::regex target(R"(\.target\s+sm_([0-9]+))");
  static const std::regex entry(R"(\.entry\s+([A-Za-z_$][A-Za-z0-9_$]*))");
  std::smatch match;
  if (std::regex_search(ptx, match, target)) code.virtual_sm = std::stoi(match[1].str());
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), entry); it != std::sregex_iterator(); ++it)
    code.kernels.push_back((*it)[1].str());
  return code;
}

std::vector<Fatbin> read_fatbins(std::string_view data) {
  std::vector<Fatbin> fatbins;
  for (std::uint64_t at = 0; at + 16 <= data.size();) {
    if (read_at<std::uint32_t>(data, at) != fatbin_magic) {
      at += 8;  // fatbinaries start 8-byte aligned; padding lies between them
      continue;
    }
    std::uint64_t end = 0;
    fatbins.push_back(fatbin_at(data, at, end));
    at = std::max(at + 8, (end + 7) & ~std::uint64_t{7});
  }
  return fatbins;
}

std::vector<DeviceCode> read_module_image(std::string_view image) {
  if (auto cubin = read_cubin(image)) return {std::move(*cubin)};
  if (read_at<std::uint32_t>(image, 0) == fatbin_magic) {
    std::vector<DeviceCode> all;
    for (Fatbin& fatbin : read_fatbins(image)) all.insert(all.end(), fatbin.begin(), fatbin.end());
    return all;
  }
  if (auto ptx = read_ptx(image)) return {std::move(*ptx)};
  return {};
}

std::optional<std::string> read_elf_section(const std::filesystem::path& path, std::string_view name,
                                            std::size_t max_bytes, bool& too_large) {
  too_large = false;
  std::ifstream in(path, std::ios::binary);
  const auto read = [&in](std::uint64_t offset, std::uint64_t length) -> std::optional<std::string> {
    std::string bytes(length, '\0');
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    if (!in.read(bytes.data(), static_cast<std::streamsize>(length))) return std::nullopt;
    return bytes;
  };
  const auto head = read(0, sizeof(Elf64_Ehdr));
  if (!head || !is_elf64(*head)) return std::nullopt;
  const auto header = read_at<Elf64_Ehdr>(*head, 0);
  if (header->e_shentsize != sizeof(Elf64_Shdr) || header->e_shnum == 0) return std::nullopt;
  const auto table = read(header->e_shoff, std::uint64_t{header->e_shnum} * sizeof(Elf64_Shdr));
  if (!table || header->e_shstrndx >= header->e_shnum) return std::nullopt;
  const auto names_header = read_at<Elf64_Shdr>(*table, std::uint64_t{header->e_shstrndx} * sizeof(Elf64_Shdr));
  const auto names = read(names_header->sh_offset, names_header->sh_size);
  if (!names) return std::nullopt;
  for (std::uint64_t i = 0; i < header->e_shnum; ++i) {
    const auto section = read_at<Elf64_Shdr>(*table, i * sizeof(Elf64_Shdr));
    if (string_at(*names, section->sh_name) != name || section->sh_type == SHT_NOBITS) continue;
    if (section->sh_size > max_bytes) {
      too_large = true;
      return std::nullopt;
    }
    return read(section->sh_offset, section->sh_size);
  }
  return std::nullopt;
}

std::string foreign_code_reason(const std::vector<DeviceCode>& offered, int major, int minor) {
  const int device = major * 10 + minor;
  const auto native = [&](const DeviceCode& c) {
    return c.sm != 0 && c.sm / 10 == major && c.sm % 10 <= minor && (c.virtual_sm == 0 || c.virtual_sm == c.sm);
  };
  if (std::any_of(offered.begin(), offered.end(), native)) return "";
  // What the code was built for: the PTX a cubin for this GPU was compiled from, or the PTX the driver compiles.
  int built_for = 0;
  for (const DeviceCode& c : offered)
    if (c.readable && c.sm / 10 == major && c.virtual_sm != 0) built_for = c.virtual_sm;
  for (const DeviceCode& c : offered)
    if (built_for == 0 && c.sm == 0 && c.virtual_sm != 0) built_for = c.virtual_sm;
  if (built_for == 0) return "";
  const std::string arch = std::to_string(device);
  return "built for sm_" + std::to_string(built_for) + ", this GPU is sm_" + arch +
         ": the driver JIT-compiled PTX; set CMAKE_CUDA_ARCHITECTURES=" + arch + (major == 9 ? " (90a for wgmma)" : "");
}

}  // namespace bankgate::detail
