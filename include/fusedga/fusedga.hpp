#pragma once
/// @file fusedga.hpp
/// The whole public API of FusedGA for embedding users: problem concept,
/// operators, backends, options and `fusedga::solve`.

#include "fusedga/backends/serial.hpp"
#include "fusedga/backends/tbb.hpp"
#include "fusedga/core/bounds.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/sense.hpp"
#include "fusedga/engine/engine.hpp"
#include "fusedga/engine/measured_defaults.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/engine/result.hpp"
#include "fusedga/solve.hpp"
