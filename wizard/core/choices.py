"""Every closed choice set, defined once: the deployment targets, and verl 0.9.1's value sets.

The answers model names these enums in its field declarations (wizard.core.fields), the TUI offers their
members, `new --target` takes Target's, the rules judge verl values against them (wizard.core.verl_schema's
ALLOWED_VALUES is built from the verl sets here) and .ci/run reads the targets from this module. Values are
plain strings everywhere else: answers hold `"ray-job"`, not `Target.RAY_JOB`.

Imports only the standard library: the TUI reads it before the answers model is loaded.
"""

from __future__ import annotations

from enum import Enum


def values(choices: type[Enum]) -> tuple[str, ...]:
    """The members' values, in declaration order."""
    return tuple(member.value for member in choices)


# -- the wizard's own ---------------------------------------------------------------------------------
class Target(Enum):
    """Where the run starts (deploy.target); what each one is and does is its spec (wizard.core.targets)."""

    LOCAL = "local"
    RAY_JOB = "ray-job"
    KUBERAY_JOB = "kuberay-job"
    KUBERAY_CLUSTER = "kuberay-cluster"
    SLURM = "slurm"
    K8S_JOB = "k8s-job"


class AuthMode(Enum):
    """Ray token authentication of every node and the driver (deploy.auth_mode)."""

    TOKEN = "token"
    DISABLED = "disabled"


class LoadFormat(Enum):
    """How the inference engine gets its first weights, as the wizard offers it (verl accepts more)."""

    DUMMY = "dummy"
    SAFETENSORS = "safetensors"


# -- verl 0.9.1's (read from its registries and dataclasses) -----------------------------------------
class AdvEstimator(Enum):
    GAE = "gae"
    GRPO = "grpo"
    GRPO_VECTORIZED = "grpo_vectorized"
    GRPO_PASSK = "grpo_passk"
    RLOO = "rloo"
    RLOO_VECTORIZED = "rloo_vectorized"
    REINFORCE_PLUS_PLUS = "reinforce_plus_plus"
    REINFORCE_PLUS_PLUS_BASELINE = "reinforce_plus_plus_baseline"
    REMAX = "remax"
    OPO = "opo"
    GPG = "gpg"
    GDPO = "gdpo"
    OPTIMAL_TOKEN_BASELINE = "optimal_token_baseline"
    TIR_OPTIMAL_TOKEN_BASELINE = "tir_optimal_token_baseline"


# Estimators whose baseline comes from the other responses to the same prompt (n = 1 makes it zero).
GROUP_ESTIMATORS = tuple(
    e.value
    for e in (
        AdvEstimator.GRPO,
        AdvEstimator.GRPO_VECTORIZED,
        AdvEstimator.GRPO_PASSK,
        AdvEstimator.RLOO,
        AdvEstimator.RLOO_VECTORIZED,
        AdvEstimator.OPO,
        AdvEstimator.GPG,
        AdvEstimator.GDPO,
        AdvEstimator.REINFORCE_PLUS_PLUS_BASELINE,
        AdvEstimator.OPTIMAL_TOKEN_BASELINE,
        AdvEstimator.TIR_OPTIMAL_TOKEN_BASELINE,
    )
)


class RolloutName(Enum):
    """The inference engines (actor_rollout_ref.rollout.name); verl 0.9 has no default."""

    VLLM = "vllm"
    SGLANG = "sglang"
    TRTLLM = "trtllm"


class RolloutMode(Enum):
    ASYNC = "async"


class Strategy(Enum):
    """The training engines (actor.strategy, critic.strategy)."""

    FSDP = "fsdp"
    FSDP2 = "fsdp2"
    FSDP_TURBO = "fsdp_turbo"
    MEGATRON = "megatron"


FSDP_STRATEGIES = tuple(s.value for s in Strategy if s is not Strategy.MEGATRON)


class LossAggMode(Enum):
    TOKEN_MEAN = "token-mean"
    TOKEN_SUM = "token-sum"
    SEQ_MEAN_TOKEN_SUM = "seq-mean-token-sum"
    SEQ_MEAN_TOKEN_MEAN = "seq-mean-token-mean"
    SEQ_MEAN_TOKEN_SUM_NORM = "seq-mean-token-sum-norm"


class KlEstimator(Enum):
    """kl_loss_type and kl_penalty: k1 = kl, k2 = mse, k3 = low_var_kl."""

    KL = "kl"
    K1 = "k1"
    ABS = "abs"
    MSE = "mse"
    K2 = "k2"
    LOW_VAR_KL = "low_var_kl"
    K3 = "k3"
    FULL = "full"


class KlCtrl(Enum):
    FIXED = "fixed"
    ADAPTIVE = "adaptive"


class Truncation(Enum):
    ERROR = "error"
    LEFT = "left"
    RIGHT = "right"
    MIDDLE = "middle"


class TrainerMode(Enum):
    SYNC = "sync"
    COLOCATE_ASYNC = "colocate_async"
    SEPARATE_ASYNC = "separate_async"


class RewardManager(Enum):
    NAIVE = "naive"
    DAPO = "dapo"
    GDPO = "gdpo"
    REMOTE = "remote"
    RATE_LIMITED = "rate_limited"


class LrScheduler(Enum):
    CONSTANT = "constant"
    COSINE = "cosine"


class MegatronDtype(Enum):
    BFLOAT16 = "bfloat16"
    FLOAT16 = "float16"


class PolicyLoss(Enum):
    VANILLA = "vanilla"
    GSPO = "gspo"
    SAPO = "sapo"
    GPG = "gpg"
    CLIP_COV = "clip_cov"
    KL_COV = "kl_cov"
    GEO_MEAN = "geo_mean"
    DRO = "dro"
    CISPO = "cispo"
    DPPO_TV = "dppo_tv"
    DPPO_KL = "dppo_kl"
    BYPASS_MODE = "bypass_mode"


class Logger(Enum):
    """Tracking backends (trainer.logger takes a list of them)."""

    WANDB = "wandb"
    MLFLOW = "mlflow"
    SWANLAB = "swanlab"
    VEMLP_WANDB = "vemlp_wandb"
    TENSORBOARD = "tensorboard"
    CONSOLE = "console"
    CLEARML = "clearml"
    TRACKIO = "trackio"
    FILE = "file"
    RL_INSIGHT = "rl_insight"
