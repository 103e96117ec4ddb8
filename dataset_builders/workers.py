"""Ordered parallel map with a bounded window, prompt interruption and no leftover processes.

Each worker is a process with its own pipe (no shared queue locks, so stopping one can never
block the others or the parent). Jobs go to whichever worker is free; results come back in job
order; at most ``window`` jobs are in flight or waiting to be consumed, so memory does not grow
with the number of jobs. Workers ignore SIGINT: Ctrl-C reaches the parent, which stops every
worker (terminate, then kill) before the interrupt propagates. A worker that dies or raises
stops the map with :class:`WorkerError`.
"""
from __future__ import annotations

import multiprocessing
import signal
import traceback
from multiprocessing.connection import wait
from typing import Any, Callable, Iterable, Iterator

POLL_SECONDS = 0.5


class WorkerError(RuntimeError):
    """A worker raised an exception or died; the message carries the worker's last traceback line."""


def _worker_loop(conn, fn: Callable[[Any], Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, job = message
        try:
            conn.send(("ok", index, fn(job)))
        except BaseException as err:  # noqa: BLE001 (reported to the parent, which re-raises)
            detail = traceback.format_exc().strip().splitlines()
            conn.send(("error", index, f"{type(err).__name__}: {err}" if str(err) else detail[-1]))


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class WorkerPool:
    """``with WorkerPool(fn, num_proc) as pool: for r in pool.map(jobs): ...``

    ``fn`` must be a module-level function. With ``num_proc == 1`` everything runs in this
    process. ``map`` may be called several times; leaving the block stops every worker (at once
    when it is left by an exception, Ctrl-C included).
    """

    def __init__(self, fn: Callable[[Any], Any], num_proc: int, window: int | None = None) -> None:
        self.fn = fn
        self.num_proc = num_proc
        self.window = max(window or 2 * num_proc, num_proc)
        self.workers: list = []

    def __enter__(self) -> "WorkerPool":
        if self.num_proc > 1:
            ctx = _context()
            # SIGINT is blocked while the fork server and the workers start: they inherit the mask, so
            # a Ctrl-C (sent to the whole process group) cannot interrupt them half-started; here it
            # stays pending and is raised as soon as the mask is restored.
            can_block = hasattr(signal, "pthread_sigmask")
            try:
                old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if can_block else None
                try:
                    for _ in range(self.num_proc):
                        parent_end, child_end = ctx.Pipe()
                        proc = ctx.Process(target=_worker_loop, args=(child_end, self.fn), daemon=True)
                        proc.start()
                        child_end.close()
                        self.workers.append((proc, parent_end))
                finally:
                    if can_block:
                        signal.pthread_sigmask(signal.SIG_SETMASK, old)
            except BaseException:
                _stop(self.workers, False)
                self.workers = []
                raise
        return self

    def __exit__(self, kind, value, tb) -> None:
        if self.workers and kind is None:
            for _, conn in self.workers:
                try:
                    conn.send(None)
                except OSError:
                    pass
        _stop(self.workers, kind is None)
        self.workers = []

    def map(self, jobs: Iterable[Any]) -> Iterator[Any]:
        """``map(fn, jobs)``, results in job order, at most ``window`` jobs in flight or waiting."""
        if not self.workers:
            return map(self.fn, jobs)
        return _drive(self.workers, iter(jobs), self.window)


def _drive(workers: list, jobs: Iterator[Any], window: int) -> Iterator[Any]:
    idle = list(range(len(workers)))
    busy: dict[int, int] = {}        # worker -> job index
    done: dict[int, Any] = {}        # job index -> result, waiting for its turn
    next_in = next_out = 0
    exhausted = False
    while True:
        while idle and not exhausted and next_in - next_out < window:
            try:
                job = next(jobs)
            except StopIteration:
                exhausted = True
                break
            w = idle.pop()
            workers[w][1].send((next_in, job))
            busy[w] = next_in
            next_in += 1
        if next_out in done:
            result = done.pop(next_out)
            next_out += 1
            yield result
            continue
        if not busy:
            return
        by_conn = {workers[w][1]: w for w in busy}
        for conn in wait(list(by_conn), timeout=POLL_SECONDS):
            w = by_conn[conn]
            try:
                status, index, payload = conn.recv()
            except (EOFError, OSError):
                raise WorkerError(f"a worker process died (exit code {workers[w][0].exitcode})") from None
            if status != "ok":
                raise WorkerError(payload)
            done[index] = payload
            del busy[w]
            idle.append(w)
        for w in busy:
            if not workers[w][0].is_alive() and not workers[w][1].poll():
                raise WorkerError(f"a worker process died (exit code {workers[w][0].exitcode})")


def _stop(workers: list, finished: bool) -> None:
    """Let finished workers exit, stop the others now (terminate, then kill); close the pipes."""
    if finished:
        for proc, _ in workers:
            proc.join(timeout=5)
    for proc, _ in workers:
        if proc.is_alive():
            proc.terminate()
    for proc, conn in workers:
        proc.join(timeout=2)
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=2)
        conn.close()
