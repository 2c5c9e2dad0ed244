"""The rule families, one module each, by plain imports: a module missing from the package is an ImportError
at the first evaluation, never a family that silently stops running.

Each module's rules are its `@rule` functions and its families the prefixes of the ids they declare
(wizard.core.rules.declare; the fix checks re-run only a finding's family). The order is only the order of
evaluation.
"""

from __future__ import annotations

from wizard.core.rules.batch import budgets as batch_budgets
from wizard.core.rules.batch import chains as batch_chains
from wizard.core.rules.batch import micro as batch_micro
from wizard.core.rules.batch import train_batch as batch
from wizard.core.rules.data import chats as data_chats
from wizard.core.rules.data import columns as data
from wizard.core.rules.data import lengths as data_lengths
from wizard.core.rules.data import paths as data_paths
from wizard.core.rules.deploy import checks as deploy
from wizard.core.rules.deploy import logger as deploy_logger
from wizard.core.rules.placement import groups as placement
from wizard.core.rules.placement import topology
from wizard.core.rules.roles import assign as roles
from wizard.core.rules.roles import model_files as models
from wizard.core.rules.schema import keys as schema
from wizard.core.rules.script import config_path as script_config_path
from wizard.core.rules.script import launch as script

MODULES = (
    schema,
    roles,
    batch,
    batch_chains,
    batch_micro,
    batch_budgets,
    placement,
    topology,
    models,
    data,
    data_chats,
    data_lengths,
    data_paths,
    deploy,
    deploy_logger,
    script,
    script_config_path,
)
