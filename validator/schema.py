"""Check deck files against the JSON Schemas in schema/ and turn failures into located issues."""
from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import re2

from . import schema_verdicts
from .issues import Issue
from .jsonsource import SourcedJson
from .paths import SCHEMA_DIR
from .wording import counted

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

# jsonschema is imported by the functions that validate, not here: a deck file that checked clean before with
# these schemas is not validated again (schema_verdicts), and then jsonschema is never imported.

_MAX_REPR = 60
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False  # a bad pattern is our located error, not a line RE2 prints to stderr


@lru_cache(maxsize=4096)
def compiled_pattern(pattern: str) -> Any:
    """`pattern` compiled by RE2 (time linear in the text, `$` only at the very end), or why it cannot be.

    Deck files carry schemas of their own ("fields"), so a pattern is untrusted: Python's backtracking
    `re` takes forever on `^(a+)+$` against forty a's and a b, and its `$` accepts "cards\n".
    """
    try:
        return re2.compile(pattern, _RE2_OPTIONS)
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        return f"not a usable pattern ({reason}; no backreferences or lookaround)"


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Any:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string"):
        return
    regex = compiled_pattern(pattern)
    if isinstance(regex, str):
        yield ValidationError(f"pattern {pattern[:_MAX_REPR]!r} is {regex}")
    elif regex.search(instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: dict[str, Any]) -> Any:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        regex = compiled_pattern(pattern)
        if isinstance(regex, str):
            yield ValidationError(f"pattern {pattern[:_MAX_REPR]!r} is {regex}")
            continue
        for key, value in instance.items():
            if regex.search(key) is not None:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


@cache
def safe_validator() -> Any:
    """Draft 2020-12 with its regular expressions run by RE2: for our schemas and a deck's own alike."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, {"pattern": _pattern, "patternProperties": _pattern_properties})


@lru_cache(maxsize=1)
def _registry() -> Registry:
    from referencing import Registry, Resource

    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((path.resolve().as_uri(), Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@cache
def _validator(schema_name: str) -> Any:
    path = (SCHEMA_DIR / schema_name).resolve()
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema = {"$id": path.as_uri(), **schema}
    return safe_validator()(schema, registry=_registry())


def schema_names() -> list[str]:
    return sorted(p.name for p in SCHEMA_DIR.glob("*.schema.json"))


def check_declared_schema(doc: SourcedJson, expected: str) -> list[Issue]:
    """Every deck file names its schema in "$schema" so editors can check it; it must be the right one."""
    declared = doc.data.get("$schema") if isinstance(doc.data, dict) else None
    if not isinstance(declared, str):
        return [Issue(doc.location(""), "schema-missing",
                      f'"$schema" is missing: this file must declare "{expected}"')]
    # Only the file name is compared: decks may live anywhere (--decks), and each editor
    # resolves the relative path to its own copy of schema/.
    if declared.replace("\\", "/").rsplit("/", 1)[-1] != expected:
        return [Issue(doc.location("/$schema"), "schema-mismatch",
                      f'"$schema" is {declared!r} but this file must use fudaya\'s schema/{expected}')]
    return []


def validate(doc: SourcedJson, schema_name: str) -> list[Issue]:
    """All schema violations of `doc`, most relevant first, each one line with its JSON path; none at once
    for a document that checked clean before (schema_verdicts)."""
    if schema_verdicts.known_valid(doc.data, schema_name):
        return []
    issues = _violations(doc, schema_name)
    if not issues:
        schema_verdicts.remember_valid(doc.data, schema_name)
    return issues


def _violations(doc: SourcedJson, schema_name: str) -> list[Issue]:
    from jsonschema.exceptions import relevance

    issues = check_declared_schema(doc, schema_name)
    errors = sorted(_validator(schema_name).iter_errors(doc.data), key=relevance)
    for error in errors:
        if error.validator == "required" and not error.path and error.message.startswith("'$schema'"):
            continue  # check_declared_schema has said so already, more helpfully
        issues.append(_issue(doc, error))
    if not issues and schema_name == "cards.schema.json":
        issues.extend(_card_field_issues(doc))
    return issues


def value_errors(value: Any, schema_name: str) -> list[tuple[tuple[str | int, ...], str]]:
    """Violations of `value` (a part of a file, not a whole file) as (path inside it, one-line message).

    For values checked apart from their file, such as game.json "rules" against the schema of the
    engine that reads them: the caller knows where the value sits and locates each path itself.
    """
    if schema_verdicts.known_valid(value, schema_name):
        return []
    from jsonschema.exceptions import best_match, relevance

    found: dict[tuple[str | int, ...], str] = {}
    for error in sorted(_validator(schema_name).iter_errors(value), key=relevance):
        detail = best_match([error], key=relevance)
        found.setdefault(tuple(detail.absolute_path), _message(detail))  # one line per value, its most relevant
    if not found:
        schema_verdicts.remember_valid(value, schema_name)
    return list(found.items())


def validate_part(doc: SourcedJson, pointer: str, schema_name: str, note: str = "") -> list[Issue]:
    """Violations of the value at `pointer` in `doc`, located in `doc`; `note` is appended to each message."""
    value = doc.data
    for token in pointer.split("/")[1:]:
        value = value[int(token) if isinstance(value, list) else token]
    return [Issue(doc.location(pointer + "".join(f"/{p}" for p in path)), "schema", message + note)
            for path, message in value_errors(value, schema_name)]


def _issue(doc: SourcedJson, error: ValidationError, prefix: str = "") -> Issue:
    from jsonschema.exceptions import best_match, relevance

    # best_match([error]) descends into oneOf/anyOf branches towards the deepest error of the branch
    # that fits the value's type (a 5000 mm width, not "is not one of poker, bridge…").
    detail = best_match([error], key=relevance)
    pointer = prefix + "".join(f"/{p}" for p in detail.absolute_path)
    return Issue(doc.location(pointer), "schema", _message(detail))


def _card_field_issues(doc: SourcedJson) -> list[Issue]:
    """A card file's own "fields" schema (what its game's fields may hold), applied to every card's fields.

    The generic schema cannot know that a tile's number is 1-7; the deck says so in data, and a bad
    tile is then reported at its own JSON path like any other schema error.
    """
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError, relevance

    field_schema = doc.data.get("fields")
    if field_schema is None:
        return []
    try:
        Draft202012Validator.check_schema(field_schema)
    except SchemaError as exc:
        pointer = "/fields" + "".join(f"/{p}" for p in exc.path)
        return [Issue(doc.location(pointer), "schema", f"not a valid JSON Schema: {exc.message}")]
    bad = _first_bad_pattern(field_schema, "/fields")
    if bad is not None:
        return [Issue(doc.location(bad[0]), "schema", bad[1])]
    validator = safe_validator()(field_schema)
    issues: dict[str, Issue] = {}
    for index, card in enumerate(doc.data["cards"]):
        for error in sorted(validator.iter_errors(card["fields"]), key=relevance):
            issue = _issue(doc, error, prefix=f"/cards/{index}/fields")
            issues.setdefault(issue.location.pointer, issue)  # one line per value, its most relevant error
    return list(issues.values())


def _first_bad_pattern(value: Any, pointer: str) -> tuple[str, str] | None:
    """The JSON pointer and reason of the first "pattern" (or patternProperties key) RE2 cannot run."""
    if isinstance(value, dict):
        for key, child in value.items():
            here = f"{pointer}/{key}"
            if key == "pattern" and isinstance(child, str) and isinstance(compiled_pattern(child), str):
                return here, f"pattern {child[:_MAX_REPR]!r} is {compiled_pattern(child)}"
            if key == "patternProperties" and isinstance(child, dict):
                for name in child:
                    if isinstance(compiled_pattern(name), str):
                        return f"{here}/{name}", f"pattern {name[:_MAX_REPR]!r} is {compiled_pattern(name)}"
            found = _first_bad_pattern(child, here)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found = _first_bad_pattern(child, f"{pointer}/{index}")
            if found is not None:
                return found
    return None


def _message(error: ValidationError) -> str:
    instance = json.dumps(error.instance, ensure_ascii=False)
    if len(instance) > _MAX_REPR:
        instance = instance[: _MAX_REPR - 1] + "…"
    validator = error.validator
    message = str(error.message)
    if validator == "required":
        return message.replace("is a required property", "is required")
    if validator == "additionalProperties":
        return message
    if validator == "type":
        return f"{instance} is not of type {error.validator_value!r}"
    if validator == "enum":
        allowed = error.validator_value
        if not isinstance(allowed, list):  # an "enum" keyword always holds a list; say so to the type checker
            return message
        options = ", ".join(json.dumps(v, ensure_ascii=False) for v in allowed)
        return f"{instance} is not one of {options}"
    if validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[validator]
        return f"{instance} is out of range (must be {bound} {error.validator_value})"
    said = error.schema.get("x-pattern-message") if isinstance(error.schema, dict) else None
    if validator == "pattern" and isinstance(said, str):  # a schema's own words for what its pattern refuses
        return f"{instance} {said}"
    if validator == "pattern" and not message.startswith("pattern "):
        return f"{instance} does not match the pattern {error.validator_value!r}"
    if validator in ("minItems", "maxItems") and isinstance(error.instance, list):
        bound = "at least {} are needed" if validator == "minItems" else "at most {} are allowed"
        return f"{counted(len(error.instance), 'item')}, where {bound.format(error.validator_value)}"
    return message if len(message) < 160 else message[:159] + "…"
