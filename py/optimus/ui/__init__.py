"""Pure view models and the table session the DOM layer draws (no browser imports)."""
