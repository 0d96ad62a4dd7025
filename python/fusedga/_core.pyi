"""Type stubs of the native module fusedga._core (python/src/). Use the fusedga package, not this module."""

from typing import Any, Callable, Dict, List, Optional

class ConfigError(ValueError):
    """An invalid option, config file or problem; the message says where, the key path and what was expected."""

class BackendUnavailable(ConfigError):
    """The requested backend was not built or cannot run here; the message says why and lists those built."""

class GenerationStats:
    """Statistics of one generation's population (after elitism). Read-only."""

    @property
    def generation(self) -> int: ...
    @property
    def best_objective(self) -> float: ...
    @property
    def best_violation(self) -> float: ...
    @property
    def mean_objective(self) -> float: ...
    @property
    def feasible_fraction(self) -> float: ...
    @property
    def evaluations(self) -> int: ...
    @property
    def elapsed_s(self) -> float: ...
    @property
    def not_a_number(self) -> int: ...

class RunConfig:
    """A parsed and validated run."""

    @property
    def source(self) -> str: ...
    @property
    def problem(self) -> str: ...
    @property
    def population(self) -> int: ...
    @property
    def generations(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def backend(self) -> str: ...
    @property
    def precision(self) -> str: ...
    @property
    def threads(self) -> int: ...
    @property
    def integer_genes(self) -> bool: ...

def parse_config(text: str, source: str, overrides: List[str]) -> RunConfig:
    """Parses a YAML config with `key.path=value` overrides. Raises ConfigError."""

def read_config_text(path: str) -> str:
    """The text of a config file (at most 16 MiB). Raises ConfigError."""

def problems() -> List[Dict[str, Any]]:
    """The built-in problems as dicts (name, description, params, integer_genes, constrained)."""

def built_backends() -> List[str]: ...
def cuda_unavailable_reason() -> str: ...
def run(config: RunConfig, callback: Optional[Callable[[GenerationStats], Any]] = None,
        checkpoint: Optional[str] = None, checkpoint_every: int = 0, checkpoint_every_s: float = 0.0,
        resume: Optional[str] = None) -> Dict[str, Any]:
    """Solves `config` with the GIL released; returns the fields of fusedga.Result as a dict. `checkpoint`:
    write checkpoints there; `resume`: continue the run of that checkpoint (the same problem and options)."""

class BatchSpec:
    """A population-batch problem with a Python fitness (built by fusedga.BatchProblem). Raises ConfigError for
    bad bounds, counts, names or sense (validate_batch_spec)."""

    def __init__(self, fn: Callable[[Any], Any], lower: List[float], upper: List[float], names: List[str],
                 n_ineq: int, n_eq: int, sense: str, name: str,
                 coerce: Callable[[str, Any, int, int, int], Any], label: str, integer: bool = False,
                 integer_variables: List[int] = ..., device_fn: Optional[Callable[[Any], Any]] = None,
                 call_device: Optional[Callable[..., None]] = None) -> None:
        """`device_fn` (not None): the fitness of backend cuda, called through `call_device(label, device_fn, X,
        f, G, H)` with CUDA tensors over the device rows and output buffers."""
    @property
    def name(self) -> str: ...
    @property
    def dimension(self) -> int: ...

def parse_batch_config(spec: BatchSpec, text: str, source: str, overrides: List[str]) -> RunConfig:
    """The run options (no problem: section) for a BatchSpec. Raises ConfigError, also for precision float, the
    gradient repair, and backend cuda without a device_fn."""

def run_batch(spec: BatchSpec, config: RunConfig,
              callback: Optional[Callable[[GenerationStats], Any]] = None, checkpoint: Optional[str] = None,
              checkpoint_every: int = 0, checkpoint_every_s: float = 0.0,
              resume: Optional[str] = None) -> Dict[str, Any]:
    """Solves the BatchSpec with the GIL released except inside its fn and the callback; returns the fields of
    fusedga.Result. Exceptions raised by fn propagate unchanged. Checkpoints as run()."""
