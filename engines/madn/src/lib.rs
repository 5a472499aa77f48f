//! kibitz-madn engine (scaffold: filled in by its issue).
