"""Safe outputs: refuse to overwrite an input, write beside the target, rename into place on success.

Every command that writes a file or a folder goes through here, so that

* an output equal to one of the inputs (same path after resolving symlinks, or the same file
  through a hard link) is refused before anything is opened for writing (:func:`check_output`);
* a failed, interrupted or killed run leaves an existing output exactly as it was: the new
  content goes to a hidden temporary file or folder beside the target (same file system) and is
  renamed over it only when complete (:func:`atomic_file`, :func:`atomic_dir`: a folder is written under
  a lock, so a second writer of the same folder is refused, and swapped in with renames);
* leftovers of killed runs (temporaries whose process is gone) are removed by the next run that
  writes beside them (:func:`clean_leftovers`);
* a command that writes several files into a folder the user names (which may hold other files)
  records what it wrote in a manifest there and, on the next run, replaces or removes only those
  files: nothing it did not write is ever overwritten or deleted (:func:`owned_files`).

Outputs that are not regular files (``-``/stdout, ``/dev/null``, ``/dev/full``, pipes) are written
directly: there is nothing to protect and nothing can be renamed over a device.
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import stat
import sys
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator

from .input_errors import InputError

TMP_MARK = ".finereason-tmp-"


class UnsafeOutput(InputError):
    """An output that would destroy an input; the message names both."""


def _same(a: Path, b: Path) -> bool:
    try:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(out: str | os.PathLike | None, inputs: Iterable[tuple[str, str | os.PathLike | None]],
                 option: str = "--out") -> None:
    """Raise :class:`UnsafeOutput` when ``out`` (given as ``option``) is one of ``inputs`` (``(option, path)`` pairs).

    A folder input also refuses an output inside it (writing there would change the data read).
    ``None`` and ``-`` (standard streams) are never compared.
    """
    if out is None or str(out) == "-":
        return
    target = Path(out)
    for name, path in inputs:
        if path is None or str(path) == "-":
            continue
        source = Path(path)
        if _same(target, source):
            raise UnsafeOutput(f"{option} {out} is the same file as {name} {path}: refusing to overwrite an input")
        if source.is_dir():
            real_dir, real_out = os.path.realpath(source), os.path.realpath(target)
            if os.path.commonpath([real_dir, real_out]) == real_dir:
                raise UnsafeOutput(f"{option} {out} is inside {name} {path}: write the output elsewhere")


def _tmp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}{TMP_MARK}{os.getpid()}-{secrets.token_hex(4)}")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def clean_leftovers(target: str | os.PathLike) -> list[Path]:
    """Remove temporaries of ``target`` left by killed runs (their process no longer exists)."""
    target = Path(target)
    prefix = f".{target.name}{TMP_MARK}"
    removed: list[Path] = []
    try:
        entries = list(target.parent.iterdir())
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        pid_text = entry.name[len(prefix):].split("-", 1)[0]
        if not pid_text.isdigit() or _pid_alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
            removed.append(entry)
    return removed


def fsync_dir(directory: Path) -> None:
    """Flush a folder's entries (a rename) to disk; best effort."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _is_special(path: Path) -> bool:
    """An existing output that is not a regular file (device, pipe, socket)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike | None, *, encoding: str = "utf-8", errors: str = "strict",
                binary: bool = False) -> Iterator[IO[Any]]:
    """A text handle (a byte handle with ``binary``) whose content replaces ``path`` only if the
    block completes.

    ``None`` or ``-`` yields standard output. A symlinked ``path`` replaces the file it points
    to (the link stays). The file keeps the permission bits of the file it replaces.
    ``errors`` is the text encoding's error handler (``"replace"``: unencodable text is never fatal).
    """
    text = {} if binary else {"encoding": encoding, "errors": errors}
    mode = "wb" if binary else "w"
    if path is None or str(path) == "-":
        stream = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    target = Path(path)
    if _is_special(target):
        with open(target, mode, **text) as handle:
            yield handle
        return
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(target))
    target = Path(os.path.realpath(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(target)
    try:
        bits = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        bits = None
    tmp = _tmp_name(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    with _renamed_over(tmp, target):
        with open(fd, mode, **text) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if bits is not None:
            os.chmod(tmp, bits)


@contextlib.contextmanager
def _renamed_over(tmp: Path, target: Path) -> Iterator[None]:
    """The one commit of :func:`atomic_file` and :func:`atomic_path`: the block writes ``tmp`` (made
    durable); ``tmp`` is renamed over ``target`` if the block completes, removed otherwise."""
    try:
        yield
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(target.parent)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path beside ``path`` for a library that writes a file by name (``save_to_json(p)``);
    renamed over ``path`` if the block completes, removed otherwise (as :func:`atomic_file`)."""
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(target)
    tmp = _tmp_name(target)
    with _renamed_over(tmp, target):
        yield tmp
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())


def write_text(path: str | os.PathLike, text: str, *, errors: str = "strict") -> Path:
    """Replace ``path`` with ``text`` (UTF-8) through :func:`atomic_file`; returns ``path``."""
    with atomic_file(path, errors=errors) as handle:
        handle.write(text)
    return Path(path)


def write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Replace ``path`` with ``data`` through :func:`atomic_file`; returns ``path``."""
    with atomic_file(path, binary=True) as handle:
        handle.write(data)
    return Path(path)


def default_permissions(folder: str | os.PathLike) -> None:
    """Give every file under ``folder`` the permission bits a new file gets (``0o666`` less the umask):
    for files a library wrote owner-only (safetensors writes ``model.safetensors`` as ``0o600``)."""
    umask = os.umask(0)
    os.umask(umask)
    for path in Path(folder).rglob("*"):
        if path.is_file() and not path.is_symlink():
            os.chmod(path, 0o666 & ~umask)


class OutputBusy(UnsafeOutput):
    """Another run is writing the same output folder (its lock is held)."""


def _lock_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.lock")


def _old_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.old")


@contextlib.contextmanager
def _locked(lock: Path, shown: str) -> Iterator[None]:
    """Hold ``lock`` (``flock``, exclusive) for the block; :class:`OutputBusy` at once when another run holds
    it. The lock file is removed when the block ends."""
    import errno
    import fcntl

    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(fd)
            if err.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise OutputBusy(f"{shown} is being written by another finereason run (lock {lock}); "
                                 "wait for it to finish") from None
            raise
        try:  # the file may have been removed by the previous holder after we opened it: retry
            same = os.stat(lock).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)


def recover_dir(target: str | os.PathLike) -> list[Path]:
    """Repair what killed :func:`atomic_dir` runs left beside ``target`` (call it holding the lock): an
    ``.X.old`` comes back when ``X`` is gone (killed between the two renames of a swap), else is deleted;
    temporaries of dead processes are removed. Returns what was touched."""
    target = Path(target)
    old = _old_name(target)
    touched = []
    if old.exists() or old.is_symlink():
        if target.exists():
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(old, target)
        touched.append(old)
    return touched + clean_leftovers(target)


def _swap(tmp: Path, target: Path) -> None:
    """Replace ``target`` by the folder ``tmp`` with renames only; the old folder is deleted last."""
    old = _old_name(target)
    fsync_dir(tmp)
    if target.exists():
        os.rename(target, old)
        os.rename(tmp, target)
        fsync_dir(target.parent)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(tmp, target)
    fsync_dir(target.parent)


@contextlib.contextmanager
def atomic_dir(path: str | os.PathLike, *, replace: bool = False, shown: str | None = None,
               check: Callable[[Path], None] | None = None) -> Iterator[Path]:
    """A fresh temporary folder beside ``path``, swapped in for ``path`` if the block completes.

    The one protocol for output folders. For a target ``P/X`` (a symlink is followed: the folder it
    points to is replaced and the link stays):

    * ``P/.X.lock`` is held (``flock``) for the whole block: a second writer of the same target gets
      :class:`OutputBusy` at once (``shown`` names the target in messages, e.g. ``"--out DIR"``);
    * under the lock, what killed runs left is repaired (:func:`recover_dir`), then ``check(target)``
      (the caller's own refusals) runs; an existing non-empty ``X`` is refused with
      :class:`UnsafeOutput` unless ``replace``; all before anything is written;
    * the content goes into ``P/.X.finereason-tmp-<pid>-<random>`` and is swapped in with renames
      (``X -> .X.old``, temporary ``-> X``, then ``.X.old`` is deleted); a run killed between the two
      renames leaves ``.X.old``, which the next run puts back;
    * on failure (Ctrl-C included) the temporary folder is removed and ``X`` is left as it was.
    """
    target = Path(os.path.realpath(os.path.expanduser(str(path))))
    shown = shown or str(path)
    if target.exists() and not target.is_dir():
        raise UnsafeOutput(f"{shown} exists and is not a folder")
    target.parent.mkdir(parents=True, exist_ok=True)
    with _locked(_lock_name(target), shown):
        recover_dir(target)
        if check is not None:
            check(target)
        if not replace and target.exists() and (not target.is_dir() or any(target.iterdir())):
            raise UnsafeOutput(f"{shown} exists and is not an empty folder")
        tmp = _tmp_name(target)
        tmp.mkdir()
        try:
            yield tmp
            _swap(tmp, target)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise


MANIFEST = ".finereason-files.json"


class OwnedFiles:
    """The files one command writes into a shared folder (see :func:`owned_files`)."""

    def __init__(self, folder: Path, previous: set[str]) -> None:
        self.folder = folder
        self.previous = previous
        self.written: list[str] = []

    def _target(self, relative: str | os.PathLike) -> Path:
        rel = Path(relative).as_posix()
        if Path(rel).is_absolute() or ".." in Path(rel).parts or rel in ("", ".", MANIFEST):
            raise ValueError(f"not a file name inside the output folder: {rel!r}")
        target = self.folder / rel
        if rel not in self.previous and (target.exists() or target.is_symlink()):
            raise UnsafeOutput(f"{target} exists and was not written by this command: "
                               "move it away or choose another --out")
        self.written.append(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        return target

    def write_text(self, relative: str | os.PathLike, text: str) -> Path:
        """Replace ``folder/relative`` (one this command wrote before, or a new one) with ``text``."""
        return write_text(self._target(relative), text)

    def copy(self, source: str | os.PathLike, relative: str | os.PathLike) -> Path:
        """Copy the file ``source`` to ``folder/relative`` (atomically, as :meth:`write_text`)."""
        target = self._target(relative)
        with open(source, "rb") as src, atomic_file(target, binary=True) as handle:
            shutil.copyfileobj(src, handle)
        return target


def _read_manifest(folder: Path) -> set[str]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    files = data.get("files") if isinstance(data, dict) else None
    return {f for f in files if isinstance(f, str)} if isinstance(files, list) else set()


@contextlib.contextmanager
def owned_files(folder: str | os.PathLike) -> Iterator[OwnedFiles]:
    """Write files into ``folder`` (created if absent; it may hold other files) and own only those.

    Every file goes through :meth:`OwnedFiles.write_text` / :meth:`OwnedFiles.copy` (each atomic).
    A file that already exists is replaced only if the manifest ``folder/.finereason-files.json`` of
    a previous run lists it; otherwise :class:`UnsafeOutput` is raised and nothing of the user's is
    touched. When the block completes, the files of the previous run that this run did not write
    again are removed (with the folders that become empty), and the manifest is replaced by the
    list of this run's files. On failure the previous manifest stays, still listing every file the
    command owns.
    """
    root = Path(os.path.abspath(folder))
    if root.exists() and not root.is_dir():
        raise UnsafeOutput(f"{root} exists and is not a folder")
    root.mkdir(parents=True, exist_ok=True)
    previous = _read_manifest(root)
    owned = OwnedFiles(root, previous)
    try:
        yield owned
    except BaseException:
        if owned.written:  # keep every file this command owns listed, old and new
            write_text(root / MANIFEST, json.dumps({"files": sorted(previous | set(owned.written))}, indent=1) + "\n")
        raise
    now = set(owned.written)
    for rel in sorted(previous - now):
        path = root / rel
        with contextlib.suppress(OSError):
            if path.is_file() or path.is_symlink():
                path.unlink()
        for parent in path.parents:
            if parent == root or root not in parent.parents:
                break
            with contextlib.suppress(OSError):
                parent.rmdir()  # only when empty
    write_text(root / MANIFEST, json.dumps({"files": sorted(now)}, indent=1) + "\n")


__all__ = ["MANIFEST", "TMP_MARK", "OutputBusy", "OwnedFiles", "UnsafeOutput", "atomic_dir", "atomic_file", "atomic_path", "check_output",
           "clean_leftovers", "recover_dir", "default_permissions", "fsync_dir", "owned_files", "write_bytes", "write_text"]
