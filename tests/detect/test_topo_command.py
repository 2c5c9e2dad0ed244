"""The `topo` subcommand: run() with argparse Namespaces, its JSON shape, and bad input."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import require_json
from wizard.commands import topo
from wizard.detect.hardware.source import load_topology
from wizard.errors import UsageError

FIXTURES = Path(__file__).parent / "fixtures" / "topo"


def run(**kw):
    args = argparse.Namespace(**{"from_file": None, "fake": None, "format": "text", **kw})
    out = io.StringIO()
    code = topo.run(args, out=out)
    return code, out.getvalue()


def test_register_adds_topo_with_its_flags():
    parser = argparse.ArgumentParser(prog="verl-wizard")
    topo.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["topo", "--fake", "8xH100", "--format", "json"])
    assert (args.fake, args.format, args.from_file, args.func) == ("8xH100", "json", None, topo.run)
    assert parser.parse_args(["topo", "--from", "t.txt"]).from_file == "t.txt"
    with pytest.raises(SystemExit):
        parser.parse_args(["topo", "--from", "t.txt", "--fake", "8xH100"])
    with pytest.raises(SystemExit):
        parser.parse_args(["topo", "--format", "yaml"])


def test_json_shape_for_a_fake():
    code, text = run(fake="8xH100", format="json")
    data = json.loads(text)
    assert code == 0
    assert list(data) == ["source", "gpus", "links", "tp_groups", "unknown"]
    assert data["source"] == "fake"
    assert data["gpus"][0] == {"index": 0, "name": "NVIDIA H100 80GB HBM3", "memory_mib": 81559, "numa": 0}
    assert data["links"][0][:2] == ["X", "NV18"]
    assert data["tp_groups"] == {
        "2": [[0, 1], [2, 3], [4, 5], [6, 7]],
        "4": [[0, 1, 2, 3], [4, 5, 6, 7]],
        "8": [list(range(8))],
    }
    assert data["unknown"] == []


def test_json_from_a_file():
    code, text = run(from_file=str(FIXTURES / "l40s_4gpu_node_sys_2nic_padded.txt"), format="json")
    data = json.loads(text)
    assert code == 0 and data["source"] == "file"
    assert [g["numa"] for g in data["gpus"]] == [0, 0, 1, 1]
    assert data["gpus"][0]["name"] is None
    assert data["tp_groups"] == {"2": [[0, 1], [2, 3]], "4": [[0, 1, 2, 3]]}
    assert data["unknown"]


def test_single_gpu_has_no_tp_groups():
    data = json.loads(run(fake="1xH200", format="json")[1])
    assert data["tp_groups"] == {} and data["gpus"][0]["memory_mib"] == 143771


def test_text_output_lists_gpus_matrix_and_groups():
    code, text = run(fake="2x8xH100")
    assert code == 0
    assert "8 GPUs per node x 2 nodes" in text
    assert "GPU7" in text and "NV18" in text
    assert "TP4: [0,1,2,3] [4,5,6,7]   worst link NV18 (good)" in text
    assert "NIC0 (mlx5_0): PIX to GPU0" in text


def test_text_output_flags_poor_groups_and_unknowns():
    _, text = run(from_file=str(FIXTURES / "k40m_4gpu_phb_soc_mlx4_legacy.txt"))
    assert "TP4: [0,1,2,3]   worst link SYS (poor)" in text
    assert "Could not be read" in text
    assert "mlx4_0: PHB to GPU2,3" in text


def test_text_output_names_only_the_closest_gpus_of_a_nic():
    _, text = run(fake="8xL40S-pcie")
    assert "NIC0 (mlx5_0): PIX to GPU0\n" in text
    assert "NIC1 (mlx5_1): PIX to GPU4\n" in text


def test_no_gpu_exits_2_and_suggests_fake_or_from(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pynvml", None)
    code, text = run()
    err = capsys.readouterr().err
    assert code == 2 and text == ""
    assert err.startswith("verl-wizard: error: no NVIDIA GPU here")
    assert "--fake" in err and "--from" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "empty"),
        (b"name,memory\nH100,81559\n", "no nvidia-smi topo -m matrix"),
        (b"\x00\x01\x02garbage" * 100, "binary"),
        (b"\tGPU0\tGPU1\tCPU Affinity\nGPU0\tX\tNV18\t0-7\n", "truncated"),
    ],
)
def test_garbage_files_raise_usage_error(tmp_path, content, words):
    path = tmp_path / "topo.txt"
    path.write_bytes(content)
    with pytest.raises(UsageError, match=words):
        run(from_file=str(path))


def test_ten_megabyte_file_is_refused(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_bytes(b"GPU0\tX\tNV18\n" * 900_000)
    with pytest.raises(UsageError, match="bytes"):
        run(from_file=str(path))


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(UsageError, match="no such file"):
        run(from_file=str(tmp_path / "nope.txt"))
    with pytest.raises(UsageError, match="directory"):
        run(from_file=str(tmp_path))


def test_unknown_fake_lists_valid_names():
    with pytest.raises(UsageError, match="8xL40S-pcie"):
        run(fake="3xH900")


def test_load_topology_accepts_fake_file_and_detect(monkeypatch, tmp_path):
    assert load_topology("2x8xH100").nodes == 2
    assert len(load_topology(str(FIXTURES / "rtx5090_2gpu_phb_single_spaces.txt")).gpus) == 2
    monkeypatch.setitem(sys.modules, "pynvml", None)
    with pytest.raises(UsageError, match="no NVIDIA GPU here"):
        load_topology("detect")
    with pytest.raises(UsageError, match="not 'detect', an existing file, or a fake name"):
        load_topology("banana")
    with pytest.raises(UsageError, match="no such file"):
        load_topology(str(tmp_path / "missing.txt"))


def test_module_main_prints_usage_errors(capsys):
    assert topo.main(["--fake", "nope"]) == 2
    assert capsys.readouterr().err.startswith("verl-wizard: error: unknown fake topology")
    argv = ["--fake", "1xH100", "--format", "json"]
    assert topo.main(argv) == 0
    assert require_json(argv, capsys.readouterr().out)["gpus"][0]["name"] == "NVIDIA H100 80GB HBM3"
