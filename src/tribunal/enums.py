"""Statuses, verdicts and outcomes: every closed vocabulary lives here (STYLE 4). Exit codes are
the command line's alone (`tribunal.cli.exit_codes`)."""

from __future__ import annotations

from enum import StrEnum


class CaseVerdict(StrEnum):
    """The verdict of one duel case, one matrix cell, or one evidence record (T-4)."""

    PASS = "PASS"
    FAIL = "FAIL"
    DEFERRED = "DEFERRED"


class JudgmentVerdict(StrEnum):
    """The verdict of a court, written into `judgment.md` and `precedents.md` (T-6, R-2)."""

    APPROVE = "APPROVE"
    DENY = "DENY"
    DEFERRED = "DEFERRED"

    @property
    def strictness(self) -> int:
        """R-4: DENY > DEFERRED > APPROVE."""
        return {"DENY": 2, "DEFERRED": 1, "APPROVE": 0}[self.value]


class SeatVerdict(StrEnum):
    """What a model seat says (V-1 pass/refuse; hold when no rung answered)."""

    PASS = "pass"
    REFUSE = "refuse"
    HOLD = "hold"


class Severity(StrEnum):
    """V-1 finding severities, strongest first. Severity orders a fix list; it never decides an
    outcome's class (P-8)."""

    BLOCKER = "blocker"
    MAJOR = "major"
    MINOR = "minor"
    INFO = "info"

    @property
    def rank(self) -> int:
        """0 for blocker (listed first), 3 for info."""
        return list(Severity).index(self)


class Outcome(StrEnum):
    """B-1 convening outcomes, in precedence order."""

    INVALID = "INVALID"
    ESCALATE = "ESCALATE"
    ITERATE = "ITERATE"
    HOLD = "HOLD"
    LAND = "LAND"

    @property
    def judgment_verdict(self) -> JudgmentVerdict:
        """B-1: the verdict `judgment.md` carries — APPROVE only for LAND, DENY for ITERATE."""
        return {
            "INVALID": JudgmentVerdict.DEFERRED,
            "ESCALATE": JudgmentVerdict.DEFERRED,
            "ITERATE": JudgmentVerdict.DENY,
            "HOLD": JudgmentVerdict.DEFERRED,
            "LAND": JudgmentVerdict.APPROVE,
        }[self.value]


class ProofName(StrEnum):
    """B-4 proofs, in the order the harness runs them (`summary.proofs[].name`)."""

    RED_FIRST = "red_first"
    TESTS_UNCHANGED = "tests_unchanged"
    GREEN = "green"
    REGRESSION = "regression"
    FAKE_GREEN = "fake_green"

    @property
    def failure_code(self) -> str:
        """B-4: the claim of the `harness` blocker finding a false proof becomes."""
        return {
            "red_first": "red_first_failed",
            "tests_unchanged": "tests_changed",
            "green": "not_green",
            "regression": "regression",
            "fake_green": "fake_green",
        }[self.value]


class ProofsState(StrEnum):
    """B-4: what became of the proofs of a convening."""

    RAN = "ran"  # every proof ran and is recorded (ok true or false)
    NOT_RUN = "not_run"  # some proof could not run (no `red` commit): at best HOLD
    SKIPPED = "skipped"  # `--no-proofs`: counted as held, and every report names it


class MatrixSignal(StrEnum):
    """T-7 `summary.signal`."""

    UNIFORM_PASS = "uniform_pass"
    UNIFORM_FAIL = "uniform_fail"
    TIER_DEPENDENT_SPEC = "tier_dependent_spec"


class SuiteRunner(StrEnum):
    """E-2 contract `test_runner`: how the proof harness reads the suite's results."""

    PYTEST = "pytest"
    GENERIC = "generic"


class ProofStatus(StrEnum):
    """B-4: what became of one proof. Only `held` is `ok`; only `failed` is a finding."""

    HELD = "held"
    FAILED = "failed"
    NOT_RUN = "not_run"  # needs a `red` commit (or a `test_command`) the contract does not name
    INVALID = "invalid"  # a run could not run cleanly: cap, signal, pytest exit 2-5 (B-1)


class TestOutcome(StrEnum):
    """B-4: one test's outcome in a suite run (pytest JUnit XML); worst first."""

    __test__ = False  # not a pytest test class, whatever its name

    ERROR = "error"  # an error in setup/teardown, or its file failed to collect
    FAILED = "failed"
    SKIPPED = "skipped"  # skip and xfail: never a pass
    PASSED = "passed"

    @property
    def fails(self) -> bool:
        """True for a test that failed or errored (red at `red`, again under fake_green)."""
        return self in (TestOutcome.ERROR, TestOutcome.FAILED)


class FileRole(StrEnum):
    """E-1 manifest `files[].role`: why a file is in the envelope."""

    CHANGED = "changed"  # touched by the change: whole content
    TEST = "test"  # a test file of a touched file, or named by the contract: whole content
    DELETED = "deleted"  # deleted by the change: path only


class TermSource(StrEnum):
    """E-3: where a scanned term comes from. Every source but CONTENT fails the envelope build."""

    NAME = "name"  # an author or committer name of a commit in the range
    EMAIL = "email"  # an author or committer e-mail address
    LOCAL_PART = "local_part"  # the part of such an address before `@` (4 characters or more)
    DENY = "deny"  # the contract's `deny` list or `--deny FILE`
    BUILDER = "builder"  # the builder's model id
    CONTENT = "content"  # a family name or another fleet model id: recorded as a warning only

    @property
    def fails(self) -> bool:
        """True when a hit of this term fails the build (E-3); content terms only warn."""
        return self is not TermSource.CONTENT

    @property
    def described(self) -> str:
        """How the term's origin is named in messages."""
        return {
            "name": "commit author/committer name",
            "email": "commit author/committer e-mail",
            "local_part": "local part of a commit e-mail",
            "deny": "deny list",
            "builder": "builder model id",
            "content": "fleet family or model id",
        }[self.value]


class ThresholdBound(StrEnum):
    """T-5: a threshold key `<metric>_max` (value must be <=) or `<metric>_min` (must be >=)."""

    MAX = "max"
    MIN = "min"

    @property
    def op(self) -> str:
        """The comparison written into `invariants.json` checks."""
        return {"max": "<=", "min": ">="}[self.value]

    @property
    def suffix(self) -> str:
        """How the threshold key ends."""
        return f"_{self.value}"


class InvariantReason(StrEnum):
    """T-5: why an invariant check failed, and the top-level reason of a corrupted metric."""

    MISSING_METRIC = "missing_metric"
    ABOVE_MAX = "above_max"
    BELOW_MIN = "below_min"
    METRIC_CORRUPTION = "metric_corruption"


class ReasonKind(StrEnum):
    """T-6 judgment reasons: the kind is the part of `reason` before `:`.

    The first five are the arbiter's, in the order they apply: the first that applies is the
    reason. `manual` is a hand-written judgment's; `precedent*` come with precedents (R-4).
    """

    COUNTEREXAMPLE_GOT_THROUGH = "counterexample_got_through"
    METRIC_CORRUPTION = "metric_corruption"
    VIOLATES_INVARIANT = "violates_invariant"
    DEFERRED = "deferred"
    CLEAN = "clean"
    MANUAL = "manual"
    PRECEDENT = "precedent"
    PRECEDENT_CONFLICT = "precedent_conflict"
    OUTCOME = "outcome"  # B-1: the blind court's reason, `outcome:<land|iterate|...>`

    @property
    def takes_argument(self) -> bool:
        """True when the reason is written `<kind>:<argument>`."""
        return self not in (ReasonKind.METRIC_CORRUPTION, ReasonKind.CLEAN)

    def with_argument(self, argument: str | None = None) -> str:
        """The reason text: `kind` or `kind:argument`."""
        return f"{self.value}:{argument}" if self.takes_argument else self.value


class EvidenceKind(StrEnum):
    """The producers of Evidence records known to the arbiter (SPEC §1); files may name others."""

    DUEL = "duel"
    INVARIANT = "invariant"
    CORRUPTION = "corruption"
    READINESS = "readiness"
    PROOFS = "proofs"  # B-4


class InvariantStatus(StrEnum):
    """T-2/T-7: one spec invariant for one case (`not_evaluated` is never a pass or a fail)."""

    SATISFIED = "satisfied"
    VIOLATED = "violated"
    NOT_EVALUATED = "not_evaluated"


class EvidenceFormat(StrEnum):
    """T-7: the form in which an implementor tier produces evidence."""

    MINIMAL_FORM = "minimal_form"  # diagnostic_code and allowed_delta
    EXTENDED_FORM = "extended_form"  # evidence_by_invariant


class ReadinessBlock(StrEnum):
    """T-9: why the readiness gate blocks, in the order it checks."""

    AUDIT_TRACE_INCOMPLETE = "audit_trace_incomplete"  # audit_trace_coverage < 1.0 or absent
    NO_ROLLBACK_CONDITION = "no_rollback_condition"  # rollback_condition_present absent or false
    BLAST_RADIUS_UNKNOWN = "blast_radius_unknown"  # blast_radius_known absent or false
    STATEFUL_WITHOUT_BACKUP = "stateful_without_backup"  # stateful without backup_verified
    SCORE_BELOW_THRESHOLD = "score_below_threshold"  # the five axes sum to less than 23 of 25


class ReasonCode(StrEnum):
    """Why a rung was skipped or rejected, or why a verdict was rewritten (L-2, L-3, L-6, V-3, V-4).

    Recorded on the rung (`rejected_rungs[].reason`, routing `skipped[].reason`) or on the seat.
    """

    BUILDER_FAMILY = "builder_family"  # L-2: the builder's family or model token, before dispatch
    CAPACITY = "capacity"  # L-3: cannot hold prompt + answer budget (a type, not a hold)
    NO_CREDENTIALS = "no_credentials"  # L-6: the rung's API key variable is not set
    PRIMARY_FAMILY = "primary_family"  # L-5: a verifier never shares the primary's family
    RANK = "rank"  # P-2: the adversary never sits on a weaker rung than another member's
    WRONG_LENS = "wrong_lens"  # L-6: a verdict for another lens; next rung
    TRUNCATED = "truncated"  # L-6: empty content, finish_reason length, a filled Ollama window
    MALFORMED = "malformed"  # L-6/V-2: answered badly; REFUSE, one shot
    NOT_ANSWERED = "not_answered"  # L-6: transport failure; re-seat on the next rung
    ANNULLED = "annulled"  # L-6/B-6: a harness rung changed bytes of its worktree
    CONTRADICTORY_PASS = "contradictory_pass"  # V-3: a pass listing a blocker/major finding
    OUTSIDE_ENVELOPE = "outside_envelope"  # V-4: a finding about a file the envelope never held
    # L-6, L-7: the server rejected the rung's response_format (an HTTP error naming it); next rung
    RESPONSE_FORMAT_UNSUPPORTED = "response_format_unsupported"


class CitationStatus(StrEnum):
    """V-4: the mark a citation check leaves on every finding and `checked` entry."""

    VERIFIED = "verified"  # file in the envelope, line exists, quoted evidence occurs verbatim
    OUTSIDE_ENVELOPE = "outside_envelope"  # names a file the envelope never held
    NO_SUCH_LINE = "no_such_line"  # the file is in the envelope, the line is not
    EVIDENCE_NOT_FOUND = "evidence_not_found"  # the quoted evidence does not occur verbatim
    UNLOCATED = "unlocated"  # no `location` naming a line (a CitationReason may say why)
    NOT_CHECKED = "not_checked"  # no envelope was given to check against


class CitationReason(StrEnum):
    """V-4, E-5: why a citation is `unlocated`, when it is known — never counted either way."""

    PLACEHOLDER = "placeholder"  # the form's own words copied: `path:line`, `file.py:N`, `<path>`
    EXAMPLE_COPIED = "example_copied"  # the output protocol's own example citation repeated


class Transport(StrEnum):
    """L-7: how a rung is reached."""

    OPENAI = "openai"
    ANTHROPIC = "anthropic"
    OLLAMA = "ollama"
    COMMAND = "command"
    REPLAY = "replay"


class ResponseFormat(StrEnum):
    """L-1, L-7: the structured-output form a rung asks its server for. The two schema forms
    send the seat's strict verdict schema; every reply is still read and checked (V-2..V-4)."""

    JSON_SCHEMA = "json_schema"  # OpenAI structured outputs: {type: json_schema, strict: true}
    JSON_OBJECT_SCHEMA = "json_object_schema"  # {type: json_object, schema}: llama.cpp servers
    JSON_OBJECT = "json_object"  # JSON only, no schema (the default)
    NONE = "none"  # nothing sent: the prompt alone asks for the verdict

    @property
    def sends_schema(self) -> bool:
        """True for the forms that send the seat's strict verdict schema."""
        return self in (ResponseFormat.JSON_SCHEMA, ResponseFormat.JSON_OBJECT_SCHEMA)


class RouteStatus(StrEnum):
    """L-2/L-5: what routing left a lens with before any dispatch."""

    SEATED = "seated"  # a rung (and, for a fused tier, an eligible verifier) is ready
    HOLD = "hold"  # no rung left: the lens holds, never falls back to the builder
    UNVERIFIED = "unverified"  # fused tier with no eligible verifier: a hold (L-5)


class BuilderMatch(StrEnum):
    """L-2: what the `--builder` name was resolved to (case-insensitively, in this order)."""

    RUNG = "rung"  # a rung id
    MODEL = "model"  # a rung's model id
    FAMILY = "family"  # a family some rung declares


class PrecedentForm(StrEnum):
    """R-2: how a precedents.md entry is written."""

    SECTION = "section"  # a `## PREC-NNN` heading followed by a fenced yaml block
    LIST_ITEM = "list_item"  # the tutorial's `- case_id: "PREC-001"` list item, fenced or bare


class Role(StrEnum):
    """A-1 arbiter roles. The coordinator keeps the protocol and does not vote."""

    VERIFIER = "verifier"
    IMPLEMENTOR = "implementor"
    SAFETY = "safety"
    COORDINATOR = "coordinator"


class VoteAction(StrEnum):
    """A-2: what a role did in a round."""

    PROPOSED = "proposed"
    CHALLENGED = "challenged"
    DEFENDED = "defended"
    DEFERRED = "deferred"
    WITHDRAWN = "withdrawn"


class Veto(StrEnum):
    """A-1: the condition on which a role's DENY decides alone."""

    CRITICAL_RISK = "critical_risk"


class PassRule(StrEnum):
    """A-1 `pass_rule`."""

    AT_LEAST_2_APPROVE_AND_NO_SAFETY_VETO = "at_least_2_approve_and_no_safety_veto"

    @property
    def weight(self) -> int:
        """The approving (and, A-2, denying) weight that decides a round."""
        return 2


class TieBreaker(StrEnum):
    """A-1 `tie_breaker`."""

    SAFETY_FIRST_THEN_LATEST_MATCHING_PRECEDENT = "safety_first_then_latest_matching_precedent"


class DisputeEvidenceKind(StrEnum):
    """A-3: the three kinds of evidence the verifier accepts, in the order they are checked."""

    SCHEMA = "schema"
    HOOKS = "hooks"
    SCENARIOS = "scenarios"


class HookEvent(StrEnum):
    """A-3 hook log `event` (the agent CLIs' `hook_event_name`)."""

    PRE_TOOL_USE = "PreToolUse"
    POST_TOOL_USE = "PostToolUse"


class HookDecision(StrEnum):
    """A-3: what a PreToolUse hook decided."""

    ALLOW = "allow"
    BLOCK = "block"


class FinalVerdict(StrEnum):
    """A-2 `final_verdict` of an arbitrated dispute."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"
    DEFERRED = "deferred"
    PARTIAL = "partial"  # APPROVE while items stay deferred


class RoundStatus(StrEnum):
    """A-4: whether a round counts."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"


class ArbiterReason(StrEnum):
    """A-2, A-5 reasons of `tribunal arbitrate`, in the order the rules apply.

    `missing_evidence`, `tie_breaker` and `precedent` take an argument (`<kind>`, `safety` or
    `unresolved`, `PREC-NNN`).
    """

    MISSING_EVIDENCE = "missing_evidence"
    SAFETY_VETO = "safety_veto"
    NO_QUORUM = "no_quorum"
    PASS_RULE = "pass_rule"
    DENY_WEIGHT = "deny_weight"
    TIE_BREAKER = "tie_breaker"
    PRECEDENT = "precedent"
    DEADLOCK = "deadlock"

    def with_argument(self, argument: str | None = None) -> str:
        """The reason text: `kind` or `kind:argument`."""
        return self.value if argument is None else f"{self.value}:{argument}"


class CheckStatus(StrEnum):
    """A-6 decision trace `checks[].status`."""

    PASS = "pass"  # evidence present, round accepted
    FAIL = "fail"  # evidence missing, round rejected
    DECIDED = "decided"  # this rule decided the round
    NOT_MET = "not_met"  # the rule was weighed and did not decide
    NOT_REACHED = "not_reached"  # an earlier rule decided first


class MatchStatus(StrEnum):
    """R-4: where `precedent match` puts a precedent for a dispute (the JSON list names)."""

    APPLIES = "applies"  # scope matches, next_check evaluable and not triggered
    DUE = "due_for_reexamination"  # next_check.when evaluates true for the dispute
    CANNOT_EVALUATE = "cannot_evaluate"  # next_check.when cannot be evaluated for the dispute
    SCOPE_UNKNOWN = "scope_unknown"  # the dispute lacks a key the precedent's scope declares
    CANDIDATE = "candidates"  # scope is prose only: ranked by text, never applied
    OUT_OF_SCOPE = "out_of_scope"  # a declared scope the dispute's value is not in: not listed


class DisputeSource(StrEnum):
    """R-4: what `precedent match` reads a later dispute's facts from."""

    CASE = "case"  # a counterexample case file: given_snapshot, when_payload, top-level scalars
    JUDGMENT = "judgment"  # a judgment.md: its front matter
    FACTS = "facts"  # a YAML or JSON mapping


class PanelRisk(StrEnum):
    """P-1: how much a slice puts at stake; it sets the default lenses."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class ExecutorStatus(StrEnum):
    """P-9: what an executor reports about the slice it built."""

    DONE = "DONE"
    DONE_WITH_CONCERNS = "DONE_WITH_CONCERNS"
    NEEDS_CONTEXT = "NEEDS_CONTEXT"
    BLOCKED = "BLOCKED"


class ConcernKind(StrEnum):
    """P-9: an executor's concern; correctness and scope ones are resolved before a panel sits."""

    CORRECTNESS = "correctness"
    SCOPE = "scope"
    OBSERVATION = "observation"


# --- the panel court (P-4..P-8) ----------------------------------------------------------------


class PanelOutcome(StrEnum):
    """P-8 outcomes, in precedence order: the first that applies decides."""

    NOT_CONVENED = "NOT_CONVENED"
    INVALID = "INVALID"
    HOLD = "HOLD"
    ESCALATE = "ESCALATE"
    BLOCK = "BLOCK"
    ITERATE = "ITERATE"
    SHIP_WITH_CAVEATS = "SHIP_WITH_CAVEATS"
    SHIP = "SHIP"

    @property
    def precedence(self) -> int:
        """P-8: 0 for the outcome checked first (NOT_CONVENED), 7 for SHIP."""
        return list(PanelOutcome).index(self)


class VetOutcome(StrEnum):
    """P-11: what vetting a plan comes to — two of three lenses pass, or one refinement, or a
    person decides."""

    PROCEED = "PROCEED"
    REFINE = "REFINE"
    ESCALATE = "ESCALATE"

    @property
    def judgment_verdict(self) -> JudgmentVerdict:
        """The verdict `judgment.md` carries: APPROVE, DENY, DEFERRED."""
        return {
            "PROCEED": JudgmentVerdict.APPROVE,
            "REFINE": JudgmentVerdict.DENY,
            "ESCALATE": JudgmentVerdict.DEFERRED,
        }[self.value]


class Recommendation(StrEnum):
    """P-4: what a member may recommend. ESCALATE is not among them: the orchestrator alone
    escalates (source 001: "仅由编排器决定——绝不能作为评审小组的建议")."""

    SHIP = "SHIP"
    SHIP_WITH_CAVEATS = "SHIP_WITH_CAVEATS"
    ITERATE = "ITERATE"
    BLOCK = "BLOCK"


class ScorecardPhase(StrEnum):
    """P-6: the phase a scorecard was written in."""

    SCORE = "score"
    SYNTHESIS = "synthesis"


class CardFault(StrEnum):
    """P-4: why a member's card was not a scorecard (`MalformedCard.reason`)."""

    MALFORMED = "malformed"  # not the shape: no JSON, a dimension missing, a score out of range
    ADVERSARY_DID_NOT_OPPOSE = "adversary_did_not_oppose"  # P-2: an adversary names a scenario


class ScenarioKind(StrEnum):
    """P-4: the kind of a failure scenario."""

    CORRECTNESS = "correctness"
    SAFETY = "safety"
    OTHER = "other"


class VerdictSource(StrEnum):
    """Where a panel member's verdict came from (its card, a malformed card, a hold)."""

    CARD = "card"
    MALFORMED = "malformed"
    HOLD = "hold"


class TriggerName(StrEnum):
    """P-6 disagreement triggers; any one opens exactly one synthesis phase."""

    SPREAD = "spread"
    ADVERSARY_SCORED_ONE = "adversary scored 1"
    CONFIDENCE_SPLIT = "confidence split"
    PASS_FAIL_SPLIT = "pass/fail split"


class ConsensusKind(StrEnum):
    """P-7: how a dimension's consensus was reached, or why there is none."""

    AGREED = "agreed"  # every score within 1 of every other
    MAJORITY = "majority"  # a strict majority within 1 of each other; the rest dissent
    DEADLOCK = "deadlock"  # no strict majority within 1 of each other
    UNSCORED = "unscored"  # no score left at all: every one refuted or absent


class PanelItemKind(StrEnum):
    """What a refuted-log or fix-list entry is."""

    SCORE = "score"
    FINDING = "finding"
    SCENARIO = "scenario"
    ESCALATION = "escalation"


class PanelRule(StrEnum):
    """The rules an outcome is decided by; `Decision.reasons` names them, the deciding one
    first. Declared in the order they are checked (P-8's table, top to bottom), so the reasons
    sorted by `rank` put the deciding one first. The values reach users: short, stable, and
    free of requirement IDs."""

    NOT_CONVENED = "not convened"
    INVALID = "verification could not run cleanly"
    LENS_NOT_SEATED = "lens not seated"
    BEYOND_BUDGET = "beyond budget"
    DEADLOCK = "deadlock"
    DIMENSION_NOT_SCORED = "dimension not scored"
    UNREFUTED_ESCALATION = "unrefuted escalation"
    STRUCTURAL_BLOCK = "majority recommends BLOCK on a structural finding"
    BLOCK_CONTRADICTS_EVIDENCE = "BLOCK contradicts the evidence: every finding is a local fix"
    BELOW_CAVEAT_BAND = "overall below the caveat band"
    BLOCKED_DIMENSION = "blocked dimension"
    FAILURE_SCENARIO = "unrefuted correctness or safety scenario"
    SERIOUS_FINDING = "unrefuted blocker or major finding"
    VERIFICATION_FAILED = "verification failed"
    MALFORMED_SCORECARD = "malformed scorecard"
    # S-7: a citation of a file the panel was not shown never lets a round SHIP.
    OUTSIDE_ENVELOPE = "a citation names a file the panel was not shown"
    IN_CAVEAT_BAND = "overall in the caveat band"
    AT_TARGET = "overall at or above target"

    @property
    def outcome(self) -> PanelOutcome:
        """The outcome this rule decides when it is the first that applies (P-8)."""
        return _RULE_OUTCOMES[self]

    @property
    def rank(self) -> int:
        """The position the rule is checked at: 0 first."""
        return list(PanelRule).index(self)


_RULE_OUTCOMES = {
    PanelRule.NOT_CONVENED: PanelOutcome.NOT_CONVENED,
    PanelRule.INVALID: PanelOutcome.INVALID,
    PanelRule.LENS_NOT_SEATED: PanelOutcome.HOLD,
    PanelRule.BEYOND_BUDGET: PanelOutcome.ESCALATE,
    PanelRule.DEADLOCK: PanelOutcome.ESCALATE,
    PanelRule.DIMENSION_NOT_SCORED: PanelOutcome.ESCALATE,
    PanelRule.UNREFUTED_ESCALATION: PanelOutcome.ESCALATE,
    PanelRule.STRUCTURAL_BLOCK: PanelOutcome.BLOCK,
    PanelRule.BLOCK_CONTRADICTS_EVIDENCE: PanelOutcome.ITERATE,
    PanelRule.BELOW_CAVEAT_BAND: PanelOutcome.ITERATE,
    PanelRule.BLOCKED_DIMENSION: PanelOutcome.ITERATE,
    PanelRule.FAILURE_SCENARIO: PanelOutcome.ITERATE,
    PanelRule.SERIOUS_FINDING: PanelOutcome.ITERATE,
    PanelRule.VERIFICATION_FAILED: PanelOutcome.ITERATE,
    PanelRule.MALFORMED_SCORECARD: PanelOutcome.ITERATE,
    PanelRule.OUTSIDE_ENVELOPE: PanelOutcome.SHIP_WITH_CAVEATS,
    PanelRule.IN_CAVEAT_BAND: PanelOutcome.SHIP_WITH_CAVEATS,
    PanelRule.AT_TARGET: PanelOutcome.SHIP,
}
