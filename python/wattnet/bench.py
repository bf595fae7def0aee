"""Speed benchmarks of the engine (`wattnet bench`, `make bench`): one dict of numbers each.

Each benchmark runs in a fresh interpreter (a spawned process), so that its ``peak_rss_mb``,
the process's peak resident set (``ru_maxrss``) in MiB, is its own: the interpreter and the
imported package (``rss_at_start_mb``, about 115 MiB) plus what that run alone added.
"""

from __future__ import annotations

import compileall
import json
import math
import multiprocessing
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from wattnet import _engine
from wattnet.cc import Reno
from wattnet.results import column_values
from wattnet.runner import advance, build_simulation
from wattnet.scenario import Scenario
from wattnet.topology import fattree

# One benchmark's result: its name and its numbers (counts, seconds, rates).
Measurement = dict[str, str | float]


def event_queue() -> Measurement:
    """The bare event queue: 20 M events through a queue holding 1000 pending ones."""
    clock = _Clock()
    events = _engine.bench_event_queue(20_000_000, 1000, 1)
    return _measurement("event_queue", packets=0, events=events, clock=clock)


def cbr_chain_scenario(hops: int = 10, flows: int = 10) -> Scenario:
    """n0–n1–…–n10 at 10 Gb/s, 1 ms per link, DropTail 1000 packets; ten 0.9 Gb/s CBR flows n0→n10."""
    return Scenario(
        name="bench-cbr-chain",
        seed=1,
        duration_s=2.0,
        nodes=[{"name": f"n{i}"} for i in range(hops + 1)],
        links=[
            {
                "a": f"n{i}",
                "b": f"n{i + 1}",
                "rate_bps": 10e9,
                "delay_s": 1e-3,
                "queue": {"type": "droptail", "limit_packets": 1000},
            }
            for i in range(hops)
        ],
        flows=[
            {
                "name": f"cbr{i}",
                "src": "n0",
                "dst": f"n{hops}",
                "traffic": {"type": "cbr", "rate_bps": 0.9e9},
                "packet_size": {"type": "fixed", "bytes": 1500},
            }
            for i in range(flows)
        ],
    )


# The bottleneck's rate policy in the `_practra` variant: practRA over 10, 20, …, 100 Mb/s with
# mRCI 100 ms (Nedevschi et al., NSDI 2008's defaults otherwise: d 10 ms, w 0.25), δ = 1 ms, and a
# frequency-scaling power model (1 W static + 1 W at 100 Mb/s) metering the port. T_s is 1 ms,
# Nedevschi et al.'s assumption, rather than the default mRCI: a tick every millisecond is the
# costliest setting, so the overhead measured is an upper bound.
PRACTRA_BOTTLENECK: dict[str, Any] = {
    "transition_s": 1e-3,
    "power": {"type": "rate_scaling", "static_w": 1.0, "dynamic_w": 1.0, "scaling": "frequency"},
    "controller": {
        "type": "practra",
        "rates_bps": [10e6 * m for m in range(1, 11)],
        "min_rate_change_interval_s": 0.1,
        "sample_interval_s": 1e-3,
    },
}


def dumbbell_scenario(
    congestion_control: str | dict[str, Any],
    flows: int = 100,
    duration_s: float = 60.0,
    bottleneck: dict[str, Any] | None = None,
) -> Scenario:
    """``flows`` bulk TCP flows s_i → r1 → r2 → d_i: access links 1 Gb/s with 1 ms each way, the
    bottleneck r1→r2 100 Mb/s with 8 ms, so the two-way propagation delay is 20 ms; its DropTail
    buffer holds one BDP, 100 Mb/s · 20 ms / 1500 B = 167 packets. MSS 1448 B; flow i starts
    at 10·i ms (ns2 profile otherwise). ``bottleneck`` overrides the port r1→r2 (``a_to_b``).
    ``congestion_control`` is an algorithm's name or its whole setting."""
    cc = {"type": congestion_control} if isinstance(congestion_control, str) else congestion_control
    tcp = {"profile": "ns2", "congestion_control": cc, "mss_bytes": 1448}
    return _dumbbell(
        f"bench-dumbbell-{cc['type']}",
        duration_s,
        1e9,
        100e6,
        167,
        tcp,
        [0.01 * i for i in range(flows)],
        bottleneck,
    )


def _dumbbell(
    name: str,
    duration_s: float,
    access_rate_bps: float,
    bottleneck_rate_bps: float,
    bottleneck_packets: int,
    tcp: dict[str, Any],
    starts: list[float],
    bottleneck: dict[str, Any] | None = None,
) -> Scenario:
    """The benchmarks' dumbbell: bulk TCP flows s_i → r1 → r2 → d_i, access links of 1 ms with
    1000-packet DropTail buffers, the bottleneck r1→r2 8 ms with ``bottleneck_packets``; one flow
    per entry of ``starts``, starting then. ``bottleneck`` overrides the port r1→r2 (``a_to_b``)."""
    flows = len(starts)
    access = {"rate_bps": access_rate_bps, "delay_s": 1e-3, "queue": {"type": "droptail", "limit_packets": 1000}}
    links = [
        {
            "a": "r1",
            "b": "r2",
            "rate_bps": bottleneck_rate_bps,
            "delay_s": 8e-3,
            "queue": {"type": "droptail", "limit_packets": bottleneck_packets},
            **({"a_to_b": bottleneck} if bottleneck else {}),
        }
    ]
    for i in range(flows):
        links += [{"a": f"s{i}", "b": "r1", **access}, {"a": "r2", "b": f"d{i}", **access}]
    return Scenario(
        name=name,
        seed=1,
        duration_s=duration_s,
        nodes=[{"name": n} for n in ("r1", "r2")] + [{"name": f"{e}{i}"} for i in range(flows) for e in "sd"],
        links=links,
        flows=[
            {
                "name": f"f{i}",
                "src": f"s{i}",
                "dst": f"d{i}",
                "traffic": {"type": "bulk"},
                "start_s": starts[i],
                "tcp": tcp,
            }
            for i in range(flows)
        ],
    )


def simulate(name: str, scenario: Scenario) -> Measurement:
    """A full simulation, built and run to its end; packets counts packet-hops (one per
    transmission on a port, the summary's ``packets``)."""
    clock = _Clock()
    simulation = build_simulation(scenario)
    advance(simulation)
    summary = simulation.results()["summary"]
    return _measurement(name, packets=_count(summary, "packets"), events=_count(summary, "events"), clock=clock)


def cbr_chain() -> Measurement:
    return simulate("cbr_chain", cbr_chain_scenario())


def dumbbell(congestion_control: str, variant: str = "") -> Measurement:
    bottleneck = {"": None, "practra": PRACTRA_BOTTLENECK}[variant]
    name = f"dumbbell_{congestion_control}" + (f"_{variant}" if variant else "")
    return simulate(name, dumbbell_scenario(congestion_control, bottleneck=bottleneck))


def fattree_routing_scenario(k: int, reconvergence: dict[str, Any]) -> Scenario:
    """FatTree(k) without traffic; the link agg0_0–core0_0 fails at 0.5 s of 1 s."""
    return fattree(k).scenario(
        name=f"bench-routing-fattree{k}",
        seed=1,
        duration_s=1.0,
        routing={"reconvergence": reconvergence},
        events=[{"action": "link_down", "at_s": 0.5, "a": "agg0_0", "b": "core0_0"}],
    )


def routing_fattree(k: int = 16, repeats: int = 5) -> Measurement:
    """Routing tables of FatTree(k) (k = 16: 1024 hosts, 320 switches, 6144 ports), each the
    best of ``repeats`` runs: ``build_s``, the engine building the simulation from the
    scenario's JSON (parsing, ports, and one SPF per router for every router's table);
    ``reconverge_s``, processing one agg–core link failure under global reconvergence (every
    router recomputes and installs its table); ``link_state_reconverge_s``, the same under
    link-state flooding (the LSA flood, then one SPF per router on what it has learned).
    ``changed_destinations`` sums the table entries the failure changed."""
    clock = _Clock()
    best: dict[str, float] = {}
    events = route_installs = changed = 0
    for key, reconvergence in (
        ("reconverge_s", {"model": "global"}),
        ("link_state_reconverge_s", {"model": "link_state"}),
    ):
        engine_json = fattree_routing_scenario(k, reconvergence).to_engine_json()
        for _ in range(repeats):
            started = time.perf_counter()
            simulation = _engine.Simulation(engine_json)
            built = time.perf_counter()
            simulation.run_until(0.4)  # nothing happens before the failure at 0.5 s
            failing = time.perf_counter()
            simulation.run_until(simulation.end_s)
            done = time.perf_counter()
            best["build_s"] = min(best.get("build_s", math.inf), built - started)
            best[key] = min(best.get(key, math.inf), done - failing)
        if key == "reconverge_s":
            results = simulation.results()
            events, route_installs = _count(results["summary"], "events"), _count(results["summary"], "route_installs")
            routing_events = results["tables"]["routing_events"]
            changed = sum(column_values(routing_events["changed_destinations"], "u64", "changed_destinations"))
    topology = fattree(k)
    return {
        **_measurement(f"routing_fattree{k}", packets=0, events=events, clock=clock),
        "nodes": len(topology.nodes),
        "ports": 2 * len(topology.links),
        "route_installs": route_installs,
        "changed_destinations": changed,
        "repeats": repeats,
        **best,
    }


def fattree_permutation_scenario(k: int, duration_s: float) -> Scenario:
    """htsim's TCP permutation on FatTree(k): 10 Gb/s everywhere, 1 µs per link, 8-packet
    DropTail buffers, ECMP; every host sends one endless NewReno transfer (1500 B packets, no
    SACK, no delayed ACKs: htsim's TCP) to another, the destinations a seeded random derangement
    of the hosts. ACKs cross the same queues as data."""
    topology = fattree(k, rate_bps=10e9, delay_s=1e-6, buffer_packets=8)
    hosts = topology.hosts
    rng = random.Random(k)
    while True:
        targets = rng.sample(hosts, len(hosts))
        if all(a != b for a, b in zip(hosts, targets)):
            break
    tcp = {"profile": "ns2", "congestion_control": {"type": "newreno"}, "mss_bytes": 1460, "header_bytes": 40}
    return topology.scenario(
        name=f"bench-permutation-fattree{k}",
        seed=1,
        duration_s=duration_s,
        routing={"ecmp": True},
        flows=[
            {"name": f"p{i}", "src": a, "dst": b, "traffic": {"type": "bulk"}, "tcp": tcp}
            for i, (a, b) in enumerate(zip(hosts, targets))
        ],
    )


def permutation_fattree(k: int, duration_s: float) -> Measurement:
    return simulate(f"permutation_fattree{k}", fattree_permutation_scenario(k, duration_s))


def mptcp_permutation_fattree(k: int, duration_s: float, subflows: int) -> Measurement:
    """The permutation above with every transfer a Multipath TCP connection of ``subflows``
    subflows between its two single-homed hosts, each subflow with its own ECMP hash (the
    scheduler min_rtt; the subflows coupled by LIA, RFC 6356 §3). The flows' ``mptcp`` table and
    LIA are set in the engine's scenario directly."""
    engine = json.loads(fattree_permutation_scenario(k, duration_s).to_engine_json())
    engine["name"] = f"bench-mptcp-permutation-fattree{k}"
    for flow in engine["flows"]:
        flow["mptcp"] = {"subflows_per_path": subflows}
        flow["tcp"]["congestion_control"] = {"type": "lia"}
    clock = _Clock()
    simulation = _engine.Simulation(json.dumps(engine), None, None)
    advance(simulation)
    summary = simulation.results()["summary"]
    name = f"mptcp{subflows}_permutation_fattree{k}"
    return _measurement(name, packets=_count(summary, "packets"), events=_count(summary, "events"), clock=clock)


def dumbbell_10g_scenario(flows: int, duration_s: float, profile: str) -> Scenario:
    """``flows`` bulk TCP flows s_i → r1 → r2 → d_i, every link 10 Gb/s; access links 1 ms, the
    bottleneck 8 ms (two-way propagation 20 ms), its DropTail buffer one BDP (10 Gb/s · 20 ms /
    1500 B = 16 667 packets), access buffers 1000 packets. NewReno with the ``profile``'s
    settings, MSS 1448 B; flow i starts at i·(1 s / flows), so every flow runs by 1 s."""
    tcp = {"profile": profile, "congestion_control": {"type": "newreno"}, "mss_bytes": 1448}
    starts = [i / flows for i in range(flows)]
    return _dumbbell(f"bench-dumbbell10g-{flows}", duration_s, 10e9, 10e9, 16667, tcp, starts)


def dumbbell_10g(flows: int, duration_s: float, profile: str) -> Measurement:
    return simulate(f"dumbbell10g_{flows}_{profile}", dumbbell_10g_scenario(flows, duration_s, profile))


def _in_fresh_process(measure: Callable[[], Measurement]) -> Measurement:
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(_with_rss_at_start, measure).result()


def _with_rss_at_start(measure: Callable[[], Measurement]) -> Measurement:
    """Adds ``rss_at_start_mb``, the process's peak RSS before the benchmark (the interpreter
    and the imports), so that peak_rss_mb − rss_at_start_mb is what the run itself added."""
    at_start = _peak_rss_mb()
    return {**measure(), "rss_at_start_mb": at_start}


def _peak_rss_mb() -> float:
    # Linux reports ru_maxrss in KiB.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _CountingPolicy:
    """A Python policy that does nothing but count its calls: the cost of the crossing alone."""

    calls = 0

    def __init__(self, port: Any):
        pass

    def observe(self, view: Any) -> None:
        _CountingPolicy.calls += 1


def python_policy(flows: int = 100, duration_s: float = 10.0) -> Measurement:
    """What a policy written in Python costs per call (docs/python-policies.md): the
    ``dumbbell_newreno_practra`` bottleneck for ``duration_s``, run with practRA built in and
    with its Python re-implementation (``wattnet.policy.PracticalRateAdaptation``, called at
    every arrival, departure and 1 ms tick; the results are identical), and with a policy that
    does nothing against no policy at all. Costs are CPU time per call, in µs."""
    from wattnet.policy import PracticalRateAdaptation

    controller = PRACTRA_BOTTLENECK["controller"]
    python_practra = {
        "type": "external", "policy": "practra", "interval_s": controller["sample_interval_s"], "per_packet": True,
        "params": {"rates_bps": controller["rates_bps"], "min_rate_change_interval_s": 0.1},
    }  # fmt: skip
    variants = {
        "builtin": {**PRACTRA_BOTTLENECK},
        "python": {**PRACTRA_BOTTLENECK, "controller": python_practra},
        "none": {key: value for key, value in PRACTRA_BOTTLENECK.items() if key != "controller"},
        "noop": {**PRACTRA_BOTTLENECK, "controller": {"type": "external", "policy": "noop", "per_packet": True,
                                                      "interval_s": controller["sample_interval_s"]}},
    }  # fmt: skip
    policies = {"practra": PracticalRateAdaptation, "noop": _CountingPolicy}
    cpu_s, summaries, calls = {}, {}, {}
    for name, bottleneck in variants.items():
        scenario = dumbbell_scenario("newreno", flows=flows, duration_s=duration_s, bottleneck=bottleneck)
        clock = _Clock()
        simulation = build_simulation(scenario, policies=policies)
        advance(simulation)
        results = simulation.results()
        cpu_s[name] = clock.elapsed()[1]
        summaries[name] = results["summary"]
        port = column_values(results["tables"]["ports"]["port"], "str", "port").index("r1->r2")
        columns = results["tables"]["ports"]
        # Calls: an arrival per packet offered (queued or dropped), a departure per packet sent, and the ticks.
        calls[name] = sum(
            column_values(columns[c], "u64", c)[port]
            for c in ("enqueued_packets", "dropped_packets", "transmitted_packets")
        )
        calls[name] += math.floor(round(duration_s / controller["sample_interval_s"], 9))
    if calls["noop"] != _CountingPolicy.calls:
        raise RuntimeError(f"the call count {calls['noop']} is not the {_CountingPolicy.calls} calls made")
    if summaries["python"]["packets"] != summaries["builtin"]["packets"]:
        raise RuntimeError("the Python practRA did not reproduce the built-in one")
    return {
        "name": "python_policy",
        "calls": calls["python"],
        "builtin_cpu_s": cpu_s["builtin"],
        "python_cpu_s": cpu_s["python"],
        "practra_us_per_call": (cpu_s["python"] - cpu_s["builtin"]) / calls["python"] * 1e6,
        "noop_calls": calls["noop"],
        "crossing_us_per_call": (cpu_s["noop"] - cpu_s["none"]) / calls["noop"] * 1e6,
        "events": summaries["python"]["events"],
        "peak_rss_mb": _peak_rss_mb(),
    }


def run_overhead(runs: int = 11) -> Measurement:
    """What `wattnet run` costs beyond the simulation: ``examples/chain.toml`` (a few hundredths of a
    second in the engine) run ``runs`` times as a command, each an interpreter start, the imports,
    validation, the run and every Parquet table written. Medians of the wall times; ``cpu_s`` is
    the mean CPU time of a run (steadier on a shared machine), ``peak_rss_mb`` the largest run's.

    The package's bytecode is compiled first, as an installed wheel has it: an editable install
    under PYTHONDONTWRITEBYTECODE would otherwise compile every module again on every run (about
    a fifth of its CPU time here), which is the development setup's cost, not wattnet's."""
    scenario = Path(__file__).resolve().parents[2] / "examples" / "chain.toml"
    compileall.compile_dir(Path(__file__).resolve().parent, quiet=1)
    walls, engine = [], []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as out:
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "wattnet", "run", str(scenario), "--out", out, "-q"], check=True)
            walls.append(time.perf_counter() - started)
            engine.append(json.loads((Path(out) / "summary.json").read_text())["wall_time_s"])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "name": "run_overhead",
        "runs": runs,
        "wall_s": statistics.median(walls),
        "engine_wall_s": statistics.median(engine),
        "overhead_wall_s": statistics.median(wall - run for wall, run in zip(walls, engine, strict=True)),
        "cpu_s": (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / runs,
        "peak_rss_mb": after.ru_maxrss / 1024,
    }


def python_cc(flows: int = 100, duration_s: float = 10.0) -> Measurement:
    """What a congestion control written in Python costs per call (docs/python-congestion-control.md):
    the ``dumbbell_newreno`` benchmark for ``duration_s``, run with NewReno's window built in and
    with its Python re-implementation (``wattnet.cc.Reno``; the results are identical), and with
    that Python Reno plus an ``on_ack`` that does nothing (the cost of one crossing). A fourth run,
    not timed, counts the hook calls. Costs are CPU time per call, in µs."""
    variants: dict[str, str | dict[str, Any]] = {
        "builtin": "newreno",
        "python": {"type": "external", "algorithm": "reno"},
        "noop_on_ack": {"type": "external", "algorithm": "noop_on_ack"},
        "counting": {"type": "external", "algorithm": "counting"},
    }
    algorithms = {"reno": Reno, "noop_on_ack": _RenoWithIdleOnAck, "counting": _CountingReno}
    cpu_s, summaries = {}, {}
    for name, cc in variants.items():
        scenario = dumbbell_scenario(cc, flows=flows, duration_s=duration_s)
        clock = _Clock()
        simulation = build_simulation(scenario, algorithms=algorithms)
        advance(simulation)
        summaries[name] = simulation.results()["summary"]
        cpu_s[name] = clock.elapsed()[1]
    if any(summary != summaries["builtin"] for summary in summaries.values()):
        raise RuntimeError("the Python Reno did not reproduce the built-in one")
    calls = _CountingReno.calls
    reno_calls = calls["grow"] + calls["on_loss"]
    return {
        "name": "python_cc",
        "calls": reno_calls,
        "builtin_cpu_s": cpu_s["builtin"],
        "python_cpu_s": cpu_s["python"],
        "reno_us_per_call": (cpu_s["python"] - cpu_s["builtin"]) / reno_calls * 1e6,
        "on_ack_calls": calls["on_ack"],
        "crossing_us_per_call": (cpu_s["noop_on_ack"] - cpu_s["python"]) / calls["on_ack"] * 1e6,
        "events": summaries["python"]["events"],
        "peak_rss_mb": _peak_rss_mb(),
    }


class _RenoWithIdleOnAck(Reno):
    """The Python Reno with an ``on_ack`` hook that does nothing: one more crossing per ACK."""

    def on_ack(self, ack: Any, subflows: Any) -> None:
        pass


class _CountingReno(Reno):
    """The Python Reno counting its hook calls (in a run of its own: counting costs time)."""

    calls: ClassVar[dict[str, int]] = {"grow": 0, "on_loss": 0, "on_ack": 0}

    def on_ack(self, ack: Any, subflows: Any) -> None:
        _CountingReno.calls["on_ack"] += 1

    def grow(self, ack: Any, subflows: Any) -> float:
        _CountingReno.calls["grow"] += 1
        return super().grow(ack, subflows)

    def on_loss(self, signal: Any, subflows: Any) -> float:
        _CountingReno.calls["on_loss"] += 1
        return super().on_loss(signal, subflows)


_MEASURES: dict[str, Callable[[], Measurement]] = {
    "event_queue": event_queue,
    "cbr_chain": cbr_chain,
    "dumbbell_newreno": partial(dumbbell, "newreno"),
    "dumbbell_newreno_practra": partial(dumbbell, "newreno", "practra"),
    "dumbbell_cubic": partial(dumbbell, "cubic"),
    "routing_fattree16": partial(routing_fattree, 16),
    "python_policy": python_policy,
    "python_cc": python_cc,
    "permutation_fattree8": partial(permutation_fattree, 8, 0.2),
    "permutation_fattree16": partial(permutation_fattree, 16, 0.02),
    "mptcp8_permutation_fattree8": partial(mptcp_permutation_fattree, 8, 0.2, 8),
    "dumbbell10g_1_ns2": partial(dumbbell_10g, 1, 2.0, "ns2"),
    "dumbbell10g_10000_ns2": partial(dumbbell_10g, 10_000, 10.0, "ns2"),
    "dumbbell10g_100_linux": partial(dumbbell_10g, 100, 2.0, "linux"),
    "run_overhead": run_overhead,
}

# The benchmarks that run one scenario, and the function that builds it from their arguments.
_SCENARIOS: dict[Callable[..., Measurement], Callable[..., Scenario]] = {
    permutation_fattree: fattree_permutation_scenario,
    dumbbell_10g: dumbbell_10g_scenario,
}


def scenario_of(name: str) -> Scenario:
    """The scenario benchmark ``name`` runs (a FatTree permutation or a 10 Gb/s dumbbell), for
    running it elsewhere: in the engine alone (``tools/paired_bench.py``), or in another simulator."""
    measure = _MEASURES.get(name)
    if isinstance(measure, partial) and measure.func in _SCENARIOS:
        return _SCENARIOS[measure.func](*measure.args)
    runnable = sorted(n for n, m in _MEASURES.items() if isinstance(m, partial) and m.func in _SCENARIOS)
    raise ValueError(f"benchmark {name!r} is not one scenario; these are: {', '.join(runnable)}")


BENCHMARKS: dict[str, Callable[[], Measurement]] = {
    name: partial(_in_fresh_process, measure) for name, measure in _MEASURES.items()
}


class _Clock:
    """Wall time and this process's CPU time since creation. On a shared machine the CPU
    time is the steadier measure; the rates are per wall second."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def elapsed(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def _count(summary: dict[str, int | float], name: str) -> int:
    """A counter of the engine's summary, which sends counts as integers."""
    value = summary[name]
    if not isinstance(value, int):
        raise TypeError(f"the summary's {name} is {value!r}, not a count")
    return value


def _measurement(name: str, packets: int, events: int, clock: _Clock) -> Measurement:
    """Rates per wall second and, steadier on a shared machine, per CPU second; packets are
    link transmissions, so ``cpu_ns_per_packet`` is the cost of one."""
    wall_s, cpu_s = clock.elapsed()
    return {
        "name": name,
        "packets": packets,
        "events": events,
        "wall_s": wall_s,
        "packets_per_s": packets / wall_s,
        "events_per_s": events / wall_s,
        "cpu_s": cpu_s,
        "packets_per_cpu_s": packets / cpu_s if cpu_s > 0 else 0.0,
        "events_per_cpu_s": events / cpu_s if cpu_s > 0 else 0.0,
        "cpu_ns_per_packet": cpu_s / packets * 1e9 if packets else 0.0,
        "peak_rss_mb": _peak_rss_mb(),
    }


# A benchmark regresses when one of these moves the wrong way by more than the tolerance:
# (quantity, True if more is better).
COMPARED = (("events_per_cpu_s", True), ("packets_per_cpu_s", True), ("cpu_s", False), ("peak_rss_mb", False))


def compare(current: list[dict[str, Any]], previous: list[dict[str, Any]], tolerance: float = 0.05) -> list[str]:
    """One line per benchmark present in both runs: each compared quantity before → now and its
    ratio, ``REGRESSION`` where it got worse by more than ``tolerance`` (a fraction)."""
    before = {b["name"]: b for b in previous}
    lines = []
    for now in current:
        old = before.get(now["name"])
        if old is None:
            lines.append(f"{now['name']}: not in the previous results")
            continue
        parts, worse = [], False
        for key, more_is_better in COMPARED:
            if not old.get(key) or key not in now:
                continue
            ratio = now[key] / old[key]
            regressed = ratio < 1 - tolerance if more_is_better else ratio > 1 + tolerance
            worse |= regressed
            parts.append(f"{key} {old[key]:.4g} → {now[key]:.4g} (×{ratio:.2f}{', worse' if regressed else ''})")
        lines.append(f"{'REGRESSION ' if worse else ''}{now['name']}: " + "; ".join(parts))
    return lines
