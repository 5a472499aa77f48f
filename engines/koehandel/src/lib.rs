//! kibitz-koehandel engine (scaffold: filled in by its issue).
