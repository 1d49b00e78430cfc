"""The fleet file: model rungs, tiers as ordered ladders, and the lenses they seat (L-1).

Loaded through `tribunal.documents` and checked against `fleet.schema.json`; every error names
the file, the line and the field (C-3). Keys never live in the file: a rung names the
environment variable that holds its key (L-8).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.documents import Document, load_yaml, validate
from tribunal.enums import ResponseFormat, Transport
from tribunal.jury.lenses import DEFAULT_LENSES, DEFAULTS_BY_ID, Lens
from tribunal.jury.prompt_size import DEFAULT_ANSWER_TOKENS, holds
from tribunal.jury.transports.deadline import DEFAULT_TIMEOUT_S

# L-1 shorthand: where a provider's key comes from when the rung names none.
SHORTHAND_KEY_ENV: dict[Transport, str] = {
    Transport.OPENAI: "OPENAI_API_KEY",
    Transport.ANTHROPIC: "ANTHROPIC_API_KEY",
}


@dataclass(frozen=True)
class Rung:
    """One model a seat can be given to, and how to reach it (L-1, L-7)."""

    id: str
    family: str
    transport: Transport
    model: str | None = None
    endpoint: str | None = None  # None: the provider's default or environment (OPENAI_BASE_URL …)
    api_key_env: str | None = None
    api_key_header: str | None = None  # None: the provider's own (Authorization: Bearer, ...)
    context_tokens: int | None = None  # None: holds any artifact
    max_output_tokens: int | None = None
    reasoning: bool = False
    response_format: ResponseFormat = ResponseFormat.JSON_OBJECT
    params: Mapping[str, Any] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    cost: Mapping[str, float] | None = None
    local: bool = False
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_concurrency: int = 4
    command: tuple[str, ...] | None = None
    answers: Path | None = None  # replay: resolved against the fleet file's directory
    shorthand: bool = False
    rank: int | None = None  # P-2: higher is stronger; None: undeclared

    @property
    def answer_budget(self) -> int:
        """The tokens kept free for the answer (L-3)."""
        return self.max_output_tokens or DEFAULT_ANSWER_TOKENS

    @property
    def key_env(self) -> str | None:
        """The environment variable this rung's key comes from, or None when it needs none."""
        if self.api_key_env is not None:
            return self.api_key_env
        return SHORTHAND_KEY_ENV.get(self.transport) if self.shorthand else None

    def holds(self, tokens: int) -> bool:
        """L-3: True when the context holds a `tokens` prompt plus the answer budget."""
        return holds(self.context_tokens, tokens, self.answer_budget)


@dataclass(frozen=True)
class Tier:
    """An ordered ladder of rung ids; a fused tier also has a verifier ladder (L-5)."""

    name: str
    ladder: tuple[str, ...]
    verifier: tuple[str, ...] | None = None
    declared: bool = True  # False: a tier a lens routes on that the fleet does not declare

    @classmethod
    def undeclared(cls, name: str) -> Tier:
        """The empty ladder of a tier the fleet does not declare: its lenses hold (L-1)."""
        return cls(name, (), None, declared=False)

    @property
    def fused(self) -> bool:
        """True for a tier whose seats pass only if primary AND verifier pass."""
        return self.verifier is not None


@dataclass(frozen=True)
class Fleet:
    """A loaded, checked fleet file. `lenses` is the whole jury: the default eight (each on the
    tier the fleet routes it on) and then the fleet's own lenses — a fleet never removes one of
    the eight (L-1: a trust input cannot thin the jury)."""

    label: str
    rungs: Mapping[str, Rung]  # in the order the file declares them
    tiers: Mapping[str, Tier]
    lenses: tuple[Lens, ...]
    document: Document = field(repr=False, compare=False)

    def tier(self, name: str) -> Tier:
        """The tier `name`, or an undeclared (empty) one: a lens routed on it holds."""
        return self.tiers.get(name) or Tier.undeclared(name)

    @property
    def families(self) -> tuple[str, ...]:
        """Every family some rung declares, sorted, each once (compared case-insensitively)."""
        seen: dict[str, str] = {}
        for rung in self.rungs.values():
            seen.setdefault(rung.family.casefold(), rung.family)
        return tuple(sorted(seen.values(), key=str.casefold))


def load_fleet(path: Path, label: str | None = None) -> Fleet:
    """Load and check the fleet file at `path`.

    Returns the `Fleet`; raises `BadInput` (file, line, field) for malformed YAML, a schema
    violation, a duplicate rung id, a ladder naming an unknown rung, or a lens the fleet
    declares on a tier it does not declare. A default lens the fleet leaves alone keeps its
    default tier; when the fleet lacks that tier the lens holds (see `Fleet.tier`) — a contract
    may narrow the jury to the lenses the fleet does route (E-2 `lenses`).
    """
    document = load_yaml(path, label)
    validate(document, "fleet")
    rungs = _rungs(document, Path(path).parent)
    tiers = _tiers(document, rungs)
    lenses = _lenses(document, tiers)
    return Fleet(label=document.label, rungs=rungs, tiers=tiers, lenses=lenses, document=document)


def _rungs(document: Document, base: Path) -> dict[str, Rung]:
    rungs: dict[str, Rung] = {}
    for index, entry in enumerate(document.data["rungs"]):
        rung = _rung(entry, base)
        _check_reachable(document, index, rung)
        _check_request_fields(document, index, rung)
        if rung.id in rungs:
            key = "use" if rung.shorthand else "id"
            raise document.bad(f"duplicate rung id {rung.id!r}", ("rungs", index, key))
        rungs[rung.id] = rung
    return rungs


def _check_reachable(document: Document, index: int, rung: Rung) -> None:
    """L-1, C-3: mistakes that would otherwise surface only when the walk reaches the rung —
    after earlier rungs were paid for — are bad input when the fleet is loaded: an endpoint
    that is not an http(s) URL with a host, a replay answers file that is missing or does
    not parse. Raises BadInput naming the fleet file, line and field."""
    if rung.endpoint is not None:
        from tribunal.jury.transports.wire import endpoint_problem

        # The schema checks the scheme; a URL with no host (`http:///v1`), a port beyond 65535
        # or a host name no resolver takes passes it.
        problem = endpoint_problem(rung.endpoint)
        if problem is not None:
            raise document.bad(f"{rung.endpoint!r} {problem}", ("rungs", index, "endpoint"))
    if rung.answers is not None:
        from tribunal.errors import BadInput
        from tribunal.jury.transports.replay import load_answers

        where = ("rungs", index, "answers")
        shown = document.data["rungs"][index]["answers"]
        if not rung.answers.is_file():
            raise document.bad(f"answers file {shown!r} does not exist", where)
        try:
            load_answers(rung.answers, shown)
        except BadInput as error:
            raise document.bad(f"answers file {error}", where) from None


# L-1, L-7: the fields only a rung that sends an HTTP request to a model can use.
REQUEST_FIELDS = ("response_format", "api_key_header")


def _check_request_fields(document: Document, index: int, rung: Rung) -> None:
    """C-3: a request field on a rung that sends no HTTP request (a harness, a replay) would
    do nothing, silently; so would a key header with no key variable, and one also among
    `headers` would send two keys. Each is bad input naming the fleet file, line and field."""
    entry = document.data["rungs"][index]
    if rung.transport in (Transport.COMMAND, Transport.REPLAY):
        for name in (name for name in REQUEST_FIELDS if name in entry):
            raise document.bad(
                f"{name} applies to openai, anthropic and ollama rungs, not {rung.transport}",
                ("rungs", index, name),
            )
    if rung.api_key_header is not None:
        # L-8: the header carries the key of `api_key_env`; without one it would carry nothing.
        if rung.key_env is None:
            raise document.bad(
                "api_key_header needs api_key_env, the variable its key comes from",
                ("rungs", index, "api_key_header"),
            )
        if rung.api_key_header.casefold() in (name.casefold() for name in rung.headers):
            raise document.bad(
                f"{rung.api_key_header!r} is both api_key_header and one of the headers",
                ("rungs", index, "api_key_header"),
            )


def _rung(entry: dict[str, Any], base: Path) -> Rung:
    if "use" in entry:
        # L-1 shorthand: `provider/model`; family = provider unless given (Ollama needs it).
        provider, _, model = entry["use"].partition("/")
        transport = Transport(provider)
        identity: dict[str, Any] = {
            "id": entry["use"],
            "family": entry.get("family", provider),
            "transport": transport,
            "model": model,
            "shorthand": True,
        }
    else:
        transport = Transport(entry["transport"])
        identity = {
            "id": entry["id"],
            "family": entry["family"],
            "transport": transport,
            "model": entry.get("model"),
            "command": tuple(entry["command"]) if "command" in entry else None,
            "answers": (base / entry["answers"]) if "answers" in entry else None,
        }
    local = entry.get("local", transport is Transport.OLLAMA)
    return Rung(
        **identity,
        endpoint=entry.get("endpoint"),
        api_key_env=entry.get("api_key_env"),
        api_key_header=entry.get("api_key_header"),
        context_tokens=entry.get("context_tokens"),
        max_output_tokens=entry.get("max_output_tokens"),
        reasoning=entry.get("reasoning", False),
        response_format=ResponseFormat(entry.get("response_format", ResponseFormat.JSON_OBJECT)),
        params=dict(entry.get("params", {})),
        headers=dict(entry.get("headers", {})),
        cost=dict(entry["cost"]) if "cost" in entry else None,
        local=local,
        timeout_s=float(entry.get("timeout_s", DEFAULT_TIMEOUT_S)),
        max_concurrency=entry.get("max_concurrency", 1 if local else 4),
        rank=entry.get("rank"),
    )


def _tiers(document: Document, rungs: Mapping[str, Rung]) -> dict[str, Tier]:
    tiers: dict[str, Tier] = {}
    for name, value in document.data["tiers"].items():
        if isinstance(value, list):
            tiers[name] = Tier(name, _ladder(document, rungs, value, ("tiers", name)))
        else:
            primary = _ladder(document, rungs, value["primary"], ("tiers", name, "primary"))
            verifier = _ladder(document, rungs, value["verifier"], ("tiers", name, "verifier"))
            tiers[name] = Tier(name, primary, verifier)
    return tiers


def _ladder(
    document: Document, rungs: Mapping[str, Rung], ids: list[str], where: tuple[str, ...]
) -> tuple[str, ...]:
    seen: set[str] = set()
    for index, rung_id in enumerate(ids):
        if rung_id not in rungs:
            message = f"unknown rung {rung_id!r}; declared rungs: {', '.join(rungs)}"
            raise document.bad(message, (*where, index))
        if rung_id in seen:
            raise document.bad(f"rung {rung_id!r} appears twice on this ladder", (*where, index))
        seen.add(rung_id)
    return tuple(ids)


def _lenses(document: Document, tiers: Mapping[str, Tier]) -> tuple[Lens, ...]:
    """L-1: the default eight in their order, each re-routed where `lenses:` names it, then the
    fleet's own lenses in the order it declares them."""
    declared = document.data.get("lenses") or {}
    routed = {lens.id: lens for lens in _declared_lenses(document, declared, tiers)}
    jury = [routed.pop(lens.id, lens) for lens in DEFAULT_LENSES]
    return (*jury, *routed.values())


def _declared_lenses(
    document: Document, declared: Mapping[str, Any], tiers: Mapping[str, Tier]
) -> list[Lens]:
    lenses: list[Lens] = []
    for lens_id, spec in declared.items():
        default = DEFAULTS_BY_ID.get(lens_id)
        tier = spec.get("tier", default.tier if default else None)
        question = spec.get("question", default.question if default else None)
        if tier is None or question is None:
            missing = "tier" if tier is None else "question"
            raise document.bad(
                f"{missing} is required for a lens that is not one of the default eight",
                ("lenses", lens_id),
            )
        if tier not in tiers:
            raise document.bad(
                f"unknown tier {tier!r}; tiers: {', '.join(tiers)}", ("lenses", lens_id, "tier")
            )
        lenses.append(Lens(lens_id, tier, question))
    return lenses
