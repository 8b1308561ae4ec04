"""``python -m trictrac.cli`` runs the ``trictrac`` command."""

from trictrac.cli.main import cli

if __name__ == "__main__":
    cli(prog_name="trictrac")
