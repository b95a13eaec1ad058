"""The common rules-engine interface (api) and the registry of games (registry)."""
