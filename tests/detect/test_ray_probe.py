"""wizard.detect.deploy.ray without a cluster: address forms, dead and silent addresses within their deadline, and the
cluster rules over given nodes (no Ray process is started here; tests/cli/test_preflight.py starts a real head)."""

from __future__ import annotations

import socket
import time

import pytest

from tests.conftest import BASE
from wizard.core.layers import build
from wizard.core.rules import context_for, run_rules
from wizard.detect.deploy.ray import ProbeResult, RayNode, address_problem, cluster_facts, probe, resolve_address


@pytest.mark.parametrize(
    "address,ok",
    [
        ("10.0.0.1:6379", True),
        ("head-0.svc.cluster.local:6379", True),
        ("auto", True),
        ("[::1]:6379", True),
        ("http://10.0.0.1:8265", False),
        ("ray://10.0.0.1:10001", False),
        ("10.0.0.1", False),
        ("foo bar:1", False),
        ("10.0.0.1:port", False),
    ],
)
def test_address_forms(address, ok):
    assert (address_problem(address) is None) is ok


def test_the_address_comes_from_the_flag_then_ray_address_then_auto():
    assert resolve_address("h:1", {"RAY_ADDRESS": "x:2"}) == ("h:1", "--address")
    assert resolve_address(None, {"RAY_ADDRESS": "x:2"}) == ("x:2", "RAY_ADDRESS")
    assert resolve_address(None, {}) == ("auto", "default")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_dead_address_fails_fast_with_one_reason():
    start = time.monotonic()
    result = probe(f"127.0.0.1:{_free_port()}", timeout=15)
    assert time.monotonic() - start < 5
    assert (
        not result.ok
        and result.kind == "dead"
        and "connection refused" in str(result.message)
        and "\n" not in str(result.message)
    )


def test_a_port_that_accepts_but_never_answers_is_cut_at_the_deadline():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        start = time.monotonic()
        result = probe(f"127.0.0.1:{server.getsockname()[1]}", timeout=6)
        took = time.monotonic() - start
    assert not result.ok and result.kind == "timeout" and "no Ray GCS answered within 6 s" in str(result.message)
    assert took < 9


def test_wrong_forms_never_connect():
    result = probe("http://127.0.0.1:8265")
    assert result.kind == "form" and "GCS address" in str(result.message)


def _findings(nodes, driver_env=None, **overrides):
    layered = build([("test", {**BASE, **overrides})])
    result = ProbeResult("10.0.0.1:6379", True, ray_version="2.60.0", nodes=nodes)
    facts = cluster_facts(result, driver_env or {})
    return {
        f.id: f for f in run_rules(context_for(layered.answers, layered.flat, mode="cluster", deploy=facts), "DEPLOY")
    }


def test_cluster_rules_over_live_nodes():
    # verl 0.9.1 on one 8-GPU node: 24 CPUs for its bundles, 8 pinned TransferQueue units, their controller, 1 free.
    eight = [RayNode("10.0.0.1", 8, 34, True)]
    assert _findings(eight) == {}
    assert "DEPLOY-005" in _findings([RayNode("10.0.0.1", 8, 16, True)])
    assert "TransferQueue pins 8 of its 8" in str(_findings([RayNode("10.0.0.1", 8, 24, True)])["DEPLOY-005"].message)
    total = str(_findings([RayNode("10.0.0.1", 8, 33, True)])["DEPLOY-005"].message)
    assert "9 CPUs are left" in total and "needs 1 more free" in total
    split = _findings([RayNode("10.0.0.1", 4, 32, True), RayNode("10.0.0.2", 4, 32, False)])
    assert "0 of the cluster's nodes have that many (GPUs per node: 4, 4)" in str(split["DEPLOY-004"].message)
    assert "DEPLOY-008" in _findings(eight, **{"ray_kwargs.ray_init.num_cpus": 8})
    assert set(_findings(eight, {"CUDA_VISIBLE_DEVICES": "0", "HOME": "/root"})) == {"DEPLOY-001"}
    assert "DEPLOY-002" in _findings(eight, {"RAY_ADDRESS": "http://10.0.0.1:8265"})
    bigger = [RayNode("10.0.0.1", 8, 34, True), RayNode("10.0.0.2", 8, 34, False), RayNode("10.0.0.3", 0, 8, False)]
    assert _findings(bigger, **{"trainer.nnodes": 2, "deploy.nccl_socket_ifname": "eth0"}) == {}
