"""The --check mode of the scripts that write files the repository tracks (images,
fixtures, generated Swift): each makes its files anew into a temporary folder, laid out as
the repository is, and compares them byte for byte with the tracked ones. CI runs every
such script with --check (.ci/run), so a script that no longer makes what is checked in,
or a file edited by hand, fails it.

A script calls run(name, write, owned): `write(root)` writes the script's files under
`root` as it would under the repository's root; `owned` names the folders (relative to
the root) whose every tracked file the script makes, so that a tracked file it no longer
makes is found too.

    SCRIPT              writes into the repository, as before
    SCRIPT --check      writes into a temporary folder and compares; exit 1 on a
                        difference, naming each file
"""

import contextlib
import filecmp
import io
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tracked_files(folder):
    """The files git tracks under `folder` (relative to the root)."""
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--", folder],
                         capture_output=True, check=True)
    return {Path(name) for name in out.stdout.decode().split("\0") if name}


def check(name, write, owned=()):
    """Makes the files into a temporary folder and compares them; returns the exit status."""
    with tempfile.TemporaryDirectory(prefix=f"{name}.check.") as folder:
        made_root = Path(folder)
        with contextlib.redirect_stdout(io.StringIO()):
            write(made_root)
        made = {path.relative_to(made_root) for path in made_root.rglob("*") if path.is_file()}
        problems = []
        for path in sorted(made):
            tracked = ROOT / path
            if not tracked.exists():
                problems.append(f"{path}: made, but not in the repository")
            elif not filecmp.cmp(made_root / path, tracked, shallow=False):
                problems.append(f"{path}: differs from what the script makes")
        for folder_name in owned:
            for path in sorted(tracked_files(folder_name) - made):
                problems.append(f"{path}: in the repository, but the script no longer makes it")
    for problem in problems:
        print(f"{name}: {problem}", file=sys.stderr)
    if problems:
        print(f"{name}: {len(problems)} problems with the {len(made)} files it makes; "
              "run it without --check to write them, and look at the diff", file=sys.stderr)
        return 1
    count = f"{len(made)} file" + ("s" if len(made) != 1 else "")
    print(f"{name}: {count} made, the same as the tracked ones")
    return 0


def run(name, write, owned=(), usage=None):
    """The command line: no argument writes into the repository; --check compares."""
    arguments = sys.argv[1:]
    if arguments == ["--check"]:
        sys.exit(check(name, write, owned))
    if arguments:
        print(usage or f"usage: {name} [--check]", file=sys.stderr)
        sys.exit(64)
    write(ROOT)
