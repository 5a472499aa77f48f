//! kibitz-connect4 engine (scaffold: filled in by its issue).
