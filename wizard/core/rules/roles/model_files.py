"""Rules that read the models themselves (ROLE-004, ROLE-008, ROLE-011, PLACE-005) and the memory estimate (PLACE-008).

They see `ctx.models` (role -> ModelFacts, from wizard.detect.models: a local config.json, the local Hugging
Face cache or the catalogue) and say nothing where a model could not be read. Facts are looked up by the
path the answers give now, so a fix that points the critic at the actor's checkpoint is judged with the
actor's facts. PLACE-008 needs the GPU's memory from the topology and is skipped without one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.memory.estimate import estimate_memory
from wizard.core.memory.fixes import Search, fixes_for, tp_fixes
from wizard.core.memory.formulas import GIB
from wizard.core.model_facts import CATALOGUE, ModelFacts, facts_for
from wizard.core.plan import extra_or_default
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import make_finding, rule, rule_for, why
from wizard.core.rules.fixes import divisors
from wizard.i18n.text import Msg, msg

ACTOR_PATH = "actor_rollout_ref.model.path"
CRITIC_PATH = "critic.model.path"
RM_PATH = "reward.reward_model.model_path"
TP_KEY = "actor_rollout_ref.rollout.tensor_model_parallel_size"
SP_KEY = "actor_rollout_ref.actor.ulysses_sequence_parallel_size"
CRITIC_SP_KEY = "critic.ulysses_sequence_parallel_size"
MEG_TP_KEY = "actor_rollout_ref.actor.megatron.tensor_model_parallel_size"
RM_TP_KEY = "reward.reward_model.rollout.tensor_model_parallel_size"
WARN_SHARE = 0.9


def where(f: ModelFacts) -> Msg:
    return msg("model.from_catalogue") if f.source == CATALOGUE else msg("model.read_from", location=f.location)


def _role_facts(ctx):
    m = ctx.answers.models
    actor = facts_for(ctx.models, m.actor_path)
    critic = facts_for(ctx.models, m.critic_path) if ctx.plan.need_critic else None
    rm = facts_for(ctx.models, m.reward_model_path) if m.reward_model_enable else None
    return actor, critic, rm


# ---------------------------------------------------------------- roles


@rule(
    "ROLE-004",
    Severity.ERROR,
    title="The reward model is not a sequence classifier with one label",
    why="Without a custom reward function verl scores with the reward model as a discriminative one and reads one scalar per sequence; a causal LM or a multi-label head gives meaningless rewards (read from its config.json, or the catalogue).",
)
def check_reward_model_head(ctx: RuleContext) -> Iterator[Finding]:
    """ROLE-004: a discriminative reward model must be a sequence classifier with one label."""
    m = ctx.answers.models
    _, _, rm = _role_facts(ctx)
    if rm is None or not rm.architectures or m.custom_reward_path:
        return  # unknown head, or a generative RM that the custom reward function queries
    if rm.is_sequence_classifier and rm.num_labels == 1:
        return
    what = (
        msg("model.kind", kind=rm.kind)
        if not rm.is_sequence_classifier
        else msg("model.kind_labels", kind=rm.kind, labels=rm.num_labels)
    )
    yield make_finding(
        "ROLE-004", [RM_PATH], msg("model.rm_not_a_classifier", path=m.reward_model_path, what=what, where=where(rm))
    )


def _tokenizer_difference(a: ModelFacts, b: ModelFacts):
    """(what differs, a's, b's) at the most specific level both models know, or None when they agree or cannot tell."""
    for attr, what in (
        ("tokenizer_fingerprint", msg("model.diff.tokenizer")),
        ("tokenizer_family", msg("model.diff.tokenizer_family")),
        ("tokenizer_vocab", msg("model.diff.tokenizer_size")),
    ):
        x, y = getattr(a, attr), getattr(b, attr)
        if x is not None and y is not None:
            return (what, x, y) if x != y else None
    ids = a.tokenizer_vocab or a.vocab_size
    if ids and b.vocab_size and ids > b.vocab_size:  # ids past the other model's embedding rows: certainly wrong
        return msg("model.diff.vocabulary_size"), ids, b.vocab_size
    return None


@rule(
    "ROLE-008",
    Severity.WARNING,
    title="Actor and critic tokenizers differ, or the reward model has no tokenizer",
    why="The critic reads the actor's token ids, which mean other tokens (or run past the embedding) under another vocabulary; verl 0.9 re-tokenizes for the reward model with the reward model's own tokenizer, so that folder must have one.",
)
def hint_tokenizers(ctx: RuleContext) -> Iterator[Finding]:
    """ROLE-008: the critic reads the actor's token ids; the reward model needs a tokenizer of its own."""
    m = ctx.answers.models
    actor, critic, rm = _role_facts(ctx)
    if actor is not None and critic is not None and m.critic_path != m.actor_path:
        diff = _tokenizer_difference(actor, critic)
        if diff:
            what, x, y = diff
            yield make_finding(
                "ROLE-008",
                [CRITIC_PATH, ACTOR_PATH],
                msg("model.tokenizers_differ", critic=m.critic_path, actor=m.actor_path, what=what, theirs=y, ours=x),
                [Fix({CRITIC_PATH: m.actor_path}, msg("role.fix.critic_from_actor_checkpoint"))],
            )
    if actor is not None and rm is not None and rm.has_tokenizer is False:
        diff = _tokenizer_difference(actor, rm)
        extra = msg("model.rm_vocabulary_differs", theirs=diff[2], ours=diff[1]) if diff else ""
        yield make_finding(
            "ROLE-008",
            [RM_PATH],
            msg("model.rm_without_tokenizer", path=m.reward_model_path, where=where(rm), extra=extra),
        )


@rule(
    "ROLE-011",
    Severity.WARNING,
    title="The critic starts from a reward-model checkpoint",
    why="verl loads the critic as a token classifier, so a reward model's scoring head becomes the initial value head: value and reward estimates start coupled (ROLE-003's sibling for a reward model that is not the configured one); the usual start is the actor's checkpoint.",
)
def hint_critic_from_reward_model(ctx: RuleContext) -> Iterator[Finding]:
    """ROLE-011: a critic started from a reward-model checkpoint (another one than the configured RM)."""
    m = ctx.answers.models
    actor, critic, _ = _role_facts(ctx)
    if critic is None or not critic.is_sequence_classifier:
        return
    if m.reward_model_enable and m.critic_path == m.reward_model_path:
        return  # ROLE-003 says it
    fixes = []
    if m.actor_path and (actor is None or not actor.is_sequence_classifier):
        fixes.append(Fix({CRITIC_PATH: m.actor_path}, msg("role.fix.critic_from_actor_checkpoint")))
    yield make_finding(
        "ROLE-011",
        [CRITIC_PATH],
        msg("model.critic_from_rm", path=m.critic_path, kind=critic.kind, where=where(critic)),
        fixes,
    )


# ---------------------------------------------------------------- heads


def heads_split(f: ModelFacts, size: int) -> Msg | None:
    """Why `size` GPUs cannot split this model's heads (vLLM's and verl's Ulysses rule), or None when they can."""
    heads, kv = f.num_heads, f.kv_heads
    if not heads or size <= 1:
        return None
    if heads % size:
        return msg("model.heads_indivisible", heads=heads, size=size)
    if kv % size and size % kv:
        return msg("model.kv_heads_indivisible", kv=kv, size=size)
    return None


def valid_sizes(f: ModelFacts, gpus: int, per_node: int) -> list[int]:
    """Sizes that divide the GPUs, fit a node and split the heads."""
    return [d for d in divisors(gpus) if d <= per_node and per_node % d == 0 and heads_split(f, d) is None]


def _nearest_first(sizes: list[int], current: int) -> list[int]:
    return sorted(sizes, key=lambda d: (abs(d - current), -d))


def rollout_gpus(ctx) -> tuple[int, int]:
    pool = ctx.plan.pools[-1] if ctx.answers.cluster.trainer_mode == "separate_async" else ctx.plan.pools[0]
    return pool.gpus, pool.gpus_per_node


@rule_for("PLACE-005")
def check_heads_divide(ctx: RuleContext) -> Iterator[Finding]:
    """PLACE-005: heads (and KV heads) must split evenly over rollout TP, Ulysses SP and Megatron TP."""
    a, p = ctx.answers, ctx.plan
    actor, critic, rm = _role_facts(ctx)
    checks: list[tuple[ModelFacts, str, Any, int, int, str | Msg, str | Msg]] = []
    if actor is not None:
        gpus, per_node = rollout_gpus(ctx)
        checks.append((actor, TP_KEY, p.rollout_tp, gpus, per_node, "rollout tensor_model_parallel_size", "rollout TP"))
        if p.engine == "dp":
            checks.append(
                (actor, SP_KEY, a.engine.ulysses_sp, p.n_gpus, p.gpus_per_node, "ulysses_sequence_parallel_size", "sp")
            )
        else:
            checks.append(
                (
                    actor,
                    MEG_TP_KEY,
                    a.engine.megatron_tp,
                    p.n_gpus,
                    p.gpus_per_node,
                    "Megatron tensor_model_parallel_size",
                    "Megatron TP",
                )
            )
    if critic is not None and p.engine == "dp":
        checks.append(
            (
                critic,
                CRITIC_SP_KEY,
                a.engine.critic_ulysses_sp,
                p.n_gpus,
                p.gpus_per_node,
                "critic ulysses_sequence_parallel_size",
                "critic sp",
            )
        )
    if rm is not None:
        rm_tp = extra_or_default(a, RM_TP_KEY, p.engine)
        if isinstance(rm_tp, int) and rm_tp > 1:
            checks.append(
                (
                    rm,
                    RM_TP_KEY,
                    rm_tp,
                    rm_tp,
                    rm_tp,
                    msg("model.rm_tp_name"),
                    msg("model.rm_tp"),
                )
            )
    for facts, key, size, gpus, per_node, name, short in checks:
        problem = heads_split(facts, size)
        if problem is None or not facts.num_heads:  # a problem says the heads are known
            continue
        sizes = (
            [d for d in divisors(facts.num_heads) if heads_split(facts, d) is None]
            if key == RM_TP_KEY
            else valid_sizes(facts, gpus, per_node)
        )
        fixes = [
            Fix({key: s}, msg("fix.set", key=short, value=s))
            for s in _nearest_first([s for s in sizes if s != size], size)
        ]
        yield make_finding(
            "PLACE-005",
            [key],
            msg("model.cannot_split", name=name, size=size, path=facts.path, where=where(facts), problem=problem),
            fixes,
        )


# ---------------------------------------------------------------- memory


def gpu_memory_mib(topology) -> int | None:
    sizes = [g.memory_mib for g in getattr(topology, "gpus", []) if getattr(g, "memory_mib", None)]
    return min(sizes) if sizes else None


def _parts_shown(phase) -> list[Msg]:
    """The parts worth naming (a tenth of a GiB as the message rounds it), each with its GiB."""
    return [msg("memory.part_gib", label=part.label, gib=part.gib) for part in phase.parts if part.gib >= 0.05]


class LazyFixes(Sequence):
    """Fixes searched for only when someone reads them.

    Each PLACE-008 fix is found by redoing the estimate for many candidate values. The engine re-runs the
    rules of a family to verify other findings' fixes and then only reads ids and paths, so the search
    runs for the findings a user sees, not for every re-run.
    """

    def __init__(self, search):
        self._search, self._fixes = search, None

    def _all(self) -> tuple:
        if self._fixes is None:
            self._fixes = tuple(self._search())
        return self._fixes

    def __getitem__(self, index):
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __eq__(self, other) -> bool:
        return tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


@rule(
    "PLACE-008",
    Severity.ERROR,
    title="Estimated memory per GPU exceeds the GPU (warning over 90%)",
    why="The run would stop with CUDA out of memory (or vLLM would refuse to start) after the queue and the model loading; each phase's parts are estimated from the model's numbers and compared with the GPU from the topology.",
)
def check_memory(ctx: RuleContext) -> Iterator[Finding]:
    """PLACE-008: each phase's estimated peak per GPU against the GPU's memory (skipped without a topology)."""
    mib = gpu_memory_mib(ctx.topology) if ctx.topology is not None else None
    if not mib or not ctx.models:
        return
    estimate = estimate_memory(ctx.answers, ctx.plan, ctx.models, mib)
    gpu = estimate.gpu_bytes
    if gpu is None:  # only an estimate without a GPU's memory has none, and mib is given
        return
    actor = facts_for(ctx.models, ctx.answers.models.actor_path)
    gpus, per_node = rollout_gpus(ctx)
    tps = valid_sizes(actor, gpus, per_node) if actor is not None else []
    for phase in estimate.phases:
        share = phase.total / gpu
        paths = tuple(phase.knobs)  # distinct per phase, so each phase's finding is its own
        if share > WARN_SHARE:
            over = share > 1
            fixes = LazyFixes(lambda phase=phase, over=over: fixes_for(ctx, phase, mib, ctx.models, tps, error=over))
            name, total, parts = phase.name, phase.total / GIB, _parts_shown(phase)
            text = (
                msg("model.memory_over", phase=name, total=total, share=share, gpu=gpu / GIB, parts=parts)
                if over
                else msg(
                    "model.memory_near",
                    phase=name,
                    total=total,
                    share=share,
                    gpu=gpu / GIB,
                    limit=WARN_SHARE,
                    parts=parts,
                )
            )
            yield Finding(
                "PLACE-008",
                Severity.ERROR if over else Severity.WARNING,
                paths,
                text,
                why("PLACE-008"),
                fixes,  # type: ignore[arg-type]  # LazyFixes: a Sequence searched when read, kept as the fixes
            )
        if phase.kv_cache is not None and phase.kv_needed is not None and phase.kv_cache < phase.kv_needed:
            yield Finding(
                "PLACE-008",
                Severity.ERROR,
                (TP_KEY, *phase.knobs[:1], "data.max_response_length"),
                msg(
                    "model.kv_cache_short",
                    phase=phase.name,
                    kv=max(0.0, phase.kv_cache) / GIB,
                    length=ctx.plan.seq_len,
                    need=phase.kv_needed / GIB,
                ),
                why("PLACE-008"),
                LazyFixes(lambda phase=phase: _kv_fixes(ctx, phase, mib, tps)),  # type: ignore[arg-type]  # as above
            )


def _kv_fixes(ctx, phase, mib, tps):
    if phase.phase != "generate":
        return []
    return tp_fixes(Search(ctx, phase, mib, ctx.models), ctx.plan.rollout_tp, tps)
