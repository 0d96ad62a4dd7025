#pragma once
/// @file codegen.hpp
/// C++ source for an expression problem: a problem type that satisfies the
/// problem concept (problem_traits.hpp) like any built-in, plus the C entry
/// points of jit_abi.hpp. Generated only from the validated AST: identifiers
/// are mangled declared names, numbers are re-printed from their parsed
/// values with "%.17g", user text never reaches the output (not even in
/// comments).

#include <string>

#include "fusedga/expr/ast.hpp"

namespace fusedga::expr {

/// The generated translation unit for `p` with genes and arithmetic in
/// `real_type` ("float" or "double"). Deterministic: the same program gives
/// the same text (it is part of the JIT cache key).
std::string generate_source(const program& p, const std::string& real_type);

}  // namespace fusedga::expr
