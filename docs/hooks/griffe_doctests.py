"""A Griffe extension for the documentation site (mkdocs.yml): docstrings read as Markdown.

The docstrings are plain text with doctests, which pytest runs. Markdown would read a doctest
example as a paragraph (and its output `[...]` as links) and a power such as 2**53 as the
start of bold text, so each example (runs of lines from one starting with `>>> `) is shown as
a Python console code block and `**` between two operands as itself. Code stays unchanged.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

#: A code span (left alone), or `**` between two operands (2**53, 13**4, 10**(k+1)).
_SPAN_OR_POWER = re.compile(r"(`+).*?\1|(?<=[\w)])\*\*(?=[\w(])")


def as_markdown(text: str) -> str:
    """`text` with each doctest example (from a `>>> ` line to the next blank line) fenced as
    ```pycon, at the example's indentation, and `**` escaped outside code; text already inside
    a fence is left alone."""
    out: list[str] = []
    fenced = in_example = False
    indent = ""
    for line in text.splitlines():
        stripped = line.lstrip()
        if in_example and not stripped:
            out.append(f"{indent}```")
            in_example = False
        elif not in_example and stripped.startswith("```"):
            fenced = not fenced
        elif not in_example and not fenced and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            in_example = True
        elif not in_example and not fenced:
            line = _SPAN_OR_POWER.sub(lambda m: m.group() if m.group(1) else r"\*\*", line)
        out.append(line)
    if in_example:
        out.append(f"{indent}```")
    return "\n".join(out)


class DocstringMarkdown(griffe.Extension):
    """Fences the doctest examples and escapes the powers of every docstring loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = as_markdown(obj.docstring.value)
