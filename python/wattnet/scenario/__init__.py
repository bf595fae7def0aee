"""The scenario schema: pydantic models mirroring the engine's contract (crates/wattnet-engine/src/scenario.rs).

Field names, defaults and tags are the engine's; every quantity carries its unit in its
name. Building a model validates it and raises ``ScenarioError`` naming each field at fault.

One module per section of the format; every public name is importable from here:

- ``limits``: the engine's limits and the constrained number types the fields share;
- ``base``: the base model and the field paths of validation errors;
- ``routing``, ``nodes``, ``queues``, ``power``, ``controllers``, ``links``: the network;
- ``traffic``, ``tcp``, ``mptcp``, ``flows``: what is sent and how;
- ``events``, ``recording``: changes at given times; time series and pcap captures;
- ``root``: ``Scenario`` itself; ``checks``: what no single field can check; ``files``: reading TOML and JSON.

A new model goes into its section's module and is exported here; a new tagged union is also
listed in ``root._UNIONS`` (its tags are dropped from error paths).
"""

from wattnet.scenario.checks import MAX_OVERLOAD
from wattnet.scenario.controllers import (
    AdaptiveLinkRate,
    CEarth,
    Controller,
    Earth,
    ExternalPolicy,
    FixedRate,
    GRouter,
    OpportunisticSleep,
    PracticalRateAdaptation,
    RateControl,
)
from wattnet.scenario.events import Event, LinkDown, LinkUp, SetRate, Sleep, Wake
from wattnet.scenario.files import load_scenario, read_toml, scenario_from_toml
from wattnet.scenario.flows import ExponentialSize, FixedSize, Flow, PacketSize, UniformSize, default_packet_size
from wattnet.scenario.limits import (
    I64_MAX,
    MAX_PCAP_NODES,
    MAX_RATE_BPS,
    MAX_REQUESTS_PER_S,
    MAX_SNAP_BYTES,
    MAX_TIME_S,
    PS_PER_S,
    U8_MAX,
    U32_MAX,
    U64_MAX,
    ErrorRate,
    NonNegativeSeconds,
    PortRate,
    PositiveRate,
    PositiveSeconds,
    on_the_clock,
    whole_rate,
)
from wattnet.scenario.links import Link, PortOverride, UniformAvailableBandwidth
from wattnet.scenario.mptcp import Mptcp
from wattnet.scenario.nodes import BatteryHost, HostPower, MptcpHost, Node
from wattnet.scenario.power import (
    ConstantPower,
    LineCardPower,
    Lpi,
    PowerLevel,
    PowerModel,
    RateScalingPower,
    RateTablePower,
)
from wattnet.scenario.queues import DropTail, Queue, Red, Threshold, default_queue
from wattnet.scenario.recording import FlowQuantity, Pcap, PortQuantity, Recorder
from wattnet.scenario.root import Scenario
from wattnet.scenario.routing import GlobalReconvergence, LinkStateReconvergence, Reconvergence, Routing
from wattnet.scenario.tcp import (
    Balia,
    Bic,
    CongestionControl,
    Coupled,
    Cubic,
    Dctcp,
    Dts,
    Dwc,
    EcMtcp,
    Ewtcp,
    ExternalCongestionControl,
    Lia,
    NewReno,
    Olia,
    Reno,
    Tahoe,
    Tcp,
    Vegas,
    WVegas,
)
from wattnet.scenario.traffic import TCP_TRAFFIC, Bulk, Cbr, OnOff, Poisson, Serial, Traffic, Transfer, Web

__all__ = [
    "I64_MAX",
    "MAX_OVERLOAD",
    "MAX_PCAP_NODES",
    "MAX_RATE_BPS",
    "MAX_REQUESTS_PER_S",
    "MAX_SNAP_BYTES",
    "MAX_TIME_S",
    "PS_PER_S",
    "TCP_TRAFFIC",
    "U8_MAX",
    "U32_MAX",
    "U64_MAX",
    "AdaptiveLinkRate",
    "Balia",
    "BatteryHost",
    "Bic",
    "Bulk",
    "CEarth",
    "Cbr",
    "CongestionControl",
    "ConstantPower",
    "Controller",
    "Coupled",
    "Cubic",
    "Dctcp",
    "DropTail",
    "Dts",
    "Dwc",
    "Earth",
    "EcMtcp",
    "ErrorRate",
    "Event",
    "Ewtcp",
    "ExponentialSize",
    "ExternalCongestionControl",
    "ExternalPolicy",
    "FixedRate",
    "FixedSize",
    "Flow",
    "FlowQuantity",
    "GRouter",
    "GlobalReconvergence",
    "HostPower",
    "Lia",
    "LineCardPower",
    "Link",
    "LinkDown",
    "LinkStateReconvergence",
    "LinkUp",
    "Lpi",
    "Mptcp",
    "MptcpHost",
    "NewReno",
    "Node",
    "NonNegativeSeconds",
    "Olia",
    "OnOff",
    "OpportunisticSleep",
    "PacketSize",
    "Pcap",
    "Poisson",
    "PortOverride",
    "PortQuantity",
    "PortRate",
    "PositiveRate",
    "PositiveSeconds",
    "PowerLevel",
    "PowerModel",
    "PracticalRateAdaptation",
    "Queue",
    "RateControl",
    "RateScalingPower",
    "RateTablePower",
    "Reconvergence",
    "Recorder",
    "Red",
    "Reno",
    "Routing",
    "Scenario",
    "Serial",
    "SetRate",
    "Sleep",
    "Tahoe",
    "Tcp",
    "Threshold",
    "Traffic",
    "Transfer",
    "UniformAvailableBandwidth",
    "UniformSize",
    "Vegas",
    "WVegas",
    "Wake",
    "Web",
    "default_packet_size",
    "default_queue",
    "load_scenario",
    "on_the_clock",
    "read_toml",
    "scenario_from_toml",
    "whole_rate",
]
