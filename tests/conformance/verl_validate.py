"""Run verl 0.9.1's own start-up validation on config directories written by the wizard.

This script runs under the Python of a separate environment that has verl installed (see
``.ci/conformance-env.sh``), never under the project's own environment::

    python verl_validate.py CONFIG_DIR [CONFIG_DIR ...] [--override k=v ...] [--models-dir DIR]

For every CONFIG_DIR it composes ``CONFIG_DIR/config.yaml`` the way
``python -m verl.trainer.main_ppo --config-path=CONFIG_DIR --config-name=config k=v ...`` does, then
runs what verl runs on that config before and just after Ray starts:

1. ``compose``: Hydra compose of the primary config (the file brings verl's own defaults through its
   ``hydra.searchpath``), with the overrides applied as command-line overrides.
2. ``validate``: ``verl.trainer.main_ppo.main``'s checks: ``auto_set_device(config)`` and
   ``validate_config(config=..., use_reference_policy=need_reference_policy(config),
   use_critic=need_critic(config))``.
3. ``dataclass``: ``TaskRunnerV1.run``'s ``get_trainer_cls`` and ``OmegaConf.resolve``, then the
   ``omega_conf_to_dataclass`` conversions the workers do: model, actor, ref (when used, with the
   worker's key renames), rollout, critic (when used), reward model (when enabled), algorithm.

Model paths are replaced by tiny local model directories (created under ``--models-dir``) because
verl reads the HF config and tokenizer of the models on the driver and nothing may be downloaded.

It prints one JSON line per CONFIG_DIR, in order: ``{"config": DIR, "ok": true, "need_reward_model": ...,
"legacy_reward_model_enable": ...}`` (verl's own ``need_reward_model`` of the accepted config, and what the legacy
key ``reward_model.enable`` asked) or
``{"config": DIR, "ok": false, "stage": ..., "error": "<type>: <first line>"}``, plus ``"part"``
(the conversion that failed) and ``"skipped"`` (checks that need a package absent here) when
relevant. The exit code is 0 whatever verl decided; nonzero means the harness itself failed.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

# Must be set before transformers / huggingface_hub are imported: a model path that slipped
# through the rewrite must fail fast instead of trying the network.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
# Modules whose absence only means "this engine is not installed here", not a config error.
OPTIONAL_ENGINE_MODULES = ("megatron", "mbridge", "transformer_engine", "apex", "vllm", "sglang")


def build_tokenizer(out: Path) -> int:
    """Write a tiny word-level tokenizer (tokenizer.json + tokenizer_config.json) to ``out``.

    Returns the vocabulary size.
    """
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [str(d) for d in range(10)]
    vocab = {tok: i for i, tok in enumerate(SPECIAL_TOKENS + ["<unk>"] + words)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.add_special_tokens(SPECIAL_TOKENS)
    tok.save(str(out / "tokenizer.json"))
    tokenizer_config = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "bos_token": None,
        "eos_token": "<|im_end|>",
        "pad_token": "<|endoftext|>",
        "unk_token": "<unk>",
        "additional_special_tokens": ["<|im_start|>", "<|im_end|>"],
        "model_max_length": 32768,
        "chat_template": CHAT_TEMPLATE,
    }
    (out / "tokenizer_config.json").write_text(json.dumps(tokenizer_config, indent=2))
    special_map = {"eos_token": "<|im_end|>", "pad_token": "<|endoftext|>", "unk_token": "<unk>"}
    (out / "special_tokens_map.json").write_text(json.dumps(special_map, indent=2))
    return len(vocab)


def build_model_dir(out: Path, classifier: bool) -> Path:
    """Create a tiny Qwen2 model directory (config + tokenizer, no weights) at ``out``.

    ``classifier`` makes it a sequence classifier with one label, the shape of a reward model.
    Heads and KV heads are 8 so that any TP or Ulysses size dividing 8 fits.
    """
    out.mkdir(parents=True, exist_ok=True)
    vocab_size = build_tokenizer(out)
    config = {
        "architectures": ["Qwen2ForSequenceClassification" if classifier else "Qwen2ForCausalLM"],
        "model_type": "qwen2",
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_hidden_layers": 2,
        "num_attention_heads": 8,
        "num_key_value_heads": 8,
        "max_position_embeddings": 32768,
        "vocab_size": vocab_size,
        "rms_norm_eps": 1e-6,
        "rope_theta": 1000000.0,
        "tie_word_embeddings": False,
        "torch_dtype": "bfloat16",
        "bos_token_id": None,
        "eos_token_id": 2,
        "pad_token_id": 0,
    }
    if classifier:
        config.update({"num_labels": 1, "id2label": {"0": "LABEL_0"}, "label2id": {"LABEL_0": 0}})
    (out / "config.json").write_text(json.dumps(config, indent=2))
    return out


def build_models(models_dir: Path) -> dict[str, str]:
    """Create (or reuse) the causal LM and reward model directories; return their paths."""
    paths = {"lm": models_dir / "tiny-qwen2-lm", "rm": models_dir / "tiny-qwen2-rm"}
    for kind, final in paths.items():
        if (final / "config.json").exists():
            continue
        # Build aside and rename: harness processes running side by side share models_dir.
        staging = Path(tempfile.mkdtemp(prefix=f".{final.name}-", dir=models_dir))
        build_model_dir(staging, classifier=(kind == "rm"))
        try:
            staging.rename(final)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
    return {kind: str(path) for kind, path in paths.items()}


def first_line(exc: BaseException) -> str:
    """Format ``exc`` as ``Type: first line``, unwrapping Hydra's InstantiationException."""
    root = exc
    # Hydra wraps dataclass __post_init__ errors; the inner exception is the one verl raised.
    while type(root).__name__ == "InstantiationException" and root.__cause__ is not None:
        root = root.__cause__
    text = str(root).strip()
    line = text.splitlines()[0] if text else ""
    return f"{type(root).__name__}: {line}" if line else type(root).__name__


def missing_engine(exc: BaseException) -> str | None:
    """Return the optional engine module that ``exc`` shows to be missing, or None.

    An ImportError of megatron-core, vllm, ... counts, and so does verl's own vllm version gate
    (``verl/third_party/vllm``), which raises ValueError when vllm is not installed.
    """
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        names = []
        if isinstance(exc, ImportError):
            names.append((getattr(exc, "name", None) or "").split(".")[0])
        frames = traceback.extract_tb(exc.__traceback__)
        if any(f.filename.replace(os.sep, "/").endswith("verl/third_party/vllm/__init__.py") for f in frames):
            names.append("vllm")
        for name in names:
            if name in OPTIONAL_ENGINE_MODULES and importlib.util.find_spec(name) is None:
                return name
        exc = exc.__cause__ or exc.__context__
    return None


def in_vllm_lora_check(exc: BaseException) -> bool:
    """True when ``exc`` comes from validate_config's last step, the vLLM LoRA rank check."""
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.name == "validate_config" and "vllm_rollout.utils" in (frame.line or ""):
            return True
    return False


def compose(config_dir: Path, overrides: list[str]):
    """Compose ``config_dir/config.yaml`` as main_ppo's ``--config-path/--config-name`` would."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    with initialize_config_dir(config_dir=str(config_dir.resolve()), version_base=None):
        return hydra_compose(config_name="config", overrides=list(overrides))


def point_models_at(cfg, models: dict[str, str]) -> None:
    """Replace every model location in ``cfg`` by the tiny local model directories."""
    from omegaconf import open_dict

    for node in (cfg.actor_rollout_ref.model, cfg.critic.model):
        with open_dict(node):
            node.path = models["lm"]
            for key in ("hf_config_path", "tokenizer_path"):
                if node.get(key) is not None:
                    node[key] = models["lm"]
    reward_model = cfg.reward.reward_model
    if reward_model.enable:
        reward_model.model_path = models["rm"]


def run_validate(cfg) -> None:
    """Run main_ppo.main's checks, in its order, with its arguments."""
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import validate_config
    from verl.utils.device import auto_set_device

    auto_set_device(cfg)
    validate_config(
        config=cfg,
        use_reference_policy=need_reference_policy(cfg),
        use_critic=need_critic(cfg),
    )


def conversions(cfg) -> list[tuple[str, object]]:
    """The (name, thunk) list of conversions verl's TaskRunner and workers do on ``cfg``."""
    from omegaconf import OmegaConf, open_dict
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import omega_conf_to_dataclass
    from verl.workers.config import HFModelConfig

    use_ref, use_critic = need_reference_policy(cfg), need_critic(cfg)
    arr = cfg.actor_rollout_ref

    def trainer_cls():
        if cfg.trainer.use_v1:
            from verl.trainer.ppo.v1 import get_trainer_cls

            get_trainer_cls(cfg.trainer.v1.trainer_mode)

    def ref():
        # engine_workers.ActorRolloutRefWorker.init_model renames the log-prob keys before converting.
        node = copy.deepcopy(arr.ref)
        with open_dict(node):
            node.ppo_mini_batch_size = arr.actor.ppo_mini_batch_size
            node.ppo_micro_batch_size = node.pop("log_prob_micro_batch_size", None)
            node.ppo_micro_batch_size_per_gpu = node.pop("log_prob_micro_batch_size_per_gpu", None)
            node.use_dynamic_bsz = node.pop("log_prob_use_dynamic_bsz", False)
            node.ppo_max_token_len_per_gpu = node.pop("log_prob_max_token_len_per_gpu", None)
        return omega_conf_to_dataclass(node)

    steps = [
        ("trainer_cls", trainer_cls),
        ("resolve", lambda: OmegaConf.resolve(cfg)),
        ("model", lambda: omega_conf_to_dataclass(arr.model)),
        ("actor", lambda: omega_conf_to_dataclass(arr.actor)),
        ("rollout", lambda: omega_conf_to_dataclass(arr.rollout)),
        ("algorithm", lambda: omega_conf_to_dataclass(cfg.algorithm)),
    ]
    if use_ref:
        steps.append(("ref", ref))
    if use_critic:
        steps.append(("critic", lambda: omega_conf_to_dataclass(cfg.critic)))
    if cfg.reward.reward_model.enable:
        steps.append(("reward_model", lambda: omega_conf_to_dataclass(cfg.reward.reward_model)))
        steps.append(("reward_model.model", lambda: HFModelConfig(path=cfg.reward.reward_model.model_path)))
    return steps


def check_dir(config_dir: Path, overrides: list[str], models: dict[str, str]) -> dict:
    """Run all three stages on one config directory and return the JSON-able verdict."""
    result: dict = {"config": str(config_dir)}
    if not (config_dir / "config.yaml").is_file():
        return {**result, "ok": False, "stage": "compose", "error": f"FileNotFoundError: {config_dir}/config.yaml"}
    try:
        cfg = compose(config_dir, overrides)
        point_models_at(cfg, models)
    except Exception as exc:
        return {**result, "ok": False, "stage": "compose", "error": first_line(exc)}
    skipped = []
    try:
        run_validate(cfg)
    except Exception as exc:
        # The LoRA rank check is validate_config's last statement: everything before it passed.
        if not (in_vllm_lora_check(exc) and missing_engine(exc) == "vllm"):
            return {**result, "ok": False, "stage": "validate", "error": first_line(exc)}
        skipped.append("validate_config: vLLM LoRA rank check (needs vllm)")
    # TaskRunner works on its own (Ray-serialised) copy and resolves it in place.
    runner_cfg = copy.deepcopy(cfg)
    try:
        steps = conversions(runner_cfg)
    except Exception as exc:
        return {**result, "ok": False, "stage": "dataclass", "part": "setup", "error": first_line(exc)}
    for name, step in steps:
        try:
            step()
        except Exception as exc:
            module = missing_engine(exc)
            if module is not None:
                skipped.append(f"{name} (needs {module})")
                continue
            out = {**result, "ok": False, "stage": "dataclass", "part": name, "error": first_line(exc)}
            return {**out, "skipped": skipped} if skipped else out
    result["ok"] = True
    result.update(reward_model_use(runner_cfg))
    if skipped:
        result["skipped"] = skipped
    return result


def reward_model_use(cfg) -> dict:
    """verl's own answer to "does this run use a reward model" (``need_reward_model``, which RayPPOTrainer keeps as
    ``self.use_rm``), beside what the config asked at the legacy key ``reward_model.enable`` (None when absent or
    left null, as legacy_reward_impl.yaml leaves it):
    main_ppo reads only ``reward.reward_model.enable``, so the two can differ."""
    from omegaconf import OmegaConf
    from verl.trainer.ppo.utils import need_reward_model

    legacy = OmegaConf.select(cfg, "reward_model.enable", default=None)
    return {"need_reward_model": bool(need_reward_model(cfg)), "legacy_reward_model_enable": legacy}


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Parse the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config_dirs", nargs="+", type=Path, help="directories holding a config.yaml")
    parser.add_argument(
        "--override",
        action="append",
        default=[],
        metavar="K=V",
        help="a Hydra command-line override, applied to every config (repeatable)",
    )
    parser.add_argument(
        "--models-dir",
        type=Path,
        default=None,
        help="where the tiny local models are created (default: a temporary dir)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Validate each config dir and print one JSON line per dir on stdout."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # verl prints progress on stdout; keep the real stdout for the JSON lines only.
    json_out = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    warnings.simplefilter("default")
    with contextlib.ExitStack() as stack:
        models_dir = args.models_dir
        if models_dir is None:
            models_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="verl-models-")))
        models_dir.mkdir(parents=True, exist_ok=True)
        models = build_models(models_dir)
        for config_dir in args.config_dirs:
            json_out.write(json.dumps(check_dir(config_dir, args.override, models)) + "\n")
    json_out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
