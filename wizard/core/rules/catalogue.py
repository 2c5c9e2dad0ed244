"""Every rule id with its severity, a one-line title and the reason it exists.

Ids are stable: add new ones, never reuse one. Findings take their `why` from here, `explain` prints
it, and the README's rule table is generated from it. Rules marked `later` are reserved for checks that
need a model file, a data file or hardware detection and arrive with their own modules.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleDoc:
    id: str
    severity: str
    title: str
    why: str


_RULES = [
    # Roles and models
    (
        "ROLE-001",
        "error",
        "No actor model path",
        "verl falls back to its placeholder ~/models/deepseek-llm-7b-chat and fails to load it; the actor (and the reference, a copy of it) must come from a real checkpoint.",
    ),
    (
        "ROLE-002",
        "error",
        "A critic is needed and has no model path",
        "GAE (or critic.enable) builds a value model; without critic.model.path verl loads its placeholder path and the run dies after the workers start.",
    ),
    (
        "ROLE-003",
        "warning",
        "Critic and reward model are the same checkpoint",
        "Initialising the value model from the reward model couples value and reward estimates; the usual choice is the actor's checkpoint.",
    ),
    (
        "ROLE-004",
        "error",
        "The reward model is not a sequence classifier with one label",
        "Without a custom reward function verl scores with the reward model as a discriminative one and reads one scalar per sequence; a causal LM or a multi-label head gives meaningless rewards (read from its config.json, or the catalogue).",
    ),
    (
        "ROLE-005",
        "error",
        "No source of reward",
        "With no reward model and no custom reward function, verl's built-in scorer picks a function by data_source and raises NotImplementedError for sources it does not know.",
    ),
    (
        "ROLE-006",
        "warning",
        "A critic is built but the estimator does not use it",
        "Only gae reads the critic's values; with another estimator the critic costs GPU memory and time for nothing.",
    ),
    (
        "ROLE-007",
        "error",
        "A model path verl cannot open",
        "verl does not expand ~ (it treats the path as a Hugging Face repo id) and a local path must exist on the machines that load it.",
    ),
    (
        "ROLE-008",
        "warning",
        "Actor and critic tokenizers differ, or the reward model has no tokenizer",
        "The critic reads the actor's token ids, which mean other tokens (or run past the embedding) under another vocabulary; verl 0.9 re-tokenizes for the reward model with the reward model's own tokenizer, so that folder must have one.",
    ),
    (
        "ROLE-009",
        "info",
        "The reference model is a frozen copy of the actor's start",
        "verl loads the reference from actor_rollout_ref.model.path as a separate frozen model (with LoRA: the base model with the adapter off); it costs memory but needs no path of its own.",
    ),
    (
        "ROLE-010",
        "error",
        "DAPO group filtering with a colocated reward model",
        "verl refuses algorithm.filter_groups with a reward model that shares the training GPUs: give the reward model its own pool.",
    ),
    (
        "ROLE-011",
        "warning",
        "The critic starts from a reward-model checkpoint",
        "verl loads the critic as a token classifier, so a reward model's scoring head becomes the initial value head: value and reward estimates start coupled (ROLE-003's sibling for a reward model that is not the configured one); the usual start is the actor's checkpoint.",
    ),
    # Batch arithmetic
    (
        "BATCH-001",
        "error",
        "Responses per step do not split evenly over the GPUs",
        "verl asserts at start-up that train_batch_size × rollout.n is divisible by the minimal batch (the GPU count for FSDP, dp × micro for Megatron).",
    ),
    (
        "BATCH-002",
        "error",
        "Mini-batch larger than the train batch",
        "An optimizer step cannot take more prompts than a training step produces; verl rejects it without dynamic batching and silently pads with it.",
    ),
    (
        "BATCH-003",
        "warning",
        "Train batch is not a multiple of the mini-batch",
        "verl pads the batch with dummy rows up to a multiple of the mini-batch: compute is spent on padding and rollout and update fall out of step.",
    ),
    (
        "BATCH-004",
        "error",
        "Mini-batch responses do not split over data-parallel ranks",
        "Every update asserts that ppo_mini_batch_size × n is divisible by the data-parallel size; it fails on the first step, after model loading.",
    ),
    (
        "BATCH-005",
        "error",
        "Per-GPU mini-batch is not a multiple of the micro-batch",
        "Micro-batches must tile each GPU's share of a mini-batch (and of the log-prob batch); verl asserts it at the first step.",
    ),
    (
        "BATCH-006",
        "error",
        "Micro-batch size set twice, or not at all",
        "Without dynamic batching verl needs exactly one micro-batch size per role, and its 0.9 workers need the per-GPU form.",
    ),
    (
        "BATCH-007",
        "error",
        "Token budget smaller than one sequence",
        "With dynamic batching a micro-batch must hold the longest sequence: budget × sp must be at least max_prompt_length + max_response_length.",
    ),
    (
        "BATCH-008",
        "error",
        "Group estimator with one response per prompt",
        "GRPO-style estimators compare the responses to one prompt; with n = 1 every advantage is zero and nothing is learned.",
    ),
    (
        "BATCH-009",
        "warning",
        "GAE with several responses per prompt",
        "PPO with a critic usually samples one response per prompt; n > 1 multiplies rollout cost without the group baseline it pays for.",
    ),
    (
        "BATCH-010",
        "error",
        "The critic's batch chain does not split evenly",
        "The critic updates on the same responses with its own mini/micro sizes, and the same divisibility applies over its data-parallel ranks.",
    ),
    (
        "BATCH-011",
        "warning",
        "Optimizer steps per rollout outside 1..16",
        "Many updates on one batch of rollouts make the policy stale (off-policy); very large mini-batches waste the rollout.",
    ),
    (
        "BATCH-012",
        "error",
        "separate_async: train batch != parameter_sync_step × mini-batch",
        "The separate-async trainer syncs weights every parameter_sync_step mini-batches and asserts that they add up to one training batch.",
    ),
    (
        "BATCH-013",
        "error",
        "Fewer rows than one train batch",
        "verl's dataloader drops the last incomplete batch, so steps per epoch = rows // train_batch_size: with fewer rows (after filter_overlong_prompts) nothing is trained.",
    ),
    (
        "BATCH-014",
        "error",
        "Rollout log-prob batching differs from the actor's",
        "verl's workers assert that rollout.log_prob_use_dynamic_bsz equals actor.use_dynamic_bsz.",
    ),
    # Placement
    (
        "PLACE-001",
        "error",
        "GPU count not divisible by rollout tensor parallelism",
        "Each inference replica takes TP GPUs; verl asserts the rollout world size is a multiple of TP.",
    ),
    (
        "PLACE-002",
        "error",
        "Rollout tensor-parallel group larger than a node",
        "A TP group that spans nodes all-reduces every layer over the network: generation slows by an order of magnitude.",
    ),
    (
        "PLACE-003",
        "warning",
        "A tensor-parallel group crosses a weak link",
        "TP traffic over NODE/SYS paths is several times slower than over NVLink or one PCIe switch.",
    ),
    (
        "PLACE-004",
        "error",
        "Megatron parallel sizes do not fit the GPUs",
        "verl asserts that the GPU count is divisible by TP·PP·CP; a Megatron TP group must also stay inside a node.",
    ),
    (
        "PLACE-005",
        "error",
        "Attention heads not divisible by TP or SP",
        "vLLM/SGLang split the attention heads over rollout TP and refuse an uneven split; KV heads must divide TP or be divisible by it. verl's Ulysses asserts the same for sp (KV heads are repeated when sp is a multiple of them), and Megatron for its TP.",
    ),
    (
        "PLACE-006",
        "error",
        "Sequence parallelism without remove-padding",
        "verl's Ulysses implementation works on packed sequences and refuses sp > 1 without use_remove_padding.",
    ),
    (
        "PLACE-007",
        "error",
        "The plan needs more GPUs than the target has",
        "verl checks the Ray cluster for the sum of all pools and stops with 'Total available GPUs X is less than total desired GPUs Y'.",
    ),
    (
        "PLACE-008",
        "error",
        "Estimated memory per GPU exceeds the GPU (warning over 90%)",
        "The run would stop with CUDA out of memory (or vLLM would refuse to start) after the queue and the model loading; each phase's parts are estimated from the model's numbers and compared with the GPU from the topology.",
    ),
    (
        "PLACE-009",
        "error",
        "Split pools that verl refuses",
        "Standalone rollout and reward pools need positive sizes, separate_async needs a non-naive weight sync, and hybrid_engine=false only works with separate_async.",
    ),
    (
        "PLACE-010",
        "warning",
        "n_gpus_per_node differs from the detected GPUs",
        "Planning for another GPU count than the machine has leaves GPUs idle or asks for GPUs that are not there.",
    ),
    (
        "PLACE-011",
        "warning",
        "Multi-node plan without an RDMA NIC near the GPUs",
        "Data-parallel gradients between nodes then travel over plain TCP and the step time is dominated by communication.",
    ),
    (
        "PLACE-012",
        "error",
        "Ulysses sequence parallelism does not divide the GPU count",
        "The data-parallel size is GPUs / sp; an uneven split leaves no valid device mesh.",
    ),
    (
        "PLACE-013",
        "error",
        "A rollout parallel layout verl refuses",
        "verl asserts rollout expert parallelism = TP × DP when EP > 1, and rollout pipeline parallelism is not implemented.",
    ),
    # Data
    (
        "DATA-001",
        "error",
        "A data file is missing, unreadable, or not parquet/json/jsonl",
        "verl picks its reader by the file name (.parquet, .json, .jsonl) and stops with 'Unsupported file format' for others; a missing, truncated or non-UTF-8 file fails when the dataset is built, after the workers have started.",
    ),
    (
        "DATA-002",
        "error",
        "The prompt column (data.prompt_key) is missing",
        "verl reads each prompt from the column named by data.prompt_key and stops with KeyError when the rows have no such column.",
    ),
    (
        "DATA-003",
        "error",
        "Prompts are not chat lists of {role, content}",
        "The prompt must be a list of {role, content} messages. verl does not reject a plain string: the chat template walks it one character at a time and the model trains on garbage; bad roles, missing users or empty contents break or mislead the template.",
    ),
    (
        "DATA-004",
        "error",
        "No reward_model.ground_truth for a rule-based reward",
        "The reward manager passes reward_model.ground_truth of every row to the scoring function; a row without it fails with KeyError in the middle of training.",
    ),
    (
        "DATA-005",
        "warning",
        "Prompts longer than max_prompt_length",
        "With filter_overlong_prompts verl drops over-long prompts when it loads the data (fewer rows, maybe none); without it verl 0.9 cuts them to max_prompt_length tokens, so the model sees prompts missing part of their text.",
    ),
    (
        "DATA-006",
        "error",
        "Reward-model pairs without prompt, chosen and rejected",
        "Pairwise reward-model data needs a prompt, a chosen and a rejected response in every row; a missing or empty side fails or teaches nothing.",
    ),
    (
        "DATA-007",
        "error",
        "SFT data without a messages list of user and assistant turns",
        "verl's multi-turn SFT dataset reads a chat list from the messages column and trains on the assistant turns; without one there is nothing to learn or the run stops.",
    ),
    (
        "DATA-008",
        "error",
        "A data path starting with ~",
        "verl does not expand ~: the path is resolved against the working directory and the file is not found.",
    ),
    (
        "DATA-009",
        "info",
        "A data file that was not checked here",
        "Remote paths (hdfs://, s3://, ...) and paths holding a shell variable are read on the machines that run verl; run `verl-wizard data` where the files are to check them.",
    ),
    # Deployment
    (
        "DEPLOY-001",
        "error",
        "CUDA_VISIBLE_DEVICES (or RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES) set by hand",
        "Ray fixes a node's GPUs at ray start and sets CUDA_VISIBLE_DEVICES per worker itself; a hand-set mask in a runtime env, a manifest or on a cluster's nodes changes nothing Ray schedules (verl then stops with 'Total available GPUs X is less than total desired GPUs Y'), and NOSET puts every worker on the same devices. Where verl starts its own Ray on one machine, that Ray takes its GPUs from the mask: there only its count has to be trainer.n_gpus_per_node.",
    ),
    (
        "DEPLOY-002",
        "error",
        "A Ray address of the wrong form for its use",
        "http://HEAD:8265 is the Jobs API (ray job submit only); ray.init and ray start need the GCS address HEAD:6379 (or auto), and ray.init fails on an http:// RAY_ADDRESS; ray:// is Ray Client, not a driver on the cluster.",
    ),
    (
        "DEPLOY-003",
        "warning",
        "RAY_DEDUP_LOGS=0 on a multi-node target",
        "With deduplication off every rank's identical lines reach the driver: a log storm that hides the one line that matters.",
    ),
    (
        "DEPLOY-004",
        "error",
        "Manifest GPUs or nodes differ from the config",
        "verl asks Ray for trainer.nnodes placement groups of trainer.n_gpus_per_node GPUs, each on one node; a manifest with other counts leaves GPUs idle or waits forever for GPUs that never come.",
    ),
    (
        "DEPLOY-005",
        "error",
        "Too few CPUs per GPU",
        "verl reserves {CPU: 3, GPU: 1} per GPU in placement groups packed onto one node; verl 0.9.1's V1 trainer first starts TransferQueue, whose controller and storage units (8, pinned round-robin to every Ray node) hold a CPU each for the whole run; and Ray places an actor without num_cpus (the TaskRunner, the rollout servers) only where a CPU is free. With fewer logical CPUs something never gets placed and training hangs without an error.",
    ),
    (
        "DEPLOY-006",
        "error",
        "A secret value written inline",
        "Tokens and API keys written into a manifest, a script or the answers end up in version control, kubectl output and Ray's job table; read them from a Secret (secretKeyRef) or the launching environment.",
    ),
    (
        "DEPLOY-007",
        "error",
        "An invalid Kubernetes name",
        "The API server refuses names that are not DNS labels; KubeRay also refuses RayJob names over 47 characters and RayCluster names over 53 (it derives pod and service names from them).",
    ),
    (
        "DEPLOY-008",
        "error",
        "ray_kwargs.ray_init.num_cpus set while joining a cluster",
        "ray.init raises 'When connecting to an existing cluster, num_cpus and num_gpus must not be provided'; the setting only applies when verl starts its own Ray instance.",
    ),
    (
        "DEPLOY-009",
        "warning",
        "Multi-node without NCCL/GLOO interface settings",
        "On hosts with several network interfaces NCCL and Gloo may bind one the other nodes cannot reach: the first collective hangs until the watchdog timeout (30 minutes).",
    ),
    (
        "DEPLOY-010",
        "error",
        "A RayJob entrypoint that chains commands",
        "KubeRay splices the entrypoint unquoted into `ray job submit ... -- <entrypoint>` in the submitter pod, so the part after ;, && or | runs there, not on the cluster.",
    ),
    (
        "DEPLOY-011",
        "warning",
        "No shared memory volume (/dev/shm)",
        "A plain Pod or Job gets 64 MiB of /dev/shm; NCCL and data loaders need more and fail with 'No space left on device' (KubeRay adds the volume itself).",
    ),
    (
        "DEPLOY-012",
        "error",
        "Ray token authentication differs between head, workers and driver",
        "Ray 2.5x token authentication (on whenever a token exists where ray start --head runs) refuses every process whose RAY_AUTH_MODE or token differs from the head's; the driver or worker retries and fails after a long wait with only 'Failed to connect'.",
    ),
    (
        "DEPLOY-013",
        "error",
        "The Ray cluster does not answer at the address",
        "Nothing listens there, or it is not a Ray GCS: ray.init on such an address blocks for a long time and then fails.",
    ),
    (
        "DEPLOY-014",
        "warning",
        "An image reference Kubernetes cannot pull",
        "An image name with spaces, quotes or upper-case repository letters is refused by the kubelet (InvalidImageName) and the pods never start.",
    ),
    (
        "DEPLOY-015",
        "warning",
        "Local paths the pods cannot see",
        "A Kubernetes pod sees its image and its volumes only: a data file or model folder at a local path that no volume mounts does not exist there, and verl fails when it opens it, after the cluster has started.",
    ),
    # Schema
    (
        "KEY-001",
        "error",
        "A key verl does not have",
        "Hydra accepts unknown keys inside a config file without a word, so a typo silently leaves verl's default in force.",
    ),
    (
        "KEY-002",
        "error",
        "A mandatory value is missing",
        "verl 0.9 has no default for actor_rollout_ref.rollout.name (and for the reward model's rollout name when it is on) and stops with MissingMandatoryValue.",
    ),
    (
        "KEY-003",
        "warning",
        "A key verl parses but ignores",
        "verl 0.9 keeps the old top-level reward_model.*, custom_reward_function.* and sandbox_fusion.* in its schema but no longer reads them: the setting has no effect.",
    ),
    (
        "KEY-004",
        "error",
        "A value outside the allowed set",
        "verl looks these names up in registries or validates them in its config dataclasses and stops at start-up (or at the first worker) when they are unknown.",
    ),
    (
        "KEY-005",
        "error",
        "A combination of values verl rejects at start-up",
        "verl's start-up validation refuses sampling-based validation with a rollout temperature of 0.",
    ),
    # Launch scripts
    (
        "SCRIPT-001",
        "error",
        "A broken line continuation",
        "bash ends the command at a backslash followed by a space or a # comment, or at a comment or empty line inside it: verl starts without the overrides after it (bash runs them as commands of their own), and text after the backslash reaches Hydra as a bad override.",
    ),
    (
        "SCRIPT-002",
        "error",
        "A missing backslash cuts the override list",
        "Without the trailing backslash the command ends at that line: verl starts with only the overrides above it, and bash tries to run the rest as commands.",
    ),
    (
        "SCRIPT-003",
        "warning",
        "An override with an empty value",
        "key= passes the empty string, usually from an unset shell variable: verl then gets '' where it expects a path, a number or a name.",
    ),
    (
        "SCRIPT-004",
        "warning",
        "The same key given twice with different values",
        "Hydra applies overrides in order and keeps the last: the earlier value, often the one that was edited, is silently lost.",
    ),
    (
        "SCRIPT-005",
        "error",
        "+ on a key verl already has",
        "+key=value adds a new key; for a key verl's config has, Hydra stops with 'Could not append to config. An item is already at ...' before anything runs. Write key=value, or ++key=value to add or override.",
    ),
    (
        "SCRIPT-006",
        "error",
        "A key verl does not have, written without +",
        "Hydra only overrides keys that exist and stops with 'Could not override ...' at the first other one. A fork's or the script's own key, and a new entry under a mapping verl leaves open (override_config, engine_kwargs), need +key=value.",
    ),
    (
        "SCRIPT-007",
        "error",
        "+ adds a key that verl's config class refuses",
        "Hydra adds the key, but verl builds that section into a config dataclass and stops at start-up with 'unexpected keyword argument'.",
    ),
    (
        "SCRIPT-008",
        "info",
        "+ adds a key verl does not read",
        "Hydra adds the key and verl ignores it; only the script's own code or a fork reads it.",
    ),
    (
        "SCRIPT-009",
        "warning",
        "The script composes its own primary config",
        "--config-name names a config that is not verl's: the keys it defines are unknown to the wizard, so only overrides that name verl keys are checked, and the script runs only where that config exists.",
    ),
    (
        "SCRIPT-010",
        "error",
        "An argument Hydra rejects",
        "Hydra parses every override before anything runs; a value its grammar rejects (an unquoted comma, an open bracket) or a word that is not key=value stops the launch.",
    ),
    (
        "SCRIPT-011",
        "error",
        "A quote that is never closed",
        "bash stops with a syntax error at the end of the file and runs nothing from the open quote on.",
    ),
    (
        "SCRIPT-012",
        "warning",
        "More than one verl command",
        "Only the first verl command is read and checked; the others run after it (or instead of it) unchecked.",
    ),
    (
        "SCRIPT-013",
        "error",
        "A config-group option verl does not have",
        "A Hydra config-group choice on the command line (model_engine=..., actor@actor_rollout_ref.actor=...) must name a file of that group; Hydra stops with 'Could not find' before anything runs.",
    ),
]

CATALOGUE: dict[str, RuleDoc] = {r[0]: RuleDoc(*r) for r in _RULES}


def why(rule_id: str) -> str:
    return CATALOGUE[rule_id].why
