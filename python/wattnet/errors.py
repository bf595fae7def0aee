"""Every error wattnet raises on purpose, in one hierarchy under ``WattnetError``.

The engine's binding raises ``ScenarioError`` and ``SimulationError`` from this module (it
builds them with the field path and message as separate values: nothing is parsed back out
of a string).
"""

from __future__ import annotations


class WattnetError(Exception):
    """Any error wattnet raises on purpose (a bug raises something else)."""


class ScenarioError(WattnetError, ValueError):
    """A scenario that cannot be run.

    ``errors`` lists ``(field, problem)`` pairs; ``field`` is a path such as
    ``links[0].rate_bps``, or ``""`` when the problem concerns the whole scenario.
    ``path`` and ``message`` are those of the first.

    Example:
        ```python
        try:
            wattnet.load_scenario("bad.toml")
        except wattnet.ScenarioError as error:
            for field, problem in error.errors:
                print(field, problem)   # links[1].rate_bps  input should be greater than or equal to 1
        ```
    """

    def __init__(self, errors: list[tuple[str, str]]):
        self.errors = [(str(field), str(problem)) for field, problem in errors]
        super().__init__(str(self))

    @property
    def path(self) -> str:
        return self.errors[0][0] if self.errors else ""

    @property
    def message(self) -> str:
        return self.errors[0][1] if self.errors else ""

    def __str__(self) -> str:
        return "\n".join(f"{field}: {problem}" if field else problem for field, problem in self.errors)

    def __reduce__(self) -> tuple[type[ScenarioError], tuple[list[tuple[str, str]]]]:
        # Keeps the (field, problem) list intact when pickled to another process.
        return (type(self), (self.errors,))


class RunTooLargeError(ScenarioError):
    """A scenario whose run would certainly need more memory than this machine has
    (``wattnet.run(..., force=True)`` or ``wattnet run --force`` runs it anyway)."""


class SimulationError(WattnetError, RuntimeError):
    """The engine found one of its invariants broken (packet conservation) or hit an internal error."""


class SweepError(WattnetError, ValueError):
    """A sweep that cannot start: a bad grid path, a grid value the scenario rejects, a bad
    number of replications or seed. Raised before any run starts; the message names the
    grid entry at fault."""


class StoreBusyError(WattnetError, RuntimeError):
    """Another sweep holds the store's lock."""


class WorkersDying(WattnetError, RuntimeError):
    """Workers keep dying before any task finishes: something is wrong with the workers (they
    cannot import wattnet, the main module cannot be imported by a spawned process, memory),
    not with one run, so no run is recorded as failed for it."""


class CostWarning(UserWarning):
    """A run that will take long or use much memory (its estimate is in the message)."""
