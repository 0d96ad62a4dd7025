#include "io/read_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "fusedga/core/error.hpp"

namespace fusedga {

std::string read_whole_file(const std::string& path, const char* what, std::size_t limit) {
  const std::string cannot = path + ": cannot read " + what + ": ";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw config_error(cannot + "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw config_error(cannot + std::strerror(errno));
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > limit)
      throw config_error(path + ": not a " + what + ": larger than " + std::to_string(limit >> 20) + " MiB");
  }
  if (in.bad()) throw config_error(cannot + std::strerror(errno));
  return text;
}

}  // namespace fusedga
