"""The verifier: a record re-played against the rules, and its findings.

:mod:`.verify` walks a record; :mod:`.judges` holds one module per kind of decision the table
makes; :mod:`.findings` is the finding model (data only, said in words by the catalogue of
:mod:`trictrac.words`); :mod:`.rulebook` is the players' rules reference each finding cites;
:mod:`.recover` treats mistakes of the record itself; :mod:`.stats` counts from the verdict.
"""
