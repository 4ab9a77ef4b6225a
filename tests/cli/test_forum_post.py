"""Forum play: `pbem render --format bbcode|markdown` writes a post (a public summary and
the armored entries); pasted back, as written or as a forum displays it, it applies."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from pbem.transport.movefile import html_to_text
from tests.cli.test_cli import entry_count, ok, run, start_game


def strip_bbcode(post: str) -> str:
    """What a reader copies from a displayed BBCode post: the text without its tags."""
    return re.sub(r"\[/?(?:b|i|list|\*|code)\]", "", post)


def markdown_as_html(post: str) -> str:
    """A forum's rendering of a Markdown post: the fenced block becomes <pre><code>."""
    head, _, rest = post.partition("```\n")
    block, _, tail = rest.partition("```")
    escape = html.escape
    return f"<p>{escape(head)}</p><pre><code>{escape(block)}</code></pre><p>{escape(tail)}</p>"


@pytest.mark.parametrize("fmt", ["bbcode", "markdown"])
def test_a_post_pasted_back_applies(tmp_path: Path, fmt: str) -> None:
    player, referee, game = start_game(tmp_path)
    ok(player, "move", game[:8], "roll", "event")
    post = ok(player, "render", game[:8], "--format", fmt)
    assert "view of" in post and "public" in post
    assert post.count("BEGIN PBEM ENTRY") == 1  # the last move only
    if fmt == "bbcode":
        assert "[code]" in post and post.rstrip().endswith("[/code]")
        pasted = [post, strip_bbcode(post)]
    else:
        assert "```" in post
        pasted = [post, html_to_text(markdown_as_html(post))]
    for i, text in enumerate(pasted):
        before = entry_count(referee)
        (tmp_path / f"paste{i}.txt").write_text(text)
        out = ok(referee, "apply", "--no-auto", str(tmp_path / f"paste{i}.txt"))
        expected = "applied" if i == 0 else "already had"
        assert f"{expected}: entry 3 by german" in out
        assert entry_count(referee) == before + (1 if i == 0 else 0)


def test_a_post_carries_the_entries_asked_for(tmp_path: Path) -> None:
    player, _referee, game = start_game(tmp_path)
    post = ok(player, "render", game[:8], "--format", "bbcode", "--since", "0")
    assert post.count("BEGIN PBEM ENTRY") == 3  # genesis and both joins
    assert "Entries #0-#2" in post
    missing = run(player, "render", game[:8], "--format", "markdown", "--since", "9")
    assert missing.exit_code == 1 and "no entry 9" in missing.stderr


def test_a_post_never_shows_a_roles_sealed_values(tmp_path: Path) -> None:
    """A forum is public: the post is the public view, the same from either player's store
    (each holding its own sealed hand and plan) as from a save file that holds no secret."""
    from pbem.demo import run_demo
    from pbem.errors import PbemError

    with pytest.raises(PbemError, match="without an outcome"):
        run_demo("berlin-1945", tmp_path / "demo", seed=2, max_entries=40)
    german, soviet = tmp_path / "demo" / "german-home", tmp_path / "demo" / "soviet-home"
    game = ok(german, "show").split("\t", 1)[0]
    save = tmp_path / "game.pbem"
    ok(german, "export", game, "-o", str(save))
    for fmt in ("bbcode", "markdown"):
        posts = {
            ok(german, "render", game, "--format", fmt),
            ok(soviet, "render", game, "--format", fmt),
            ok(german, "render", str(save), "--format", fmt),
        }
        assert len(posts) == 1
        (post,) = posts
        assert "view of" in post and "public" in post
        # the Soviet's own view names the cards in hand; the post gives only their number
        own = ok(soviet, "render", game, "--format", "text")
        assert re.search(r"soviet hand: \d+ cards?: #\d+", own)
        counted = {"bbcode": r"soviet hand: \d+ cards?\n", "markdown": r"\| soviet \| \d+ \|\n"}
        assert re.search(counted[fmt], post)
