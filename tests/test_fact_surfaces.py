"""Every fact of the schema reaches every surface (issue 13): an option of `taxtreaty ask` with the
schema's help, a field of the web ask form, and the same decision whichever way it is given."""

from __future__ import annotations

import dataclasses
import json
import re

import typer
from conftest import FIXTURES
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app as cli_app
from taxtreaty.interfaces.cli.fact_options import fact_parameters, flag
from taxtreaty.interfaces.http import MemoryBackend, create_app
from taxtreaty.rules.facts import FactSchema, fact_schema

TREATY = FIXTURES / "time" / "en_base.txt"


def _ask_options() -> dict[str, object]:
    command = typer.main.get_command(cli_app).commands["ask"]  # type: ignore[attr-defined]
    return {opt: param for param in command.params for opt in [*param.opts, *param.secondary_opts]}


def test_every_fact_is_an_ask_option_with_the_schemas_help() -> None:
    options = _ask_options()
    for key, fact in fact_schema().facts.items():
        assert flag(key) in options, key
        param = options[flag(key)]
        assert fact.help.rstrip(".").lower() in param.help.lower(), key  # type: ignore[attr-defined]
        for value in fact.choices:  # the values of a choice are listed
            assert value in param.help, (key, value)  # type: ignore[attr-defined]
        if fact.type == "bool":
            assert "--not-" + flag(key)[2:] in options, key
    assert all(key in options["--fact"].help for key in fact_schema().keys)  # type: ignore[attr-defined]


def test_a_fact_added_to_the_schema_becomes_an_option() -> None:
    schema = fact_schema()
    extra = dataclasses.replace(schema["royalty_kind"], key="aircraft_kind", help="the kind of aircraft leased")
    params = fact_parameters(FactSchema(facts={**schema.facts, "aircraft_kind": extra}))
    added = next(p for p in params if p.name == "aircraft_kind")
    assert added.default.param_decls == ("--aircraft-kind",) and "aircraft leased" in added.default.help


def test_an_option_and_fact_key_value_decide_alike() -> None:
    base = ["ask", "--treaty", str(TREATY), "--json", "--source", "GH", "--residence", "CL"]
    by_option = CliRunner().invoke(cli_app, [*base, "--income", "royalties", "--royalty-kind", "equipment",
                                             "--beneficial-owner", "--main-purpose"])
    by_fact = CliRunner().invoke(cli_app, [*base, "--fact", "income=royalties", "--fact", "royalty_kind=equipment",
                                           "--fact", "beneficial_owner=yes", "--fact", "main_purpose=yes"])
    assert by_option.exit_code == 0 and by_fact.exit_code == 0, by_option.output + by_fact.output
    assert json.loads(by_option.stdout) == json.loads(by_fact.stdout)
    wrong = CliRunner().invoke(cli_app, [*base, "--income", "royalties", "--royalty-kind", "aircraft"])
    assert wrong.exit_code == 2 and "royalty_kind" in wrong.output and "Traceback" not in wrong.output


def test_the_web_form_has_a_field_for_every_fact() -> None:
    page = TestClient(create_app(backend=MemoryBackend(), token="")).get("/web/ask").text
    for key, fact in fact_schema().facts.items():
        assert re.search(rf'<(input|select) id="{key}" name="{key}"', page), key
        for value in fact.choices:
            assert f'<option value="{value}"' in page, (key, value)


def test_every_fact_and_choice_is_in_the_docs_table() -> None:
    # docs/rules.md is where a user learns what to put in a ledger's columns: a fact or a choice added to the
    # schema but not to the table is a column nobody knows of (the income kinds are the topics, listed apart)
    docs = (FIXTURES.parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `(\w+)` \|[^\n]*", docs, re.M)}
    schema = fact_schema()
    for key in schema.keys:
        assert key in rows, f"{key} is not in docs/rules.md's table of facts"
        if key != "income":
            missing = [c for c in schema.choices(key) if c not in rows[key]]
            assert not missing, f"{key}: choices {missing} are not in docs/rules.md"
