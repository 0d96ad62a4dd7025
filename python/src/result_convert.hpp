#pragma once
// fusedga::Result -> the plain dict that python/fusedga/_result.py wraps as fusedga.Result. Shared by every
// problem kind.
#include <nanobind/nanobind.h>

#include <string>
#include <vector>

#include "fusedga/config/result_writer.hpp"
#include "fusedga/engine/result.hpp"

namespace fusedga::python {

/**
 * The fields of `r` and `info` as a dict: genes (ndarray (d,), int64 when `integer_genes`, else float64),
 * variables (d names), objective, violation, feasible, stop_reason, generations, evaluations, time (wall
 * seconds), restarts, not_a_number, history (dict of 1-D ndarrays, one row per history entry: generation,
 * evaluations, not_a_number int64; best_objective, best_violation, mean_objective, feasible_fraction,
 * elapsed_s float64), problem, backend, threads, precision, seed, notices. GIL held.
 */
nanobind::dict result_to_python(const Result& r, const run_info& info, bool integer_genes,
                                const std::vector<std::string>& notices);

}  // namespace fusedga::python
