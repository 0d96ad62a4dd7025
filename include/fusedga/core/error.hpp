#pragma once
/// @file error.hpp
/// The library's exception types: one per failure family, all deriving from
/// `fusedga::error` (itself a `std::runtime_error`). Device code never throws;
/// the host checks results after a pass.

#include <stdexcept>
#include <string>

namespace fusedga {

/// Base of every exception FusedGA throws.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Invalid run configuration or option value. For YAML input the message is
/// `file:line:col: key.path: what was expected`; for programmatic options it
/// names the option by its YAML key path (ga_options::selection.tournament_size is `ga.selection.size`,
/// constraints.penalty_weight `ga.constraint_handling.weight`: docs/operators.md lists each) and the valid range.
class config_error : public error {
 public:
  using error::error;
};

/// A checkpoint that cannot be resumed: not a FusedGA checkpoint, another format version, corrupt (checksum),
/// or written for another problem, other options, precision or dimensions. The message names what differs.
/// A config error (ga-run: exit 2).
class checkpoint_error : public config_error {
 public:
  using config_error::config_error;
};

/// A backend was requested that was not built or cannot run here. The message
/// lists the backends that were built.
class backend_unavailable : public error {
 public:
  using error::error;
};

/// A CUDA runtime or driver call failed; the message carries the call and the CUDA error string.
class cuda_error : public error {
 public:
  using error::error;
};

/// A malformed expression in an expression problem (file, line, column, token, what was expected).
class expression_error : public error {
 public:
  using error::error;
};

/// The user interrupted a long step before the run began (Ctrl-C during a JIT compile); apps exit 130.
class interrupted : public error {
 public:
  using error::error;
};

}  // namespace fusedga
