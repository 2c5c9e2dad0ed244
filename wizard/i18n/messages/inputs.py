"""Odd but real input (issue 28): a YAML key written twice (wizard/detect/yaml_input.py). A character no
answer may hold is value.unholdable (schema.py), a Ray address with an unreadable host deploy.address.bad_host
(deploy.py)."""

EN: dict[str, str] = {
    "yaml.duplicate_key": "the key {key} is written twice (line {first} and line {line}); OmegaConf refuses such a file, so verl would not start: keep one",
}

ZH: dict[str, str] = {
    "yaml.duplicate_key": "键 {key} 写了两次（第 {first} 行和第 {line} 行）；OmegaConf 拒绝这样的文件，verl 无法启动：只保留一个",
}
