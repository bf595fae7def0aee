"""Errors that reach the user, each naming the scenario field at fault."""

from __future__ import annotations

import re


class ScenarioError(ValueError):
    """A scenario that cannot be run.

    ``errors`` lists ``(field, problem)`` pairs; ``field`` is a path such as
    ``links[0].rate_bps``, or ``""`` when the problem concerns the whole scenario.

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

    def __str__(self) -> str:
        return "\n".join(f"{field}: {problem}" if field else problem for field, problem in self.errors)

    def __reduce__(self) -> tuple[type[ScenarioError], tuple[list[tuple[str, str]]]]:
        # Keeps the (field, problem) list intact when pickled to another process.
        return (ScenarioError, (self.errors,))


class SweepError(ValueError):
    """A sweep that cannot start: a bad grid path, a grid value the scenario rejects, a bad
    number of replications or seed. Raised before any run starts; the message names the
    grid entry at fault."""


# "links[0].rate_bps: problem" as the engine formats it; a message without a field path
# concerns the whole scenario.
_ENGINE_MESSAGE = re.compile(
    r"^(?P<field>[A-Za-z_]\w*(?:\[\d+\])*(?:\.[A-Za-z_]\w*(?:\[\d+\])*)*): (?P<problem>.*)$", re.DOTALL
)


def from_engine_message(message: str) -> ScenarioError:
    """Turns the engine's ``field.path: problem`` message into a ScenarioError."""
    match = _ENGINE_MESSAGE.match(message)
    if match is None:
        return ScenarioError([("", message)])
    return ScenarioError([(match["field"], match["problem"])])
