"""The rule families, one module each, by plain imports: a module missing from the package is an ImportError
at the first evaluation, never a family that silently stops running.

Each module exports RULES (its rule functions) and FAMILIES (the id prefixes they emit: the fix checks re-run
only a finding's family). The order is only the order of evaluation. wizard.core.rules imports this module
when it first evaluates, so that importing one rule module (the catalogue, the deployment facts) stays cheap.
"""

from __future__ import annotations

from wizard.core.rules import (
    batch,
    batch_budgets,
    batch_chains,
    batch_micro,
    data,
    data_chats,
    data_lengths,
    data_paths,
    deploy,
    deploy_logger,
    models,
    placement,
    roles,
    schema,
    script,
    topology,
)

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
)
