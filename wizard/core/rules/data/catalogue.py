"""The rule catalogue's entries for data (DATA-*): each rule's id, severity, one-line title and the
reason it exists, in id order. wizard.core.rules.catalogue collects them into CATALOGUE.
"""

from __future__ import annotations

ENTRIES = [
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
    (
        "DATA-010",
        "error",
        "No training data set (data.train_files empty or verl's placeholder)",
        "Without data.train_files verl reads its own placeholder ~/data/rlhf/gsm8k/train.parquet, which is not your data and usually does not exist, so the run stops when the dataset is built, after the workers have started.",
    ),
    (
        "DATA-011",
        "error",
        "No validation data set (data.val_files empty or verl's placeholder)",
        "verl 0.9.1 builds the validation dataset at start-up whatever trainer.test_freq and val_before_train say; without data.val_files it reads its placeholder ~/data/rlhf/gsm8k/test.parquet, which does not exist (verl does not expand ~), and the run stops when the dataset is built, after the workers have started.",
    ),
    (
        "DATA-012",
        "warning",
        "A relative data path",
        "verl opens data files as parquet/json paths (it does not download a dataset by name) from the working directory of the process that reads them, which each target sets differently: the folder run.sh is started from, the uploaded working_dir of a Ray job, the folder sbatch was run from, a pod's image WORKDIR. A path that works here may name nothing there.",
    ),
    (
        "DATA-013",
        "error",
        "A Windows data path",
        "verl runs on Linux, where C:\\data\\x.parquet, D:/x.parquet or \\\\server\\share\\x.parquet is a relative file name with a colon or backslashes in it: the file is not found when the dataset is built, after the workers have started.",
    ),
]
