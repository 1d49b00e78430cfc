"""A dispute directory and the evidence the arbiter's verifier accepts (A-1..A-4).

The dispute model (`model`: `dispute.yaml`; `votes`; `charter`) and the three machine-checked
evidence kinds it names: `schema` records, `hooks` logs (and the hook that writes them), and
Gherkin `scenarios` with their JUnit results (`checks` runs all three).
"""
