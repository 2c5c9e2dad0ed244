"""This machine's GPUs and links: NVML, pasted `nvidia-smi topo -m` text, and named fake topologies."""
