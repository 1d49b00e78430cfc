"""The blind envelope (E-1..E-5): what every juror reads — the review contract, then every file
of the change whole, read from git objects and scanned for authorship — and its manifest.

`commits` reads base...head from git, `contract` loads the review contract, `text` writes
envelope.md, `identity` scans it, `build` puts them together, `read` reads a built one back.
"""

from tribunal.jury.envelope.build import Envelope, build_envelope, load_deny_file
from tribunal.jury.envelope.contract import Contract, load_contract
from tribunal.jury.envelope.read import read_envelope

__all__ = [
    "Contract",
    "Envelope",
    "build_envelope",
    "load_contract",
    "load_deny_file",
    "read_envelope",
]
