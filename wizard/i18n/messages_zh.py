"""Chinese templates of the message keys of messages_en.py (the same keys and parameters)."""

from wizard.i18n.messages import (
    batch,
    chain,
    common,
    data,
    deploy,
    env,
    inputs,
    models,
    placement,
    reader,
    roles,
    runbook,
    schema,
    verl_tree,
    verl_verdict,
)

MESSAGES: dict[str, str] = {
    **common.ZH,
    **verl_verdict.ZH,
    **verl_tree.ZH,
    **schema.ZH,
    **roles.ZH,
    **models.ZH,
    **batch.ZH,
    **placement.ZH,
    **data.ZH,
    **deploy.ZH,
    **chain.ZH,
    **reader.ZH,
    **runbook.ZH,
    **env.ZH,
    **inputs.ZH,
    # issue 21: hostile input and secrets
    "deploy.no_token.nowhere": (
        "RAY_AUTH_MODE=token 但找不到令牌：Ray 依次查找 RAY_AUTH_TOKEN、RAY_AUTH_TOKEN_PATH 指向的文件和 {default}，"
        "都没有令牌；请 export RAY_AUTH_TOKEN=<head 的令牌>（在 head 上运行 `ray get-auth-token`），或把令牌写入该文件"
    ),
    "deploy.no_token.path_empty": (
        "RAY_AUTH_MODE=token 但找不到令牌：RAY_AUTH_TOKEN 未设置，RAY_AUTH_TOKEN_PATH={path} 是空文件；"
        "请把 head 的令牌写进去（在 head 上运行 `ray get-auth-token`）"
    ),
    "deploy.no_token.path_unusable": (
        "RAY_AUTH_MODE=token 但找不到令牌：RAY_AUTH_TOKEN 未设置，RAY_AUTH_TOKEN_PATH={path} 无法使用（{problem}）；"
        "请让它指向存有 head 令牌的文件（在 head 上运行 `ray get-auth-token`）"
    ),
    "write.removed": "已删除 {name}：它是之前写入的，这一组文件用不到它",
    "write.kept": "保留了 {name}：它不属于这一组文件（写入后被改过，或不是 verl-wizard 写的）；这里没有文件用到它",
    "write.out_empty": "--out ''：为空；请给出要写入的文件夹",
    "write.out_bad": "--out {out}：{problem}；请换一个 --out",
    "write.not_folder": "--out {out}：已存在且不是文件夹；请换一个 --out",
    "write.locked": "--out {out}：另一个 verl-wizard 已在那里写了 {seconds} 秒；请等它完成后再试",
    "write.cannot": "--out {out}：无法在那里写入（{reason}）；请换一个 --out",
    "write.folder_in_the_way": "--out {out}：{names:list} 是文件夹，而那里应是文件；请把它移走（--force 从不删除文件夹）",
    "write.would_replace": "--out {out}：{names:list} 会被替换或删除（内容不同，或属于之前的一组文件）；用 --force 替换整组文件",
    "write.nothing_changed": "--out {out}：无法写入文件（{reason}）；什么都没有改动",
    "write.cannot_replace": "--out {out}：无法替换 {name}（{reason}）；什么都没有改动",
    "write.mid_write": (
        "{folder}：写入中途停止：verl-wizard 向该文件夹的一次写入没有完成（其日志 {journal} 仍在），文件一部分是旧的、"
        "一部分是新的，因此不做检查；请用相同的答案重新运行 `verl-wizard new ... --out {folder}`，或在向导的 Review "
        "步骤重新写入来修复（两者都会先完成那次中断的写入）"
    ),
    "write.busy_reading": "{folder}：另一个 verl-wizard 已在那里写了 {seconds} 秒；请等它完成后再试",
    "deploy.secret.env_reference": (
        "deploy.env 中的 {name}={value} 会原样写进每个部署清单（没有任何东西会展开它：job.sbatch 导出的是这段文字，"
        "Kubernetes 只展开 $(NAME)）；请改为把 {name} 列在 deploy.secret_env 中"
    ),
    "deploy.secret.duplicate": (
        "{name} 在 deploy.env 中，同时又是运行从 Secret/环境变量读取的密钥（deploy.secret_env，或使用 wandb 日志时的 "
        "WANDB_API_KEY）；写出的值会和引用并存；请把它从 deploy.env 中删除"
    ),
    "deploy.secret.in_value": (
        "{where} 含有{what}（值不显示）；它会被写进 config.yaml、answers.yaml 和每个部署清单；请改为通过环境变量（Secret）提供凭据"
    ),
    "deploy.secret.what.url_password": "URL 中的密码（scheme://user:password@host）",
    "deploy.secret.what.pair": "写成 {name}=... 的凭据",
    "deploy.secret.what.token": "看起来像 {vendor} 令牌的内容",
    "deploy.secret.key_inline": (
        "{address} 在 config.yaml 中保存了密钥（值不显示；verl 启动时会打印它的配置）；请删除它，让库从环境变量读取 {env}："
        "把 {env} 列在 deploy.secret_env 中"
    ),
    "deploy.secret.env_read": (
        "{address} 把密钥 {name} 读进了配置（${{oc.env:{name}}}），它的值会出现在日志、运行名和检查点中；请给 {address} 一个普通的值"
    ),
    "deploy.secret.fix_drop": "从 deploy.env 中删除 {name}（由 Secret/环境变量提供）",
    "deploy.secret.fix_strip": "去掉 user:password 部分的 URL",
    "deploy.secret.fix_key": "删除这个键；改为从 Secret/环境变量读取 {env}",
    "deploy.secret.in_name": (
        "{field} 在应填变量名或 Secret 名的位置含有{what}（值不显示）；这个名字会被写进每个部署清单：请把凭据留在 Secret "
        "或环境变量中，这里只填它的名字"
    ),
    "deploy.secret.fix_name": "删除它（这里只填名字，不填凭据）",
    "import.secret_not_copied": "{address}：脚本中设置的 {name} 的值不会被复制；verl 启动时从环境变量读取 ${name}",
    "import.secret_exported": "脚本连同值一起导出的变量，现在改为从环境变量读取（deploy.secret_env）：{names:list}",
    "input.no_such_file": "{label}：没有这个文件",
    "input.cannot_read": "{label}：无法读取（{reason}）",
    "input.not_regular": "{label}：是{kind}，不是普通文件；请给出一个文件",
    "input.kind.pipe": "命名管道",
    "input.kind.char_device": "字符设备",
    "input.kind.block_device": "块设备",
    "input.kind.socket": "套接字",
    "input.kind.folder": "文件夹",
    "input.kind.other": "非普通文件",
    "input.too_large": "{label}：大于 {size}",
    "input.too_large_config": "{label}：大于 {size}；不是 verl 配置",
    "input.reason.nul": "路径中有 NUL 字节",
    "input.reason.too_long": "路径或其中某个名字太长",
    "input.path.name_too_long": "路径中有名字超过 {limit} 字节",
    "input.path.too_long": "路径超过 {limit} 字节",
    "answers.bool_for_number": "需要一个数字，而不是布尔值",
    "write.save_failed": "无法把答案保存到 {path}（{reason}）；请换一个文件",
    # merge of issues 17b and 21: texts of 21's readers said by key
    "data.read.not_regular": "{kind}，不是普通文件；请给出数据文件本身",
    "data.read.row_at_line_unusable": "从第 {line} 行开始的这一行{why}",
    "data.read.row_near_byte_unusable": "第 {byte} 字节附近的一行{why}",
    "data.read.too_deep": "嵌套太深（数千层），无法读取；不会有这种结构的 prompt",
    "data.read.number_too_long": "含有一个过长的数字（超过 4300 位），无法读取；prompt 或答案字段不会是这样",
    "deploy.address.host_too_long": "主机名有 {length} 个字符，超出了 DNS 的限制（总长 253，每个以点分隔的部分 63）",
    "deploy.address.bad_port": "端口 {port} 不在 1 到 65535 之间",
    # issue 19: what a node offers the run (DEPLOY-001, DEPLOY-005, DEPLOY-015)
    "deploy.visible_count": (
        "{setting} 只露出 {count} 个 GPU，而这次运行在本机需要 {need} 个（trainer.n_gpus_per_node）："
        "verl 自己启动的 Ray 实例按这个掩码取 GPU，会在它的 GPU 检查处停下"
    ),
    "deploy.visible_fix": "使用掩码中的 {count} 个 GPU",
    "deploy.cpus_tq_node": (
        "{where} 有 {cpus} 个 CPU：verl 的 bundle 占用 {bundles} 个，verl {version} 的 TransferQueue 还把它 "
        "{units} 个存储单元中的 {share} 个固定在这里（每个 1 个 CPU，轮流分配到 {nodes} 个 Ray 节点）；"
        "放不下的会一直等待，训练永远不会开始"
    ),
    "deploy.cpus_tq_total": (
        "verl 每个 GPU {per} 个 CPU 的 bundle 之外只剩 {spare} 个 CPU；verl {version} 的 TransferQueue 要占用 {held} 个"
        "（{units} 个存储单元和一个控制器），还需要再空出 {free} 个来放置 TaskRunner 和 rollout 服务：运行会一直等下去"
    ),
    "deploy.cpus_local": (
        "{setting}={cpus}：verl {version} 自己启动的 Ray 实例为 {gpus} 个 GPU 需要 {need} 个 CPU"
        "（每个 GPU {per} 个、TransferQueue 的 {units} 个存储单元及其控制器，再加 1 个空闲的用来放置 actor）；"
        "少于这个数时它会在训练开始前一直等待"
    ),
    "deploy.cpus_local_fix": "给 verl 的 Ray 实例 {need} 个 CPU",
    "deploy.pod_paths_unmounted": (
        "{paths:list} 是本地路径，而 pod 中没有挂载任何卷（deploy.data_volume 未设置）：verl 在那里打不开它们"
    ),
    "deploy.pod_paths_outside": "{paths:list} 不在 pod 挂载的目录（{mounts:list}）之下：verl 在那里打不开它们",
    "deploy.pod_paths_fix_mount": "把数据卷挂载到 {mount}",
    "deploy.pod_paths_fix_pvc": "把 PersistentVolumeClaim verl-data 挂载到 {mount}（请先创建它）",
    # issue 20: verl-wizard serve（每个浏览器标签页一个向导，文件以下载方式交付）
    "serve.files_delivered": "已将 {zip} 发送到浏览器的下载目录（{files:list}）；服务器上没有写入任何文件",
    "serve.answers_delivered": "答案已作为 {name} 发送到浏览器的下载目录",
    "serve.no_server_files": "浏览器中的向导不读取服务器上的文件：请老师用 `verl-wizard serve --answers FILE` 载入",
    "serve.exit_delivered": "verl-wizard 已交付到浏览器（本机没有写入任何文件）：",
    "serve.exit_zip": "{zip}：{files:comma}",
    "serve.url": "verl-wizard serve：在浏览器中打开 {url}；每个标签页各有一个向导（同时最多 {n} 个）",
    "serve.url_students": "学生打开 {url}（本机的主机名；若无法解析，请改用本机的 IP 地址）",
    "serve.stop": "按 Ctrl+C 停止服务器；所有向导随之结束。",
    "serve.open_host": "警告：--host {host} 不是回环地址：任何能访问本机 {port} 端口的人都能打开向导，且无需密码",
    "serve.session_started": "向导 {n} 已启动（pid {pid}）；已占用 {active}/{most} 个名额",
    "serve.session_ended": "向导 {n} 已结束；已占用 {active}/{most} 个名额",
    "serve.wizard_says": "向导 {n}：{line}",
    "serve.fork_server_gone": "fork 服务进程没有响应（{reason}）：此后每个新标签页的向导都以新的 Python 进程启动",
    "serve.session_refused": "拒绝了一个浏览器标签页：{most} 个名额已全部占用（--max-sessions）",
    "serve.full_title": "verl-wizard：名额已满",
    "serve.full_body": "本次课程的 {most} 个向导都在使用中。请关闭不再需要的标签页，或稍候：本页每 {seconds} 秒自动重试。",
    "serve.ended": "向导已结束。下载的文件在浏览器的下载目录中。",
    "serve.restart": "启动新的向导",
    "serve.loading": "正在启动向导……",
    "serve.needs_extra": "verl-wizard serve 需要 textual-serve；请安装：pip install 'verl-wizard[serve]'",
    "serve.cannot_listen": "--host {host} --port {port}：无法在此监听（{reason}）；请换一个 --port 或 --host",
    "serve.bad_max_sessions": "--max-sessions {n}：至少为 1",
    "serve.bad_port": "--port {port}：必须在 0 到 65535 之间",
    # issue 28: a server that garbage from the network cannot wear down (one log line each, never a traceback)
    "serve.bad_request": "拒绝了来自 {remote} 的格式错误的 HTTP 请求（{reason}）",
    "serve.request_failed": "来自 {remote} 的请求失败（{reason}）",
    "serve.message_ignored": "向导 {n}：其标签页发来一条不符合 textual-serve 协议的消息，已忽略（{excerpt}）；此后的同类消息忽略且不再记录",
    "serve.tab_connection_closed": "向导 {n}：与其标签页的连接已关闭（{reason}）",
    "serve.tab_failed": "向导 {n}：其标签页出错（{reason}）",
    "serve.wizard_output_failed": "向导 {n}：其输出无法传给标签页（{reason}）",
}
