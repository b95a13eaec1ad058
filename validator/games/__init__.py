"""One rules engine per game, each following validator.engine.api; registered in engine.registry."""
