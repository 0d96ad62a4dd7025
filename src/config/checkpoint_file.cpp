#include "config/checkpoint_file.hpp"

#include <exception>
#include <utility>

#include "io/atomic_file.hpp"

namespace fusedga {

checkpoint_options checkpoints_to_file(const std::string& path, int every_generations, double every_seconds,
                                       std::function<void(const std::string& message)> on_failure) {
  checkpoint_options c;
  c.every_generations = every_generations;
  c.every_seconds = every_generations || every_seconds ? every_seconds : 60.0;
  c.write = [path, on_failure = std::move(on_failure)](const std::string& bytes) {
    try {
      write_file_atomic(path, bytes);
    } catch (const std::exception& e) {
      on_failure(e.what());
    }
  };
  return c;
}

}  // namespace fusedga
