#include "io/distinct_files.hpp"

#include <filesystem>
#include <system_error>
#include <vector>

#include "fusedga/core/error.hpp"

namespace fusedga {

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec)) return true;  // one existing file: also hard links
  // Absolute first: weakly_canonical leaves a relative path whose file does not exist yet relative, so "./x"
  // and "x" (or "$PWD/x") would differ.
  std::error_code ec1, ec2;
  const auto x = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ec1), ec1);
  const auto y = std::filesystem::weakly_canonical(std::filesystem::absolute(b, ec2), ec2);
  return ec1 || ec2 ? a == b : x == y;
}

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  return path.empty() ? path : std::filesystem::absolute(path, ec).lexically_normal().string();
}

void check_distinct_files(const run_files& files, const run_file_labels& labels) {
  struct named {
    const std::string& what;
    std::string path;
    bool checkpoint;
  };
  std::vector<named> outputs;
  if (files.result) outputs.push_back({labels.result, *files.result, false});
  if (files.history) outputs.push_back({labels.history, *files.history, false});
  if (!files.checkpoint.empty()) outputs.push_back({labels.checkpoint, files.checkpoint, true});
  for (std::size_t a = 0; a < outputs.size(); ++a)
    for (std::size_t b = a + 1; b < outputs.size(); ++b)
      if (same_file(outputs[a].path, outputs[b].path))
        throw config_error(outputs[a].what + " and " + outputs[b].what + " name the same file " + outputs[a].path +
                           "; give each its own");
  for (const named& o : outputs) {
    if (!files.config.empty() && same_file(o.path, files.config))
      throw config_error(o.what + " names the config " + files.config + ", which it would replace; give another file");
    if (!files.resumed.empty() && !o.checkpoint && same_file(o.path, files.resumed))
      throw config_error(o.what + " names the checkpoint resumed from, " + files.resumed +
                         ", which it would replace; give another file");
  }
}

}  // namespace fusedga
