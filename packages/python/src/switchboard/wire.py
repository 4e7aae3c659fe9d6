"""How Python's names become the protocol's: keyword arguments in snake_case, payload keys in
camelCase, and what was not given left out (the server applies its own defaults)."""

from __future__ import annotations

from typing import Any, Mapping

from .types import JSON


def camel(name: str) -> str:
    """`lines_added` as the protocol spells it, `linesAdded`; a camelCase name stays as it is."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def camel_keys(item: Mapping[str, Any]) -> JSON:
    """A dict with its keys (not its values' keys) in camelCase."""
    return {camel(key): value for key, value in item.items()}


def payload(**fields: Any) -> JSON:
    """The fields that were given (not None), named in camelCase."""
    return {camel(key): value for key, value in fields.items() if value is not None}
