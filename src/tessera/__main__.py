"""``python -m tessera``: the ``tessera`` command."""

from tessera.cli import PROG, main

main(prog_name=PROG)
