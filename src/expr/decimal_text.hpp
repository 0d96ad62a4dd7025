#pragma once
// A finite double as source text for generated C++, CUDA and NumPy: %.17g, which reads back as the same
// double, except negative zero, which %.17g writes "-0": an integer literal, +0 once negated. Private to
// src/expr/.

#include <cmath>
#include <cstdio>
#include <string>

namespace fusedga::expr::detail {

inline std::string decimal17(double v) {
  if (v == 0 && std::signbit(v)) return "-0.0";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace fusedga::expr::detail
