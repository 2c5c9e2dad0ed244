"""Odd but real input (issue 28): a YAML key written twice, an empty path flag, --out at a system folder
(wizard/detect/config/yaml_input.py, wizard/commands/paths.py). A character no answer may hold is value.unholdable
(schema.py), a Ray address with an unreadable host deploy.address.bad_host (deploy.py)."""

EN: dict[str, str] = {
    "yaml.duplicate_key": "the key {key} is written twice (line {first} and line {line}); OmegaConf refuses such a file, so verl would not start: keep one",
    "path.empty": "{flag} '': empty; give {what}",
    "path.what.file": "a file",
    "path.what.folder": "a folder",
    "path.what.topology": "a topology name (2x8xH100), a file of `nvidia-smi topo -m` output, or detect",
    "out.system_folder": "--out {out}: {folder} is a system folder, not a place for a run's files; choose a folder of your own (e.g. ./verl-run)",
    "out.home_folder": "--out {out}: your home folder itself; choose a folder inside it (e.g. ~/verl-run)",
}

ZH: dict[str, str] = {
    "yaml.duplicate_key": "键 {key} 写了两次（第 {first} 行和第 {line} 行）；OmegaConf 拒绝这样的文件，verl 无法启动：只保留一个",
    "path.empty": "{flag} ''：路径为空；请给出{what}",
    "path.what.file": "一个文件",
    "path.what.folder": "一个文件夹",
    "path.what.topology": "拓扑名称（2x8xH100）、`nvidia-smi topo -m` 输出的文件，或 detect",
    "out.system_folder": "--out {out}：{folder} 是系统文件夹，不是放运行文件的地方；请选择你自己的文件夹（例如 ./verl-run）",
    "out.home_folder": "--out {out}：这是你的主目录本身；请选择其中的一个文件夹（例如 ~/verl-run）",
}
