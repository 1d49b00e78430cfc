#!/usr/bin/env bash
# T-8: the main job. Copies the example data to a temporary directory, runs the tutorial's four
# steps exactly as T-1 writes them, compares out/judgment.md and out/matrix.json with the goldens
# in tests/golden/, checks the negative fixtures in tests/fixtures/, and ends with
# `smoke_all: PASS`. Needs no network and no keys.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tribunal-smoke.XXXXXX")"
trap 'rm -rf "$work"' EXIT

say() { printf 'smoke_all: %s\n' "$*"; }
fail() { say "FAIL: $*" >&2; exit 1; }

# expect_fail CMD...: the command must exit 1 (a negative verdict), not 0 and not 2 (bad input).
expect_fail() {
  local status=0
  "$@" || status=$?
  [ "$status" -eq 1 ] || fail "expected exit 1 from: $* (got $status)"
}

cp -R "$here/scripts" "$here/src" "$here/specs" "$here/cases" "$here/metrics" "$here/matrix" \
  "$here/templates" "$work/"
mkdir -p "$work/tests"
cp -R "$here/tests/fixtures" "$here/tests/golden" "$work/tests/"
cd "$work"

say "1/4 duel"
python3 scripts/run_duel.py --spec specs/autoscale_spec.yaml --cases cases/ --out out/duel.json
say "2/4 invariants"
python3 scripts/check_invariants.py --metrics metrics/validation_metrics.json --out out/invariants.json
say "3/4 judgment"
python3 scripts/write_judgment.py --duel-out out/duel.json --invariants-out out/invariants.json --to out/judgment.md
say "4/4 matrix (C2 diverges by design: tier_dependent_spec, exit 1)"
expect_fail python3 scripts/matrix.py --spec specs/autoscale_spec.yaml --cases cases/ --tiers matrix/tiers.json --out out/matrix.json

diff -u tests/golden/judgment.md out/judgment.md || fail "out/judgment.md differs from tests/golden/judgment.md"
diff -u tests/golden/matrix.json out/matrix.json || fail "out/matrix.json differs from tests/golden/matrix.json"

say "negative: a counterexample that gets through"
expect_fail python3 scripts/run_duel.py --spec specs/autoscale_spec.yaml --cases tests/fixtures/got_through/ --out out/neg/duel.json
say "negative: a deferred case"
python3 scripts/run_duel.py --spec specs/autoscale_spec.yaml --cases tests/fixtures/deferred/ --out out/neg/deferred.json
python3 - <<'PY' || fail "tests/fixtures/deferred/ must yield exactly one deferred case"
import json, sys
sys.exit(0 if json.load(open("out/neg/deferred.json"))["deferred"] == 1 else 1)
PY

say "PASS"
