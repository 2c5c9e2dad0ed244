"""RUN.md: what was written, how to install verl, stage the data, the secrets, launch on the target, what to
watch, how to stop, and the warnings left open, in the language asked for (`lang`: prose only; commands stay
commands). Its ```bash blocks, read in order, are what the user types (wizard.emit.runbook)."""

from __future__ import annotations

import re

from wizard.core import verl_schema
from wizard.core.answers.model import Answers
from wizard.core.findings import Finding, Severity
from wizard.core.plan import Plan
from wizard.core.rules.deploy.facts import hf_home
from wizard.core.rules.deploy.node import run_paths
from wizard.core.targets import fill, spec
from wizard.emit.install import install_for
from wizard.emit.runbook import Commands, Section, runbook_sections, texts_for
from wizard.emit.yaml_text import one_line
from wizard.i18n.text import Msg, msg, render

# Keys whose values are files verl opens by path: never a Hugging Face id (verl downloads no dataset by name).
FILE_KEYS = ("data.train_files", "data.val_files", "reward.custom_reward_function.path")
WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]|\\")


def render_run_md(
    answers: Answers,
    plan: Plan,
    findings: list[Finding],
    files: list[str],
    migrated: dict | None = None,
    lang: str = "en",
) -> str:
    """RUN.md in `lang`; `migrated` ({source, changed, dropped, notes}) adds the "Migrated from" section of an
    import. The language is given, never read from the interface: every door writes the same file for the
    same answers and language."""

    def say(message: Msg | str) -> str:
        return one_line(render(message, lang))

    v = verl_schema.TARGET_VERSION
    target = answers.deploy.target
    title = msg("runbook.title", name=one_line(answers.trainer.experiment_name), version=v, target=target)
    out = [f"# {say(title)}", "", f"## {say(msg('runbook.files'))}", *[f"- `{name}`" for name in files]]
    out += ["", *_install_section(answers, plan, v, say), "", *_staging_section(answers, plan, say)]
    for section in runbook_sections(answers, plan):
        out += ["", *_section(section, say)]
    out += ["", f"## {say(msg('runbook.expect'))}", *[f"- {say(line)}" for line in expect_lines(answers, plan)]]
    if migrated:
        out += ["", *_migrated_section(migrated, v, say)]
    open_items = [f for f in findings if f.severity is not Severity.ERROR]
    if open_items:
        out += ["", f"## {say(msg('runbook.warnings'))}"]
        out += [f"- **{f.id}** ({say(_severity(f.severity))}): {say(f.message)}" for f in open_items]
    return "\n".join(out) + "\n"


def _severity(severity: Severity) -> Msg:
    return msg("runbook.severity.warning") if severity is Severity.WARNING else msg("runbook.severity.info")


def _section(section: Section, say) -> list[str]:
    out = [f"## {say(section.title)}"]
    for item in section.items:
        # a blank line between items: Markdown would join two lines of prose into one paragraph
        out += ["", "```bash", *item.lines, "```"] if isinstance(item, Commands) else ["", say(item)]
    return out


def _install_section(answers: Answers, plan: Plan, version: str, say) -> list[str]:
    install = install_for(answers, version)
    image = one_line(answers.deploy.image)
    where = fill(texts_for(answers, plan).install_where, image=image)
    out = [f"## {say(msg('runbook.install'))}", say(msg("runbook.install.where", where=where))]
    out += ["```bash", install.line, "```"]
    if install.extras:
        out.append(say(msg("runbook.install.extras", extras=[f"`{n}`" for n in install.extras], version=version)))
    if install.pins:
        out.append(say(msg("runbook.install.pins", pins=[f"`{pin}`" for pin in install.pins])))
    for name in install.undeclared:
        out.append(say(msg("runbook.install.undeclared", version=version, name=name)))
    return out


def _relative_base(answers: Answers) -> Msg:
    """What a relative path is relative to, where verl runs for this target."""
    return fill(spec(answers.deploy.target).runbook.relative_base, mount=answers.deploy.data_mount)


def path_note(answers: Answers, key: str, value: str) -> Msg | None:
    """What RUN.md says after a path: remote, a Windows path, relative (to what), a Hugging Face id, or nothing."""
    if "://" in value:
        return msg("runbook.path.remote")
    if WINDOWS_PATH.search(value):
        return msg("runbook.path.windows")
    if value.startswith("/"):
        return None
    if key in FILE_KEYS:
        return msg("runbook.path.relative", base=_relative_base(answers))
    # A model: `org/name` is how Hugging Face names one; anything else relative is a folder.
    if re.fullmatch(r"[\w.-]+/[\w.-]+", value) and not value.startswith("."):
        return msg("runbook.path.hf_id")
    return msg("runbook.path.relative_model", base=_relative_base(answers))


def _staging_section(answers: Answers, plan: Plan, say) -> list[str]:
    d, texts = answers.deploy, texts_for(answers, plan)
    home = hf_home(answers)
    out = [f"## {say(msg('runbook.data'))}"]
    if texts.staging is None:  # a Kubernetes target: the data volume, if any
        if d.data_volume:
            source = (
                msg("runbook.data.host_folder", path=one_line(d.data_volume))
                if d.data_volume.startswith("/")
                else msg("runbook.data.pvc", name=one_line(d.data_volume))
            )
            out.append(say(msg("runbook.data.mounted", source=source, mount=one_line(d.data_mount))))
        else:
            out.append(say(msg("runbook.data.nothing_mounted")))
    else:
        out.append(say(texts.staging))
    for key, value in run_paths(answers):
        note = path_note(answers, key, value)
        out.append(f"- `{key}`: `{one_line(value)}`" + (f" ({say(note)})" if note else ""))
    out.append(say(msg("runbook.hf_home.set", home=one_line(home)) if home else msg("runbook.hf_home.unset")))
    return out


def _g(value) -> str:
    return f"{float(value):g}"


def expect_lines(answers: Answers, plan: Plan) -> list[Msg]:
    """The batch chain and the parallel layout (the numbers of wizard.emit.verl_config.chain_summary) as messages."""
    c = plan.actor
    micro = (
        msg("runbook.expect.micro", n=_g(c.micro_steps_per_mini_batch), size=c.micro_batch_per_gpu)
        if c.micro_steps_per_mini_batch is not None
        else ""
    )
    packed = msg("runbook.expect.packed", tokens=c.token_budget_per_gpu) if c.dynamic else ""
    lines = [
        msg(
            "runbook.expect.chain",
            prompts=c.prompts_per_step,
            n=answers.batch.rollout_n,
            responses=c.responses_per_step,
            minis=_g(c.mini_batches_per_step),
            mini=c.mini_batch_responses,
            per_gpu=_g(c.mini_batch_per_gpu),
            dp=c.dp,
            micro=micro,
            packed=packed,
            steps=_g(c.optimizer_steps_per_step),
        ),
    ]
    megatron = msg("runbook.expect.megatron", size=plan.model_parallel) if plan.engine == "megatron" else ""
    pools = msg("runbook.expect.pools", total=plan.total_gpus) if len(plan.pools) > 1 else ""
    lines.append(
        msg(
            "runbook.expect.gpus",
            nodes=plan.nnodes,
            per=plan.gpus_per_node,
            gpus=plan.n_gpus,
            replicas=_g(plan.rollout_replicas),
            tp=plan.rollout_tp,
            megatron=megatron,
            pools=pools,
        )
    )
    if plan.critic is not None:
        k = plan.critic
        critic_micro = (
            msg("runbook.expect.micro", n=_g(k.micro_steps_per_mini_batch), size=k.micro_batch_per_gpu)
            if k.micro_steps_per_mini_batch is not None
            else ""
        )
        lines.append(
            msg(
                "runbook.expect.critic",
                mini=k.mini_batch_responses,
                per_gpu=_g(k.mini_batch_per_gpu),
                dp=k.dp,
                micro=critic_micro,
            )
        )
    return lines


def _migrated_section(migrated: dict, version: str, say) -> list[str]:
    """Every change and every dropped key of a launch-script import, so nothing is lost silently (the items are
    the import's own words)."""
    out = [
        f"## {say(msg('runbook.migrated', source=one_line(migrated['source'])))}",
        "",
        say(msg("runbook.migrated.intro", version=version)),
    ]
    none = say(msg("runbook.migrated.none"))
    for title, items, empty in (
        (msg("runbook.migrated.changed"), migrated.get("changed"), none),
        (msg("runbook.migrated.dropped", version=version), migrated.get("dropped"), none),
        (msg("runbook.migrated.notes"), migrated.get("notes"), None),
    ):
        if items or empty:
            out += ["", f"### {say(title)}", *([f"- {one_line(item)}" for item in items] if items else [f"- {empty}"])]
    return out
