"""Topology builders and importers. Each returns a ``Topology``: scenario-ready ``nodes`` and
``links`` plus what the builder knows (hosts, roles, coordinates, ids, ports of interest).

    from wattnet.topology import abilene
    t = abilene()
    scenario = t.scenario(seed=1, duration_s=60, flows=[...])
"""

from wattnet.topology._fragment import Topology
from wattnet.topology.abilene import ABILENE_LINKS, ABILENE_NODES, abilene
from wattnet.topology.access import access_network
from wattnet.topology.bcube import bcube
from wattnet.topology.chain import bdp_buffer_packets, chain
from wattnet.topology.dumbbell import dumbbell
from wattnet.topology.fattree import fattree
from wattnet.topology.geo import haversine_km, propagation_delay_s, rounded_ms_delay_s
from wattnet.topology.graphml import from_graphml, to_graphml
from wattnet.topology.sndlib import from_sndlib
from wattnet.topology.vl2 import vl2

__all__ = [
    "ABILENE_LINKS",
    "ABILENE_NODES",
    "Topology",
    "abilene",
    "access_network",
    "bcube",
    "bdp_buffer_packets",
    "chain",
    "dumbbell",
    "fattree",
    "from_graphml",
    "from_sndlib",
    "haversine_km",
    "propagation_delay_s",
    "rounded_ms_delay_s",
    "to_graphml",
    "vl2",
]
