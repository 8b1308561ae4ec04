"""The verifier's judges: each module judges one part of the rules on one coup.

A judge is a module of plain functions.  Its entry points take the table's state
(:class:`~.table.TableState`, read and updated through that parameter only), the coup's
facts (:class:`~.table.CoupFacts`) or the section being read, and the findings sink
(:class:`~trictrac.replay.verifier.findings.Findings`) they report into; the course of the coup,
:meth:`trictrac.replay.verifier.verify._Verifier.coup`, calls them in order and collects the sink:

* :mod:`.play` — the written play: legal or not, remedies (RULES.md §3, §9.4-9.6);
* :mod:`.decisions` — s'en aller / rester: the right to leave (§6);
* :mod:`.gains` — the roller's own marks against his gains (§5.3, §7.1-7.2, §7.7-7.8);
* :mod:`.marks` — both sides' marks, the claims and corrections in the table's order,
  the two ledgers (§4.1, §5.2, §7.3);
* :mod:`.holes` — holes and bredouille as written (§5.2, §5.5, §7.5);
* :mod:`.claims` — écoles claimed, their timing, and the finding each mistake ends in (§7.2-7.4);
* :mod:`.pavillon` — the pavillon of the written game (§5.4);
* :mod:`.result` — the end of a partie or a marqué and the ``Result`` header (§8);
* :mod:`.sections` — the kind of partie, a relevé or a marqué starting (§6.1, §8.2-8.3).

:mod:`.table` holds what they share: the table's state, a coup's facts, the actions as
written (:class:`~.table.WrittenActions`) and the pending mistakes (:class:`~.table.Pending`).
"""
