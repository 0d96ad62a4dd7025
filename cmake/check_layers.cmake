# Layers only point down (docs: DESIGN.md, "One engine, several executors"):
#   core -> operators, problems -> engine, islands -> backends -> expr, config -> bench, report -> apps
# Scans every `#include "fusedga/..."` and `#include <fusedga/...>` in include/ and src/, and in src/ also the
# private headers of another src/ folder (`#include "bench/..."`), and fails when a file includes a header of a
# higher layer, printing file:line and the rule it breaks. Same-layer includes are allowed.
# Usage: cmake -DSOURCE_DIR=<repository root> -P cmake/check_layers.cmake
cmake_minimum_required(VERSION 3.24)
if(NOT SOURCE_DIR)
  set(SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/..")
endif()
get_filename_component(SOURCE_DIR "${SOURCE_DIR}" ABSOLUTE)

# Rank of each layer: a file may include headers of its own rank or lower.
set(_rank_core 0)
set(_rank_operators 1)
set(_rank_problems 1)  # built-in problems: plain structs over core types
set(_rank_engine 2)
set(_rank_islands 2)  # the island model: engines and their migration (islands/)
set(_rank_backends 3)
set(_rank_umbrella 3)  # include/fusedga/fusedga.hpp and solve.hpp: the header-only library (engine + backends)
set(_rank_expr 4)
set(_rank_config 4)
set(_rank_bench 5)
set(_rank_report 5)

# Layer of a file in src/, by folder: the non-template code of each layer.
set(_src_layer_config config)
set(_src_layer_registry config)  # names -> run, the type erasure behind config
set(_src_layer_expr expr)
set(_src_layer_cuda config)  # the registry's CUDA engine instantiations and the GPU JIT driver
set(_src_layer_io core)
set(_src_layer_text core)
set(_src_layer_bench bench)
set(_src_layer_report report)

# Allowed upward edges, exactly these, "file|included header". Do not add to it: fix the include instead.
set(_allowed
  # Kept on purpose: each built-in problem's CUDA engine is compiled by nvcc once, in src/cuda/*.cu, for both
  # the run (cuda_solve) and ga-bench's CUDA target (bench/cuda_bench_entry.hpp); a separate bench .cu per family
  # would compile every CUDA engine twice. Only these two includes, in this one file.
  "src/cuda/cuda_entry_impl.cuh|bench/bench_options.hpp"
  "src/cuda/cuda_entry_impl.cuh|bench/cuda_bench_entry.hpp")

function(_layer_of_included path out)
  if(path STREQUAL "fusedga/fusedga.hpp" OR path STREQUAL "fusedga/solve.hpp")
    set(${out} umbrella PARENT_SCOPE)
  elseif(path MATCHES "^fusedga/([^/]+)/")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  elseif(path MATCHES "^([^/]+)/")
    set(${out} "${_src_layer_${CMAKE_MATCH_1}}" PARENT_SCOPE)  # empty: a folder with no layer
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

file(GLOB_RECURSE _files RELATIVE "${SOURCE_DIR}"
  "${SOURCE_DIR}/include/fusedga/*.hpp" "${SOURCE_DIR}/include/fusedga/*.cuh"
  "${SOURCE_DIR}/src/*.hpp" "${SOURCE_DIR}/src/*.cuh" "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/src/*.cu")
set(_violations 0)
if(NOT _files)
  message(FATAL_ERROR "check_layers: no headers or sources found under ${SOURCE_DIR}")
endif()
set(_edges 0)
foreach(_file IN LISTS _files)
  if(_file STREQUAL "include/fusedga/fusedga.hpp" OR _file STREQUAL "include/fusedga/solve.hpp")
    set(_from umbrella)
  elseif(_file MATCHES "^include/fusedga/([^/]+)/")
    set(_from ${CMAKE_MATCH_1})
  elseif(_file MATCHES "^src/([^/]+)/")
    set(_from "${_src_layer_${CMAKE_MATCH_1}}")
    if(NOT _from)
      message(SEND_ERROR "${_file}: src/${CMAKE_MATCH_1}/ has no layer: add it to cmake/check_layers.cmake")
      continue()
    endif()
  else()
    message(SEND_ERROR "${_file}: not in a layer folder: add it to cmake/check_layers.cmake")
    continue()
  endif()
  if(NOT DEFINED _rank_${_from})
    message(SEND_ERROR "${_file}: layer '${_from}' has no rank: add it to cmake/check_layers.cmake")
    continue()
  endif()
  file(STRINGS "${SOURCE_DIR}/${_file}" _lines)
  set(_line_no 0)
  foreach(_line IN LISTS _lines)
    math(EXPR _line_no "${_line_no} + 1")
    if(_line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"](fusedga/[^>\"]+)[>\"]")
      set(_included "${CMAKE_MATCH_1}")
    elseif(_file MATCHES "^src/" AND _line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"([a-z_]+/[^\"]+)\"")
      set(_included "${CMAKE_MATCH_1}")  # a private header of src/, e.g. "bench/bench_target.hpp"
    else()
      continue()
    endif()
    math(EXPR _edges "${_edges} + 1")
    _layer_of_included("${_included}" _to)
    if(NOT DEFINED _rank_${_to})
      message(SEND_ERROR "${_file}:${_line_no}: includes ${_included}, which is in no known layer")
      math(EXPR _violations "${_violations} + 1")
      continue()
    endif()
    if(_rank_${_to} GREATER _rank_${_from})
      if("${_file}|${_included}" IN_LIST _allowed)
        continue()
      endif()
      message(SEND_ERROR "${_file}:${_line_no}: ${_from} (layer ${_rank_${_from}}) includes ${_included}, "
                         "a higher layer: ${_to} (layer ${_rank_${_to}}); layers only point down: "
                         "core -> operators, problems -> engine -> backends -> expr, config -> bench, report")
      math(EXPR _violations "${_violations} + 1")
    endif()
  endforeach()
endforeach()
list(LENGTH _files _count)
if(_violations GREATER 0)
  message(FATAL_ERROR "check_layers: ${_violations} upward include(s) in ${_count} files")
endif()
message(STATUS "check_layers: ${_edges} fusedga/ includes in ${_count} files, all pointing down")
