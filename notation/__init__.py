"""Text and records: the ``.trn`` notation, its parser and its canonical writer.

Knows text and records, not the rules: legality and scoring belong to ``replay``.
"""
