"""The batch chain of the TUI's Batch step (wizard/tui/widgets/chain_view.py): one segment per division verl performs.

Each language puts the number where it belongs: "mini-batches 4 of 256" in English, "4 个 mini-batch，每个 256 条"
in Chinese (the count before its measure word). The widget styles the parameters (the numbers) and dims the rest.
"""

EN: dict[str, str] = {
    "chain.prompts": "prompts {n}",
    "chain.responses": "responses {n}",
    "chain.mini_batches": "mini-batches {n} of {size}",
    "chain.per_gpu": "per GPU {n}",
    "chain.micro_steps": "micro-steps {n} of {size}",
    "chain.packed": "packed by {tokens} tokens",
    "chain.optimizer_steps": "optimizer steps {n}",
}

ZH: dict[str, str] = {
    "chain.prompts": "{n} 条提示",
    "chain.responses": "{n} 条回复",
    "chain.mini_batches": "{n} 个 mini-batch，每个 {size} 条",
    "chain.per_gpu": "每 GPU {n} 条",
    "chain.micro_steps": "{n} 个 micro-step，每个 {size} 条",
    "chain.packed": "按每 GPU {tokens} 个 token 打包",
    "chain.optimizer_steps": "{n} 次优化器更新",
}
