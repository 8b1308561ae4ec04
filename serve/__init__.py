"""``trictrac serve``: the club evening in a browser (issue 28; docs/serve.md).

A Starlette application over the library: games recorded at the tables through the one
recording session (``replay.recorder.recording.RecordingSession``), followed live, stored in the
club database through ``club.db.import_records`` when they end, and published with
``publish.site.publish_files``.  ``serve.games`` holds the games, ``serve.app`` the
routes, ``serve.security`` the password, the signed cookie and the CSRF tokens,
``serve.words`` every label of the pages.
"""
