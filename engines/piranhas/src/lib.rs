//! kibitz-piranhas engine (scaffold: filled in by its issue).
