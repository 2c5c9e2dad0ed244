"""RUN.md's prose (wizard/emit/run_md.py, wizard/emit/runbook.py): headings, where each step runs, what each
command shows. The commands themselves are not here: they are the same in every language."""

EN: dict[str, str] = {
    "runbook.title": "{name}: a verl {version} run ({target})",
    "runbook.files": "Files",
    "runbook.install": "Install",
    "runbook.install.where": "Where: {where}.",
    "runbook.where.local": "on this machine",
    "runbook.where.local_nodes": "on every node of the Ray cluster",
    "runbook.where.ray_job": "on every node of the cluster (the machine that submits needs only `ray`)",
    "runbook.where.pods": "in the image every pod runs (deploy.image: {image})",
    "runbook.where.job": "in the image of the Job (deploy.image: {image})",
    "runbook.where.slurm": "in the environment the job's steps run in on every node",
    "runbook.install.extras": (
        "{extras:list}: the extras verl {version} declares for this run's rollout and training engine; they pull in "
        "`verl-core`, which verl's default (V1) trainer needs (a bare `pip install verl` fails at run time with "
        "`No module named 'transfer_queue'`)."
    ),
    "runbook.install.pins": "They pin {pins:comma}.",
    "runbook.install.undeclared": "verl {version} declares no extra for `{name}`: install it yourself, at a version verl supports.",
    "runbook.data": "Data and models",
    "runbook.data.mounted": (
        "Every pod mounts {source} at `{mount}`: put the data files and local models there before the launch "
        "(for a PVC: `kubectl cp` into any pod that mounts it)."
    ),
    "runbook.data.host_folder": "the folder `{path}` of every GPU node (hostPath)",
    "runbook.data.pvc": "the PersistentVolumeClaim `{name}`",
    "runbook.data.nothing_mounted": (
        "Nothing is mounted in the pods (deploy.data_volume is unset): they see only the image. Set "
        "deploy.data_volume to a PersistentVolumeClaim or a host folder that holds these paths."
    ),
    "runbook.data.ray_job": (
        "The job runs on the cluster's nodes, not where you submit: these paths must exist on every node (a shared "
        "filesystem). This folder is uploaded as the job's working_dir: keep data out of it."
    ),
    "runbook.data.slurm": "Every node reads these paths: keep them, and this folder, on a filesystem all nodes share.",
    "runbook.data.local": "verl reads these on this machine:",
    "runbook.data.local_nodes": "verl reads these on every node of the Ray cluster (the same paths on each):",
    "runbook.path.remote": "remote: read by every process that needs it",
    "runbook.path.hf_id": "a Hugging Face id: downloaded into HF_HOME on first use",
    "runbook.path.relative": (
        "a relative path: verl opens it from {base}; data files are read as parquet/json files, never downloaded "
        "by name"
    ),
    "runbook.path.relative_model": "a relative folder, opened from {base} (or a Hugging Face id if no such folder exists there)",
    "runbook.path.windows": (
        "a Windows path: verl runs on Linux and cannot open it; give the file's path as the machines that run "
        "verl see it"
    ),
    "runbook.base.local": "the folder you start ./run.sh in (this folder, as RUN.md launches it)",
    "runbook.base.ray_job": "the job's working folder on the cluster: this folder, uploaded by ./ray-job.sh",
    "runbook.base.pods": "the container's working folder, not this machine: give a path under {mount} instead",
    "runbook.base.slurm": "the folder you submit from (this folder, on the filesystem every node shares)",
    "runbook.hf_home.set": "HF_HOME is `{home}` on every node: Hugging Face downloads are cached there.",
    "runbook.hf_home.unset": "HF_HOME is each machine's own (default `~/.cache/huggingface`); deploy.hf_home sets one.",
    "runbook.secrets": "Secrets",
    "runbook.secrets.kube": (
        "The pods read {names:list} from the Kubernetes Secret `{secret}`. Export each in this shell (your own "
        "value), then create the Secret from it: the shell passes the value, nothing is written into a file. Once "
        "per namespace, before the launch."
    ),
    "runbook.secrets.shell": (
        "The run reads {names:list} from the environment it is launched in. Export each in this shell (your own "
        "value; never write it into a file); these lines stop when one is missing."
    ),
    "runbook.secrets.auth_secret": (
        "KubeRay gives every Ray pod the token of your Secret `{secret}` (key auth_token): export RAY_AUTH_TOKEN "
        "(a token of your choosing) and create it the same way."
    ),
    "runbook.secrets.kuberay_token": "Ray token authentication is on: KubeRay makes the token's Secret itself and gives it to every pod.",
    "runbook.secrets.ray_job_token": (
        "The cluster uses Ray token authentication: export RAY_AUTH_TOKEN=<the head's token> (`ray get-auth-token` "
        "on the head) or keep it in ~/.ray/auth_token; ./ray-job.sh refuses to submit without one."
    ),
    "runbook.secrets.ray_job_open": (
        "Ray token authentication is off (deploy.auth_mode=disabled): the cluster must run without it too; the ray "
        "commands below need the same mode in this shell."
    ),
    "runbook.secrets.slurm_token": (
        "Ray token authentication: job.sbatch uses your RAY_AUTH_TOKEN when it is set, else a fresh token for the "
        "job; every node gets it and it is never written to a file."
    ),
    "runbook.cluster": "Ray cluster",
    "runbook.cluster.why": (
        "trainer.nnodes is {nnodes}: one machine's Ray instance cannot hold this run. Start a Ray cluster of "
        "{nnodes} nodes with {gpus} GPUs each and launch on its head, as below; or write this run for a target that "
        "starts the cluster itself (`--target slurm`, `kuberay-job`) or submits to one (`ray-job`)."
    ),
    "runbook.cluster.head": (
        "On the head node (one of the {nnodes}): start Ray with token authentication. It prints HEAD_ADDRESS and "
        "uses RAY_AUTH_TOKEN (yours, or a fresh one): the other nodes need both."
    ),
    "runbook.cluster.head_open": "On the head node (one of the {nnodes}): start Ray. It prints HEAD_ADDRESS: the other nodes need it.",
    "runbook.cluster.worker": (
        "On each of the other {workers} node(s): export HEAD_ADDRESS and RAY_AUTH_TOKEN as the head printed them, "
        "then join."
    ),
    "runbook.cluster.worker_open": "On each of the other {workers} node(s): export HEAD_ADDRESS as the head printed it, then join.",
    "runbook.cluster.check": "On the head, `ray status` must show {nodes} nodes and {gpus} GPUs before the launch.",
    "runbook.launch": "Launch",
    "runbook.launch.from": "From this folder, on {where}:",
    "runbook.on.local": "this machine (verl starts its own Ray)",
    "runbook.on.local_head": "the Ray cluster's head node (verl's driver joins the cluster through RAY_ADDRESS)",
    "runbook.on.ray_job": "any machine that reaches the cluster's Jobs API, with Ray installed",
    "runbook.on.kuberay": "a machine with kubectl for the cluster (KubeRay 1.5 or newer installed)",
    "runbook.on.slurm": "a Slurm login node (this folder lies on a filesystem every node shares)",
    "runbook.on.k8s": "a machine with kubectl for the cluster",
    "runbook.launch.ray_job_id": (
        "./ray-job.sh prints `Job 'raysubmit_...' submitted successfully`: export that id as SUBMISSION_ID for the "
        "commands below."
    ),
    "runbook.launch.slurm_id": "JOBID is the job's number (sbatch --parsable prints it alone); the commands below use it.",
    "runbook.launch.kuberay_cluster": "The driver starts in the head pod once the cluster is ready (the wait ends then).",
    "runbook.watch": "Watch",
    "runbook.watch.other_terminal": (
        "From another terminal: the same authentication as the launch's shell (RAY_AUTH_TOKEN exported, or "
        "~/.ray/auth_token), and SUBMISSION_ID exported:"
    ),
    "runbook.follow.local": "./run.sh prints verl's log in this terminal (Ctrl-C stops the run); the Ray instance verl starts has its dashboard at http://127.0.0.1:8265.",
    "runbook.follow.local_head": "./run.sh prints verl's log in this terminal (Ctrl-C stops the driver); the cluster's dashboard is on the head, port 8265.",
    "runbook.follow.ray_job": "./ray-job.sh prints the job's log until the job ends, and exits 1 when it failed.",
    "runbook.follow.kuberay_job": "The driver runs in the submitter Job that KubeRay creates once the cluster is up.",
    "runbook.follow.kuberay_cluster": "The kubectl exec session prints the driver's log.",
    "runbook.follow.slurm": "The head, the workers and the driver write to {file} (JOBID: the number sbatch printed).",
    "runbook.follow.k8s": "verl runs in the Job's pod, with its own Ray instance.",
    "runbook.shows.ray_status": "The Ray instance's CPUs and GPUs, and what waits for them:",
    "runbook.shows.cluster_status": "The cluster's nodes, CPUs and GPUs, and what waits for them:",
    "runbook.shows.job_list": "The submission id and state of every job:",
    "runbook.shows.job_logs": "The job's log again, from the start:",
    "runbook.shows.rayjob": "Job and cluster state (Initializing, Running, Complete):",
    "runbook.shows.driver_log": "The driver's log (the submitter Job KubeRay creates):",
    "runbook.shows.raycluster": "The cluster's state: the driver starts once it is ready:",
    "runbook.shows.squeue": "The job's state and its nodes:",
    "runbook.shows.tail": "The job's output as it is written:",
    "runbook.shows.job": "The Job's state:",
    "runbook.shows.verl_log": "verl's log:",
    "runbook.stop": "Stop early",
    "runbook.stop.local_nodes": "Ctrl-C stops the driver; `ray stop` on every node stops the cluster.",
    "runbook.expect": "What to expect",
    "runbook.expect.chain": (
        "Batch chain: {prompts} prompts x n {n} = {responses} responses per step -> {minis} mini-batches of "
        "{mini} -> {per_gpu} per GPU (dp {dp}){micro}{packed}; {steps} optimizer steps per step."
    ),
    "runbook.expect.micro": " -> {n} micro-steps of {size}",
    "runbook.expect.packed": " -> packed by {tokens} tokens per GPU",
    "runbook.expect.gpus": "GPUs: {nodes} node(s) x {per} = {gpus}; rollout: {replicas} replica(s) of TP {tp}{megatron}{pools}.",
    "runbook.expect.megatron": "; Megatron TP*PP*CP = {size}",
    "runbook.expect.pools": "; total with split pools: {total}",
    "runbook.expect.critic": "Critic chain: {mini} responses per mini-batch -> {per_gpu} per GPU (dp {dp}){micro}.",
    "runbook.warnings": "Open warnings and notes",
    "runbook.severity.warning": "warning",
    "runbook.severity.info": "info",
    "runbook.migrated": "Migrated from `{source}`",
    "runbook.migrated.intro": "The run was read from that launch script and carried over to verl {version}.",
    "runbook.migrated.changed": "Keys changed",
    "runbook.migrated.dropped": "Keys dropped (no verl {version} equivalent)",
    "runbook.migrated.notes": "Notes",
    "runbook.migrated.none": "none",
}

ZH: dict[str, str] = {
    "runbook.title": "{name}：一次 verl {version} 运行（{target}）",
    "runbook.files": "文件",
    "runbook.install": "安装",
    "runbook.install.where": "安装位置：{where}。",
    "runbook.where.local": "本机",
    "runbook.where.local_nodes": "Ray 集群的每个节点",
    "runbook.where.ray_job": "集群的每个节点（提交作业的机器只需要 `ray`）",
    "runbook.where.pods": "每个 pod 运行的镜像中（deploy.image：{image}）",
    "runbook.where.job": "Job 的镜像中（deploy.image：{image}）",
    "runbook.where.slurm": "每个节点上作业步骤运行的环境中",
    "runbook.install.extras": (
        "{extras:list}：verl {version} 为本次运行的 rollout 与训练引擎声明的 extras；它们会带上 `verl-core`，verl 默认的"
        "（V1）trainer 需要它（只装 `pip install verl` 会在运行时报 `No module named 'transfer_queue'`）。"
    ),
    "runbook.install.pins": "它们固定了 {pins:comma} 的版本。",
    "runbook.install.undeclared": "verl {version} 没有为 `{name}` 声明 extra：请自行安装 verl 支持的版本。",
    "runbook.data": "数据与模型",
    "runbook.data.mounted": (
        "每个 pod 都把{source}挂载到 `{mount}`：启动前把数据文件和本地模型放到那里（PVC 的话：用 `kubectl cp` 拷进任意一个"
        "挂载了它的 pod）。"
    ),
    "runbook.data.host_folder": "每个 GPU 节点上的文件夹 `{path}`（hostPath）",
    "runbook.data.pvc": " PersistentVolumeClaim `{name}` ",
    "runbook.data.nothing_mounted": (
        "pod 里没有挂载任何卷（deploy.data_volume 未设置）：它们只能看到镜像里的内容。请把 deploy.data_volume 设为存有这些"
        "路径的 PersistentVolumeClaim 或主机文件夹。"
    ),
    "runbook.data.ray_job": (
        "作业运行在集群的节点上，而不是提交它的机器：这些路径必须在每个节点上都存在（共享文件系统）。本文件夹会作为作业的 "
        "working_dir 上传：不要把数据放在里面。"
    ),
    "runbook.data.slurm": "每个节点都会读取这些路径：把它们和本文件夹放在所有节点共享的文件系统上。",
    "runbook.data.local": "verl 在本机读取这些路径：",
    "runbook.data.local_nodes": "verl 在 Ray 集群的每个节点上读取这些路径（每个节点上路径相同）：",
    "runbook.path.remote": "远程路径：需要它的每个进程各自读取",
    "runbook.path.hf_id": "Hugging Face 模型 id：首次使用时下载到 HF_HOME",
    "runbook.path.relative": "相对路径：verl 从{base}打开它；数据文件按 parquet/json 文件读取，不会按名称下载",
    "runbook.path.relative_model": "相对文件夹，从{base}打开（那里没有这个文件夹时，按 Hugging Face id 处理）",
    "runbook.path.windows": "Windows 路径：verl 运行在 Linux 上，打不开它；请写运行 verl 的机器上看到的路径",
    "runbook.base.local": "你启动 ./run.sh 的文件夹（按 RUN.md 启动时即本文件夹）",
    "runbook.base.ray_job": "作业在集群上的工作文件夹：即 ./ray-job.sh 上传的本文件夹",
    "runbook.base.pods": "容器的工作目录，而不是本机：请改写为 {mount} 下的路径",
    "runbook.base.slurm": "你提交作业的文件夹（本文件夹，位于所有节点共享的文件系统上）",
    "runbook.hf_home.set": "每个节点上的 HF_HOME 是 `{home}`：Hugging Face 的下载缓存在那里。",
    "runbook.hf_home.unset": "HF_HOME 由每台机器自己决定（默认 `~/.cache/huggingface`）；deploy.hf_home 可以统一设置。",
    "runbook.secrets": "密钥",
    "runbook.secrets.kube": (
        "pod 从 Kubernetes Secret `{secret}` 读取 {names:list}。先在当前 shell 中 export 每一个（你自己的值），再用它创建 "
        "Secret：值由 shell 传入，不会写进任何文件。每个命名空间做一次，在启动之前。"
    ),
    "runbook.secrets.shell": (
        "运行时从启动它的环境中读取 {names:list}。请在当前 shell 中 export 每一个（你自己的值，绝不要写进文件）；缺少任何一个，"
        "这几行都会停下。"
    ),
    "runbook.secrets.auth_secret": (
        "KubeRay 把你的 Secret `{secret}`（键 auth_token）中的令牌交给每个 Ray pod：export RAY_AUTH_TOKEN（你自选的令牌），"
        "再用同样的方式创建它。"
    ),
    "runbook.secrets.kuberay_token": "Ray 令牌认证已开启：KubeRay 自己创建令牌的 Secret，并交给每个 pod。",
    "runbook.secrets.ray_job_token": (
        "集群使用 Ray 令牌认证：export RAY_AUTH_TOKEN=<head 的令牌>（在 head 上运行 `ray get-auth-token`），或把它放在 "
        "~/.ray/auth_token；没有令牌时 ./ray-job.sh 拒绝提交。"
    ),
    "runbook.secrets.ray_job_open": "Ray 令牌认证已关闭（deploy.auth_mode=disabled）：集群也必须关闭它；下面的 ray 命令需要当前 shell 使用同样的模式。",
    "runbook.secrets.slurm_token": (
        "Ray 令牌认证：设置了 RAY_AUTH_TOKEN 时 job.sbatch 使用它，否则为本作业生成一个新令牌；每个节点都会拿到它，它不会被写进文件。"
    ),
    "runbook.cluster": "Ray 集群",
    "runbook.cluster.why": (
        "trainer.nnodes 是 {nnodes}：单台机器上的 Ray 实例容纳不了这次运行。请按下面的步骤启动一个 {nnodes} 个节点、每个节点 "
        "{gpus} 块 GPU 的 Ray 集群，并在它的 head 上启动；或者为自己启动集群的目标（`--target slurm`、`kuberay-job`）或提交到"
        "集群的目标（`ray-job`）重新生成本运行。"
    ),
    "runbook.cluster.head": (
        "在 head 节点上（{nnodes} 个节点之一）：以令牌认证启动 Ray。它会打印 HEAD_ADDRESS，并使用 RAY_AUTH_TOKEN（你自己的或"
        "新生成的）：其他节点两者都需要。"
    ),
    "runbook.cluster.head_open": "在 head 节点上（{nnodes} 个节点之一）：启动 Ray。它会打印 HEAD_ADDRESS：其他节点需要它。",
    "runbook.cluster.worker": "在其余 {workers} 个节点的每一个上：按 head 打印的值 export HEAD_ADDRESS 和 RAY_AUTH_TOKEN，然后加入集群。",
    "runbook.cluster.worker_open": "在其余 {workers} 个节点的每一个上：按 head 打印的值 export HEAD_ADDRESS，然后加入集群。",
    "runbook.cluster.check": "启动前，在 head 上运行 `ray status`，应显示 {nodes} 个节点和 {gpus} 块 GPU。",
    "runbook.launch": "启动",
    "runbook.launch.from": "在本文件夹中，在{where}上运行：",
    "runbook.on.local": "本机（verl 自己启动 Ray）",
    "runbook.on.local_head": " Ray 集群的 head 节点（verl 的 driver 通过 RAY_ADDRESS 加入集群）",
    "runbook.on.ray_job": "任何能访问集群 Jobs API 且装有 Ray 的机器",
    "runbook.on.kuberay": "装有该集群 kubectl 的机器（集群已安装 KubeRay 1.5 或更新版本）",
    "runbook.on.slurm": " Slurm 登录节点（本文件夹位于所有节点共享的文件系统上）",
    "runbook.on.k8s": "装有该集群 kubectl 的机器",
    "runbook.launch.ray_job_id": (
        "./ray-job.sh 会打印 `Job 'raysubmit_...' submitted successfully`：把这个 id export 为 SUBMISSION_ID，供下面的命令使用。"
    ),
    "runbook.launch.slurm_id": "JOBID 是作业编号（sbatch --parsable 只打印它）；下面的命令会用到它。",
    "runbook.launch.kuberay_cluster": "集群就绪后（等待随之结束），driver 在 head pod 中启动。",
    "runbook.watch": "观察",
    "runbook.watch.other_terminal": "在另一个终端中：使用与启动时相同的认证（export RAY_AUTH_TOKEN，或 ~/.ray/auth_token），并 export SUBMISSION_ID：",
    "runbook.follow.local": "./run.sh 在这个终端打印 verl 的日志（Ctrl-C 停止运行）；verl 启动的 Ray 实例的 dashboard 在 http://127.0.0.1:8265。",
    "runbook.follow.local_head": "./run.sh 在这个终端打印 verl 的日志（Ctrl-C 停止 driver）；集群的 dashboard 在 head 的 8265 端口。",
    "runbook.follow.ray_job": "./ray-job.sh 打印作业日志直到作业结束，作业失败时以 1 退出。",
    "runbook.follow.kuberay_job": "集群就绪后，driver 运行在 KubeRay 创建的 submitter Job 中。",
    "runbook.follow.kuberay_cluster": "kubectl exec 会话打印 driver 的日志。",
    "runbook.follow.slurm": "head、worker 和 driver 都写入 {file}（JOBID：sbatch 打印的编号）。",
    "runbook.follow.k8s": "verl 运行在 Job 的 pod 中，使用它自己的 Ray 实例。",
    "runbook.shows.ray_status": "该 Ray 实例的 CPU 和 GPU，以及在等待它们的任务：",
    "runbook.shows.cluster_status": "集群的节点、CPU 和 GPU，以及在等待它们的任务：",
    "runbook.shows.job_list": "每个作业的提交 id 和状态：",
    "runbook.shows.job_logs": "从头再看一遍作业日志：",
    "runbook.shows.rayjob": "作业和集群的状态（Initializing、Running、Complete）：",
    "runbook.shows.driver_log": "driver 的日志（KubeRay 创建的 submitter Job）：",
    "runbook.shows.raycluster": "集群的状态：就绪后 driver 才会启动：",
    "runbook.shows.squeue": "作业的状态和它的节点：",
    "runbook.shows.tail": "作业的实时输出：",
    "runbook.shows.job": "Job 的状态：",
    "runbook.shows.verl_log": "verl 的日志：",
    "runbook.stop": "提前停止",
    "runbook.stop.local_nodes": "Ctrl-C 停止 driver；在每个节点上运行 `ray stop` 停止集群。",
    "runbook.expect": "预期",
    "runbook.expect.chain": (
        "批次链：{prompts} 条提示 × n {n} = 每步 {responses} 条回复 -> {minis} 个 mini-batch，每个 {mini} 条 -> 每 GPU "
        "{per_gpu} 条（dp {dp}）{micro}{packed}；每步 {steps} 次优化器更新。"
    ),
    "runbook.expect.micro": " -> {n} 个 micro-step，每个 {size} 条",
    "runbook.expect.packed": " -> 按每 GPU {tokens} 个 token 打包",
    "runbook.expect.gpus": "GPU：{nodes} 个节点 × {per} = {gpus}；rollout：{replicas} 个 TP {tp} 副本{megatron}{pools}。",
    "runbook.expect.megatron": "；Megatron TP*PP*CP = {size}",
    "runbook.expect.pools": "；含独立资源池共 {total}",
    "runbook.expect.critic": "Critic 链：每个 mini-batch {mini} 条回复 -> 每 GPU {per_gpu} 条（dp {dp}）{micro}。",
    "runbook.warnings": "尚未解决的警告与提示",
    "runbook.severity.warning": "警告",
    "runbook.severity.info": "提示",
    "runbook.migrated": "迁移自 `{source}`",
    "runbook.migrated.intro": "本运行读取自该启动脚本，并迁移到 verl {version}。",
    "runbook.migrated.changed": "改动的键",
    "runbook.migrated.dropped": "删除的键（verl {version} 中没有对应项）",
    "runbook.migrated.notes": "说明",
    "runbook.migrated.none": "无",
}
