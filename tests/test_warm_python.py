"""``tests/warm_python.py``: a command run by the warm server behaves as ``python ARGS`` in a fresh
process: argv, working folder, environment, ``sys.path``, standard streams, exit status, ``atexit``
handlers, random seeds; an environment the preloaded modules would have read differently gets a fresh
interpreter."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import start_warm_python


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """A server that preloads nothing and checks the environment (as the ``hub`` server does)."""
    env = dict(os.environ, WARM_TEST_IMPORT_SETTING="server")
    yield from start_warm_python("none", env)


def _run(warm, args, tmp_path, stdin: str = "", **env) -> subprocess.CompletedProcess:
    environ = {**os.environ, "WARM_TEST_IMPORT_SETTING": "server", **env}
    return subprocess.run([*warm, *args], cwd=tmp_path, env=environ, input=stdin, capture_output=True, text=True,
                          timeout=60)


def test_the_server_started(warm):
    assert warm[-2] == "run", "the warm server did not start: every command would run cold"


def test_argv_cwd_environment_path_and_streams(warm, tmp_path):
    code = ("import json, os, sys\nprint(json.dumps([sys.argv, os.getcwd(), os.environ['X'], sys.path[:2],"
            " sys.stdin.read()]))\nprint('to stderr', file=sys.stderr)\nsys.exit(3)")
    proc = _run(warm, ["-c", code, "a", "b c"], tmp_path, stdin="in", X="1", PYTHONPATH="/p1")
    assert proc.returncode == 3, proc.stderr
    argv, cwd, x, path, stdin = __import__("json").loads(proc.stdout)
    assert (argv, cwd, x, path, stdin) == (["-c", "a", "b c"], str(tmp_path), "1", ["", "/p1"], "in")
    assert proc.stderr == "to stderr\n"


def test_modules_and_scripts_run_as_main(warm, tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "__main__.py").write_text("import sys\nprint(__name__, sys.argv[1:])\n")
    (tmp_path / "script.py").write_text("import sys\nprint(__name__, sys.argv, sys.path[0])\n")
    assert _run(warm, ["-m", "pkg", "x"], tmp_path).stdout == "__main__ ['x']\n"
    assert _run(warm, [str(tmp_path / "script.py"), "y"], tmp_path).stdout == \
        f"__main__ ['{tmp_path / 'script.py'}', 'y'] {tmp_path}\n"


@pytest.mark.parametrize("code, status, stderr", [
    ("raise SystemExit('bad input')", 1, "bad input\n"),
    ("raise KeyError('boom')", 1, "KeyError: 'boom'\n"),
    ("raise KeyboardInterrupt", 130, "KeyboardInterrupt\n"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", 137, ""),
    ("import sys; sys.exit(None)", 0, ""),
])
def test_exit_status_as_a_fresh_process(warm, tmp_path, code, status, stderr):
    proc = _run(warm, ["-c", code], tmp_path)
    assert proc.returncode == status and proc.stderr.endswith(stderr), proc.stderr


def test_atexit_handlers_and_threads_finish_before_the_exit(warm, tmp_path):
    code = ("import atexit, threading, time\natexit.register(print, 'atexit ran')\n"
            "threading.Thread(target=lambda: (time.sleep(0.2), print('thread done'))).start()")
    assert _run(warm, ["-c", code], tmp_path).stdout == "thread done\natexit ran\n"


def test_each_command_gets_fresh_random_seeds(warm, tmp_path):
    code = "import random; print(random.random())"
    assert _run(warm, ["-c", code], tmp_path).stdout != _run(warm, ["-c", code], tmp_path).stdout


def test_an_environment_the_imports_would_read_differently_starts_cold(warm, tmp_path):
    """Same variables but for one the preloaded modules may read when imported: a fresh interpreter
    (``sys.executable``, its own ``sys.modules``); variables read only at run time do not matter."""
    probe = "import sys; print('socket' in sys.modules)"  # the server's own import
    assert _run(warm, ["-c", probe], tmp_path, HOME=str(tmp_path), FINEREASON_DATA_DIR="x").stdout == "True\n"
    assert _run(warm, ["-c", probe], tmp_path, WARM_TEST_IMPORT_SETTING="client").stdout == "False\n"


def test_without_a_server_the_client_is_python_itself(tmp_path):
    from conftest import WARM

    proc = subprocess.run([sys.executable, "-S", str(WARM), "run", str(tmp_path / "no-socket"), "-c",
                           "import sys; print(sys.argv)", "z"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == "['-c', 'z']\n", proc.stderr
