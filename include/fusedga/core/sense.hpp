#pragma once
/// @file sense.hpp
/// Optimization direction of a problem's objective.

namespace fusedga {

/// Whether the objective is minimized or maximized. Internally the engine
/// always minimizes; `maximize` negates the objective inside the rank key only,
/// so reported objectives keep the user's sign.
enum class Sense { minimize, maximize };

/// "minimize" or "maximize".
inline const char* to_string(Sense s) { return s == Sense::minimize ? "minimize" : "maximize"; }

}  // namespace fusedga
