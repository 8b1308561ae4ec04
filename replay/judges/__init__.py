"""The verifier's judges: each module judges one part of the rules on one coup.

The course of the coup is :class:`trictrac.replay.verify._Verifier` (``run`` → ``_coup``);
at each step it asks one judge:

* :mod:`.play` — the written play: legal or not, remedies (RULES.md §3, §9.4-9.6);
* :mod:`.marks` — the marks against the entitlement, holes and bredouille (§4, §5, §7.1-7.8);
* :mod:`.claims` — écoles claimed, their timing, and the finding each mistake ends in (§7.2-7.4);
* :mod:`.decisions` — s'en aller / rester: the right to leave (§6);
* :mod:`.pavillon` — the pavillon of the written game (§5.4);
* :mod:`.result` — the end of a partie or a marqué and the ``Result`` header (§8).

:mod:`.table` holds what they share: the table's state (:class:`~.table.TableState`), a
coup's facts (:class:`~.table.CoupFacts`), the actions as written
(:class:`~.table.WrittenActions`) and the pending mistakes (:class:`~.table.Pending`).
"""
