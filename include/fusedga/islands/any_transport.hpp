#pragma once
/// @file any_transport.hpp
/// A Transport (islands/transport.hpp) behind a virtual interface, so that code compiled without MPI (the
/// runtime library, `solve`) can run islands over a transport built elsewhere (ga-run's MPI ranks):
/// `island_options::transport` points to one. The virtual calls happen once per epoch, not per individual.

#include <cstddef>
#include <vector>

#include "fusedga/islands/transport.hpp"

namespace fusedga::islands {

/// The Transport requirement as an abstract class; see transport.hpp for what each call must do. Not thread-safe:
/// one run uses it at a time, from the thread that called solve.
class any_transport {
 public:
  virtual ~any_transport() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  virtual std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) = 0;
  virtual void exchange(const std::vector<packet>& outgoing, std::vector<packet>& incoming) = 0;
};

/// Wraps a Transport `T` (not owned; it must outlive this) as an any_transport.
template <class T>
class transport_ref final : public any_transport {
 public:
  explicit transport_ref(T& t) : t_(&t) {}
  int rank() const override { return t_->rank(); }
  int ranks() const override { return t_->ranks(); }
  std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) override {
    return t_->all_gather(mine);
  }
  void exchange(const std::vector<packet>& outgoing, std::vector<packet>& incoming) override {
    t_->exchange(outgoing, incoming);
  }

 private:
  T* t_;
};

}  // namespace fusedga::islands
