"""English templates of the messages rules, notes and fix labels give as keys (see wizard/i18n/text.py).

Every key here has a Chinese template in messages_zh.py; tests/test_i18n_text.py fails when one is missing or
when the two name different parameters.
"""

MESSAGES: dict[str, str] = {
    "count.errors": "{n} {n:plural(error|errors)}",
    "count.warnings": "{n} {n:plural(warning|warnings)}",
    "count.notes": "{n} {n:plural(note|notes)}",
    # issue 20: verl-wizard serve (a wizard per browser tab, the files as downloads)
    "serve.files_delivered": "Sent {zip} to your browser's downloads ({files:list}); nothing was written on the server",
    "serve.answers_delivered": "Answers sent to your browser's downloads as {name}",
    "serve.no_server_files": "A wizard in a browser reads no files on the server: the teacher loads one with `verl-wizard serve --answers FILE`",
    "serve.exit_delivered": "Delivered to the browser by verl-wizard (nothing written on this machine):",
    "serve.exit_zip": "{zip}: {files:comma}",
    "serve.url": "verl-wizard serve: open {url} in a browser; every tab gets its own wizard (at most {n} at once)",
    "serve.url_students": "students open {url} (this machine's name; use its address if the name does not resolve)",
    "serve.stop": "Press Ctrl+C to stop the server; every wizard ends with it.",
    "serve.open_host": "warning: --host {host} is not a loopback address: anyone who can reach port {port} of this machine gets a wizard, with no password",
    "serve.session_started": "wizard {n} started (pid {pid}); {active} of {most} places taken",
    "serve.session_ended": "wizard {n} ended; {active} of {most} places taken",
    "serve.wizard_says": "wizard {n}: {line}",
    "serve.fork_server_gone": "the fork server does not answer ({reason}): every new tab's wizard starts as a fresh Python from now on",
    "serve.session_refused": "a browser tab was turned away: all {most} places are taken (--max-sessions)",
    "serve.full_title": "verl-wizard: every place is taken",
    "serve.full_body": "All {most} wizards of this workshop are in use. Close a tab you no longer need, or wait: this page tries again every {seconds} seconds.",
    "serve.ended": "This wizard has ended. Your downloads are in your browser's downloads folder.",
    "serve.restart": "Start a new wizard",
    "serve.loading": "Starting your wizard...",
    "serve.needs_extra": "verl-wizard serve needs textual-serve; install it with: pip install 'verl-wizard[serve]'",
    "serve.cannot_listen": "--host {host} --port {port}: cannot listen there ({reason}); choose another --port or --host",
    "serve.bad_max_sessions": "--max-sessions {n}: must be at least 1",
    "serve.bad_port": "--port {port}: must be between 0 and 65535",
}
