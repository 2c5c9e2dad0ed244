#!/usr/bin/env python3
"""Measure the peak GPU memory of verl-like training and log-prob steps, for the memory estimate's fixture.

Runs on a machine with a CUDA GPU, torch and transformers (the H200 that developers can borrow); nothing is
downloaded. Each case builds a randomly initialised model from the catalogue's config numbers
(wizard/core/model_catalogue.json) and does what one verl FSDP worker does with it, on one GPU:

- train (actor or critic): fp32 master weights wrapped with FSDP2 (`fully_shard` per decoder layer, then the
  root; bf16 compute, fp32 gradient reduction, as verl's engine sets MixedPrecision), torch's AdamW
  (foreach, as verl builds it), gradient checkpointing per decoder layer when asked, forward under bf16
  autocast, token log-probs from bf16 logits with an in-place backward (what flash-attn's cross entropy does
  in verl), two optimizer steps of two micro-batches each (the second micro-batch runs with the first one's
  gradients held, as gradient accumulation does);
- forward (the reference model): fp32 weights kept in CPU memory (FSDP2 CPUOffloadPolicy, as verl forces for
  the reference), no gradients, log-probs of one micro-batch.

Peak memory is torch's max_memory_reserved and max_memory_allocated per case (expandable segments on, as
verl sets for training), and the CUDA context is what the driver holds beyond torch's reserve.
Writes calibration.json (and a log) to --out and prints a table last.

    python benchmarks/calibrate_memory.py --out OUT            # all cases, on the GPU
    python benchmarks/calibrate_memory.py --out OUT --dry-run  # tiny configs on the CPU (checks the harness)
    python benchmarks/calibrate_memory.py --table              # the README's table: estimate vs measured (no torch)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "wizard" / "core" / "model_catalogue.json"

# (case id, catalogue id, role, mode, gradient checkpointing, micro batch, sequence length[, config overrides])
CASES = [
    ("q05-ckpt-4x1024", "Qwen/Qwen2.5-0.5B-Instruct", "actor", "train", True, 4, 1024),
    ("q05-nockpt-4x1024", "Qwen/Qwen2.5-0.5B-Instruct", "actor", "train", False, 4, 1024),
    ("q05-ckpt-8x3072", "Qwen/Qwen2.5-0.5B-Instruct", "actor", "train", True, 8, 3072),
    ("l1b-ckpt-8x3072", "meta-llama/Llama-3.2-1B-Instruct", "actor", "train", True, 8, 3072),
    ("l1b-nockpt-2x3072", "meta-llama/Llama-3.2-1B-Instruct", "actor", "train", False, 2, 3072),
    ("q15-ckpt-8x3072", "Qwen/Qwen2.5-1.5B-Instruct", "actor", "train", True, 8, 3072),
    ("q3-4b-ckpt-8x3072", "Qwen/Qwen3-4B", "actor", "train", True, 8, 3072),
    ("q3-4b-nockpt-2x3072", "Qwen/Qwen3-4B", "actor", "train", False, 2, 3072),
    ("q05-critic-ckpt-8x3072", "Qwen/Qwen2.5-0.5B-Instruct", "critic", "train", True, 8, 3072),
    ("q05-ref-8x3072", "Qwen/Qwen2.5-0.5B-Instruct", "ref", "forward", False, 8, 3072),
    ("l1b-ref-8x3072", "meta-llama/Llama-3.2-1B-Instruct", "ref", "forward", False, 8, 3072),
    ("q3-4b-ref-8x3072", "Qwen/Qwen3-4B", "ref", "forward", False, 8, 3072),
]

# Run after the estimate's constants were set from CASES, to check it on models and sizes it was not fitted to.
# The two "2-layer" cases keep a real model's vocabulary and width but only two layers, so that the moment at
# the end of the backward pass (the embeddings' gradient cast to fp32 for reduction) is the largest one, as
# it is for a large model sharded over 8 GPUs.
HELD_OUT = [
    ("r1q15-ckpt-4x2048", "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "actor", "train", True, 4, 2048),
    ("q25-3b-nockpt-1x4096", "Qwen/Qwen2.5-3B-Instruct", "actor", "train", False, 1, 4096),
    ("l3b-critic-ckpt-4x3072", "meta-llama/Llama-3.2-3B-Instruct", "critic", "train", True, 4, 3072),
    ("q3-17b-ref-16x2048", "Qwen/Qwen3-1.7B", "ref", "forward", False, 16, 2048),
    (
        "q05-2layer-untied-1x512",
        "Qwen/Qwen2.5-0.5B-Instruct",
        "actor",
        "train",
        False,
        1,
        512,
        {"num_hidden_layers": 2, "tie_word_embeddings": False},
    ),
    ("q3-8b-2layer-ckpt-2x1024", "Qwen/Qwen3-8B", "actor", "train", True, 2, 1024, {"num_hidden_layers": 2}),
]

DRY_SHRINK = dict(
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    head_dim=16,
    vocab_size=512,
)


def hf_config(entry: dict, dry: bool, role: str, overrides: dict):
    from transformers import AutoConfig

    numbers = {k: v for k, v in entry["config"].items() if k not in ("model_type", "architectures", "torch_dtype")}
    numbers.update(overrides)
    if dry:
        numbers.update(DRY_SHRINK)
    if role == "critic":
        numbers["num_labels"] = 1
    config = AutoConfig.for_model(entry["config"]["model_type"], **numbers)
    config._attn_implementation = "sdpa"
    return config


def build_model(config, role: str, device: str):
    import torch
    from transformers import AutoModelForCausalLM, AutoModelForTokenClassification

    cls = AutoModelForTokenClassification if role == "critic" else AutoModelForCausalLM
    with torch.device(device):
        try:
            model = cls.from_config(config, dtype=torch.float32)
        except TypeError:
            model = cls.from_config(config, torch_dtype=torch.float32)
    return model.to(torch.float32)


def layer_class(model):
    inner = getattr(model, "model", None)
    layers = getattr(inner, "layers", None)
    return type(layers[0]) if layers is not None else None


def shard(model, offload: bool):
    """FSDP2 over a one-rank mesh: each decoder layer a unit, then the root (embeddings, norm, head)."""
    import torch
    from torch.distributed.fsdp import CPUOffloadPolicy, MixedPrecisionPolicy, fully_shard

    mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32, cast_forward_inputs=True)
    kwargs = {"mp_policy": mp}
    if offload:
        kwargs["offload_policy"] = CPUOffloadPolicy(pin_memory=True)
    cls = layer_class(model)
    for module in model.modules():
        if cls is not None and isinstance(module, cls):
            fully_shard(module, **kwargs)
    fully_shard(model, **kwargs)
    return model


class InplaceLogProb:
    """log p(label) from bf16 logits; backward writes the gradient into the logits' storage (no second copy)."""

    @staticmethod
    def make():
        import torch

        class _Fn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, logits, labels):
                rows = max(1, (8 << 20) // logits.shape[-1])
                lse = torch.empty(logits.shape[0], dtype=torch.float32, device=logits.device)
                for s in range(0, logits.shape[0], rows):
                    lse[s : s + rows] = torch.logsumexp(logits[s : s + rows].float(), dim=-1)
                picked = logits.gather(-1, labels[:, None]).squeeze(-1).float()
                ctx.save_for_backward(logits, labels, lse)
                ctx.rows = rows
                return picked - lse

            @staticmethod
            def backward(ctx, grad_out):
                logits, labels, lse = ctx.saved_tensors
                rows = ctx.rows
                for s in range(0, logits.shape[0], rows):
                    g = grad_out[s : s + rows, None].float()
                    grad = torch.exp(logits[s : s + rows].float() - lse[s : s + rows, None]).mul_(-g)
                    grad.scatter_add_(-1, labels[s : s + rows, None], g)
                    logits[s : s + rows] = grad.to(logits.dtype)
                return logits, None

        return _Fn


def gib(n: float) -> float:
    return round(n / (1 << 30), 4)


def run_case(case, catalogue, device: str, dry: bool) -> dict:
    import torch

    case_id, model_id, role, mode, ckpt, micro, seq = case[:7]
    overrides = case[7] if len(case) > 7 else {}
    if dry:
        micro, seq = 2, 64
    entry = catalogue[model_id]
    cuda = device == "cuda"
    gc.collect()
    if cuda:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated() if cuda else 0
    marks = {}

    def mark(name):
        if cuda:
            torch.cuda.synchronize()
            marks[name] = {
                "allocated": torch.cuda.memory_allocated() - base,
                "peak_allocated": torch.cuda.max_memory_allocated() - base,
                "peak_reserved": torch.cuda.max_memory_reserved(),
            }

    config = hf_config(entry, dry, role, overrides)
    model = build_model(config, role, device)
    n_params = sum(p.numel() for p in model.parameters())
    if ckpt:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    # the reference's weights go to (pinned) CPU memory; FSDP2 copies each unit in for its forward
    model = shard(model, offload=(mode == "forward" and cuda))
    gc.collect()
    if cuda:
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()  # building is not part of a step; what the weights hold stays counted
    mark("after_build")
    vocab = config.vocab_size
    logprob = InplaceLogProb.make()
    gen = torch.Generator(device="cpu").manual_seed(0)

    def batch():
        ids = torch.randint(0, vocab, (micro, seq), generator=gen).to(device)
        return ids, torch.roll(ids, shifts=-1, dims=1)

    def loss_of(ids, labels):
        with torch.autocast(device_type=device, dtype=torch.bfloat16):
            out = model(input_ids=ids, use_cache=False)
            if role == "critic":
                values = out.logits.squeeze(-1).float()
                return ((values - 0.5) ** 2).mean()
            logits = out.logits.reshape(-1, out.logits.shape[-1])
            del out
            lp = logprob.apply(logits, labels.reshape(-1))
            return -(lp * 0.01).mean()

    t0 = time.time()
    if mode == "forward":
        model.eval()
        with torch.no_grad():
            for _ in range(2):
                ids, labels = batch()
                with torch.autocast(device_type=device, dtype=torch.bfloat16):
                    logits = model(input_ids=ids, use_cache=False).logits
                    logits = logits.reshape(-1, logits.shape[-1])
                    lp = _forward_logprob(logits, labels.reshape(-1))
                del logits, lp
                mark("forward")
    else:
        model.train()
        optim = torch.optim.AdamW(model.parameters(), lr=1e-6, weight_decay=0.01)
        for step in range(2):
            optim.zero_grad(set_to_none=True)
            for micro_step in range(2):
                ids, labels = batch()
                loss = loss_of(ids, labels)
                loss.backward()
                del loss
                mark(f"step{step}_micro{micro_step}")
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optim.step()
            mark(f"step{step}_optim")
        optim.zero_grad(set_to_none=True)
        del optim
    seconds = time.time() - t0
    result = {
        "case": case_id,
        "model": model_id,
        "role": role,
        "mode": mode,
        "gradient_checkpointing": ckpt,
        "micro_batch": micro,
        "seq_len": seq,
        "tokens": micro * seq,
        "n_params": n_params,
        "seconds": round(seconds, 2),
        "config_overrides": overrides,
    }
    if cuda:
        result["peak_allocated_gib"] = gib(torch.cuda.max_memory_allocated() - base)
        result["peak_reserved_gib"] = gib(torch.cuda.max_memory_reserved())
        result["marks_gib"] = {k: {kk: gib(vv) for kk, vv in v.items()} for k, v in marks.items()}
    model = None  # frees the weights before the next case
    gc.collect()
    if cuda:
        torch.cuda.empty_cache()
    return result


def _forward_logprob(logits, labels):
    import torch

    rows = max(1, (8 << 20) // logits.shape[-1])
    out = torch.empty(logits.shape[0], dtype=torch.float32, device=logits.device)
    for s in range(0, logits.shape[0], rows):
        chunk = logits[s : s + rows].float()
        out[s : s + rows] = chunk.gather(-1, labels[s : s + rows, None]).squeeze(-1) - torch.logsumexp(chunk, dim=-1)
    return out


def cuda_context_gib() -> float:
    import torch

    torch.cuda.synchronize()
    free, total = torch.cuda.mem_get_info()
    return gib(total - free - torch.cuda.memory_reserved())


def table() -> str:
    """Markdown rows: each measured case (tests/fixtures/memory_calibration) beside the estimate for it."""
    sys.path.insert(0, str(ROOT))
    from tests.core.test_memory import estimate_case, measured_cases

    lines = [
        "| case | model | setting | estimate GiB | measured peak reserved GiB | measured peak allocated GiB | estimate vs reserved |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in measured_cases():
        setting = f"{c['role']} {c['mode']}, {c['micro_batch']}×{c['seq_len']} tokens"
        if c["mode"] == "train":
            setting += ", checkpointing " + ("on" if c["gradient_checkpointing"] else "off")
        if c.get("config_overrides"):
            setting += ", " + ", ".join(f"{k}={v}" for k, v in c["config_overrides"].items())
        if c["fixture"] != "h200_calibration.json":
            setting += " (held out)"
        est, meas = estimate_case(c), c["peak_reserved_gib"]
        lines.append(
            f"| `{c['case']}` | {c['model'].split('/')[-1]} | {setting} | {est:.2f} | {meas:.2f} | {c['peak_allocated_gib']:.2f} | "
            f"{(est - meas) / meas:+.1%} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    if argv is None and "--table" in sys.argv[1:]:
        print(table())
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument(
        "--dry-run", action="store_true", help="tiny configs on the CPU: checks the harness, measures nothing"
    )
    parser.add_argument("--only", nargs="*", help="case ids to run (default: all)")
    parser.add_argument("--held-out", action="store_true", help="run the held-out cases (checks, not fitting) instead")
    args = parser.parse_args(argv)
    os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    import torch
    import torch.distributed as dist
    import transformers

    device = "cpu" if args.dry_run or not torch.cuda.is_available() else "cuda"
    dist.init_process_group("nccl" if device == "cuda" else "gloo", rank=0, world_size=1)
    if device == "cuda":
        torch.cuda.set_device(0)
    catalogue = {e["id"]: e for e in json.loads(CATALOGUE.read_text())["models"]}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    meta = {
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "python": platform.python_version(),
        "device": torch.cuda.get_device_name(0) if device == "cuda" else "cpu",
        "dry_run": args.dry_run,
        "alloc_conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF"),
    }
    if device == "cuda":
        torch.ones(1, device="cuda")
        meta["gpu_total_gib"] = gib(torch.cuda.mem_get_info()[1])
        meta["cuda_context_gib"] = cuda_context_gib()
    results = []
    for case in HELD_OUT if args.held_out else CASES:
        if args.only and case[0] not in args.only:
            continue
        try:
            results.append(run_case(case, catalogue, device, args.dry_run))
        except Exception as exc:  # noqa: BLE001 - one failing case must not lose the others' numbers
            results.append({"case": case[0], "error": f"{type(exc).__name__}: {str(exc)[:400]}"})
            traceback.print_exc()
            gc.collect()
            if device == "cuda":
                torch.cuda.empty_cache()
        print(json.dumps(results[-1]), flush=True)
        (out / "calibration.json").write_text(json.dumps({"meta": meta, "cases": results}, indent=1) + "\n")
    if device == "cuda":
        meta["cuda_context_after_gib"] = cuda_context_gib()
    (out / "calibration.json").write_text(json.dumps({"meta": meta, "cases": results}, indent=1) + "\n")
    dist.destroy_process_group()
    print(json.dumps(meta))
    name = "heldout.json" if args.held_out else "calibration.json"
    (out / "calibration.json").rename(out / name)
    print(f"{'case':26} {'params':>8} {'tokens':>7} {'peak_res':>9} {'peak_alloc':>10} {'s':>6}")
    for r in results:
        if "error" in r:
            print(f"{r['case']:26} ERROR {r['error'][:80]}")
            continue
        print(
            f"{r['case']:26} {r['n_params'] / 1e9:8.3f} {r['tokens']:7d} {r.get('peak_reserved_gib', 0):9.2f} "
            f"{r.get('peak_allocated_gib', 0):10.2f} {r['seconds']:6.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
