"""English templates of the messages rules, notes and fix labels give as keys (see wizard/i18n/text.py).

Every key here has a Chinese template in messages_zh.py; tests/test_i18n_messages.py fails when one is
missing, when a template names a parameter a call site does not give, or when a key is used nowhere. The
families' templates live in wizard/i18n/messages/, English and Chinese side by side.
"""

from wizard.i18n.messages import (
    batch,
    chain,
    common,
    data,
    deploy,
    env,
    inputs,
    models,
    placement,
    reader,
    roles,
    runbook,
    schema,
    verl_tree,
    verl_verdict,
)

MESSAGES: dict[str, str] = {
    **common.EN,
    **verl_verdict.EN,
    **verl_tree.EN,
    **schema.EN,
    **roles.EN,
    **models.EN,
    **batch.EN,
    **placement.EN,
    **data.EN,
    **deploy.EN,
    **chain.EN,
    **reader.EN,
    **runbook.EN,
    **env.EN,
    **inputs.EN,
    # issue 21: hostile input and secrets
    "deploy.no_token.nowhere": (
        "RAY_AUTH_MODE=token and no token found: Ray looks in RAY_AUTH_TOKEN, then the file RAY_AUTH_TOKEN_PATH "
        "names, then {default}, and none holds one; export RAY_AUTH_TOKEN=<the head's token> "
        "(`ray get-auth-token` on the head) or write it to that file"
    ),
    "deploy.no_token.path_empty": (
        "RAY_AUTH_MODE=token and no token found: RAY_AUTH_TOKEN is unset and RAY_AUTH_TOKEN_PATH={path} is empty; "
        "write the head's token there (`ray get-auth-token` on the head)"
    ),
    "deploy.no_token.path_unusable": (
        "RAY_AUTH_MODE=token and no token found: RAY_AUTH_TOKEN is unset and RAY_AUTH_TOKEN_PATH={path} cannot be "
        "used ({problem}); point it at a file holding the head's token (`ray get-auth-token` on the head)"
    ),
    "write.removed": "removed {name}: an earlier write put it here and this set has no use for it",
    "write.kept": "kept {name}: not part of this set (edited since verl-wizard wrote it, or not written by it); nothing here uses it",
    "write.out_empty": "--out '': empty; give the folder to write into",
    "write.out_bad": "--out {out}: {problem}; choose another --out",
    "write.not_folder": "--out {out}: exists and is not a folder; choose another --out",
    "write.locked": (
        "--out {out}: another verl-wizard has been writing there for {seconds} s; try again when it is done"
    ),
    "write.cannot": "--out {out}: cannot write there ({reason}); choose another --out",
    "write.folder_in_the_way": (
        "--out {out}: {names:list} {n:plural(is a folder|are folders)} where a file goes; move "
        "{n:plural(it|them)} away (--force never deletes a folder)"
    ),
    "write.would_replace": (
        "--out {out}: {names:list} would be replaced or removed (other content, or files of an earlier set); "
        "use --force to replace the set"
    ),
    "write.nothing_changed": "--out {out}: cannot write the files ({reason}); nothing was changed",
    "write.cannot_replace": "--out {out}: cannot replace {name} ({reason}); nothing was changed",
    "write.mid_write": (
        "{folder}: mid-write: a verl-wizard write into this folder was stopped before it finished (its journal "
        "{journal} is still there), so its files are part old set, part new and are not checked; repair it by "
        "re-running `verl-wizard new ... --out {folder}` with the same answers, or by writing it again from the "
        "wizard's Review step (either finishes the stopped write first)"
    ),
    "write.busy_reading": "{folder}: another verl-wizard has been writing there for {seconds} s; try again when it is done",
    "deploy.secret.env_reference": (
        "{name}={value} in deploy.env is written into every manifest as those very characters (nothing expands it: "
        "job.sbatch exports the text, Kubernetes expands only $(NAME)); list {name} in deploy.secret_env instead"
    ),
    "deploy.secret.duplicate": (
        "{name} is in deploy.env and is also a secret the run reads from the Secret/environment (deploy.secret_env, "
        "or WANDB_API_KEY for the wandb logger); the written value would sit beside the reference; remove it from "
        "deploy.env"
    ),
    "deploy.secret.in_value": (
        "{where} holds {what} (value not shown); it would be written into config.yaml, answers.yaml and every "
        "manifest; give the credential through the environment (a Secret) instead"
    ),
    "deploy.secret.what.url_password": "a password in a URL (scheme://user:password@host)",
    "deploy.secret.what.pair": "a credential written as {name}=...",
    "deploy.secret.what.token": "what looks like a {vendor} token",
    "deploy.secret.key_inline": (
        "{address} holds a secret in config.yaml (value not shown; verl prints its config at start-up); remove it and "
        "let the library read {env} from the environment: list {env} in deploy.secret_env"
    ),
    "deploy.secret.env_read": (
        "{address} reads the secret {name} into the config (${{oc.env:{name}}}), so its value lands in logs, run names "
        "and checkpoints; give {address} a plain value"
    ),
    "deploy.secret.fix_drop": "remove {name} from deploy.env (the Secret/environment provides it)",
    "deploy.secret.fix_strip": "the URL without its user:password part",
    "deploy.secret.fix_key": "remove the key; take {env} from the Secret/environment",
    "deploy.secret.in_name": (
        "{field} holds {what} where the name of a variable or a Secret belongs (value not shown); the name is written "
        "into every manifest: keep the credential in the Secret or the environment and give its name here"
    ),
    "deploy.secret.fix_name": "remove it (a name, never the credential, goes here)",
    "import.secret_not_copied": (
        "{address}: the value of {name} set in the script is not copied; verl reads ${name} from the environment when it starts"
    ),
    "import.secret_exported": (
        "exported by the script with their values, taken from the environment now (deploy.secret_env): {names:list}"
    ),
    "input.no_such_file": "{label}: no such file",
    "input.cannot_read": "{label}: cannot read ({reason})",
    "input.not_regular": "{label}: {kind}, not a regular file; give a file",
    "input.kind.pipe": "a named pipe",
    "input.kind.char_device": "a character device",
    "input.kind.block_device": "a block device",
    "input.kind.socket": "a socket",
    "input.kind.folder": "a folder",
    "input.kind.other": "not a plain file",
    "input.too_large": "{label}: larger than {size}",
    "input.too_large_config": "{label}: larger than {size}; not a verl config",
    "input.reason.nul": "a NUL byte in the path",
    "input.reason.too_long": "the path or one of its names is too long",
    "input.path.name_too_long": "a name in the path is longer than {limit} bytes",
    "input.path.too_long": "the path is longer than {limit} bytes",
    "answers.bool_for_number": "expected a number, not a boolean",
    "write.save_failed": "cannot save the answers to {path} ({reason}); choose another file",
    # merge of issues 17b and 21: texts of 21's readers said by key
    "data.read.not_regular": "{kind}, not a regular file; give the data file itself",
    "data.read.row_at_line_unusable": "the row starting at line {line} {why}",
    "data.read.row_near_byte_unusable": "a row near byte {byte} {why}",
    "data.read.too_deep": "nests too deeply to read (thousands of levels); no prompt is shaped like that",
    "data.read.number_too_long": "holds a number too long to read (over 4,300 digits); no prompt or answer field is like that",
    "deploy.address.host_too_long": "the host name ({length} characters) is longer than DNS allows (253, and 63 per dot-separated part)",
    "deploy.address.bad_port": "port {port} is not between 1 and 65535",
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
    # issue 20: verl-wizard serve (a wizard per browser tab, the files as downloads)
    "serve.files_delivered": "Sent {zip} to your browser's downloads ({files:list}); nothing was written on the server",
    "serve.answers_delivered": "Answers sent to your browser's downloads as {name}",
    "serve.no_server_files": "A wizard in a browser reads no files on the server: the teacher loads one with `verl-wizard serve --answers FILE`",
    "serve.exit_delivered": "Delivered to the browser by verl-wizard (nothing written on this machine):",
    "serve.exit_zip": "{zip}: {files:comma}",
    "serve.url": "verl-wizard serve: open {url} in a browser; every tab gets its own wizard (at most {n} at once)",
    "serve.url_students": "students open {url} (this machine's name; use its address if the name does not resolve)",
    "serve.stop": "Press Ctrl+C to stop the server; every wizard ends with it.",
    "serve.open_host": "warning: --host {host} is not a loopback address: anyone who can reach port {port} of this machine gets a wizard, with no password",
    "serve.session_started": "wizard {n} started (pid {pid}); {active} of {most} places taken",
    "serve.session_ended": "wizard {n} ended; {active} of {most} places taken",
    "serve.wizard_says": "wizard {n}: {line}",
    "serve.fork_server_gone": "the fork server does not answer ({reason}): every new tab's wizard starts as a fresh Python from now on",
    "serve.session_refused": "a browser tab was turned away: all {most} places are taken (--max-sessions)",
    "serve.full_title": "verl-wizard: every place is taken",
    "serve.full_body": "All {most} wizards of this workshop are in use. Close a tab you no longer need, or wait: this page tries again every {seconds} seconds.",
    "serve.ended": "This wizard has ended. Your downloads are in your browser's downloads folder.",
    "serve.restart": "Start a new wizard",
    "serve.loading": "Starting your wizard...",
    "serve.needs_extra": "verl-wizard serve needs textual-serve; install it with: pip install 'verl-wizard[serve]'",
    "serve.cannot_listen": "--host {host} --port {port}: cannot listen there ({reason}); choose another --port or --host",
    "serve.bad_max_sessions": "--max-sessions {n}: must be at least 1",
    "serve.bad_port": "--port {port}: must be between 0 and 65535",
    # issue 28: a server that garbage from the network cannot wear down (one log line each, never a traceback)
    "serve.bad_request": "a malformed HTTP request from {remote} was refused ({reason})",
    "serve.request_failed": "a request from {remote} failed ({reason})",
    "serve.message_ignored": "wizard {n}: its tab sent a message that is not textual-serve's protocol, ignored ({excerpt}); further ones are ignored without a line",
    "serve.tab_connection_closed": "wizard {n}: the connection to its tab was closed ({reason})",
    "serve.tab_failed": "wizard {n}: its tab failed ({reason})",
    "serve.wizard_output_failed": "wizard {n}: its output could not be passed to its tab ({reason})",
}
