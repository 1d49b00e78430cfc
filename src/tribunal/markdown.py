"""The one Jinja2 environment factory for Markdown bodies (SPEC §1, STYLE 3).

StrictUndefined (a missing variable is an error, never an empty string), autoescape off (the
output is Markdown), trimmed blocks. Templates come from the package's defaults, or from the
directory `--templates DIR` names — never implicitly from the working directory (C-8).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tribunal.errors import BadInput

JUDGMENT_TEMPLATE = "judgment.md.j2"
MANUAL_JUDGMENT_TEMPLATE = "manual_judgment.md.j2"
ARBITER_JUDGMENT_TEMPLATE = "arbiter_judgment.md.j2"


def template_environment(directory: Path | None = None) -> Any:
    """A jinja2 Environment loading from `directory`, or from the package's defaults when None.

    Raises BadInput when `directory` is not a directory.
    """
    import jinja2

    loader: jinja2.BaseLoader
    if directory is None:
        loader = jinja2.PackageLoader("tribunal", "templates")
    else:
        if not directory.is_dir():
            raise BadInput("templates directory not found", source=str(directory))
        loader = jinja2.FileSystemLoader(str(directory))
    return jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(name: str, context: dict[str, Any], directory: Path | None = None) -> str:
    """Render the template `name` with `context`.

    Raises BadInput naming the template (and its line) when it is missing, malformed, or uses a
    variable the context lacks.
    """
    import jinja2

    where = str(directory / name) if directory is not None else f"(default) {name}"
    environment = template_environment(directory)
    try:
        template = environment.get_template(name)
        text: str = template.render(**context)
    except jinja2.TemplateNotFound:
        raise BadInput("template not found", source=where) from None
    except jinja2.TemplateSyntaxError as exc:
        raise BadInput(f"template syntax: {exc.message}", source=where, line=exc.lineno) from None
    except jinja2.UndefinedError as exc:
        raise BadInput(f"template uses an unknown variable: {exc.message}", source=where) from None
    return text
