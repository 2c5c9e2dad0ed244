"""English templates of the messages rules, notes and fix labels give as keys (see wizard/i18n/text.py).

Every key here has a Chinese template in messages_zh.py; tests/test_i18n_messages.py fails when one is
missing, when a template names a parameter a call site does not give, or when a key is used nowhere. The
families' templates live in wizard/i18n/messages/, English and Chinese side by side.
"""

from wizard.i18n.messages import batch, chain, common, data, deploy, models, placement, roles, schema

MESSAGES: dict[str, str] = {
    **common.EN,
    **schema.EN,
    **roles.EN,
    **models.EN,
    **batch.EN,
    **placement.EN,
    **data.EN,
    **deploy.EN,
    **chain.EN,
}
