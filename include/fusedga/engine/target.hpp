#pragma once
/// @file target.hpp
/// The `stop.target` test, shared by `solve` and the island model.

#include "fusedga/core/sense.hpp"

namespace fusedga::detail {

/// Whether a best of (objective, violation) reaches `target`: feasible, and at or beyond it in the problem's sense.
template <class Fitness>
bool reached(Sense sense, Fitness objective, Fitness violation, double target) {
  if (violation != Fitness(0)) return false;
  return sense == Sense::minimize ? objective <= target : objective >= target;
}

}  // namespace fusedga::detail
