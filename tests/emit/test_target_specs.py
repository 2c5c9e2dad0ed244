"""One TargetSpec per deployment target (wizard.core.targets) and one renderer per manifest
(wizard.emit.manifests.registry): the registries cover every target exactly once, and a new target takes one
spec and one renderer and no other edit (a throw-away target, registered here only, gets its manifest, its
RUN.md and its rules' verdict)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.emit.manifests_kit import layered_for
from wizard.core import targets
from wizard.core.choices import Target, values
from wizard.core.rules import context_for, evaluate
from wizard.emit.artifacts import render_artifacts
from wizard.emit.launch import doctor_line, launch_for
from wizard.emit.manifests import FILES, registry, render_manifests
from wizard.emit.writer import ARTEFACTS, write_all

TOY = "toy-target"


def test_every_target_member_has_exactly_one_spec_and_nothing_else_has_one():
    declared = [s.value for s in targets.specs()]
    assert sorted(declared) == sorted(values(Target))
    assert len(declared) == len(set(declared))
    for member in Target:
        assert targets.spec(member) is targets.spec(member.value)
        assert targets.spec(member).value == member.value


def test_every_target_with_a_manifest_has_exactly_one_renderer_and_every_renderer_a_target():
    with_manifest = {s.value for s in targets.specs() if s.manifest is not None}
    assert set(registry.RENDERERS) == with_manifest
    assert {s.value: s.manifest for s in targets.specs() if s.manifest is not None} == FILES
    assert len(set(FILES.values())) == len(FILES)  # no two targets write the same file
    assert targets.spec(Target.LOCAL).manifest is None  # run.sh is local's launch
    assert set(FILES.values()) <= ARTEFACTS  # the writer knows every manifest as an artefact of a set


def test_a_second_spec_or_renderer_for_a_target_is_refused():
    with pytest.raises(ValueError, match="has a spec already"):
        targets.register(targets.spec(Target.SLURM))
    with pytest.raises(ValueError, match="has a renderer already"):
        registry.renders(Target.SLURM)(lambda answers, plan, config_text: "")


def test_the_kinds_and_name_limits_come_from_the_specs():
    assert targets.target_of_kind() == {
        "RayJob": "kuberay-job",
        "RayCluster": "kuberay-cluster",
        "Job": "k8s-job",
        "Pod": "k8s-job",
    }
    assert targets.name_limits() == {"RayJob": 47, "RayCluster": 53}


@pytest.fixture
def toy_target():
    """A throw-away target: ray-job's spec under another name and file, and a renderer of its own."""
    ray_job = targets.spec(Target.RAY_JOB)
    spec = replace(
        ray_job,
        value=TOY,
        manifest="toy.sh",
        launch=replace(ray_job.launch, start=("./toy.sh",), doctor="toy-doctor {config}"),
    )
    targets.register(spec)

    @registry.renders(TOY)
    def render_toy(answers, plan, config_text):
        return f"#!/bin/sh\n# {answers.trainer.experiment_name} on {plan.nnodes} node(s)\n"

    layered = layered_for("grpo-8b-1x8")
    # answers validate deploy.target against Target's members: the throw-away target bypasses that check
    object.__setattr__(layered.answers.deploy, "target", TOY)
    try:
        yield layered
    finally:  # the registries as they were: the throw-away target lives in this test only
        del targets._SPECS[TOY]
        del registry.RENDERERS[TOY]


def test_a_new_target_takes_one_spec_and_one_renderer(toy_target, tmp_path):
    layered = toy_target
    ctx = context_for(layered.answers, layered.flat, mode="cluster")
    findings = evaluate(ctx)  # the rules ask the spec too: none trips over a target they never heard of
    assert not [f for f in findings if f.severity.value == "error"]

    files = render_artifacts(layered, ctx.plan, findings)
    assert list(files) == ["config.yaml", "run.sh", "answers.yaml", "toy.sh", "RUN.md"]
    assert files["toy.sh"] == f"#!/bin/sh\n# {layered.answers.trainer.experiment_name} on 1 node(s)\n"
    run_md = files["RUN.md"]
    assert "- `toy.sh`" in run_md
    assert "\n./toy.sh\n" in run_md  # the spec's launch, in RUN.md's launch block
    assert launch_for(layered.answers).start == ("./toy.sh",)
    assert doctor_line(layered.answers, "out") == "toy-doctor out/config.yaml"

    written = write_all(tmp_path / "run", files)
    assert sorted(written.written) == sorted(files)
    assert (tmp_path / "run" / "toy.sh").read_text(encoding="utf-8") == files["toy.sh"]
    assert (tmp_path / "run" / "RUN.md").read_text(encoding="utf-8") == run_md


def test_a_built_in_target_still_renders_through_its_registered_renderer():
    # the neighbour of the throw-away target: slurm's file comes from the renderer slurm.py registered
    layered = layered_for("grpo-8b-1x8", **{"deploy.target": "slurm"})
    ctx = context_for(layered.answers, layered.flat, mode="cluster")
    files = render_manifests(layered.answers, ctx.plan, "")
    assert list(files) == ["job.sbatch"]
    assert files["job.sbatch"] == registry.RENDERERS["slurm"](layered.answers, ctx.plan, "")
    assert files["job.sbatch"].startswith("#!/usr/bin/env bash")
