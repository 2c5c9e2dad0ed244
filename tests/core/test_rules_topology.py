"""Rules over a known topology: weak TP links (PLACE-003), GPU count (PLACE-010), RDMA (PLACE-011), capacity (PLACE-007)."""

from __future__ import annotations

from tests.conftest import BASE, findings_for, ids
from wizard.detect.hardware.fake import fake_topology
from wizard.detect.hardware.smi import parse_topo_matrix

# Pairs on one PCIe switch are (0,2) and (1,3): consecutive TP-2 groups [0,1] [2,3] cross the CPU link.
INTERLEAVED = """\
\tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity
GPU0\t X \tSYS\tPIX\tSYS\t0-15\t0
GPU1\tSYS\t X \tSYS\tPIX\t16-31\t1
GPU2\tPIX\tSYS\t X \tSYS\t0-15\t0
GPU3\tSYS\tPIX\tSYS\t X \t16-31\t1

Legend:
  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes
  PIX  = Connection traversing at most a single PCIe bridge
"""

FOUR = {**BASE, "trainer.n_gpus_per_node": 4, "actor_rollout_ref.actor.ppo_mini_batch_size": 16}


def test_place_003_consecutive_groups_on_weak_links_show_the_better_groups():
    topo = parse_topo_matrix(INTERLEAVED)
    found = [f for f in findings_for(base=FOUR, topology=topo) if f.id == "PLACE-003"]
    assert found and "[0,2] [1,3]" in str(found[0].message) and "SYS" in str(found[0].message)
    assert [fix.set for fix in found[0].fixes] == [{"actor_rollout_ref.rollout.tensor_model_parallel_size": 1}]


def test_place_003_quiet_when_consecutive_groups_are_best():
    assert "PLACE-003" not in ids(topology=fake_topology("8xH100"))
    assert "PLACE-003" not in ids(topology=fake_topology("8xL40S-pcie"))
    assert "PLACE-003" not in ids(
        {"actor_rollout_ref.rollout.tensor_model_parallel_size": 1}, base=FOUR, topology=parse_topo_matrix(INTERLEAVED)
    )


def test_place_010_gpu_count_differs_from_topology():
    found = [f for f in findings_for(topology=fake_topology("4xA100-nvlink")) if f.id == "PLACE-010"]
    assert found and found[0].fixes[0].set == {"trainer.n_gpus_per_node": 4}
    assert "PLACE-010" not in ids(topology=fake_topology("8xH100"))


def test_place_011_multi_node_without_rdma():
    two = {"trainer.nnodes": 2}
    assert "PLACE-011" in ids(two, topology=fake_topology("2x8x4090-pcie"))
    assert "PLACE-011" not in ids(two, topology=fake_topology("2x8xH100"))
    assert "PLACE-011" not in ids(topology=fake_topology("8x4090-pcie"))  # one node: no inter-node traffic


def test_place_007_named_cluster_too_small():
    assert "PLACE-007" in ids({"trainer.nnodes": 2}, topology=fake_topology("8xH100"))
    assert "PLACE-007" not in ids({"trainer.nnodes": 2}, topology=fake_topology("2x8xH100"))


def test_new_with_topology_takes_the_gpu_count_as_detected(tmp_path):
    from tests.cli.helpers import cli_json

    proc, _doc = cli_json("new", "--preset", "grpo-8b-1x8", "--topology", "4xA100-nvlink", "--out", str(tmp_path))
    assert proc.returncode == 0
    assert "n_gpus_per_node: 4" in (tmp_path / "config.yaml").read_text()
    answers = (tmp_path / "answers.yaml").read_text()  # where the count came from is recorded there, not in config.yaml
    assert "cluster.n_gpus_per_node: detected" in answers and "# from" not in (tmp_path / "config.yaml").read_text()
