"""Write the sample recorded shoe, analyzer/counting/data/sample-shoe.txt: 8 decks with suits,
shuffled and dealt by this project's dealer (run seed 1, shoe 0, cut card 14). tests/test_track.py
checks that the committed file is what this writes."""

from __future__ import annotations

from pathlib import Path

from analyzer.core.files import write_atomic
from analyzer.counting.record import SAMPLE, sample_record

if __name__ == "__main__":
    path = Path(__file__).resolve().parent.parent / "analyzer" / "counting" / "data" / SAMPLE
    write_atomic(path, sample_record())
    print(f"wrote {path}")
