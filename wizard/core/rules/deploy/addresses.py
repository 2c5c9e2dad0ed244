"""Ray addresses as the deployment checks read them: the host an address names, and what is wrong with one
for its use (the Jobs API's http:// address, the GCS HEAD:6379 that ray.init and ray start take)."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from wizard.i18n.text import Msg, msg

HOST_PORT = re.compile(r"^\[?[A-Za-z0-9_.:-]+\]?:[0-9]{1,5}$")


def host_of(value: str) -> str | None:
    """The host an address names ([brackets] kept for IPv6), or None where brackets hold no IPv6 address.

    urlsplit raises ValueError for `http://[a]:8265`, and so would every reader after it: such an address is
    a finding at its field, never a traceback.
    """
    if "://" in value:
        try:
            host = urlsplit(value).hostname or ""
        except ValueError:
            return None
        return f"[{host}]" if ":" in host else host
    host = value.rsplit(":", 1)[0] if HOST_PORT.match(value) else value
    if host.startswith("[") or host.endswith("]"):
        try:
            ipaddress.IPv6Address(host.removeprefix("[").removesuffix("]"))
        except ValueError:
            return None
    return host


def address_problem(use: str, value: str) -> Msg | None:
    """What is wrong with a Ray address for its use ("jobs-api", "ray-init", ...), or None."""
    if host_of(value) is None:
        return msg("deploy.address.bad_host", value=value)
    scheme = urlsplit(value).scheme if "://" in value else ""
    if use == "jobs-api":
        if scheme not in ("http", "https"):
            return msg("deploy.address.not_jobs_api", value=value)
        return None
    if scheme in ("http", "https"):
        return msg("deploy.address.jobs_api_for_init", value=value)
    if scheme == "ray":
        return msg("deploy.address.ray_client", value=value)
    if use == "ray-init" and value in ("auto", "local"):
        return None
    if not HOST_PORT.match(value):
        return msg("deploy.address.not_host_port", value=value)
    return None
