"""English templates of the messages rules, notes and fix labels give as keys (see wizard/i18n/text.py).

Every key here has a Chinese template in messages_zh.py; tests/test_i18n_text.py fails when one is missing or
when the two name different parameters.
"""

MESSAGES: dict[str, str] = {
    "count.errors": "{n} {n:plural(error|errors)}",
    "count.warnings": "{n} {n:plural(warning|warnings)}",
    "count.notes": "{n} {n:plural(note|notes)}",
    # issue 19: what a node offers the run (DEPLOY-001, DEPLOY-005, DEPLOY-015)
    "deploy.visible_count": (
        "{setting} shows {count} {count:plural(GPU|GPUs)} and the run needs {need} on this machine "
        "(trainer.n_gpus_per_node): verl's own Ray instance takes its GPUs from the mask and stops at its GPU check"
    ),
    "deploy.visible_fix": "use the {count} {count:plural(GPU|GPUs)} of the mask",
    "deploy.cpus_tq_node": (
        "{where} has {cpus} CPUs: verl's bundles take {bundles} and verl {version}'s TransferQueue pins {share} of its "
        "{units} storage units (1 CPU each, round-robin over {nodes} Ray {nodes:plural(node|nodes)}) there; what does "
        "not fit waits forever and training never starts"
    ),
    "deploy.cpus_tq_total": (
        "{spare} CPUs are left after verl's {per}-CPU-per-GPU bundles; verl {version} holds {held} for its "
        "TransferQueue ({units} storage units and a controller) and needs {free} more free to place its TaskRunner "
        "and rollout servers: the run waits forever"
    ),
    "deploy.cpus_local": (
        "{setting}={cpus}: verl {version}'s own Ray instance needs {need} CPUs for {gpus} {gpus:plural(GPU|GPUs)} "
        "({per} per GPU, {units} TransferQueue storage units and their controller, 1 free to place its actors); "
        "with fewer it waits forever before training"
    ),
    "deploy.cpus_local_fix": "{need} CPUs for verl's Ray instance",
    "deploy.pod_paths_unmounted": (
        "{paths:list} {n:plural(is a local path|are local paths)} and nothing is mounted in the pods "
        "(deploy.data_volume is unset): verl cannot open {n:plural(it|them)} there"
    ),
    "deploy.pod_paths_outside": (
        "{paths:list} {n:plural(lies|lie)} outside what the pods mount ({mounts:list}): verl cannot open "
        "{n:plural(it|them)} there"
    ),
    "deploy.pod_paths_fix_mount": "mount the data volume at {mount}",
    "deploy.pod_paths_fix_pvc": "mount the PersistentVolumeClaim verl-data at {mount} (create it first)",
}
