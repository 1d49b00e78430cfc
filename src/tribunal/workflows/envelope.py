"""`tribunal envelope`: the blind envelope of BASE...HEAD — what every juror reads — built from
git objects, identity-scanned, and written with its manifest (E-1..E-4)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.errors import BadInput
from tribunal.jury.builder import envelope_terms, resolve_builder
from tribunal.jury.envelope.build import MANIFEST_NAME, Envelope, build_envelope, load_deny_file
from tribunal.jury.envelope.contract import load_contract
from tribunal.jury.envelope.text import ENVELOPE_NAME
from tribunal.jury.fleet import load_fleet
from tribunal.outputs import check_output_dir
from tribunal.paths import display_path


@dataclass(frozen=True)
class EnvelopeRequest:
    """The change (repository, base, head), its contract, where the envelope goes, and what the
    identity scan looks for besides the commits' own names: a deny file, and with a fleet the
    builder's model ids (and the fleet's family names and models, as warnings)."""

    repo: Path
    base: str
    contract: Path
    out: Path
    root: Path
    head: str = "HEAD"
    deny: Path | None = None
    fleet: Path | None = None
    builder: str | None = None


def envelope(request: EnvelopeRequest) -> Envelope:
    """Build, scan and write the envelope; return it. Raises BadInput (nothing written) for a
    bad contract, fleet, builder, deny file, repository or revision, or any identity hit."""
    root = request.root
    if request.builder is not None and request.fleet is None:
        raise BadInput("--builder needs --fleet (the builder is resolved in the fleet)")
    out_label = display_path(request.out, root)
    check_output_dir(request.out, "--out", out_label, files=(ENVELOPE_NAME, MANIFEST_NAME))
    contract = load_contract(request.contract, display_path(request.contract, root))
    deny = load_deny_file(request.deny, display_path(request.deny, root)) if request.deny else []
    builder_terms: tuple[str, ...] = ()
    content_terms: tuple[str, ...] = ()
    if request.fleet is not None:
        fleet = load_fleet(request.fleet, display_path(request.fleet, root))
        who = resolve_builder(fleet, request.builder) if request.builder is not None else None
        terms = envelope_terms(fleet, who)
        builder_terms, content_terms = terms.builder, terms.content
    built = build_envelope(
        request.repo,
        request.base,
        contract,
        head=request.head,
        repo_label=display_path(request.repo, root),
        deny=deny,
        builder_terms=builder_terms,
        content_terms=content_terms,
    )
    built.write(request.out)
    return built
