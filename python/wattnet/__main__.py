"""`python -m wattnet` is the `wattnet` command."""

from wattnet.cli import app

app(prog_name="wattnet")
