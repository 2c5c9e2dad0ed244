"""What `--verl` asks verl about a launch script (wizard.detect.env.verl_verdict.for_script): the arguments bash passes
after the module, Hydra's own flags taken apart, and the ones whose value is unknown here left out by name."""

from __future__ import annotations

from pathlib import Path

from wizard.detect.env.verl_verdict import for_config, for_script
from wizard.detect.script.launch import parse_launch_script


def question(text: str, folder: Path | None = None, env=None, args=None):
    return for_script(parse_launch_script(text, env=env, args=args), folder)


def test_overrides_in_order_with_prefixes_and_group_choices():
    q = question(
        "B=64\npython3 -m verl.trainer.main_ppo model_engine=megatron data.train_batch_size=$B "
        "+trainer.extra=1 ~critic.optim trainer.logger='[console]'\n"
    )
    assert q.overrides == (
        "model_engine=megatron",
        "data.train_batch_size=64",
        "+trainer.extra=1",
        "~critic.optim",
        "trainer.logger=[console]",
    )
    assert q.config_dir is None and q.config_name == "ppo_trainer" and q.left_out == () and q.not_asked is None


def test_hydra_flags_are_not_overrides_and_the_config_folder_is_used(tmp_path):
    q = question(
        f"python3 -m verl.trainer.main_ppo --config-path {tmp_path} --config-name=mine.yaml -cd x --cfg job a.b=1\n",
        folder=tmp_path,
    )
    assert q.overrides == ("a.b=1",)
    assert (q.config_dir, q.config_name) == (str(tmp_path), "mine")


def test_unknown_values_are_left_out_by_name_and_given_ones_pass():
    text = 'python3 -m verl.trainer.main_ppo trainer.nnodes=$NNODES a.b=1 "$@"\n'
    q = question(text)
    assert q.overrides == ("a.b=1",) and q.left_out == ("trainer.nnodes=$NNODES", "$@")
    given = question(text, env={"NNODES": "2"}, args=["c.d=3"])
    assert given.overrides == ("trainer.nnodes=2", "a.b=1", "c.d=3") and given.left_out == ()


def test_a_config_folder_that_is_not_here_or_unknown_is_not_asked():
    assert question("python3 -m verl.trainer.main_ppo --config-path=/nowhere --config-name=c\n").not_asked is not None
    unknown = question('python3 -m verl.trainer.main_ppo --config-path="$CONF" --config-name=c\n')
    assert unknown.not_asked is not None and "$CONF" in str(unknown.not_asked)


def test_a_config_file_is_its_folder_and_name(tmp_path):
    q = for_config(tmp_path / ".hydra" / "config.yaml")
    assert (q.config_dir, q.config_name, q.overrides) == (str(tmp_path / ".hydra"), "config", ())
