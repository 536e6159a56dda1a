"""The seeded entries: one JSON file per fixed ID, loaded by catalog.store.seed."""
