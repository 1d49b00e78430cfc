"""Zero authorship (E-3): the terms an envelope must not carry and the one scanner for them.

Both sides are compared in one folded form (`fold`): Unicode NFKC, then case folding (and NFKC
again, since folding can leave a sequence NFKC would compose). So "Zoë" committed precomposed is
found written as "Zoe" + a combining diaeresis, "ZOË", or in a compatibility form ("ﬁ" is "fi"),
and "Strauß" as "STRAUSS". Terms are then matched as whole words by a single compiled regular
expression over the folded text (X-2: one pass, whatever the number of terms). A name matches
across any run of spaces or tabs, so "Ada  Lovelace" is still "Ada Lovelace". Folding never
adds or removes a line break, so a hit's line is counted in the folded text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from tribunal.enums import TermSource

MIN_LOCAL_PART = 4  # E-3: an e-mail's local part is a term when it has 4 characters or more

# Terms derived from commits; `identity_allow` can suppress only these (E-3 known false
# positives). Deny-list and builder terms were named on purpose and always fail.
ALLOWABLE_SOURCES = frozenset({TermSource.NAME, TermSource.EMAIL, TermSource.LOCAL_PART})


@dataclass(frozen=True)
class Term:
    """One text to look for, and where it came from."""

    text: str
    source: TermSource


def fold(text: str) -> str:
    """`text` in the form the scan compares: NFKC, case folded, NFKC again (E-3)."""
    if text.isascii():
        return text.lower()  # the same, fast: NFKC leaves ASCII alone, casefold is lower
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def term_key(text: str) -> str:
    """The form two terms are compared in: folded, whitespace runs collapsed."""
    return " ".join(fold(text).split())


def identity_terms(
    identities: Iterable[tuple[str, str]],
    *,
    deny: Sequence[str] = (),
    builder_terms: Sequence[str] = (),
    content_terms: Sequence[str] = (),
    allow: Sequence[str] = (),
) -> list[Term]:
    """The E-3 term list: commit names and e-mails (`(kind, text)` with kind `name`/`email`)
    plus e-mail local parts of 4+ characters, minus `allow`; then `deny`, `builder_terms` and
    `content_terms`. Returns terms in that order (a later duplicate is dropped by the scanner)."""
    allowed = {term_key(text) for text in allow}
    terms: list[Term] = []
    for kind, text in identities:
        if kind == "email":
            terms.append(Term(text, TermSource.EMAIL))
            local = text.partition("@")[0]
            if "@" in text and len(local) >= MIN_LOCAL_PART:
                terms.append(Term(local, TermSource.LOCAL_PART))
        else:
            terms.append(Term(text, TermSource.NAME))
    terms = [
        term
        for term in terms
        if term.source not in ALLOWABLE_SOURCES or term_key(term.text) not in allowed
    ]
    terms += [Term(text, TermSource.DENY) for text in deny]
    terms += [Term(text, TermSource.BUILDER) for text in builder_terms]
    terms += [Term(text, TermSource.CONTENT) for text in content_terms]
    return terms


class TermScanner:
    """Finds whole-word occurrences of a set of terms in text, both sides folded (`fold`)."""

    def __init__(self, terms: Iterable[Term]) -> None:
        chosen: dict[str, Term] = {}
        for term in terms:
            key = term_key(term.text)
            if not key:
                continue
            known = chosen.get(key)
            # A term that fails the build outranks the same text as mere content.
            if known is None or (not known.source.fails and term.source.fails):
                chosen[key] = term
        # Longest first, so an address wins over its own local part at the same place.
        self.terms: list[Term] = sorted(
            chosen.values(), key=lambda t: (-len(term_key(t.text)), term_key(t.text))
        )
        self._pattern: re.Pattern[str] | None = None
        if self.terms:
            alternatives = "|".join(
                f"(?P<t{index}>{_words(term.text)})" for index, term in enumerate(self.terms)
            )
            self._pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")

    def search(self, text: str) -> Iterator[tuple[Term, int]]:
        """Each (term, line) found in `text`, in order: `line` counts the line breaks (`\\n`)
        before the hit, so 0 is the first line of `text`."""
        if self._pattern is None:
            return
        folded = fold(text)
        line, counted = 0, 0
        for match in self._pattern.finditer(folded):
            group = match.lastgroup
            if group is not None:
                line += folded.count("\n", counted, match.start())
                counted = match.start()
                yield self.terms[int(group[1:])], line


def _words(text: str) -> str:
    return r"[ \t]+".join(re.escape(word) for word in term_key(text).split())
