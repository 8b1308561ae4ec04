"""trictrac.club."""
