"""pbem.hints: the stand-ins modules run with for typing's names do what they need."""

from __future__ import annotations

import subprocess
import sys

from pbem import hints


def test_the_stand_ins() -> None:
    # (mypy reads typing's names: the runtime values are checked through Any)
    runtime: dict[str, hints.Any] = dict(vars(hints))
    assert runtime["TYPE_CHECKING"] is False
    assert runtime["Any"] is object
    generic, protocol = runtime["Generic"], runtime["Protocol"]
    assert generic["T"] is generic and generic["K", "V"] is generic

    kept = type("Kept", (generic["T"],), {})
    shape = type("Shape", (protocol,), {"area": lambda self: None})
    assert kept() is not None and shape().area() is None
    assert runtime["TypeVar"]("T", bound=int) == "T"
    assert runtime["cast"](int, "x") == "x"

    def function() -> int:
        return 1

    assert runtime["overload"](function) is function


def test_importing_them_imports_no_typing() -> None:
    probe = "import sys\nimport pbem.hints\nassert 'typing' not in sys.modules, 'typing'\n"
    subprocess.run([sys.executable, "-c", probe], check=True)
