"""Play analysis (issue 29): an evaluator of a position and score, a player that uses
it, and the analysis of a whole game's plays and s'en aller / rester decisions.
See docs/analysis.md."""
