"""Rendering: turn summaries (jinja2) and the text of `pbem show` / `pbem replay`.

Everything here works from an engine's `view` for one role, never from the raw state.
"""
