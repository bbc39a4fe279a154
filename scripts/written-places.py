"""Lists the places a traced command wrote, and fails when one lies outside the allowed ones.

Usage: written-places.py TRACE CWD ALLOWED...

TRACE is `strace -f -y -e status=successful` output of file system calls (open, openat, creat,
mkdir, rename, unlink, rmdir, link, symlink, truncate and their *at forms, chdir, fchdir) and
of the process calls (clone, fork, vfork), CWD the directory the traced command started in.
A call writes when it creates, truncates, renames or removes a name, or opens for writing. Its
path is absolute when the trace decoded it (`AT_FDCWD</dir>`, `3</dir>`, a returned
`= 4</path>`), else resolved against the calling process's working directory, which this
script follows through chdir and inherits across forks. /proc and /dev are not files on disk:
a write there (a process's oom_score_adj, /dev/null) is allowed.

Prints each allowed root with the directories written under it (three levels deep, with counts)
and exits 1 listing every path outside them.
"""

import collections
import os
import re
import sys

LINE = re.compile(r"^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+)(?:<(.*)>)?")
# A string argument, or a decoded descriptor (`AT_FDCWD</dir>`, `5</dir>`) before one.
ARG = re.compile(r'(?:(AT_FDCWD|\d+)<([^>]*)>,\s*)?"((?:[^"\\]|\\.)*)"')
WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC")
NAMING = {
    "mkdir", "mkdirat", "rename", "renameat", "renameat2", "unlink", "unlinkat", "rmdir",
    "link", "linkat", "symlink", "symlinkat", "truncate",
}


def unescape(s):
    return s.encode("latin-1", "backslashreplace").decode("unicode_escape")


def main():
    trace, start, *allowed = sys.argv[1:]
    allowed = [os.path.realpath(a) for a in allowed] + ["/proc", "/dev"]
    cwd = collections.defaultdict(lambda: start)
    written = set()
    with open(trace, encoding="utf-8", errors="replace") as f:
        for raw in f:
            m = LINE.match(raw)
            if not m:
                continue
            pid, call, args, ret, ret_path = m.groups()
            if call in ("clone", "clone3", "fork", "vfork"):
                cwd[ret] = cwd[pid]
                continue
            if call == "fchdir":
                dirs = re.findall(r"\d+<([^>]*)>", args)
                if dirs:
                    cwd[pid] = dirs[0]
                continue

            def resolve(base, name):
                return os.path.normpath(os.path.join(base or cwd[pid], unescape(name)))

            paths = [resolve(d, name) for _, d, name in ARG.findall(args)]
            if call == "chdir":
                cwd[pid] = paths[0]
            elif call in ("open", "openat", "creat"):
                if call == "creat" or any(flag in args for flag in WRITE_FLAGS):
                    # The opened file as the trace decoded it, unless that is a pipe or a
                    # socket (`/dev/stdout` opened on one): then the name that was opened.
                    decoded = ret_path if ret_path and ret_path.startswith("/") else None
                    written.add(decoded or paths[0])
            elif call in ("symlink", "symlinkat"):
                written.add(paths[-1])  # the link; its first argument is only the target
            elif call in NAMING:
                written.update(paths)
    inside = collections.defaultdict(collections.Counter)
    outside = []
    for p in sorted(written):
        root = next((a for a in allowed if p == a or p.startswith(a + "/")), None)
        if root is None:
            outside.append(p)
        else:
            rel = os.path.relpath(p, root).split("/")
            inside[root][tuple(rel[:3])] += 1
    print(f"written-places: {len(written)} paths written")
    for root, places in inside.items():
        print(f"  under {root}:")
        # Each directory three levels down with its count of paths; the many one-off names of
        # one directory (a temporary directory's) as one line.
        groups = collections.defaultdict(list)
        for place, n in places.items():
            groups["/".join(place[:-1])].append(("/".join(place), n))
        for parent, entries in sorted(groups.items()):
            if len(entries) > 10:
                total = sum(n for _, n in entries)
                print(f"    {parent + '/' if parent else ''}* ({total} paths in {len(entries)} entries)")
            else:
                for place, n in sorted(entries):
                    print(f"    {place} ({n})")
    if outside:
        print(f"written-places: {len(outside)} written outside {', '.join(allowed)}:")
        for p in outside[:100]:
            print(f"  {p}")
        sys.exit(1)


main()
