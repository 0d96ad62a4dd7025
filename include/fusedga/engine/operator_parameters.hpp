#pragma once
/// @file operator_parameters.hpp
/// Where each parameter of the operator table (operators/catalog.hpp) lives in
/// `ga_options`, by its YAML name, and the dispatch specs built from them. A
/// parameter with a new name gets its field in options.hpp and a line here;
/// everything else (parser, validation, listings) follows from the table.

#include <optional>
#include <string_view>

#include "fusedga/engine/options.hpp"
#include "fusedga/operators/catalog.hpp"
#include "fusedga/operators/dispatch.hpp"

namespace fusedga {

/// Field of parameter `name` in `o`: `f(field)` is called with a reference to it; false for an unknown name.
template <class Options, class F>
bool with_parameter(Options& o, std::string_view name, F&& f) {
  using O = std::remove_const_t<Options>;
  if constexpr (std::is_same_v<O, selection_options>) {
    if (name == "size") return f(o.tournament_size), true;
  } else if constexpr (std::is_same_v<O, crossover_options>) {
    if (name == "rate") return f(o.rate), true;
    if (name == "eta") return f(o.eta), true;
    if (name == "alpha") return f(o.alpha), true;
  } else if constexpr (std::is_same_v<O, mutation_options>) {
    if (name == "rate") return f(o.rate), true;  // std::optional<double>: empty = auto
    if (name == "eta") return f(o.eta), true;
    if (name == "sigma") return f(o.sigma), true;
    if (name == "step") return f(o.step), true;
  } else if constexpr (std::is_same_v<O, constraint_options>) {
    if (name == "weight") return f(o.penalty_weight), true;
    if (name == "equality_tolerance") return f(o.equality_tolerance), true;
    if (name == "control") return f(o.epsilon_control), true;
    if (name == "cp") return f(o.epsilon_cp), true;
    if (name == "theta") return f(o.epsilon_theta), true;
    if (name == "pf") return f(o.ranking_pf), true;
  } else if constexpr (std::is_same_v<O, de_options>) {
    if (name == "F") return f(o.F), true;
    if (name == "CR") return f(o.CR), true;
    if (name == "pbest") return f(o.pbest), true;
    if (name == "archive") return f(o.archive), true;
    if (name == "memory") return f(o.memory), true;
  } else if constexpr (std::is_same_v<O, constraint_options::gradient_repair_options>) {
    if (name == "rate") return f(o.rate), true;
    if (name == "iterations") return f(o.iterations), true;
  }
  return false;
}

namespace detail {
template <class T>
std::optional<double> as_number(const T& v) {
  return static_cast<double>(v);
}
inline std::optional<double> as_number(const std::optional<double>& v) { return v; }
}  // namespace detail

/// Value of parameter `name` in `o`; empty when unset (`auto`) or unknown.
template <class Options>
std::optional<double> parameter_value(const Options& o, std::string_view name) {
  std::optional<double> out;
  with_parameter(o, name, [&](const auto& field) { out = detail::as_number(field); });
  return out;
}

/// Sets parameter `name` of `o` to `v` (empty = auto, where allowed). @return false for an unknown name.
template <class Options>
bool set_parameter(Options& o, std::string_view name, std::optional<double> v) {
  return with_parameter(o, name, [&](auto& field) {
    using T = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<T, std::optional<double>>)
      field = v;
    else if (v)
      field = static_cast<T>(*v);
  });
}

/// The dispatch spec of the chosen crossover (its row's parameters, in order).
inline crossover_spec make_crossover_spec(const crossover_options& o) {
  crossover_spec s{o.kind, o.rate, {}};
  const spec_list<parameter_spec> params = spec_of(o.kind).params;
  for (int i = 0; i < params.size(); ++i) s.params[i] = parameter_value(o, params[i].name).value_or(0.0);
  return s;
}

/// The dispatch spec of the chosen mutation for `dimension` genes (rate auto = 1/dimension).
inline mutation_spec make_mutation_spec(const mutation_options& o, int dimension) {
  mutation_spec s{o.kind, o.rate ? *o.rate : 1.0 / dimension, {}};
  const spec_list<parameter_spec> params = spec_of(o.kind).params;
  for (int i = 0; i < params.size(); ++i) s.params[i] = parameter_value(o, params[i].name).value_or(0.0);
  return s;
}

}  // namespace fusedga
