"""How much a turn page weighs, title by title, through the path users run (issue 29).

For each title: `pbem demo TITLE --dir D` plays a whole game, then `pbem render SAVE
--format html --role ROLE -o PAGE` writes its turn page for the public and for each role,
as a referee mails them. Printed per title: the save's bytes, the heaviest page's bytes
and that page as a ratio of the 400 KB line (at most 1.00 passes); with `--baseline DIR`,
the same pages rendered from the same save by another checkout (its own venv: DIR/.venv),
and this checkout's page as a ratio of that one.

Run: python bench/page_weight.py [--baseline /work/main] [--titles barbarossa,...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TITLES = ("barbarossa", "berlin-1945", "gotterdammerung", "race-to-berlin", "race-to-the-sea")
LINE = 400 * 1000  # bytes: issue 29's most for any demo's page


def pbem(checkout: Path, *args: str) -> None:
    """`python -m pbem ARGS` run by `checkout`'s own interpreter, from that checkout."""
    venv = checkout / ".venv" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(
        [python, "-m", "pbem", *args], cwd=checkout, env=env, check=True, capture_output=True
    )


def roles_of(save: Path) -> list[str]:
    """The roles a save's header names ("roles: a SHA256:..., b SHA256:...")."""
    for line in save.read_text(encoding="utf-8").splitlines():
        if line.startswith("roles: "):
            return [part.split()[0] for part in line[len("roles: ") :].split(", ")]
    return []


def heaviest_page(checkout: Path, save: Path, out: Path) -> tuple[int, str]:
    """The bytes of the heaviest of the save's pages (the public's and each role's)."""
    sizes = []
    for role in ["public", *roles_of(save)]:
        page = out / f"{checkout.name}-{role}.html"
        pbem(checkout, "render", str(save), "--format", "html", "--role", role, "-o", str(page))
        sizes.append((page.stat().st_size, role))
    return max(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="another checkout, to compare with")
    parser.add_argument("--titles", default=",".join(TITLES))
    args = parser.parse_args()
    print(f"turn page bytes, heaviest view, vs the {LINE // 1000} KB line (<= 1.00 passes)")
    head = f"{'title':16} {'save':>9} {'page':>9} {'page/line':>9}"
    if args.baseline:
        head += f" {'baseline':>9} {'page/baseline':>13}"
    print(head)
    failed = []
    for title in args.titles.split(","):
        with tempfile.TemporaryDirectory(prefix=f"pages-{title}-") as tmp:
            folder = Path(tmp)
            pbem(ROOT, "demo", title, "--dir", str(folder / "demo"))
            (save,) = (folder / "demo").glob("*.pbem")
            size, role = heaviest_page(ROOT, save, folder)
            line = f"{title:16} {save.stat().st_size:>9} {size:>9} {size / LINE:>9.2f}"
            if args.baseline:
                base, _ = heaviest_page(args.baseline.resolve(), save, folder)
                line += f" {base:>9} {size / base:>13.2f}"
            print(f"{line}  ({role})", flush=True)
            if size > LINE:
                failed.append(title)
    print("over the line: " + (", ".join(failed) if failed else "none"))


if __name__ == "__main__":
    main()
