"""The ``trictrac`` command line: thin wiring of click commands to the library."""
