"""Checking game data files: one checker that collects every problem in a TOML file.

Each game's `data.py` reads its TOML into plain dicts (`read_toml`) and walks it with a
DataChecker: every helper records a problem ("item.field: what is wrong") and
returns None instead of raising, so that a user who loads their own file sees
every mistake at once; `stop_if_any` then raises one DataError naming the file. The steps
every reader takes are the checker's: `items` walks an array of tables, `named` reads an
item's id and names the item by it, `fields` checks its fields and provenance, `unique`
keeps it by its key unless given twice.

A user's own data file (`--data NAME=FILE`) is read by `read_data_file`, which refuses
one over MAX_DATA_FILE_BYTES before reading it; `given_or_shipped` holds every given
file to the same cap, wherever its bytes came from (the store, the library API).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

from pbem.errors import DataError
from pbem.record import NamedTuple

# \Z, not $: "$" also matches before a final newline, and an id ending in one is no id.
ID_PATTERN = re.compile(r"^[a-z][a-z0-9_-]*\Z")
PROVENANCE = re.compile(r"^(stand-in|rulebook \S.*)\Z")
MAX_LISTED = 12  # problems quoted in one DataError
# A data file is a small table (the largest shipped one is 82 KB); a huge one is a denial
# of service (a 60 MB map.toml took 4.7 s and 218 MB to refuse), so none larger is read.
MAX_DATA_FILE_BYTES = 2 * 1024 * 1024


def one_line(text: str) -> str:
    """`text` with line breaks and other unprintable characters escaped, as repr() writes them.

    Problems quote names and values from the file, and TOML strings and quoted keys may
    hold a newline; the message of a DataError must stay one line.
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def check_data_size(name: str, size: int) -> None:
    """Refuse a data file of `size` bytes over the cap, in one line that says why."""
    if size > MAX_DATA_FILE_BYTES:
        raise DataError(
            f"{one_line(name)} is {size:,} bytes: a data file is at most "
            f"{MAX_DATA_FILE_BYTES // (1024 * 1024)} MiB (a data file is a small table; one "
            "this large could only be a denial of service)"
        )


def read_data_file(path: str | os.PathLike[str]) -> bytes:
    """A user's data file, refused before it is read when it is over the cap; OSError when
    it cannot be read. The size is checked again on what was read (at most one byte past
    the cap), for a file that grew meanwhile or a pipe whose size nothing tells."""
    with open(path, "rb") as stream:
        check_data_size(str(path), os.fstat(stream.fileno()).st_size)
        data = stream.read(MAX_DATA_FILE_BYTES + 1)
    check_data_size(str(path), len(data))
    return data


def shipped_files(package: str, names: Sequence[str]) -> dict[str, bytes]:
    """A game's shipped data files by name (bytes exactly as shipped), from `package`/data."""
    folder = _plain_data_folder(package)
    if folder is not None:
        result: dict[str, bytes] = {}
        for name in names:
            with open(os.path.join(folder, name), "rb") as stream:
                result[name] = stream.read()
        return result
    # A package not in a plain folder (a zip file): importlib.resources reads it. Imported
    # here: with its readers (zipfile) it is a tenth of a `pbem show`, which reads the files
    # of a game's package, always a folder.
    from importlib import resources

    data = resources.files(package) / "data"
    return {name: (data / name).read_bytes() for name in names}


def _plain_data_folder(package: str) -> str | None:
    """The `data` folder of an imported `package` that lives in one plain folder, else None
    (not imported yet, a namespace package, a zip file): importlib.resources finds it."""
    module = sys.modules.get(package)
    paths = list(getattr(module, "__path__", ()))
    if len(paths) != 1:
        return None
    folder = os.path.join(paths[0], "data")
    return folder if os.path.isdir(folder) else None


def shipped_file(package: str, name: str) -> bytes:
    """One of a game's shipped data files (bytes exactly as shipped), from `package`/data."""
    return shipped_files(package, (name,))[name]


def given_or_shipped(
    files: Mapping[str, bytes], names: Sequence[str], game: str, package: str
) -> dict[str, bytes]:
    """The data files to load: each one given (a user's own), else the shipped one.

    A file of another name is refused, since a misspelt name would otherwise be ignored
    silently and the shipped file used instead.
    """
    unknown = sorted(set(files) - set(names))
    if unknown:
        raise DataError(
            f"{', '.join(unknown)}: unknown data file for {game} (expected {', '.join(names)})"
        )
    shipped: dict[str, bytes] = {}
    raw: dict[str, bytes] = {}
    for name in names:
        value = files.get(name)
        if value is None:
            shipped = shipped or shipped_files(package, names)
            value = shipped[name]
        if not isinstance(value, bytes | bytearray):
            raise DataError(f"{name}: expected bytes, found {type(value).__name__}")
        check_data_size(name, len(value))
        raw[name] = bytes(value)
    return raw


def parse_toml(raw: bytes, file_name: str) -> dict[str, Any]:
    """TOML bytes as plain dicts, or one DataError naming the file."""
    if not isinstance(raw, bytes | bytearray):
        raise DataError(f"{file_name}: expected bytes, found {type(raw).__name__}")
    # Imported here: tomllib is twice a `python -c pass`, and a `pbem show` parses no TOML
    # (it reads a game's parsed facts from pbem.cache).
    import tomllib

    try:
        doc = tomllib.loads(bytes(raw).decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise DataError(one_line(f"{file_name}: not UTF-8 text ({exc})")) from exc
    except tomllib.TOMLDecodeError as exc:
        raise DataError(one_line(f"{file_name}: not valid TOML ({exc})")) from exc
    except ValueError as exc:  # tomllib's int() of a decimal past Python's digit limit
        raise DataError(one_line(f"{file_name}: not valid TOML ({exc})")) from None
    except RecursionError:
        raise DataError(f"{file_name}: not valid TOML (arrays or tables nested too deep)") from None
    _check_integers(doc, file_name)
    return doc


def read_toml(
    raw: bytes, file_name: str, sections: Iterable[str]
) -> tuple[dict[str, Any], DataChecker]:
    """A data file as plain dicts (`parse_toml`) and the checker that collects its problems,
    which has checked the file's top-level `sections` already."""
    doc = parse_toml(raw, file_name)
    check = DataChecker(file_name)
    check.sections(doc, sections)
    return doc, check


INT64 = range(-(2**63), 2**63)


def _check_integers(doc: dict[str, Any], file_name: str) -> None:
    """TOML integers are 64-bit (TOML 1.0: "an error must be thrown"); tomllib takes any size.

    Refused here, so that no check ever has to print a number of thousands of digits.
    """
    todo: list[Any] = [doc]
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
        elif isinstance(value, int) and not isinstance(value, bool) and value not in INT64:
            raise DataError(f"{file_name}: not valid TOML (an integer does not fit in 64 bits)")


class DataChecker:
    """Collects problems for one file; each helper returns None when the field is wrong."""

    def __init__(self, file_name: str) -> None:
        self.file_name = file_name
        self.problems: list[str] = []

    def add(self, where: str, problem: str) -> None:
        self.problems.append(f"{where}: {problem}")

    def stop_if_any(self) -> None:
        """Raise one DataError quoting every problem found so far."""
        if not self.problems:
            return
        listed = [f"{self.file_name}: {p}" for p in self.problems[:MAX_LISTED]]
        more = len(self.problems) - MAX_LISTED
        if more > 0:
            listed.append(f"and {more} more")
        raise DataError(one_line("; ".join(listed)))

    def unique(self, found: dict[Any, Any], key: Any, value: Any, where: str, twice: str) -> None:
        """`found[key] = value`, unless `key` is there already: then the problem `twice`."""
        if key in found:
            self.add(where, twice)
        else:
            found[key] = value

    def sections(self, doc: dict[str, Any], required: Iterable[str]) -> None:
        known = set(required)
        unknown = sorted(set(doc) - known)
        if unknown:
            self.add("top level", f"unknown section(s) {', '.join(unknown)}")
        for key in sorted(known - set(doc)):
            self.add("top level", f"missing section {key!r}")

    def table(self, doc: dict[str, Any], key: str) -> dict[str, Any] | None:
        value = doc.get(key)
        if value is None:
            return None  # reported by sections()
        if not isinstance(value, dict):
            self.add(key, f"expected a table, found {type(value).__name__}")
            return None
        return value

    def tables(self, doc: dict[str, Any], key: str, where: str = "") -> list[Any]:
        value = doc.get(key)
        if value is None:
            return []  # reported by sections() or by the caller
        if not isinstance(value, list):
            self.add(where or key, f"expected an array of tables, found {type(value).__name__}")
            return []
        return value

    def items(self, doc: dict[str, Any], key: str, where: str = "") -> Iterator[tuple[Any, str]]:
        """Each table of the array of tables `key` with where problems name it ("unit #3",
        or `where` #3); an item that is no table is reported and passed over."""
        for i, item in enumerate(self.tables(doc, key, where), start=1):
            at = f"{where or key} #{i}"
            if self.is_table(item, at):
                yield item, at

    def is_table(self, item: Any, where: str) -> bool:
        if not isinstance(item, dict):
            self.add(where, f"expected a table, found {item!r}")
            return False
        return True

    def keys(self, table: dict[str, Any], where: str, known: Iterable[str]) -> None:
        allowed = tuple(known)
        for key in table:
            if key not in allowed:
                self.add(where, f"unknown field {key!r} (known: {', '.join(allowed)})")

    def fields(self, table: dict[str, Any], where: str, known: Iterable[str]) -> None:
        """No field but the `known` ones, and the item's provenance (every item has one)."""
        self.keys(table, where, known)
        self.provenance(table, where)

    def named(
        self, table: dict[str, Any], where: str, label: str, known: Iterable[str]
    ) -> tuple[str | None, str]:
        """The item's `ident`, and where problems name the item from then on: `label` with
        the id in it ("unit[{}]"), or `where` still when the id is wrong; then its `fields`."""
        ident = self.ident(table, where)
        if ident is not None:
            where = label.format(ident)
        self.fields(table, where, known)
        return ident, where

    def noted(self, table: dict[str, Any], where: str, fields: Iterable[str]) -> None:
        """No field but `fields`, a provenance and an optional note, which is text."""
        self.fields(table, where, (*fields, "provenance", "note"))
        if "note" in table:
            self.text(table, "note", where)

    def head(self, doc: dict[str, Any], key: str, fields: Iterable[str]) -> dict[str, Any] | None:
        """The table `key` of a file (None when absent or no table), `noted`."""
        table = self.table(doc, key)
        if table is None:
            return None
        self.noted(table, key, fields)
        return table

    def text(
        self, table: dict[str, Any], key: str, where: str, required: bool = True
    ) -> str | None:
        if key not in table:
            if required:
                self.add(where, f"missing field {key!r}")
            return None
        value = table[key]
        if not isinstance(value, str) or not value.strip():
            self.add(f"{where}.{key}", f"expected a non-empty string, found {value!r}")
            return None
        return value

    def choice(
        self,
        table: dict[str, Any],
        key: str,
        where: str,
        options: Iterable[str],
        required: bool = True,
    ) -> str | None:
        if key not in table and not required:
            return ""
        value = self.text(table, key, where, required)
        allowed = tuple(options)
        if value is not None and value not in allowed:
            self.add(f"{where}.{key}", f"{value!r} is not one of {', '.join(allowed)}")
            return None
        return value

    def texts(self, table: dict[str, Any], key: str, where: str) -> list[str] | None:
        """An optional array of non-empty strings (empty when absent)."""
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.add(f"{where}.{key}", f"expected an array of non-empty strings, found {value!r}")
            return None
        return list(value)

    def integer(
        self, table: dict[str, Any], key: str, where: str, lo: int, hi: int | None = None
    ) -> int | None:
        if key not in table:
            self.add(where, f"missing field {key!r}")
            return None
        value = table[key]
        # bool is a subclass of int in Python; TOML `true` is not a number.
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(f"{where}.{key}", f"expected an integer, found {value!r}")
            return None
        if value < lo or (hi is not None and value > hi):
            bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
            self.add(f"{where}.{key}", f"{value} is not in {bounds}")
            return None
        return value

    def flag(self, table: dict[str, Any], key: str, where: str) -> bool | None:
        value = table.get(key, False)
        if not isinstance(value, bool):
            self.add(f"{where}.{key}", f"expected true or false, found {value!r}")
            return None
        return value

    def provenance(self, table: dict[str, Any], where: str, key: str = "provenance") -> None:
        if key not in table:
            self.add(where, f"missing {key!r} (a rulebook section or 'stand-in')")
            return
        value = table[key]
        if not isinstance(value, str) or not PROVENANCE.match(value):
            self.add(
                f"{where}.{key}",
                f"expected 'stand-in' or 'rulebook <section>', found {value!r}",
            )

    def ident(self, table: dict[str, Any], where: str) -> str | None:
        value = self.text(table, "id", where)
        if value is not None and not ID_PATTERN.match(value):
            self.add(f"{where}.id", f"{value!r} must be lower case letters, digits, '-' or '_'")
            return None
        return value

    def exact(self, value: Any, wanted: Any, where: str, rule: str) -> None:
        """A value the rulebook fixes."""
        if value != wanted:
            self.add(where, f"expected {wanted!r} ({rule}), found {value!r}")


# --- graphs of areas or zones: the checks Race to Berlin's and Berlin 1945's maps share --------


def read_node(
    check: DataChecker,
    item: dict[str, Any],
    where: str,
    section: str,
    nodes: Collection[str],
    fault: Callable[[str], str | None],
) -> tuple[str | None, str]:
    """A node of the graph (a zone, an area) in `[[section]]`: its id, a string in which
    `fault` finds nothing wrong (else its problem), and where problems name the item from
    then on (`section[id]`); an id `nodes` holds already is refused as a duplicate.
    Returns the id (None when it is wrong) and where."""
    if "id" in item and not isinstance(item["id"], str):
        value = item["id"]
        check.add(f"{where}.id", f'{section} ids are strings: write id = "{value}", not {value!r}')
        return None, where
    node = check.text(item, "id", where)
    if node is None:
        return None, where
    problem = fault(node)
    if problem is not None:
        check.add(f"{where}.id", problem)
        return None, where
    where = f"{section}[{node}]"
    if node in nodes:
        check.add(where, f"duplicate id {node!r}")
        return None, where
    return node, where


def read_pairs(
    check: DataChecker,
    doc: dict[str, Any],
    section: str,
    *,
    noun: str,
    example: str,
    fields: Iterable[str],
    flags: Iterable[str] = (),
) -> list[dict[str, Any]]:
    """The `[[section]]` tables of `between = [a, b]` (a border, a non-adjacency): each
    with its provenance and the boolean `flags` (a river); `where` names it in problems."""
    pairs = []
    for item, where in check.items(doc, section):
        between = item.get("between")
        if (
            not isinstance(between, list)
            or len(between) != 2
            or not all(isinstance(x, str) for x in between)
        ):
            check.add(where, f"between must be two {noun} ids such as {example}, found {between!r}")
            continue
        where = f"{section} {between[0]}-{between[1]}"
        check.fields(item, where, fields)
        pair: dict[str, Any] = {"between": list(between), "where": where}
        values = {flag: check.flag(item, flag, where) for flag in flags}
        if any(value is None for value in values.values()):
            continue
        pair.update(values)
        pairs.append(pair)
    return pairs


def check_pairs(
    check: DataChecker,
    known: Collection[str],
    pairs: list[dict[str, Any]],
    *,
    noun: str,
    plural: str,
    twice: str,
) -> dict[frozenset[str], str]:
    """Unknown ids, self-loops and repeats among `pairs`; returns each sound pair (as a
    frozenset: pairs are symmetric) -> the `where` that gave it."""
    seen: dict[frozenset[str], str] = {}
    for item in pairs:
        a, b = item["between"]
        where = item["where"]
        unknown = [x for x in (a, b) if x not in known]
        if unknown:
            check.add(where, f"unknown {noun} {', '.join(repr(x) for x in unknown)}")
            continue
        if a == b:
            check.add(where, f"self-loop: {noun} {a} cannot border itself")
            continue
        key = frozenset((a, b))
        if key in seen:
            earlier = seen[key]
            if earlier == where:
                check.add(where, twice)
            else:
                check.add(where, f"repeats {earlier}: {plural} are symmetric, give each pair once")
            continue
        seen[key] = where
    return seen


# --- numbered cards: a deck and a number name each (Berlin 1945, Race to the Sea) ------------


class Numbered(NamedTuple):
    """How a file names its numbered cards: the field naming a card's deck, one of
    `decks`; its number, 1 to `most`; `label`, where problems name the card once both are
    read ("card[{}-{}]", deck then number); and the card's known `fields`."""

    deck: str
    decks: tuple[str, ...]
    most: int
    label: str
    fields: tuple[str, ...]

    def read(
        self, check: DataChecker, item: dict[str, Any], where: str
    ) -> tuple[str | None, int | None, str]:
        """The card's deck and number, and where problems name it from then on (`where`
        still when either is wrong); then its fields are checked."""
        deck = check.choice(item, self.deck, where, self.decks)
        number = check.integer(item, "number", where, 1, self.most)
        if deck is not None and number is not None:
            where = self.label.format(deck, number)
        check.fields(item, where, self.fields)
        return deck, number, where
