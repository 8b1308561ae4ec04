"""The rules: positions and legal plays, scoring events, the score ledger, the verifier."""
