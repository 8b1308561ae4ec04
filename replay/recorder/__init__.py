"""The recorder's core, with no UI: the recording session and the record file it holds."""
