"""The precedent search index (R-5): SQLite FTS5 under `.tribunal/`, never the source of truth.

precedents.md is the only source of truth; the index is a cache rebuilt from it:
- freshness: the file's size, mtime and inode are compared with those recorded at build time;
  only when they differ is the content hash compared (equal hash: the record is refreshed, no
  rebuild);
- never trusted: the index file's own size, mtime and inode are stamped beside it after every
  build; an index that does not match its stamp, cannot be opened, or fails a query is rebuilt;
- atomic: a build writes a temporary database and renames it into place, under a lock.

CJK text (R-4): runs of Han, kana and Hangul are indexed as overlapping bigrams in the text
column and as single characters in a `chars` column, so a two-character query (one bigram
token) and a one-character query (a `chars` token) both find entries containing them, while
other text keeps whole-word tokens (unicode61, porter stemming).

Word statistics (X-3): FTS5's bm25 counts every query word's entries by walking the word's whole
list on every query, and reads each match's length from a side table, so a common word costs
milliseconds at 100,000 entries whatever the limit. A build therefore keeps what bm25 needs:
per word (`term`) the number of entries holding it, its highest count in one entry and how many
entries hold it that often; per entry its length in words, the words it holds more than once
(`repeats`), and `floor`, the shortest length from this id on. Ids follow an estimate of the
length, shortest first, so search.py can rank the shortest entries first and stop once no later
entry can score higher (the floor keeps that exact where the estimate is wrong), with the very
scores bm25 gives.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import os
import re
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.atomic import write_atomic
from tribunal.errors import BadInput, TribunalError
from tribunal.paths import display_path
from tribunal.precedents.entry import SCOPE_KEYS, Precedent
from tribunal.precedents.parsing import parse_precedents

INDEX_VERSION = "3"  # 3: ids by text length; word statistics (term, length, floor, repeats)
MMAP_BYTES = 1 << 30  # address space only: pages are mapped on demand
CACHE_KIB = 64 * 1024
WARM_LIMIT = 4  # open index connections kept per thread (the oldest is closed first)
TOKENIZER = "porter unicode61 remove_diacritics 2"
# A word's key in `term` and `repeats`: the column's digit, then the token as FTS5 stores it.
COLUMN_KEYS = {"body": "0", "chars": "1"}
# Han, kana and Hangul, as ranges of a character class.
CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002ebef"
CJK_RUN = re.compile(f"[{CJK_CHARS}]+")


@dataclass(frozen=True)
class IndexPaths:
    """Where the index of one precedents file lives."""

    database: Path
    stamp: Path
    lock: Path


def index_paths(source: Path, root: Path) -> IndexPaths:
    """The index files of `source` under `root/.tribunal/` (one index per precedents file)."""
    relative = not (source.is_absolute() and root.is_absolute())
    return _index_paths(source, root, os.getcwd() if relative else None)


@functools.lru_cache(maxsize=64)
def _index_paths(source: Path, root: Path, cwd: str | None) -> IndexPaths:
    # resolving two paths costs a system call per component on every search, so the
    # answer is remembered. `cwd` is not used here: it is part of the cache key only, so a
    # relative path is resolved again after a change of directory.
    del cwd
    key = hashlib.sha256(str(source.resolve()).encode("utf-8")).hexdigest()[:16]
    base = root.resolve() / ".tribunal" / "index" / f"precedents-{key}"
    return IndexPaths(
        database=base.with_suffix(".sqlite"),
        stamp=base.with_suffix(".stamp"),
        lock=base.with_suffix(".lock"),
    )


def cjk_text(text: str) -> tuple[str, str]:
    """(text with each CJK run replaced by its bigrams, the run's characters) — see module doc."""
    chars: list[str] = []

    def bigrams(match: re.Match[str]) -> str:
        run = match.group(0)
        chars.extend(run)
        if len(run) == 1:
            return f" {run} "
        return " " + " ".join(run[i : i + 2] for i in range(len(run) - 1)) + " "

    return CJK_RUN.sub(bigrams, text), " ".join(chars)


def open_index(source: Path, root: Path) -> Any:
    """A read-only sqlite3 connection to a fresh, trusted index of `source` (built if needed).

    X-3: the connection stays open for the process (per thread) while neither the source nor
    the index file changes (size, mtime and inode, checked on every call), so repeated searches
    query a warm index; callers never close it. Raises BadInput when `source` is missing or
    does not parse.
    """
    paths = index_paths(source, root)
    try:
        stat = source.stat()
    except FileNotFoundError:
        raise BadInput("file not found", source=display_path(source, root)) from None
    warm = _warm_connections().get(paths.database)
    if warm is not None:
        try:
            unchanged = warm.stats == (_key(stat), _stat_of(paths.database))
        except OSError:
            unchanged = False
        if unchanged:
            return warm.connection
        forget_index(source, root)
    connection = _open_fresh(source, root, paths, stat)
    connections = _warm_connections()
    while len(connections) >= WARM_LIMIT:  # a few precedents files per process at most
        connections.pop(next(iter(connections))).connection.close()
    connections[paths.database] = _Warm(connection, (_key(stat), _stat_of(paths.database)))
    return connection


def forget_index(source: Path, root: Path) -> None:
    """Close and drop this process's open connection to the index of `source`, if any."""
    warm = _warm_connections().pop(index_paths(source, root).database, None)
    if warm is not None:
        warm.connection.close()


@dataclass(frozen=True)
class _Warm:
    connection: Any
    stats: tuple[dict[str, int], dict[str, int]]  # the source's and the index file's


_WARM = threading.local()


def _warm_connections() -> dict[Path, _Warm]:
    # One dict per thread: a sqlite3 connection belongs to the thread that opened it.
    if not hasattr(_WARM, "connections"):
        _WARM.connections = {}
    connections: dict[Path, _Warm] = _WARM.connections
    return connections


def _key(stat: os.stat_result) -> dict[str, int]:
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "inode": stat.st_ino}


def _open_fresh(source: Path, root: Path, paths: IndexPaths, stat: os.stat_result) -> Any:
    import sqlite3

    label = display_path(source, root)
    connection = _open_trusted(paths)
    if connection is not None:
        try:
            fresh = _fresh(connection, source, stat)
        except sqlite3.DatabaseError:
            fresh = False
        if fresh is True:
            return connection
        connection.close()
        if fresh is not False:
            _record_stat(paths, fresh)
            connection = _open_trusted(paths)
            if connection is not None:
                return connection
    rebuild(source, root)
    connection = _open_trusted(paths)
    if connection is None:  # a build we just stamped: only a concurrent writer gets here
        raise TribunalError(f"the precedent index of {label} could not be opened; retry")
    return connection


def rebuild(source: Path, root: Path) -> None:
    """Build the index of `source` from scratch and swap it in atomically (R-5)."""
    import sqlite3

    from filelock import FileLock

    paths = index_paths(source, root)
    paths.database.parent.mkdir(parents=True, exist_ok=True)
    label = display_path(source, root)
    with FileLock(str(paths.lock)), _without_cyclic_gc():
        with source.open("rb") as handle:
            raw = handle.read()
            stat = os.fstat(handle.fileno())  # the stat of exactly the bytes read
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadInput(f"not UTF-8 text (byte {error.start})", source=label) from None
        parsed = parse_precedents(text, label, strict=False)
        parsed.require_clean()
        temporary = paths.database.with_suffix(f".{os.getpid()}.tmp")
        temporary.unlink(missing_ok=True)
        try:
            with closing(sqlite3.connect(temporary)) as connection:
                _create(connection)
                superseded = parsed.superseded_ids()
                texts = [cjk_text(_body(entry)) for entry in parsed.entries]
                # ids follow the length in words, so ranking can go shortest first. FTS5
                # counts words only once it has the text: this is an estimate (the exact
                # lengths, and the floors that make ranking exact, are read back below).
                estimates = [_estimated_length(body, chars) for body, chars in texts]
                ordered = sorted(range(len(texts)), key=estimates.__getitem__)
                connection.executemany(
                    "INSERT INTO entry_text(rowid, body, chars) VALUES (?, ?, ?)",
                    ((n, *texts[i]) for n, i in enumerate(ordered, 1)),
                )
                # one merged segment (a bulk insert leaves hundreds) reads faster.
                connection.execute("INSERT INTO entry_text(entry_text) VALUES ('optimize')")
                words = _word_statistics(connection)
                connection.executemany(
                    "INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        (*_row(n, i + 1, parsed.entries[i], superseded), *words.of_entry(n))
                        for n, i in enumerate(ordered, 1)
                    ),
                )
                connection.executemany("INSERT INTO term VALUES (?, ?, ?, ?)", words.terms())
                meta = _source_meta(stat, hashlib.sha256(raw).hexdigest())
                meta |= {"entries": str(len(texts)), "words": str(sum(words.lengths))}
                connection.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
                connection.commit()
            os.replace(temporary, paths.database)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        _write_stamp(paths)


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """X-3: a build allocates ~50 objects per entry, none in a cycle; the cyclic collector would
    rescan all of them again and again (a fifth of a 100,000-entry rebuild). Reference counting
    still frees everything; the collector is back on afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _create(connection: Any) -> None:
    connection.executescript(
        f"""
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE entry(
            id INTEGER PRIMARY KEY, position INTEGER NOT NULL,
            case_id TEXT NOT NULL, number INTEGER NOT NULL,
            verdict TEXT NOT NULL, superseded INTEGER NOT NULL,
            domains TEXT, tiers TEXT, modes TEXT, output TEXT NOT NULL,
            length INTEGER NOT NULL, floor INTEGER NOT NULL, repeats TEXT);
        CREATE TABLE term(
            key TEXT PRIMARY KEY, entries INTEGER NOT NULL, most INTEGER NOT NULL,
            at_most INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE VIRTUAL TABLE entry_text USING fts5(body, chars, tokenize='{TOKENIZER}');
        """
    )


@dataclass(frozen=True)
class _WordStatistics:
    """What bm25 needs, read back from a built FTS5 table (see the module doc)."""

    lengths: list[int]  # words per entry, by id - 1
    floors: list[int]  # the shortest length from this id on, by id - 1
    repeats: dict[int, dict[str, int]]  # id -> key -> count, for counts above 1
    # key -> [entries holding it, its highest count in one, entries holding it that often]
    statistics: dict[str, list[int]]

    def of_entry(self, rowid: int) -> tuple[int, int, str | None]:
        """(length, floor, repeats) of the entry with this id; `repeats` is " KEY:COUNT ..."
        with a space before and after each pair (keys hold letters and digits only), so a
        query finds a word's count with one substring search, in SQL or in Python."""
        repeats = self.repeats.get(rowid)
        text = None
        if repeats is not None:
            text = "".join(f" {key}:{count}" for key, count in repeats.items()) + " "
        return self.lengths[rowid - 1], self.floors[rowid - 1], text

    def terms(self) -> Iterator[tuple[str, int, int, int]]:
        """The rows of `term`: (key, entries, most, at_most)."""
        for key, (entries, most, at_most) in self.statistics.items():
            yield key, entries, most, at_most


def _word_statistics(connection: Any) -> _WordStatistics:
    """Per word: entries holding it, its highest count in one and how many entries hold it that
    often; per entry: length, floor and repeats."""
    connection.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, entry_text, 'col')")
    connection.execute(
        "CREATE VIRTUAL TABLE temp.instance USING fts5vocab(main, entry_text, 'instance')"
    )
    # FTS5 keeps each entry's length per column as varints in its docsize table; bm25 reads
    # the same numbers (xColumnSize).
    # Ids are 1..n (rebuild assigns them), so the list is indexed by id - 1.
    sizes = connection.execute("SELECT sz FROM entry_text_docsize ORDER BY id").fetchall()
    lengths = [sum(_varints(size)) for (size,) in sizes]
    floors = list(lengths)
    for index in range(len(floors) - 2, -1, -1):
        floors[index] = min(floors[index], floors[index + 1])
    statistics: dict[str, list[int]] = {}
    repeated: list[tuple[str, str]] = []
    for term, column, entries, count in connection.execute(
        "SELECT term, col, doc, cnt FROM temp.vocab"
    ):
        statistics[COLUMN_KEYS[column] + term] = [entries, 1, entries]
        if count > entries:  # more occurrences than entries: some entry holds it twice
            repeated.append((term, column))
    repeats: dict[int, dict[str, int]] = {}
    for term, column in repeated:
        key = COLUMN_KEYS[column] + term
        counts = connection.execute(
            "SELECT doc, count(*) FROM temp.instance WHERE term = ? AND col = ? "
            "GROUP BY doc HAVING count(*) > 1",
            (term, column),
        ).fetchall()
        for rowid, count in counts:
            repeats.setdefault(rowid, {})[key] = count
        most = max(count for _, count in counts)
        statistics[key][1:] = [most, sum(1 for _, count in counts if count == most)]
    return _WordStatistics(lengths, floors, repeats, statistics)


# ASCII punctuation and symbols separate words (unicode61); `_` too.
_ASCII_SEPARATORS = str.maketrans(
    {c: " " for c in map(chr, range(128)) if not c.isalnum() and not c.isspace()}
)


def _estimated_length(body: str, chars: str) -> int:
    """About the number of words FTS5 makes of an entry's columns (not exact off ASCII)."""
    return len(body.translate(_ASCII_SEPARATORS).split()) + len(chars.split())


def _varints(blob: bytes) -> list[int]:
    """SQLite's varints (big-endian groups of 7 bits, the high bit set on all but the last)."""
    values: list[int] = []
    value = 0
    for byte in blob:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            values.append(value)
            value = 0
    return values


def _row(rowid: int, position: int, entry: Precedent, superseded: set[str]) -> tuple[Any, ...]:
    scopes = [entry.scope(key) for key in SCOPE_KEYS]
    output = {
        "case_id": entry.case_id,
        "verdict": entry.fields["verdict"],
        "applies_to": entry.fields["applies_to"],
        "next_check": entry.fields["next_check"],
        "evidence_ref": entry.fields["evidence_ref"],
    }
    return (
        rowid,
        position,
        entry.case_id,
        entry.number,
        entry.fields["verdict"],
        int(entry.case_id in superseded),
        *(None if scope is None else json.dumps(scope) for scope in scopes),
        json.dumps(output, ensure_ascii=False),
    )


def _body(entry: Precedent) -> str:
    """The searchable text of an entry: ID, verdict, scope, applies_to, next_check, refs."""
    parts = [entry.case_id, entry.fields["verdict"], entry.applies_to_text]
    for key in SCOPE_KEYS:
        parts.extend(entry.scope(key) or [])
    parts.append(entry.next_check_text)
    parts.extend(filter(None, [entry.next_check_when]))
    parts.extend(entry.evidence_refs)
    return "\n".join(parts)


def _source_meta(stat: os.stat_result, digest: str) -> dict[str, str]:
    return {
        "version": INDEX_VERSION,
        "size": str(stat.st_size),
        "mtime_ns": str(stat.st_mtime_ns),
        "inode": str(stat.st_ino),
        "sha256": digest,
    }


def _fresh(connection: Any, source: Path, stat: os.stat_result) -> os.stat_result | bool:
    """True when the index describes `source` by stat; when only the stat differs, the hash
    decides: the source's new stat when the bytes are the same (record it), else False."""
    meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    if meta.get("version") != INDEX_VERSION:
        return False
    recorded = (meta.get("size"), meta.get("mtime_ns"), meta.get("inode"))
    if recorded == (str(stat.st_size), str(stat.st_mtime_ns), str(stat.st_ino)):
        return True
    with source.open("rb") as handle:
        raw = handle.read()
        now = os.fstat(handle.fileno())
    if hashlib.sha256(raw).hexdigest() != meta.get("sha256"):
        return False
    return now  # same bytes (a touch, a copy): no rebuild


def _record_stat(paths: IndexPaths, stat: os.stat_result) -> None:
    """Record a new stat of unchanged source bytes in the index, and stamp it again."""
    import sqlite3

    from filelock import FileLock

    with FileLock(str(paths.lock)), closing(sqlite3.connect(paths.database)) as connection:
        meta = _source_meta(stat, "")
        del meta["sha256"], meta["version"]
        connection.executemany(
            "UPDATE meta SET value = ? WHERE key = ?", [(v, k) for k, v in meta.items()]
        )
        connection.commit()
        _write_stamp(paths)


def _open_trusted(paths: IndexPaths) -> Any:
    """A read-only connection when the index exists, matches its stamp and reads; else None."""
    import sqlite3

    if not paths.database.is_file() or not paths.stamp.is_file():
        return None
    try:
        stamp = json.loads(paths.stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if stamp != _stat_of(paths.database):
        return None  # changed since we built it: never trusted
    try:
        connection = sqlite3.connect(f"{paths.database.as_uri()}?mode=ro", uri=True)
        # read pages through a memory map and keep them cached: a warm index is RAM-speed.
        connection.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        connection.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        # Cheap reads only (a count would scan the table): damage elsewhere in the file surfaces
        # as a DatabaseError at query time, and the search rebuilds then.
        connection.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    except sqlite3.DatabaseError:
        return None
    return connection


def _stat_of(path: Path) -> dict[str, int]:
    return _key(path.stat())


def _write_stamp(paths: IndexPaths) -> None:
    write_atomic(paths.stamp, json.dumps(_stat_of(paths.database)) + "\n")
