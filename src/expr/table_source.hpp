#pragma once
// Table constants as generated source, shared by the problem's (codegen.cpp) and the Jacobian's
// (jacobian_codegen.cpp) code generators: the same array names and layout in both.

#include <cstddef>
#include <string>
#include <vector>

namespace fusedga::expr::detail {

/// The array of table constant `slot` in generated source.
inline std::string table_name(int slot) { return "fusedga_table_" + std::to_string(slot); }

/// `qualifier R name[] = {...};` with eight values a line, each written by `literal(double)` (the generator's
/// own, which knows its dialect and which headers its source includes).
template <class Literal>
std::string table_array(const std::string& qualifier, int slot, const std::vector<double>& values, Literal literal) {
  std::string out = qualifier + " R " + table_name(slot) + "[] = {";
  for (std::size_t k = 0; k < values.size(); ++k) out += (k % 8 == 0 ? "\n    " : " ") + literal(values[k]) + ",";
  return out + "\n};\n";
}

}  // namespace fusedga::expr::detail
