"""Generated records: bots that play whole parties, and the injector of table mistakes."""
