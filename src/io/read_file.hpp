#pragma once
/// @file read_file.hpp
/// Reading a whole input file (a config, a checkpoint) with errors that name it.

#include <cstddef>
#include <string>

namespace fusedga {

/**
 * The whole content of the file at `path`, read in binary. `what` names it in errors ("config file",
 * "checkpoint"). At most `limit` bytes: a larger file (or an endless one such as /dev/zero) fails fast.
 * @throws config_error "PATH: cannot read WHAT: REASON" (missing, a directory, a read error) or
 *         "PATH: not a WHAT: larger than N MiB".
 */
std::string read_whole_file(const std::string& path, const char* what, std::size_t limit = ~std::size_t(0));

}  // namespace fusedga
