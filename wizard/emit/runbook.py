"""RUN.md's runbook sections per target: what the user types, in order, with the prose around it as messages.

A section is a title and a list of items: a message (a line of prose, rendered in RUN.md's language) or a
`Commands` (one ```bash block, the same in every language). The blocks, read top to bottom, are the whole
way from this folder to a running job on the target: the secrets it reads, made from the user's environment
by reference (a value is never written); a Ray cluster where a local run needs several nodes; the launch;
what to watch; how to stop. The launch and watch commands come from wizard.emit.launch, so that RUN.md, `new`,
the TUI and the manifests' headers say the same.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from wizard.core.answers.model import Answers
from wizard.core.plan import Plan
from wizard.core.rules.deploy.facts import (
    dns_label,
    gpu_nodes_needed,
    k8s_name,
    ray_cpus,
    secret_env_names,
)
from wizard.core.targets import RunbookTexts, fill, spec
from wizard.emit.launch import launch_for
from wizard.i18n.text import Msg, msg


@dataclass(frozen=True)
class Commands:
    """One ```bash block of RUN.md: lines the user types, in order."""

    lines: tuple[str, ...]


Item = Msg | Commands


@dataclass(frozen=True)
class Section:
    title: Msg
    items: tuple[Item, ...]


def _ns(answers: Answers) -> str:
    ns = answers.deploy.namespace
    return f" -n {shlex.quote(ns)}" if ns else ""


def multi_node_local(answers: Answers, plan: Plan) -> bool:
    """A local run of several nodes: run.sh is the driver on the head of a Ray cluster the user starts."""
    return spec(answers.deploy.target).by_hand is not None and gpu_nodes_needed(plan) > 1


def texts_for(answers: Answers, plan: Plan) -> RunbookTexts:
    """RUN.md's texts of the target: those of a cluster started by hand when the plan needs one."""
    target = spec(answers.deploy.target)
    return target.by_hand if target.by_hand is not None and multi_node_local(answers, plan) else target.runbook


def required(name: str) -> str:
    """The variable's value by reference; the command does not run when it is unset or empty (even pasted into
    an interactive shell, which does not exit on the error)."""
    return f'"${{{name}:?export {name} first}}"'


def require(name: str) -> str:
    """A line that stops (with what to do) when the variable is unset or empty in the user's shell."""
    return f": {required(name)}"


def from_env(secret: str, keys: dict[str, str], ns: str) -> str:
    """`kubectl create secret generic` of keys -> variables whose values the shell expands from its environment:
    never a value."""
    literals = " ".join(f"--from-literal={key}={required(name)}" for key, name in keys.items())
    return f"kubectl create secret generic{ns} {shlex.quote(secret)} {literals}"


def _secrets(answers: Answers) -> Section | None:
    d, target = answers.deploy, spec(answers.deploy.target)
    names = secret_env_names(answers)
    items: list[Item] = []
    token_mode = d.auth_mode == "token"
    if target.kubernetes:
        lines: list[str] = []
        if names:
            items.append(msg("runbook.secrets.kube", names=[f"`{n}`" for n in names], secret=d.k8s_secret))
            lines.append(from_env(d.k8s_secret, {n: n for n in names}, _ns(answers)))
        if target.kuberay and token_mode and d.auth_secret:
            items.append(msg("runbook.secrets.auth_secret", secret=d.auth_secret))
            lines.append(from_env(d.auth_secret, {"auth_token": "RAY_AUTH_TOKEN"}, _ns(answers)))
        elif target.kuberay and token_mode:
            items.append(msg("runbook.secrets.kuberay_token"))
        if lines:
            items.append(Commands(tuple(lines)))
    else:
        if names:
            items += [
                msg("runbook.secrets.shell", names=[f"`{n}`" for n in names]),
                Commands(tuple(map(require, names))),
            ]
        note = target.runbook.token_note if token_mode else target.runbook.open_note
        if note is not None:
            items.append(note)
        if target.submits_job:
            # the ray CLI of the watch and stop commands reads the mode from the shell too (ray-job.sh sets its own)
            items.append(Commands((f"export RAY_AUTH_MODE={d.auth_mode}",)))
    return Section(msg("runbook.secrets"), tuple(items)) if items else None


def _cluster(answers: Answers, plan: Plan) -> Section | None:
    """A local run of several nodes: start Ray on the head, join it from every other node, check the count."""
    if not multi_node_local(answers, plan):
        return None
    d = answers.deploy
    nodes, per = gpu_nodes_needed(plan), plan.gpus_per_node
    cpus = ray_cpus(answers, plan, d.cpus_per_gpu * per)
    token = d.auth_mode == "token"
    mode = [f"export RAY_AUTH_MODE={'token' if token else 'disabled'}"]
    head = [
        *mode,
        *(
            [
                "export RAY_AUTH_TOKEN=\"${RAY_AUTH_TOKEN:-$(python3 -c 'import secrets; print(secrets.token_hex(32))')}\"",
            ]
            if token
            else []
        ),
        f"HEAD_ADDRESS=\"$(hostname -I | awk '{{print $1}}'):{d.ray_port}\"",
        f'ray start --head --node-ip-address="${{HEAD_ADDRESS%:*}}" --port={d.ray_port} --num-cpus={cpus} '
        "--disable-usage-stats",
        'echo "HEAD_ADDRESS=$HEAD_ADDRESS"' + (' "RAY_AUTH_TOKEN=$RAY_AUTH_TOKEN"' if token else ""),
    ]
    # each line refuses to run without what it needs, even pasted into an interactive shell
    worker = [
        *mode,
        *([f"export RAY_AUTH_TOKEN={required('RAY_AUTH_TOKEN')}"] if token else []),
        f"ray start --address={required('HEAD_ADDRESS')} --num-cpus={cpus} --disable-usage-stats",
    ]
    return Section(
        msg("runbook.cluster"),
        (
            msg("runbook.cluster.why", nnodes=nodes, gpus=per),
            msg("runbook.cluster.head", nnodes=nodes) if token else msg("runbook.cluster.head_open", nnodes=nodes),
            Commands(tuple(head)),
            msg("runbook.cluster.worker", workers=nodes - 1)
            if token
            else msg("runbook.cluster.worker_open", workers=nodes - 1),
            Commands(tuple(worker)),
            msg("runbook.cluster.check", nodes=nodes, gpus=nodes * per),
            Commands(("ray status",)),
        ),
    )


def _launch(answers: Answers, plan: Plan) -> Section:
    ns, name = _ns(answers), k8s_name(answers)
    texts = texts_for(answers, plan)
    start = launch_for(answers).start
    if texts.start is not None:
        lines = tuple(line.format(ns=ns, name=name, start=start) for line in texts.start)
    elif multi_node_local(answers, plan):
        lines = (f"export RAY_ADDRESS={required('HEAD_ADDRESS')}", *start)
    else:
        lines = start
    notes: list[Item] = [texts.launch_note] if texts.launch_note is not None else []
    return Section(
        msg("runbook.launch"), (msg("runbook.launch.from", where=texts.launch_from), Commands(lines), *notes)
    )


def _watch(answers: Answers, plan: Plan) -> Section:
    """What shows the run's progress: each command with what it shows, one block each (some never return)."""
    texts = texts_for(answers, plan)
    launch_texts = spec(answers.deploy.target).launch
    commands = [command for command, _ in launch_for(answers).watch]
    run_id = launch_texts.run_id
    if run_id:
        commands = [c.replace(run_id, f'"${run_id}"') for c in commands]
    follow = fill(texts.follow, file=f"`{dns_label(k8s_name(answers))}-JOBID.out`")
    items: list[Item] = [follow]
    if texts.watch_elsewhere:
        other = (f"export RAY_AUTH_MODE={answers.deploy.auth_mode}", require(run_id or ""))
        items += [msg("runbook.watch.other_terminal"), Commands(other)]
    for command, what in zip(commands, texts.shows, strict=True):
        items += [what, Commands((command,))]
    return Section(msg("runbook.watch"), tuple(items))


def _stop(answers: Answers, plan: Plan) -> Section | None:
    launch = launch_for(answers)
    if multi_node_local(answers, plan):
        return Section(msg("runbook.stop"), (msg("runbook.stop.local_nodes"), Commands(("ray stop",))))
    if not launch.stop:
        return None
    stop = launch.stop.replace("SUBMISSION_ID", '"$SUBMISSION_ID"').replace("JOBID", '"$JOBID"')
    return Section(msg("runbook.stop"), (Commands((stop,)),))


def runbook_sections(answers: Answers, plan: Plan) -> list[Section]:
    """The sections after Data and models, in the order the user follows them."""
    parts = [
        _secrets(answers),
        _cluster(answers, plan),
        _launch(answers, plan),
        _watch(answers, plan),
        _stop(answers, plan),
    ]
    return [part for part in parts if part is not None]
