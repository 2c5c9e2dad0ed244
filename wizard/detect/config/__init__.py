"""Config and answers files read from disk: YAML loaded safely, Hydra's composition from a folder."""
