"""OS-level limits the clingo worker puts on itself after importing everything it needs and before it
reads the untrusted job (defence in depth behind :mod:`.screen`):

- resource limits: address space, CPU time, no file writes (``RLIMIT_FSIZE`` 0), no core dumps;
- no new file descriptors: ``RLIMIT_NOFILE`` is lowered to the descriptors already open (stdin,
  stdout, stderr), so ``open()`` fails with ``EMFILE`` whatever the path;
- Landlock (Linux 5.13+), where the kernel offers it: a ruleset that handles every file-system
  right (and, from ABI 4, TCP bind/connect) and grants none, so no file can be read, written or
  executed even through descriptors the process might still get;
- otherwise, when running as root, ``chroot`` into the worker's empty working directory.

:func:`restrict` returns the layers that took effect; the critic's report carries them.
"""
from __future__ import annotations

import ctypes
import os
import sys

# syscall numbers are the same on every Linux architecture (added after the table unification)
_LANDLOCK_CREATE_RULESET, _LANDLOCK_RESTRICT_SELF = 444, 446
_LANDLOCK_CREATE_RULESET_VERSION = 1
_PR_SET_NO_NEW_PRIVS = 38
# file-system rights per ABI version: 13 rights in ABI 1, REFER (2), TRUNCATE (3), IOCTL_DEV (5)
_FS_RIGHTS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1, 5: (1 << 16) - 1}


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0 when unavailable)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        version = libc.syscall(_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0),
                               ctypes.c_uint32(_LANDLOCK_CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(int(version), 0)


def landlock_deny_all() -> bool:
    """Forbid this process (and its children) every file-system access; True when it took effect."""
    abi = landlock_abi()
    if abi < 1:
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    attr = _RulesetAttr(_FS_RIGHTS[min(abi, 5)], 3 if abi >= 4 else 0, 3 if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    fd = libc.syscall(_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        return False
    try:
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return libc.syscall(_LANDLOCK_RESTRICT_SELF, ctypes.c_int(fd), ctypes.c_uint32(0)) == 0
    finally:
        os.close(fd)


def _no_new_descriptors(resource) -> bool:
    try:
        open_fds = sorted(int(x) for x in os.listdir("/proc/self/fd"))
    except OSError:
        open_fds = [0, 1, 2]
    top = max(open_fds) + 1
    for fd in range(top):  # fill gaps so that no low descriptor number is free
        if fd not in open_fds:
            try:
                os.dup2(0, fd)
            except OSError:
                pass
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (top, top))
    except (ValueError, OSError):
        return False
    return True


def restrict(memory_mb: int, cpu_s: int) -> list[str]:
    """Apply every available layer; returns their names (e.g. ``["rlimits", "nofile", "landlock"]``)."""
    layers: list[str] = []
    try:
        import resource
    except ImportError:
        return layers
    mem = memory_mb * 1024 * 1024
    for what, value in ((resource.RLIMIT_AS, (mem, mem)), (resource.RLIMIT_CPU, (cpu_s, cpu_s + 1)),
                        (resource.RLIMIT_FSIZE, (0, 0)), (resource.RLIMIT_CORE, (0, 0))):
        resource.setrlimit(what, value)
    layers.append("rlimits")
    if landlock_deny_all():
        layers.append("landlock")
    elif hasattr(os, "geteuid") and os.geteuid() == 0:
        try:
            os.chroot(".")
            os.chdir("/")
            layers.append("chroot")
        except OSError:
            pass
    if _no_new_descriptors(resource):
        layers.append("nofile")
    return layers
