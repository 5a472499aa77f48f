//! kibitz-maumau engine (scaffold: filled in by its issue).
