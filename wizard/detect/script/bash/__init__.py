"""A reader of bash scripts that follows them the way bash would run them, and never runs anything.

`tree` parses the script with the tree-sitter bash grammar; `run` walks the statements over a
`state.State` of variables (`control`: if/case/loops, `commands`: assignments, functions and external
commands, `builtins`: echo, cd, shift, set, source, getopts, ...; `expand`/`params`/`arith`: the words),
and records every external command it would start, with its expanded arguments and environment, as a
`Step`. A value that depends on something the reader cannot know (an environment variable that is not
given, the script's arguments, a command's output) is carried as `values.Unknown`, naming where it
comes from. `launch_script` and `manifest_scripts` read the verl command and the Slurm/Ray steps from
those steps.
"""
