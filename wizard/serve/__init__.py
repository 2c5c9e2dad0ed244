"""`verl-wizard serve`: the wizard in browser tabs for workshops, one wizard process per tab (textual-serve).

places.py counts the tabs against --max-sessions; wizard_process.py starts, talks to and ends one wizard
process; pages.py writes the HTML; server.py is the web server that ties them together. Nothing here is
imported unless `serve` runs (textual-serve and aiohttp are the `serve` extra).
"""
