#pragma once
// select_by_name (quality_suite.hpp).
#include <algorithm>

#include "fusedga/core/error.hpp"

namespace fusedga {

template <class T, class Name>
std::vector<T> select_by_name(const std::vector<T>& items, const std::vector<std::string>& wanted, const char* option,
                              Name name_of) {
  if (wanted.empty()) return items;
  for (const std::string& w : wanted) {
    if (std::none_of(items.begin(), items.end(), [&](const T& t) { return name_of(t) == w; })) {
      std::string known;
      for (const T& t : items) known += (known.empty() ? "" : ", ") + name_of(t);
      throw config_error(std::string(option) + ": unknown name '" + w + "'; expected one of: " + known);
    }
  }
  std::vector<T> out;
  for (const T& t : items)
    if (std::find(wanted.begin(), wanted.end(), name_of(t)) != wanted.end()) out.push_back(t);
  return out;
}

}  // namespace fusedga
