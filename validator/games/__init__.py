"""One package per game, each exporting SPEC (validator.engine.spec.GameSpec); the registry imports them by name."""
