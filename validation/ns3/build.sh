#!/bin/sh
# Compiles one C++ scenario against the ns-3 of the `ns3` wheel installed in a Python
# environment: the wheel ships ns-3's headers (site-packages/ns3/include) and shared libraries
# (site-packages/ns3/lib64), so no ns-3 source tree or CMake is needed.
#
#   validation/ns3/build.sh PYTHON SOURCE.cc OUTPUT
#
# PYTHON is the interpreter whose site-packages holds the wheel (make ns3 installs it into
# .venv). The definitions are those the wheel's CMake package exports to its users
# (lib64/cmake/ns3/ns3Targets.cmake); the run path lets OUTPUT find the libraries without
# LD_LIBRARY_PATH. --no-as-needed keeps the modules whose only use is their TypeId registration.
set -eu
python=$1
source=$2
output=$3
ns3=$("$python" -c 'import importlib.util; print(list(importlib.util.find_spec("ns3").submodule_search_locations)[0])')
if [ ! -d "$ns3/include/ns3" ] || [ ! -d "$ns3/lib64" ]; then
    echo "error: no ns-3 headers and libraries under $ns3 (make ns3 installs the wheel)" >&2
    exit 1
fi
mkdir -p "$(dirname "$output")"
exec g++ -std=c++20 -O2 -w \
    -DNS3_BUILD_PROFILE_RELEASE -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE -D__LINUX__ \
    -I"$ns3/include" "$source" -o "$output" \
    -L"$ns3/lib64" -Wl,-rpath,"$ns3/lib64" -Wl,--no-as-needed \
    -lns3.44-flow-monitor -lns3.44-applications -lns3.44-point-to-point -lns3.44-traffic-control \
    -lns3.44-internet -lns3.44-bridge -lns3.44-mobility -lns3.44-network -lns3.44-stats -lns3.44-core
