"""``python -m trictrac.cli`` runs the ``trictrac`` command."""

from .main import cli

if __name__ == "__main__":
    cli(prog_name="trictrac")
