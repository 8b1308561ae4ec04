"""trictrac.publish."""
