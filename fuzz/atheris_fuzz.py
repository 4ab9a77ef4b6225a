"""Coverage-guided fuzzing of one target with atheris (optional; not needed by the tests).

    python3 -m pip install atheris
    mkdir -p /tmp/pbem-fuzz-movefile
    python3 fuzz/atheris_fuzz.py movefile -max_total_time=600 /tmp/pbem-fuzz-movefile \
        fuzz/corpus/movefile
    python3 fuzz/atheris_fuzz.py --list

The targets are those of tests/fuzz/fuzzing.py (the same property: a PbemError with a
one-line message, or a result). libFuzzer writes the inputs it finds interesting into
the FIRST folder given, so give a scratch folder first and fuzz/corpus/<target> after
it as seeds. A crash is written as crash-<sha1> in the current folder: keep it as
fuzz/corpus/<target>/<short-description>, fix it at its source, add a regression test.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    from tests.fuzz.fuzzing import outcome, targets

    found = targets()
    if len(sys.argv) < 2 or sys.argv[1] in ("--list", "-h", "--help"):
        print("targets: " + ", ".join(found))
        return
    name = sys.argv.pop(1)
    if name not in found:
        sys.exit(f"unknown target {name!r}; targets: {', '.join(found)}")
    target = found[name]
    # A target with no corpus folder yet (nothing ever broke it) just has no seeds.
    missing = [a for a in sys.argv[1:] if not a.startswith("-") and not Path(a).is_dir()]
    for folder in missing:
        print(f"no folder {folder}: skipped", file=sys.stderr)
    sys.argv = [a for a in sys.argv if a not in missing]

    import atheris

    def one_input(data: bytes) -> None:
        outcome(target, data)

    atheris.instrument_all()  # coverage feedback from every loaded module, pbem included
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
