"""Settings: each bad value is a one-line startup error naming the variable and what it accepts;
PLING_SECRETS is parsed as python-dotenv parses it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from pydantic import ValidationError

from pling_browser.config import Settings, SettingsError, load_secrets, near_misses

from . import command_line

# variable, bad value, words the one line must contain (the variable is always checked).
BAD = [
    ("PLING_MAX_SESSIONS", "four", ["'four'", "whole number of at least 1"]),
    ("PLING_MAX_SESSIONS", "-3", ["'-3'", "whole number of at least 1"]),
    ("PLING_MAX_SESSIONS", "0", ["at least 1"]),
    ("PLING_CONFIRM", "htpp", ["'htpp'", "none, http"]),
    ("PLING_RISK", "remove:dangerous", ["'remove:dangerous'", "read, write, danger"]),
    ("PLING_RISK", "clear_done:write,remove", ["'remove' is not ID:RISK"]),
    ("PLING_CONFIRM_TIMEOUT", "soon", ["'soon'", "seconds greater than 0"]),
    ("PLING_CONFIRM_TIMEOUT", "-1", ["greater than 0"]),
    ("PLING_QUEUE", "-1", ["at least 0"]),
    ("PLING_QUEUE_TIMEOUT", "nan", ["greater than 0"]),
    ("PLING_INVOKE_WAIT", "-1", ["'-1'", "seconds, 0 or more"]),
    ("PLING_INVOKE_WAIT", "inf", ["0 or more"]),
    ("PLING_IDLE_TIMEOUT", "0", ["greater than 0"]),
    ("PLING_MAX_LIFETIME", "1h", ["'1h'"]),
    ("PLING_RETENTION_DAYS", "forever", ["days greater than 0"]),
    ("PLING_ALLOW_HOSTS", "example.test:http", ["bad port", "HOST:PORT"]),
    ("PLING_BROWSER_ENDPOINT", "http://127.0.0.1:3000", ["ws:// or wss://"]),
    ("PLING_SECRETS", "/nonexistent/secrets.env", ["readable dotenv file"]),
]


@pytest.mark.parametrize(("variable", "value", "words"), BAD, ids=[f"{v}={x}" for v, x, _ in BAD])
def test_a_bad_value_is_one_line_naming_the_variable(variable: str, value: str, words: list[str]) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({variable: value})
    line = str(caught.value)
    assert "\n" not in line
    assert line.startswith(f"{variable}=")
    for word in words:
        assert word in line


def _serve(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PLING_")}
    return command_line.run("serve", "--port", "0", env={**environ, **env})


@pytest.mark.parametrize(("variable", "value"), [("PLING_MAX_SESSIONS", "four"), ("PLING_MAX_SESSIONS", "-3"),
                                                 ("PLING_CONFIRM", "htpp"), ("PLING_RISK", "remove:dangerous")])
def test_serve_stops_at_startup_with_one_line(variable: str, value: str) -> None:
    done = _serve({variable: value})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"pling-browser: {variable}='{value}' is invalid")
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_several_bad_values_are_all_named_on_the_one_line() -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"PLING_CONFIRM": "htpp", "PLING_MAX_SESSIONS": "four"})
    assert "PLING_CONFIRM=" in str(caught.value) and "PLING_MAX_SESSIONS=" in str(caught.value)


def test_the_token_value_is_never_echoed() -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"PLING_TOKEN": "s3cr3t-value", "PLING_MAX_SESSIONS": "x"})
    assert "s3cr3t-value" not in str(caught.value)


def test_good_values_are_read() -> None:
    settings = Settings.from_env({
        "PLING_MAX_SESSIONS": " 3 ", "PLING_CONFIRM": "HTTP", "PLING_RISK": "remove:danger, *:write",
        "PLING_APPROVE": "danger,clear_done", "PLING_ALLOW_HOSTS": "127.0.0.1:8080, example.test",
        "PLING_CONFIRM_TIMEOUT": "2.5", "PLING_QUEUE": "0", "PLING_BROWSER_ENDPOINT": "ws://127.0.0.1:3000/x",
        "PLING_DATA_DIR": "/tmp/pling-data", "PLING_RETENTION_DAYS": "2", "PLING_TOKEN": "", "PLING_INVOKE_WAIT": "0",
    })
    assert settings.max_sessions == 3 and settings.confirm == "http" and settings.queue == 0
    assert settings.risks == (("remove", "danger"), ("*", "write"))
    assert settings.approve == ("danger", "clear_done")
    assert settings.allow_hosts == ("127.0.0.1:8080", "example.test")
    assert settings.confirm_timeout_s == 2.5 and settings.retention_days == 2 and settings.invoke_wait_s == 0
    assert settings.browser_endpoints == ("ws://127.0.0.1:3000/x",)
    assert settings.data_dir == Path("/tmp/pling-data")
    assert settings.token is None  # empty is unset


def test_defaults_and_with_() -> None:
    settings = Settings.from_env({})
    assert settings.confirm == "none" and settings.max_sessions >= 2 and settings.retention_days == 7
    assert settings.invoke_wait_s == 30
    changed = settings.with_(max_sessions=1, approve=("danger",))
    assert changed.max_sessions == 1 and changed.approve == ("danger",) and settings.max_sessions >= 2
    with pytest.raises(ValidationError, match="frozen"):
        settings.max_sessions = 3  # type: ignore[misc]


def test_fields_without_a_variable_are_not_read_from_the_environment() -> None:
    assert Settings.from_env({"PLING_HEADLESS": "false", "PLING_SETTLE_CAP_MS": "1"}).headless is True


def test_a_near_miss_variable_is_warned_about() -> None:
    assert near_misses({"PLING_APROVE": "danger", "PLING_URL": "x"}) == [
        "PLING_APROVE is not a setting and is ignored; did you mean PLING_APPROVE?"]


def test_the_cli_warns_about_a_near_miss(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PLING_")}
    done = command_line.run("run", str(tmp_path / "missing.json"), env={**environ, "PLING_APROVE": "danger"})
    assert "warning: PLING_APROVE is not a setting and is ignored; did you mean PLING_APPROVE?" in done.stderr


def test_secrets_are_parsed_as_python_dotenv_does(tmp_path: Path) -> None:
    path = tmp_path / "secrets.env"
    path.write_text(
        "# operator secrets\n"
        "CARD=4111 1111 1111 1111  # the test card\n"
        "export PIN='12 34'\n"
        'ESCAPED="a\\"quoted\\" \\n value"\n'
        'MULTI="line one\nline two"\n'
        "HASH=abc#def\n"
        "LITERAL=${HOME}/x\n"
        "SINGLE='no \\n escape'\n"
        "EMPTY=\n"
        "NOVALUE\n", encoding="utf-8")
    secrets = load_secrets(str(path))
    assert secrets["CARD"] == "4111 1111 1111 1111"
    assert secrets["PIN"] == "12 34"
    assert secrets["ESCAPED"] == 'a"quoted" \n value'
    assert secrets["MULTI"] == "line one\nline two"
    assert secrets["HASH"] == "abc#def"
    assert secrets["LITERAL"] == "${HOME}/x"  # never interpolated from the environment
    assert secrets["SINGLE"] == "no \\n escape"
    assert secrets["EMPTY"] == ""
    assert "NOVALUE" not in secrets
