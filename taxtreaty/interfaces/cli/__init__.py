"""The `taxtreaty` command.

Each module in this package that defines ``register(app)`` adds its commands; the modules are
found at start-up, so a new command is a new file. Errors the user can fix (`InputError` and
its kin) print one line on stderr and exit with status 2; nothing prints a traceback unless
TAXTREATY_DEBUG is set.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

import typer

from taxtreaty.text import InputError

app = typer.Typer(
    name="taxtreaty",
    help="Tax treaties as structured, citable, executable law.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True),
) -> None:
    """Tax treaties as structured, citable, executable law."""
    if version:
        from taxtreaty import __version__

        typer.echo(__version__)
        raise typer.Exit()


class UserError(Exception):
    """An error to report to the user in one line (exit status 2)."""


def _register_commands() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)


_register_commands()


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"taxtreaty: error: {message}", err=True)
    raise typer.Exit(code)


def main() -> None:
    try:
        app()
    except (InputError, UserError) as exc:
        if os.environ.get("TAXTREATY_DEBUG"):
            raise
        typer.echo(f"taxtreaty: error: {exc}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:  # pragma: no cover
        typer.echo("taxtreaty: interrupted", err=True)
        sys.exit(130)
