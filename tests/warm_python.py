"""A warm Python for the tests' command-line runs: the same commands, without paying for the heavy
imports of every process.

Most of a ``finereason eval`` or ``lm_eval`` process's 7 CPU seconds on the tiny model go to imports
(torch, transformers, datasets, lm-eval, scikit-learn, SciPy, pandas, pyarrow); the suite starts ~50
such processes. A *server* imports those libraries once and forks a fresh child for every command a
*client* sends it. The child becomes what ``python ARGS`` would have been: the client's argv, working
folder, environment (``os.environ``, ``sys.path`` from ``PYTHONPATH``), standard streams (passed over
the socket) and its own process group; it runs the command as ``__main__`` and exits through the normal
interpreter shutdown; the client exits with its status (128 + N when a signal N ended it).

What it preloads (``hub``): torch, NumPy, pandas, pyarrow, SciPy, scikit-learn, ``huggingface_hub``,
``datasets``, ``transformers``, ``lm_eval``, ``accelerate`` and ``evaluate`` (``none``: nothing, for
``test_warm_python.py``). Some of these read cache folders and offline switches (``HF_*``,
``TRANSFORMERS_*``, ...) once, when imported, so the server serves only commands whose environment
matches its own except for :data:`RUNTIME` variables (read when used, not when imported;
``HOME``/``XDG_CACHE_HOME`` only because the server requires ``HF_HOME``, ``HF_HUB_CACHE`` and
``HF_DATASETS_CACHE`` to be set); any other command's child starts a fresh interpreter instead
(``os.execve``), so it is never wrong, only cold. ``matplotlib`` (its config folder comes from ``HOME``)
is never preloaded. With ``LM_EVAL_INDEX``, lm-eval's built-in task index is parsed once per test run
and kept in that file (``lm_eval_index.py``).

Random generators are re-seeded in each child. What still differs from a fresh process: the hash
seed (``PYTHONHASHSEED``) is the server's, and the preloaded modules are already in ``sys.modules``,
so a test that checks what a command imports must not use this.

    python tests/warm_python.py serve SOCKET none|hub [LM_EVAL_INDEX]   # the server (conftest.py starts it)
    python tests/warm_python.py run SOCKET ARGS...                      # the client: like `python ARGS...`
"""
from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys
import threading
from pathlib import Path

PRELOAD = {
    "none": (),  # the mechanics alone (tests/test_warm_python.py)
    "hub": ("torch", "numpy", "pandas", "pyarrow", "pyarrow.parquet", "scipy.stats", "sklearn.metrics", "jinja2", "yaml",
            "safetensors", "tokenizers", "regex", "sympy", "huggingface_hub", "datasets", "transformers",
            "transformers.generation", "lm_eval.evaluator", "lm_eval.tasks", "lm_eval.models.huggingface", "accelerate",
            "evaluate"),
}
HUB_CACHES = ("HF_HOME", "HF_HUB_CACHE", "HF_DATASETS_CACHE")
# read when used, or only by a shell
RUNTIME = frozenset({"PATH", "PWD", "OLDPWD", "SHLVL", "_", "HOME", "XDG_CACHE_HOME", "PYTHONPATH", "COLUMNS", "LINES",
                     "PS1", "PS2", "PS4", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "TERM", "WARM_PYTHON_DEBUG"})


def import_environment(env: dict[str, str]) -> dict[str, str]:
    """The part of ``env`` that importing the preloaded modules may read: all but :data:`RUNTIME`, the
    project's own ``FINEREASON_*`` variables (read by the project, when it runs), pytest's and bash's."""
    return {k: v for k, v in env.items() if k not in RUNTIME and not k.startswith(("FINEREASON_", "BASH_", "PYTEST_"))}


_HEADER = struct.Struct("!I")
_STATUS = struct.Struct("!i")


# ------------------------------------------------------------------ client
def run(path: str, args: list[str]) -> int:
    """Run ``python ARGS`` in a child of the server at ``path``; its exit status. Without a server, or
    for interpreter options other than ``-m``/``-c``, this process becomes ``python ARGS`` itself."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        if not args or (args[0].startswith("-") and args[0] not in ("-m", "-c")):
            raise OSError("not a command the server runs")
        conn.connect(path)
    except OSError:  # no server (never started, or gone): this process becomes the command, cold
        os.execv(sys.executable, [sys.executable, *args])
    request = json.dumps({"args": args, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    socket.send_fds(conn, [_HEADER.pack(len(request)) + request], [0, 1, 2])
    (pid,) = _STATUS.unpack(_recv(conn, _STATUS.size))

    def forward(signum: int, _frame) -> None:  # Ctrl-C or a terminate reaches the command, as it would
        try:
            os.killpg(pid, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, forward)
    (status,) = _STATUS.unpack(_recv(conn, _STATUS.size))
    return status


def _recv(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise SystemExit("warm_python: the server went away")
        data += chunk
    return data


# ------------------------------------------------------------------ server
def serve(path: str, preload: str, lm_eval_index: str | None = None) -> None:
    """Preload, then fork a runner per connection until killed (or until its parent is gone)."""
    modules = PRELOAD[preload]
    if modules and not all(os.environ.get(name) for name in HUB_CACHES):
        raise SystemExit(f"warm_python: a hub server needs {', '.join(HUB_CACHES)} set")
    before = dict(os.environ)
    for module in modules:
        try:
            __import__(module)
        except ImportError:
            pass
    if lm_eval_index and "lm_eval.tasks._index" in sys.modules:  # lm-eval's built-in tasks, parsed once a run
        from lm_eval_index import index_builtin_tasks_once

        index_builtin_tasks_once(sys.modules["lm_eval.tasks._index"], Path(lm_eval_index))
    # variables the imports set (torch: KMP_DUPLICATE_LIB_OK, ...), which each child gets as a fresh
    # process importing them would, unless its own environment sets them
    added = {k: v for k, v in os.environ.items() if before.get(k) != v}
    expected = import_environment(before)
    base_path = [p for p in sys.path[1:] if p not in os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(16)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # runners are reaped by the system
    server.settimeout(2.0)
    owner = os.getppid()
    print("ready", flush=True)
    while True:
        try:
            conn, _ = server.accept()
        except TimeoutError:
            if os.getppid() != owner:  # the pytest worker that started this server is gone
                return
            continue
        if os.fork() == 0:
            server.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            _runner(conn, base_path, expected, added)  # never returns

        conn.close()


def _runner(conn: socket.socket, base_path: list[str], expected: dict[str, str],
            added: dict[str, str]) -> None:
    """Receive a request, fork the command's process, report its pid then its exit status."""
    first, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    (size,) = _HEADER.unpack(first[:_HEADER.size])
    body = first[_HEADER.size:]
    while len(body) < size:
        body += conn.recv(size - len(body))
    request = json.loads(body)
    pid = os.fork()
    if pid == 0:
        conn.close()
        _become(request, fds, base_path, expected, added)
        return
    for fd in fds:
        os.close(fd)
    conn.sendall(_STATUS.pack(pid))

    def watch() -> None:  # the client went away (a test's timeout killed it): so does the command
        if not conn.recv(1):
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    threading.Thread(target=watch, daemon=True).start()
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    try:
        conn.sendall(_STATUS.pack(code if code >= 0 else 128 - code))
    except OSError:
        pass
    os._exit(0)


def _become(request: dict, fds: list[int], base_path: list[str], expected: dict[str, str],
            added: dict[str, str]) -> None:
    """Turn this child into ``python ARGS``, run it and exit (or, when the environment differs from
    what the preloaded modules read, become a fresh interpreter)."""
    import random
    import runpy
    import types

    os.setpgid(0, 0)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    env = {k: v for k, v in request["env"].items() if added.get(k) != v}
    if import_environment(env) != expected:
        if request["env"].get("WARM_PYTHON_DEBUG"):
            differ = sorted(k for k in {**expected, **import_environment(env)} if expected.get(k) != env.get(k))
            print(f"warm_python: cold start, the environment differs in {differ}", file=sys.stderr)
        os.execve(sys.executable, [sys.executable, *request["args"]], request["env"])  # a fresh interpreter, cold
    os.environ.clear()
    os.environ.update({**added, **env})
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)
    random.seed()
    for module, reseed in (("numpy", lambda m: m.random.seed()), ("torch", lambda m: m.seed())):
        if module in sys.modules:
            reseed(sys.modules[module])
    args = list(request["args"])
    extra = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    main = types.ModuleType("__main__")
    sys.modules["__main__"] = main
    try:
        if args[0] == "-m":
            sys.argv = [args[1], *args[2:]]
            sys.path[:] = [os.getcwd(), *extra, *base_path]
            runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        elif args[0] == "-c":
            sys.argv = ["-c", *args[2:]]
            sys.path[:] = ["", *extra, *base_path]
            main.__dict__["__builtins__"] = __builtins__
            exec(compile(args[1], "<string>", "exec"), main.__dict__)
        else:
            sys.argv = list(args)
            sys.path[:] = [os.path.dirname(os.path.abspath(args[0])), *extra, *base_path]
            runpy.run_path(args[0], run_name="__main__")
        code = 0
    except SystemExit as done:
        code = _exit_code(done.code)
    except BaseException:  # noqa: BLE001  (what the interpreter does with an uncaught exception)
        sys.excepthook(*sys.exc_info())
        code = -signal.SIGINT if isinstance(sys.exc_info()[1], KeyboardInterrupt) else 1
    _exit(code)


def _exit_code(code: object) -> int:
    """The status ``raise SystemExit(code)`` gives a process (a message is printed, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _exit(code: int) -> None:
    """Shut down as the interpreter does (wait for non-daemon threads, run ``atexit`` handlers, flush)
    but skip tearing down the preloaded modules (about a second with torch and transformers loaded)."""
    import atexit
    import threading

    try:
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    finally:
        if code < 0:  # an uncaught KeyboardInterrupt: end by the signal, as CPython does
            signal.signal(-code, signal.SIG_DFL)
            os.kill(os.getpid(), -code)
        os._exit(code)


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2], *sys.argv[3:5])  # type: ignore[misc]
    elif sys.argv[1:2] == ["run"]:
        sys.exit(run(sys.argv[2], sys.argv[3:]))
    else:
        sys.exit(__doc__)
