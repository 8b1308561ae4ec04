"""The rules engine: positions, legal plays, scoring events, the score ledger, the course of a coup.

Everything here is the game as the treatises state it, with no record in view: the analyser,
the verifier, the recorder and the generators all ask these modules what the rules say.
"""
