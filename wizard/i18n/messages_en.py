"""English templates of the messages rules, notes and fix labels give as keys (see wizard/i18n/text.py).

Every key here has a Chinese template in messages_zh.py; tests/test_i18n_text.py fails when one is missing or
when the two name different parameters.
"""

MESSAGES: dict[str, str] = {
    "count.errors": "{n} {n:plural(error|errors)}",
    "count.warnings": "{n} {n:plural(warning|warnings)}",
    "count.notes": "{n} {n:plural(note|notes)}",
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
}
