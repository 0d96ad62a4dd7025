// BatchSpec, parse_batch_config and run_batch: population-batch problems whose fitness is a Python callable
// (fusedga.BatchProblem, python/fusedga/_batch.py), over config/batch_entry.hpp. Once per generation the
// engine's own gene rows are handed to the callable as a read-only (n, d) float64 (int32 for integer genes) array
// without a copy, and its return value is copied into the engine's objective and constraint buffers. On backend
// cuda the rows (float64, or int32) and those buffers are CUDA tensors over the device memory
// (fusedga._batch._call_device).
#include <Python.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "fusedga/config/batch_entry.hpp"
#include "fusedga/core/error.hpp"
#include "run_from_python.hpp"

namespace nb = nanobind;

namespace fusedga::python {

namespace {

/// A batch problem with a Python fitness. Created and destroyed with the GIL held; `spec.evaluate` takes the
/// GIL itself (run_batch calls it on the solving thread, which has released the GIL).
struct py_batch {
  batch_spec spec;
  nb::object fn;           // fn(X) -> f | (f, G) | (f, G, H)
  nb::object coerce;       // fusedga._batch._coerce(label, value, n, m, p) -> (f, G, H) float64, C order, exact shapes
  std::string label;       // "BatchProblem(fn=name)" for error messages
  nb::object device_fn;    // backend cuda: fn itself (array="torch"), or None: no device evaluator
  nb::object call_device;  // fusedga._batch._call_device(label, fn, X, f, G, H): fn, its results into f, G, H
  const run_hooks* hooks = nullptr;  // of the run in progress (Ctrl-C inside fn)
  int device = 0;                    // of the run in progress (backend cuda)

  /// Gene: double, or std::int32_t for integer genes.
  template <class Gene>
  void evaluate(const Gene* genes, std::size_t n, int d, double* objective, double* inequalities,
                double* equalities) const;
  /// backend cuda: the rows and the output buffers (device memory) as CUDA tensors for call_device.
  template <class Gene>
  void evaluate_device(const Gene* genes, std::size_t n, int d, double* objective, double* inequalities,
                       double* equalities) const;
  /// Ctrl-C inside fn: true when it was (then `fill_nan` has marked the n individuals unevaluated and the run
  /// stops at the end of this generation); false: not an interrupt this run handles (rethrow).
  template <class FillNan>
  bool interrupted(const nb::python_error& e, std::size_t n, FillNan fill_nan) const;
};

template <class FillNan>
bool py_batch::interrupted(const nb::python_error& e, std::size_t n, FillNan fill_nan) const {
  if (!e.matches(PyExc_KeyboardInterrupt) || hooks == nullptr || hooks->interrupt == nullptr) return false;
  // These n individuals stay unevaluated (NaN ranks worst; the best so far is kept) and the run stops at the
  // end of this generation, as for a Ctrl-C between generations. The flag is python_hooks' own (non-const)
  // atomic, handed to the engine as const.
  fill_nan(std::numeric_limits<double>::quiet_NaN());
  const_cast<std::atomic<bool>*>(hooks->interrupt)->store(true);
  if (hooks->on_notice)
    hooks->on_notice(label + ": interrupted (Ctrl-C) inside fn: that generation's " + std::to_string(n) +
                     " individuals were not evaluated (NaN, ranked worst); the result is the best found before");
  return true;
}

using cpu_array = nb::ndarray<const double, nb::c_contig, nb::device::cpu>;

/// Copies `value` into `out` when it already is a float64 C-ordered CPU array (NumPy, or a tensor through
/// DLPack) of shape (n,) (only where `cols` == 1) or (n, cols), cols >= 1: the fast path, no Python code runs.
bool copy_exact(nb::handle value, std::size_t n, std::size_t cols, double* out) {
  cpu_array a;
  if (!nb::try_cast(value, a, /*convert=*/false)) return false;
  const bool shaped =
      (a.ndim() == 1 && cols == 1 && a.shape(0) == n) || (a.ndim() == 2 && a.shape(0) == n && a.shape(1) == cols);
  if (!shaped) return false;
  if (n * cols > 0) std::memcpy(out, a.data(), n * cols * sizeof(double));
  return true;
}

template <class Gene>
void py_batch::evaluate(const Gene* genes, std::size_t n, int d, double* objective, double* inequalities,
                        double* equalities) const {
  nb::gil_scoped_acquire gil;
  const std::size_t shape[2] = {n, static_cast<std::size_t>(d)};
  // rv_policy::reference: a view of the engine's rows, no copy and no owner (valid during this call only).
  const nb::object x =
      nb::ndarray<nb::numpy, const Gene, nb::ndim<2>, nb::c_contig>(genes, 2, shape).cast(nb::rv_policy::reference);
  nb::object value;
  try {
    value = fn(x);
  } catch (nb::python_error& e) {
    if (interrupted(e, n, [&](double nan) {
          std::fill(objective, objective + n, nan);
          if (inequalities) std::fill(inequalities, inequalities + n * spec.inequality_count, nan);
          if (equalities) std::fill(equalities, equalities + n * spec.equality_count, nan);
        }))
      return;
    throw;
  }
  const std::size_t m = static_cast<std::size_t>(spec.inequality_count);
  const std::size_t p = static_cast<std::size_t>(spec.equality_count);
  const auto fast = [&]() {
    if (!PyTuple_Check(value.ptr())) return m == 0 && p == 0 && copy_exact(value, n, 1, objective);
    const nb::tuple t = nb::borrow<nb::tuple>(value);
    const std::size_t k = t.size();
    if (k < 1 || k > 3 || (k < 2 && m > 0) || (k < 3 && p > 0)) return false;
    if (k >= 2 && m == 0) return false;  // zero-width parts: _coerce checks them
    if (k == 3 && p == 0) return false;
    return copy_exact(t[0], n, 1, objective) && (k < 2 || copy_exact(t[1], n, m, inequalities)) &&
           (k < 3 || copy_exact(t[2], n, p, equalities));
  };
  if (fast()) return;
  const nb::tuple parts = nb::cast<nb::tuple>(coerce(label, value, n, m, p));  // raises TypeError/ValueError
  if (!copy_exact(parts[0], n, 1, objective) || (m > 0 && !copy_exact(parts[1], n, m, inequalities)) ||
      (p > 0 && !copy_exact(parts[2], n, p, equalities)))
    throw std::logic_error("fusedga._batch._coerce returned arrays of other shapes");
}

/// A CUDA tensor (PyTorch, through DLPack) over `rows` × `cols` values of device memory (T: double, or int32 for
/// integer genes; `vector`: shape (rows,)), no copy and no owner (valid during the call only); None for a zero
/// count of columns.
template <class T>
nb::object cuda_tensor(T* data, std::size_t rows, std::size_t cols, bool vector, int device) {
  if (!vector && cols == 0) return nb::none();
  const std::size_t shape[2] = {rows, cols};
  return nb::ndarray<nb::pytorch, T, nb::c_contig>(data, vector ? 1 : 2, shape, nb::handle(), nullptr, nb::dtype<T>(),
                                                   nb::device::cuda::value, device)
      .cast(nb::rv_policy::reference);
}

template <class Gene>
void py_batch::evaluate_device(const Gene* genes, std::size_t n, int d, double* objective, double* inequalities,
                               double* equalities) const {
  nb::gil_scoped_acquire gil;
  const std::size_t m = static_cast<std::size_t>(spec.inequality_count);
  const std::size_t p = static_cast<std::size_t>(spec.equality_count);
  // PyTorch has no read-only tensors: X is documented as not to be written.
  const nb::object x = cuda_tensor(const_cast<Gene*>(genes), n, static_cast<std::size_t>(d), false, device);
  const nb::object f = cuda_tensor(objective, n, 1, true, device);
  const nb::object g = cuda_tensor(inequalities, n, m, false, device);
  const nb::object h = cuda_tensor(equalities, n, p, false, device);
  try {
    call_device(label, device_fn, x, f, g, h);
  } catch (nb::python_error& e) {
    if (interrupted(e, n, [&](double nan) {
          try {  // Python again: a second Ctrl-C or a CUDA error here must not turn the clean stop into an abort
            for (const nb::object& t : {f, g, h})
              if (!t.is_none()) t.attr("fill_")(nan);
            nb::module_::import_("torch").attr("cuda").attr("synchronize")(device);
          } catch (nb::python_error&) {
          }
        }))
      return;
    throw;
  }
}

// The garbage collector's view of a BatchSpec's references: fn's globals usually reach the BatchProblem that holds
// this spec (a cycle), which Python can only collect when it sees them (nanobind's "refleaks" documentation).
int batch_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  const py_batch* b = nb::inst_ptr<py_batch>(self);
  Py_VISIT(b->fn.ptr());
  Py_VISIT(b->coerce.ptr());
  Py_VISIT(b->device_fn.ptr());
  Py_VISIT(b->call_device.ptr());
  return 0;
}

int batch_clear(PyObject* self) {
  py_batch* b = nb::inst_ptr<py_batch>(self);
  b->fn = nb::object();
  b->coerce = nb::object();
  b->device_fn = nb::object();
  b->call_device = nb::object();
  return 0;
}

PyType_Slot batch_slots[] = {{Py_tp_traverse, reinterpret_cast<void*>(batch_traverse)},
                             {Py_tp_clear, reinterpret_cast<void*>(batch_clear)},
                             {0, nullptr}};

}  // namespace

void bind_batch(nb::module_& m) {
  nb::class_<py_batch>(m, "BatchSpec", nb::type_slots(batch_slots),
                       "A population-batch problem with a Python fitness (fusedga.BatchProblem).")
      .def(
          "__init__",
          [](py_batch* self, nb::object fn, std::vector<double> lower, std::vector<double> upper,
             std::vector<std::string> names, int n_ineq, int n_eq, const std::string& sense, const std::string& name,
             nb::object coerce, const std::string& label, bool integer, std::vector<std::uint8_t> integer_variables,
             nb::object device_fn, nb::object call_device) {
            batch_spec s;  // checked before *self is constructed: a throwing __init__ leaves no object to destroy
            s.name = name;
            s.dimension = static_cast<int>(lower.size());
            s.lower = std::move(lower);
            s.upper = std::move(upper);
            s.variable_names = std::move(names);
            s.inequality_count = n_ineq;
            s.equality_count = n_eq;
            if (sense != "minimize" && sense != "maximize")
              throw config_error("batch problem '" + name + "': sense: expected minimize or maximize, got " + sense);
            s.sense = sense == "maximize" ? Sense::maximize : Sense::minimize;
            s.integer_genes = integer;
            s.integer_variables = std::move(integer_variables);
            // The host evaluator, and with device_fn the device one, of the gene type.
            const auto host = [self](const auto* g, std::size_t n, int d, double* f, double* gi, double* he) {
              self->evaluate(g, n, d, f, gi, he);
            };
            const auto device = [self](const auto* g, std::size_t n, int d, double* f, double* gi, double* he) {
              self->evaluate_device(g, n, d, f, gi, he);
            };
            const bool on_device = !device_fn.is_none();
            if (integer) {
              s.evaluate_integer = host;
              if (on_device) s.evaluate_integer_device = device;
            } else {
              s.evaluate = host;
              if (on_device) s.evaluate_device = device;
            }
            validate_batch_spec(s);
            new (self) py_batch{std::move(s), std::move(fn),        std::move(coerce),
                                label,        std::move(device_fn), std::move(call_device)};
          },
          nb::arg("fn"), nb::arg("lower"), nb::arg("upper"), nb::arg("names"), nb::arg("n_ineq"), nb::arg("n_eq"),
          nb::arg("sense"), nb::arg("name"), nb::arg("coerce"), nb::arg("label"), nb::arg("integer") = false,
          nb::arg("integer_variables") = std::vector<std::uint8_t>{}, nb::arg("device_fn").none() = nb::none(),
          nb::arg("call_device").none() = nb::none())
      .def_prop_ro("name", [](const py_batch& b) { return b.spec.name; })
      .def_prop_ro("dimension", [](const py_batch& b) { return b.spec.dimension; });

  m.def(
      "parse_batch_config",
      [](const py_batch& b, const std::string& text, const std::string& source,
         const std::vector<std::string>& overrides) { return parse_batch_config(b.spec, text, source, overrides); },
      nb::arg("spec"), nb::arg("text"), nb::arg("source"), nb::arg("overrides"),
      "parse_batch_config(spec, text, source, overrides) -> RunConfig: the run options (no problem: section) for "
      "a BatchSpec. Raises ConfigError, also for precision float, the gradient repair, and backend cuda without a "
      "device evaluator (array='torch').");

  m.def(
      "run_batch",
      [](py_batch& b, const run_config& parsed, nb::object callback, std::optional<std::string> checkpoint, int every,
         double every_s, std::optional<std::string> resume) {
        run_config cfg = parsed;
        if (cfg.backend == backend_kind::automatic) cfg.backend = backend_kind::tbb;  // as run_batch: a host call
        return run_from_python(cfg, std::move(callback), b.spec.integer_genes,
                               [&b](const run_config& c, const run_hooks& h, int* threads) {
                                 b.hooks = &h;
                                 b.device = std::max(0, c.device);
                                 struct reset {
                                   py_batch& b;
                                   ~reset() { b.hooks = nullptr; }
                                 } r{b};
                                 return run_batch(b.spec, c, h, threads);
                               },
                               {std::move(checkpoint), every, every_s, std::move(resume)});
      },
      nb::arg("spec"), nb::arg("config"), nb::arg("callback").none() = nb::none(),
      nb::arg("checkpoint").none() = nb::none(), nb::arg("checkpoint_every") = 0, nb::arg("checkpoint_every_s") = 0.0,
      nb::arg("resume").none() = nb::none(),
      "run_batch(spec, config, callback=None, checkpoint=None, checkpoint_every=0, checkpoint_every_s=0.0, "
      "resume=None) -> dict: solves the BatchSpec with the GIL released except inside fn and the callback. "
      "Exceptions raised by fn propagate unchanged. Checkpoints as run().");
}

}  // namespace fusedga::python
