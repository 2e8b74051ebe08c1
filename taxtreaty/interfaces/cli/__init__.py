"""The `taxtreaty` command.

Each module in this package that defines ``register(app)`` adds its commands; the modules are
found at start-up, so a new command is a new file.

Exit statuses: 0 done; 1 done, with rejected items (`ledger --strict`, `ingest`, `check`);
2 bad input or an environment that refuses (unreadable file, full disk, busy port), with one
line on stderr; 3 a bug, one line naming it (TAXTREATY_DEBUG=1 shows the traceback); 130
interrupted. SIGTERM and SIGHUP end a command the way Ctrl-C does, so its temporary files
are removed.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import signal
import sys
import threading
from typing import Any

import typer
from typer._click.exceptions import ClickException, NoArgsIsHelpError  # the Click Typer ships
from typer.core import TyperGroup

from taxtreaty.text import InputError

EXIT_BAD_INPUT = 2
EXIT_BUG = 3


class UserError(Exception):
    """An error to report to the user in one line (exit status 2)."""


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def exit_on_signals() -> dict[int, Any]:
    """SIGTERM / SIGHUP raise SystemExit in the main thread: `finally` blocks run (temporary
    files are removed) as they do for Ctrl-C. Returns the handlers it replaced (`restore_signals`
    puts them back: a command run inside a longer-lived process, such as a test, must not leave
    them to processes that process forks later)."""
    previous: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous

    def stop(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            number = getattr(signal, name)
            previous[number] = signal.signal(number, stop)
    return previous


def restore_signals(previous: dict[int, Any]) -> None:
    for number, handler in previous.items():
        signal.signal(number, handler)


def failure(exc: BaseException) -> tuple[str, int] | None:
    """The one line and exit status for an exception a command let through; None for the ones
    Typer handles itself (exits, help) and for interrupts."""
    if isinstance(exc, ClickException) and not isinstance(exc, NoArgsIsHelpError):  # a usage error
        return f"taxtreaty: error: {_one_line(exc.format_message())} (see --help)", exc.exit_code
    if isinstance(exc, SystemExit | KeyboardInterrupt) or type(exc).__module__.startswith(("typer", "click")):
        return None
    if isinstance(exc, InputError | UserError):
        return f"taxtreaty: error: {_one_line(exc)}", EXIT_BAD_INPUT
    if isinstance(exc, OSError):  # a full disk, a file that vanished, a folder without write permission
        where = f" {exc.filename}:" if getattr(exc, "filename", None) else ""
        return f"taxtreaty: error:{where} {exc.strerror or _one_line(exc)}", EXIT_BAD_INPUT
    if isinstance(exc, RecursionError):
        return "taxtreaty: error: the input is nested too deeply to read", EXIT_BAD_INPUT
    if isinstance(exc, MemoryError):
        return "taxtreaty: error: the input is too large for the memory of this machine", EXIT_BAD_INPUT
    if isinstance(exc, Exception):
        return (f"taxtreaty: internal error: {type(exc).__name__}: {_one_line(exc)[:300]} "
                "(a bug; TAXTREATY_DEBUG=1 shows where)", EXIT_BUG)
    return None


class _Group(TyperGroup):
    """Every failure of every command is one line on stderr and an exit status, never a traceback."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except ClickException as exc:
            found = failure(exc)
            if found is None:
                raise
            typer.echo(found[0], err=True)
            raise typer.Exit(found[1]) from None

    def invoke(self, ctx: typer.Context) -> Any:
        previous = exit_on_signals()
        try:
            return super().invoke(ctx)
        except BaseException as exc:
            found = None if os.environ.get("TAXTREATY_DEBUG") else failure(exc)
            if found is None:
                raise
            typer.echo(found[0], err=True)
            raise typer.Exit(found[1]) from None
        finally:
            restore_signals(previous)


app = typer.Typer(
    name="taxtreaty",
    help="Tax treaties as structured, citable, executable law.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=_Group,
    invoke_without_command=True,
)


@app.callback()
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True),
) -> None:
    """Tax treaties as structured, citable, executable law."""
    if version:
        from taxtreaty import __version__

        typer.echo(f"taxtreaty {__version__}")
        raise typer.Exit()
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit()


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
    exit_on_signals()
    try:
        app()
    except (InputError, UserError) as exc:  # raised outside a command (option parsing callbacks)
        if os.environ.get("TAXTREATY_DEBUG"):
            raise
        typer.echo(f"taxtreaty: error: {_one_line(exc)}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except KeyboardInterrupt:  # pragma: no cover
        typer.echo("taxtreaty: interrupted", err=True)
        sys.exit(130)
