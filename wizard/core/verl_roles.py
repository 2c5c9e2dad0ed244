"""Which optional roles verl builds for a run, decided as verl decides them (no Answers import).

Both the field declarations (a critic row shows only when a critic is built) and the plan ask; this module
sits below both, so that declaring the answers model never needs the plan that reads it.
"""

from __future__ import annotations

from typing import Any


def need_critic(answers: Any) -> bool:
    """verl's need_critic: critic.enable when set, else adv_estimator == gae."""
    if answers.models.critic_enable is not None:
        return answers.models.critic_enable
    return answers.algorithm.adv_estimator == "gae"


def need_ref(answers: Any) -> bool:
    """verl's need_reference_policy: KL in the reward or a KL loss."""
    return answers.algorithm.use_kl_in_reward or answers.algorithm.use_kl_loss
