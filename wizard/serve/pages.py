"""The HTML that `verl-wizard serve` sends: a tab's wizard page, and the page for a tab beyond --max-sessions.

The wizard page runs textual-serve's own terminal (its textual.js and xterm.css, served from its static
folder); the fonts come from that folder too, so a classroom without internet access renders the same.
The websocket address is made in the browser from the address the tab used, so the page works whatever
name or address students reach the server by.
"""

from __future__ import annotations

import html
import json

from wizard.i18n.text import msg, render

RETRY_S = 15  # the full page reloads itself this often

_STYLE = """
@font-face { font-family: "Roboto Mono"; font-display: block;
  src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }
html, body { margin: 0; height: 100%; overflow: hidden; background: #0c181f; color: #e8eef2;
  font-family: "Roboto Mono", "DejaVu Sans Mono", monospace; }
.notice { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center;
  justify-content: center; text-align: center; padding: 2em; box-sizing: border-box; font-size: 18px; }
.notice p { max-width: 40em; line-height: 1.5; }
.notice a { color: #e8eef2; background: #5e0ba7; padding: 0.8em 1.6em; text-decoration: none; }
.ended { display: none; z-index: 10; background: #0c181f; }
body.-first-byte .loading { display: none; }
body.-closed .ended { display: flex; }
.textual-terminal { opacity: 0; }
body.-first-byte .textual-terminal { opacity: 1; }
"""


def _text(message, lang: str) -> str:
    return html.escape(render(message, lang))


def wizard_page(token: str, lang: str, font_size: int = 16) -> str:
    """The page of one tab: textual-serve's terminal, connected to /ws/<token> (the place held for it)."""
    socket_path = json.dumps(f"/ws/{token}")
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>verl-wizard</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<script src="/static/js/textual.js"></script>
<style>{_STYLE}</style>
</head>
<body>
<div class="notice loading"><p>{_text(msg("serve.loading"), lang)}</p></div>
<div class="notice ended"><p>{_text(msg("serve.ended"), lang)}</p><a href="/">{_text(msg("serve.restart"), lang)}</a></div>
<div id="terminal" class="textual-terminal" data-font-size="{int(font_size)}"></div>
<script>
document.getElementById("terminal").dataset.sessionWebsocketUrl =
  (location.protocol === "https:" ? "wss://" : "ws://") + location.host + {socket_path};
</script>
</body>
</html>
"""


def full_page(most: int, lang: str) -> str:
    """The page for a tab beyond --max-sessions: says so, and tries the wizard page again by itself."""
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="{RETRY_S}; url=/">
<title>{_text(msg("serve.full_title"), lang)}</title>
<style>{_STYLE}</style>
</head>
<body>
<div class="notice" id="full"><h1>{_text(msg("serve.full_title"), lang)}</h1>
<p>{_text(msg("serve.full_body", most=most, seconds=RETRY_S), lang)}</p></div>
</body>
</html>
"""
